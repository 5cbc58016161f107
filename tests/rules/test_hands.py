"""Hands are counted (issue 22, rules.battle.hands): picking up needs a free hand,
or two for a two-handed weapon; a shield occupies its arm; only what the hands
hold strikes, parries and blocks; dropping (free) or putting away (a Ready)
frees a hand, and both undo. Each rule through the commands a GM's clicks send,
at the battle level, in every ruleset."""

from __future__ import annotations

import pytest

from hexmap import Facing
from rules.battle.battle import Battle
from rules.battle.catalog import Catalog
from rules.battle.commands import (
    AddItem,
    Attack,
    DropItem,
    EndTurn,
    PickUpItem,
    PutAwayItem,
    ReadyWeapon,
)
from rules.battle.hands import Hands, carried_text, hands_of, hands_text, put_away
from rules.battle.items import ItemKind, ItemPickedUp, PutAway, Readied
from rules.battle.model import Combatant, Weapon
from rules.battle.savefile import read_battle, write_battle
from rules.battle.state import BattleState
from rules.battle.turns import ManeuverChosen, OverridableError, RuleOverridden
from rules.core.dice import ScriptedDice
from rules.core.errors import IllegalAttackError, IllegalCommandError
from rules.sets.registry import get_ruleset
from rules.sets.seed000.attack import AttackOptions
from rules.sets.seed000.attack_events import AttackDeclared
from rules.sets.seed000.attack_steps import attack_command
from rules.sets.seed000.defense import DefenseChoice, possible_defenses
from rules.sets.seed000.defense_kinds import DefenseKind
from tests.rules.battle_level import HOME, MISS, RAPIER, SOUTH, Make, duel, of, started

BLOCK = (DefenseChoice(DefenseKind.BLOCK),)


def swordsman(battle: Battle) -> Combatant:
    return battle.state.combatant("s")


def _swordsman_s_turn(make: Make, catalog: Catalog) -> Battle:
    """The duel in turn order on the swordsman's turn, a mace and a greatsword at
    his feet (item-1, item-2)."""
    battle = started(duel(make))
    battle.execute(EndTurn())
    assert battle.state.active_id == "s"
    for key in ("mace", "greatsword"):
        weapon = catalog.weapon(key)
        battle.execute(AddItem(SOUTH, weapon.name, ItemKind.WEAPON, weapon=weapon))
    return battle


# --- the sword-and-shield fighter -------------------------------------------------------


def test_sword_and_shield_hold_both_hands(make: Make) -> None:
    s = make("sword-and-shield", HOME, Facing.N)
    assert hands_of(s) == Hands("broadsword", "medium-shield", ())
    assert hands_text(s) == "Broadsword (right hand), Medium shield (left arm)"
    assert carried_text(s) == ""


def test_no_free_hand_for_a_mace_or_a_greatsword(make: Make, catalog: Catalog) -> None:
    """Issue 22: the sword-and-shield fighter picked up a mace, then a greatsword,
    swung the greatsword and blocked with the shield in the same turn."""
    battle = _swordsman_s_turn(make, catalog)
    with pytest.raises(
        IllegalCommandError,
        match=(
            "Sword-and-shield fighter needs a free hand for the Mace but holds Broadsword "
            r"\(right hand\), Medium shield \(left arm\): drop or put something away first"
        ),
    ) as mace:
        battle.execute(PickUpItem("s", "item-1"))
    assert not isinstance(mace.value, OverridableError)  # hands are no turn rule
    with pytest.raises(IllegalCommandError, match="needs both hands for the Greatsword"):
        battle.execute(PickUpItem("s", "item-2", gm_override=True))
    assert [w.key for w in swordsman(battle).fighter.weapons] == ["broadsword"]
    assert len(battle.state.items) == 2 and not swordsman(battle).ready_used
    with pytest.raises(IllegalAttackError, match="has no weapon 'greatsword'"):
        battle.execute(Attack("s", "f", AttackOptions("greatsword", "swing")), ScriptedDice(MISS))


def test_a_dropped_sword_frees_the_hand_for_the_mace(make: Make, catalog: Catalog) -> None:
    battle = _swordsman_s_turn(make, catalog)
    battle.execute(DropItem("s", "broadsword"))  # free: no maneuver
    assert swordsman(battle).maneuver is None
    events = battle.execute(PickUpItem("s", "item-1"))
    assert [type(e) for e in events] == [ManeuverChosen, ItemPickedUp]
    assert hands_of(swordsman(battle)) == Hands("mace", "medium-shield", ())
    # Picking up was the turn's Ready; next turn the mace swings and the shield blocks.
    battle.execute(EndTurn())
    blocked = attack_command("f", "s", AttackOptions("rapier", "thrust", defenses=BLOCK))
    battle.execute(blocked, ScriptedDice(MISS))
    battle.execute(EndTurn())
    # 12 misses the Axe/Mace default (7, less the fencer's PD) without a critical miss.
    events = battle.execute(
        Attack("s", "f", AttackOptions("mace", "swing")), ScriptedDice((4, 4, 4))
    )
    assert "with the Mace (swing)" in of(events, AttackDeclared)[0].describe()


def test_a_greatsword_needs_the_shield_off_and_then_nothing_blocks(
    make: Make, catalog: Catalog
) -> None:
    battle = _swordsman_s_turn(make, catalog)
    battle.execute(DropItem("s", "broadsword"))
    with pytest.raises(IllegalCommandError, match="needs both hands for the Greatsword"):
        battle.execute(PickUpItem("s", "item-2"))
    battle.execute(DropItem("s", "medium-shield"))
    battle.execute(PickUpItem("s", "item-2"))
    s = swordsman(battle)
    assert hands_of(s) == Hands("greatsword", "greatsword", ())
    assert hands_text(s) == "Greatsword (both hands)"
    assert possible_defenses(s) == (
        DefenseChoice(DefenseKind.DODGE),
        DefenseChoice(DefenseKind.PARRY, "greatsword"),
    )
    battle.execute(EndTurn())
    with pytest.raises(IllegalAttackError, match="has no shield to block with"):
        blocked = attack_command("f", "s", AttackOptions("rapier", "thrust", defenses=BLOCK))
        battle.execute(blocked, ScriptedDice(MISS))


# --- only what is in hand strikes and parries ----------------------------------------------------


def _archer(make: Make, catalog: Catalog) -> BattleState:
    """The fencer as an archer: a short bow in both hands, a large knife at the
    belt (the archer template's gear), in front of the swordsman."""
    bow, knife = catalog.weapon("shortbow"), catalog.weapon("large-knife")
    return duel(make, weapons=(bow, knife), skills={"Bow": 15, "Knife": 13})


def test_a_carried_knife_neither_strikes_nor_parries(make: Make, catalog: Catalog) -> None:
    state = _archer(make, catalog)
    archer = state.combatant("f")
    assert hands_of(archer) == Hands("shortbow", "shortbow", ("large-knife",))
    assert carried_text(archer) == "Large knife"
    assert DefenseChoice(DefenseKind.PARRY, "large-knife") not in possible_defenses(archer)
    battle = Battle(state, 3, get_ruleset)
    with pytest.raises(
        IllegalAttackError,
        match=r"Fencer's Large knife is carried, not in hand: draw it first \(Ready\)",
    ):
        battle.execute(Attack("f", "s", AttackOptions("large-knife", "swing")), ScriptedDice(MISS))
    parry = (DefenseChoice(DefenseKind.PARRY, "large-knife"),)
    with pytest.raises(IllegalAttackError, match="Large knife is carried, not in hand"):
        battle.execute(
            attack_command("s", "f", AttackOptions("broadsword", "swing", defenses=parry)),
            ScriptedDice(MISS),
        )


def test_dropping_the_bow_and_drawing_the_knife(make: Make, catalog: Catalog) -> None:
    battle = Battle(_archer(make, catalog), 3, get_ruleset)
    battle.execute(DropItem("f", "shortbow"))
    assert hands_of(battle.state.combatant("f")) == Hands(None, None, ("large-knife",))
    events = battle.execute(ReadyWeapon("f", "large-knife"))
    (drawn,) = of(events, Readied)
    assert drawn.drawn and drawn.describe() == "Fencer draws the Large knife (Ready maneuver)"
    assert hands_of(battle.state.combatant("f")) == Hands("large-knife", None, ())
    events = battle.execute(
        Attack("f", "s", AttackOptions("large-knife", "swing")), ScriptedDice(MISS)
    )
    assert of(events, AttackDeclared)


def test_a_drawn_weapon_needs_a_free_hand(make: Make, catalog: Catalog) -> None:
    """The town guard's gear: spear in hand, small shield on the arm, shortsword at
    the belt; dropping the spear leaves the sword at the belt until drawn."""
    spear, sword = catalog.weapon("spear"), catalog.weapon("shortsword")
    state = duel(make, weapons=(spear, sword), shield=catalog.shield("small-shield"))
    battle = Battle(state, 3, get_ruleset)
    guard = battle.state.combatant("f")
    assert hands_of(guard) == Hands("spear", "small-shield", ("shortsword",))
    with pytest.raises(IllegalCommandError, match="needs a free hand for the Shortsword"):
        battle.execute(ReadyWeapon("f", "shortsword", gm_override=True))
    battle.execute(DropItem("f", "spear"))
    assert hands_of(battle.state.combatant("f")) == Hands(None, "small-shield", ("shortsword",))
    battle.execute(ReadyWeapon("f", "shortsword"))
    assert hands_of(battle.state.combatant("f")) == Hands("shortsword", "small-shield", ())


# --- putting away ---------------------------------------------------------------------------------


def test_putting_away_is_a_ready_that_frees_a_hand_and_undoes(make: Make) -> None:
    battle = started(duel(make))
    assert battle.state.active_id == "f"
    before = battle.state
    events = battle.execute(PutAwayItem("f", "main-gauche"))
    assert [type(e) for e in events] == [ManeuverChosen, PutAway]
    assert events[0].describe() == "Fencer readies without choosing a maneuver: Ready"
    assert events[1].describe() == (
        "Fencer puts the Main-gauche away (Ready maneuver): a hand is free"
    )
    fencer = battle.state.combatant("f")
    assert hands_of(fencer) == Hands("rapier", None, ("main-gauche",))
    assert [w.key for w in fencer.fighter.weapons] == ["rapier", "main-gauche"]  # still carried
    assert DefenseChoice(DefenseKind.PARRY, "main-gauche") not in possible_defenses(fencer)
    # One Ready a turn: a second needs the GM.
    with pytest.raises(OverridableError, match="already taken a Ready maneuver this turn"):
        battle.execute(ReadyWeapon("f", "main-gauche"))
    battle.undo()
    assert battle.state == before
    assert hands_of(battle.state.combatant("f")) == Hands("rapier", "main-gauche", ())


def test_a_shield_is_dropped_not_put_away(make: Make, catalog: Catalog) -> None:
    battle = Battle(_archer(make, catalog), 3, get_ruleset)
    with pytest.raises(IllegalCommandError, match="strapped to its arm: drop it"):
        battle.execute(PutAwayItem("s", "medium-shield"))
    with pytest.raises(IllegalCommandError, match="Fencer does not hold the Large knife"):
        battle.execute(PutAwayItem("f", "large-knife"))
    with pytest.raises(IllegalCommandError, match="Fencer holds no weapon 'mace'"):
        battle.execute(PutAwayItem("f", "mace"))


def test_the_put_away_weapon_is_drawn_again_the_next_turn(make: Make) -> None:
    battle = started(duel(make))
    battle.execute(PutAwayItem("f", "main-gauche"))
    battle.execute(EndTurn())
    battle.execute(EndTurn())
    assert battle.state.active_id == "f"
    events = battle.execute(ReadyWeapon("f", "main-gauche"))
    assert of(events, Readied)[0].drawn and not of(events, RuleOverridden)
    assert hands_of(battle.state.combatant("f")) == Hands("rapier", "main-gauche", ())


def test_a_parry_with_the_put_away_weapon_is_refused(make: Make) -> None:
    battle = Battle(duel(make), 3, get_ruleset)
    battle.execute(PutAwayItem("f", "main-gauche"))
    parry = (DefenseChoice(DefenseKind.PARRY, "main-gauche"),)
    with pytest.raises(IllegalAttackError, match="Main-gauche is carried, not in hand"):
        battle.execute(
            attack_command("s", "f", AttackOptions("broadsword", "swing", defenses=parry)),
            ScriptedDice(MISS),
        )
    events = battle.execute(Attack("f", "s", RAPIER), ScriptedDice(MISS))
    assert of(events, AttackDeclared)  # the rapier is still in hand


def test_a_battle_with_a_weapon_put_away_saves_and_loads_as_it_was(make: Make) -> None:
    """The put-away weapon (Combatant.carried) comes back from a battle file: the
    initial state holds it, and the command log replays the rest."""
    state = duel(make)
    state = state.with_combatants(put_away(state.combatant("s"), "broadsword"))
    battle = Battle(state, 3, get_ruleset)
    battle.execute(PutAwayItem("f", "main-gauche"))
    text = write_battle(battle, get_ruleset("000").sheets.saved_types)
    loaded = read_battle(text, rulesets=get_ruleset)
    assert loaded.state == battle.state
    assert hands_of(loaded.state.combatant("s")) == Hands(None, "medium-shield", ("broadsword",))
    assert hands_of(loaded.state.combatant("f")) == Hands("rapier", None, ("main-gauche",))


# --- every ruleset counts hands -------------------------------------------------------------------


def _other_rulesets() -> list[tuple[str, BattleState, str, object, object]]:
    """Per ruleset: a duel whose attacker "a" holds a two-handed bow (seeds 002,
    003) or its first two weapons (seed 004: the knife and the club), its foe's id,
    the attack choices with a weapon it carries, and with one in hand."""
    from rules.sets.seed002.attack import Attack002
    from rules.sets.seed003.combat import Choices003
    from rules.sets.seed004.attack import Seed004Attack
    from tests.rules.seed002_duel import duel as duel_002
    from tests.rules.seed002_duel import fighter as fighter_002
    from tests.rules.seed003_battle import duel as duel_003
    from tests.rules.seed003_battle import template as template_003
    from tests.rules.seed004_battle import duel as duel_004

    return [
        (
            "002",
            duel_002(fighter_002("Archer", ("shortbow", "dagger"))),
            "d",
            Attack002("dagger", "stab"),
            Attack002("shortbow", "shoot"),
        ),
        (
            "003",
            duel_003(template_003("archer")),
            "d",
            Choices003("dagger", "stab"),
            Choices003("shortbow", "shoot"),
        ),
        (
            "004",
            duel_004().state,
            "b",
            Seed004Attack("machete", "slash"),
            Seed004Attack("club", "strike"),
        ),
    ]


RULESET_CASES = ("key", "state", "foe", "carried", "held")


@pytest.mark.parametrize(RULESET_CASES, _other_rulesets())
def test_every_ruleset_strikes_only_with_what_is_in_hand(
    key: str, state: BattleState, foe: str, carried: object, held: object
) -> None:
    ruleset = get_ruleset(key)
    attacker = state.combatant("a")
    assert hands_of(attacker).free == 0 and hands_of(attacker).carried
    with pytest.raises(IllegalAttackError, match="is carried, not in hand: draw it first"):
        Battle(state, 1, get_ruleset).execute(Attack("a", foe, carried))
    assert carried not in ruleset.attacks.attack_variants(state, "a", foe)
    assert held in ruleset.attacks.attack_variants(state, "a", foe)


@pytest.mark.parametrize(RULESET_CASES, _other_rulesets())
def test_every_ruleset_needs_a_free_hand_to_pick_up(
    key: str, state: BattleState, foe: str, carried: object, held: object
) -> None:
    ruleset = get_ruleset(key)
    club = next(w for w in ruleset.battlefield.placeable_items() if getattr(w, "key", "") == "club")
    assert isinstance(club, Weapon)
    battle = Battle(state, 1, get_ruleset)
    battle.execute(AddItem(state.combatant("a").hex, club.name, ItemKind.WEAPON, weapon=club))
    with pytest.raises(IllegalCommandError, match="needs a free hand for the Club"):
        battle.execute(PickUpItem("a", "item-1"))
    first = hands_of(battle.state.combatant("a")).held[0]
    battle.execute(DropItem("a", first))
    battle.execute(PickUpItem("a", "item-1"))
    assert "club" in hands_of(battle.state.combatant("a")).held[0]
