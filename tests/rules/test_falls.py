"""A fighter knocked out or killed falls and lets go, in every ruleset and for
every cause (issue 22, rules point 2; rules.battle.falls): it lies prone in its
hex, where a lying target's modifiers apply; what its hands held lies in that hex
for anyone to pick up; a strapped shield stays on the arm, a buckler drops."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from hexmap import Facing, Hex
from rules.battle.battle import Battle
from rules.battle.catalog import load_catalog, parse_fighter
from rules.battle.command_events import PostureChanged
from rules.battle.commands import Attack, EditCombatant, EndTurn, PickUpItem
from rules.battle.condition import Down
from rules.battle.falls import LetGo, let_go_of
from rules.battle.model import Combatant, Fighter, Posture, Side, Status
from rules.battle.state import BattleState
from rules.core.dice import ScriptedDice
from rules.core.events import Event
from rules.sets.registry import get_ruleset
from rules.sets.seed000.attack import AttackOptions
from rules.sets.seed000.attack_events import InjuryRolled, WoundInflicted
from rules.sets.seed000.situation import situation_modifiers
from rules.sets.seed000.tables import Tables
from rules.sets.seed000.tracks import with_wounds
from rules.sets.seed000.wound_effects import Condition, Wound
from rules.sets.seed003.combat import Choices003, attack_situation
from rules.sets.seed004.attack import target_size
from tests.rules import seed002_duel as d002
from tests.rules import seed003_battle as d003
from tests.rules import seed004_battle as d004
from tests.rules.battle_level import GRID, HOME, SOUTH, Make, duel, of, started
from tests.rules.test_wounds_in_battle import FAILS, HIT, SWING, aimed

# Every further HT roll of the blow fails (17), up to a dozen of them.
ALL_FAIL = FAILS * 12
TEMPLATES = Path(__file__).resolve().parents[2] / "assets" / "templates"


def template(key: str) -> Fighter:
    """A bundled seed 000 template's fighter."""
    doc = json.loads((TEMPLATES / f"{key}.json").read_text())
    return parse_fighter({"key": key, **doc["fighter"]}, load_catalog())[1]


def placed(fighter: Fighter, cid: str, side: Side) -> Combatant:
    return Combatant(cid, fighter, side, SOUTH, Facing.N, fighter.hit_points)


def fencer_struck(make: Make, options: AttackOptions, damage: int, hp: int | None = None):  # type: ignore[no-untyped-def]
    """The swordsman ("s") strikes the fencer ("f": rapier and main-gauche, no
    shield) with ``options``, the damage die showing ``damage``, every HT roll
    failing; ``hp``: the fencer's hit points before the blow."""
    state = duel(make)
    if hp is not None:
        state = state.with_combatants(replace(state.combatant("f"), hp=hp))
    battle = Battle(state, 3, get_ruleset)
    events = battle.execute(Attack("s", "f", options), ScriptedDice((*HIT, damage, *ALL_FAIL)))
    return battle, events


def assert_fell_and_let_go(
    battle: Battle, events: tuple[Event, ...], cid: str, dropped: list[str]
) -> Combatant:
    """``cid`` lies prone, and ``dropped`` (in this order) lie in its hex, gone from
    its hands, told by a LetGo after the blow's own events (its fall just before,
    unless the ruleset's own rule laid it down already)."""
    c = battle.state.combatant(cid)
    assert c.posture is Posture.PRONE
    assert [(i.name, i.hex, i.origin_id) for i in battle.state.items] == [
        (name, c.hex, cid) for name in dropped
    ]
    shield = c.fighter.shield
    held = {w.name for w in c.fighter.weapons} | ({shield.name} if shield is not None else set())
    assert not held & set(dropped)
    kinds = [type(e) for e in events]
    let_go = of(events, LetGo)
    assert [e.item_names for e in let_go] == [tuple(dropped)]
    if PostureChanged in kinds:
        assert kinds.index(LetGo) == kinds.index(PostureChanged) + 1
    return c


# --- seed 000: every cause ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cause", "options", "damage", "hp", "status", "why"),
    [
        # 7 injury at the face: its knockout roll (HT-?) fails.
        ("head knockout", aimed("face"), 6, None, Status.UNCONSCIOUS, "avoid knockout"),
        # 8 injury at the brain, over HP/2: knocked out outright.
        ("brain knockout", aimed("brain"), 3, None, Status.UNCONSCIOUS, "over HP/2: unconscious"),
        # 10 injury at the groin, over HP/3: knocked out outright.
        ("groin knockout", aimed("groin"), 6, None, Status.UNCONSCIOUS, "over HP/3: unconscious"),
        # 10 injury from 1 HP to -9: the HT roll at 0 HP or below fails.
        ("HT at 0 HP", SWING, 6, 1, Status.UNCONSCIOUS, "stay conscious"),
        # 20 injury at the brain from 1 HP to -19: the death roll at -11 fails.
        ("death roll", aimed("brain"), 6, 1, Status.DEAD, "avoid death"),
    ],
)
def test_seed000_every_knockout_and_death_falls_and_lets_go(
    make: Make,
    cause: str,
    options: AttackOptions,
    damage: int,
    hp: int | None,
    status: Status,
    why: str,
) -> None:
    battle, events = fencer_struck(make, options, damage, hp)
    told = [w.describe() for w in of(events, WoundInflicted)] + [
        r.describe() for r in of(events, InjuryRolled)
    ]
    assert any(why in text for text in told), told
    f = assert_fell_and_let_go(battle, events, "f", ["Rapier", "Main-gauche"])
    assert f.status is status
    assert of(events, LetGo)[0].how == ("dead" if status is Status.DEAD else "unconscious")


def test_seed000_a_failed_roll_to_stay_conscious_as_the_turn_begins_falls_at_once(
    make: Make,
) -> None:
    state = duel(make)
    battle = started(state.with_combatants(replace(state.combatant("s"), hp=-1)))
    events = battle.execute(EndTurn(), ScriptedDice(FAILS))
    s = assert_fell_and_let_go(battle, events, "s", ["Broadsword"])
    # The strapped medium shield stays on the arm.
    assert s.fighter.shield is not None and s.fighter.shield.key == "medium-shield"
    # Told before the next fighter's turn begins, not after it.
    kinds = [type(e).__name__ for e in events]
    assert kinds.index("LetGo") < kinds.index("TurnEnded")


def test_seed000_a_lying_target_gets_the_seed_s_ranged_modifier_and_anyone_picks_up(
    make: Make,
) -> None:
    unarmed = replace(template("brawler"), name="Brawler")
    brawler = Combatant("b", unarmed, Side.RED, HOME + Facing.SE.vector, Facing.N, 12)
    state = duel(make, brawler)
    state = state.with_combatants(replace(state.combatant("f"), hp=1))
    battle = Battle(state, 3, get_ruleset)
    battle.execute(Attack("s", "f", SWING), ScriptedDice((*HIT, 6, *ALL_FAIL)))
    assert battle.state.combatant("f").status is Status.UNCONSCIOUS
    tables = get_ruleset("000")
    assert isinstance(tables, Tables)
    lying = situation_modifiers(battle.state, "s", "f", tables=tables, melee=False)
    assert [(m.value, str(m.citation)) for m in lying.posture_modifiers] == [
        (-4, "000 ADVERSE COMBAT CONDITIONS")
    ]
    rapier = battle.state.items[0]
    battle.execute(PickUpItem("b", rapier.id), ScriptedDice(()))
    assert "rapier" in [w.key for w in battle.state.combatant("b").fighter.weapons]
    assert [i.name for i in battle.state.items] == ["Main-gauche"]


@pytest.mark.parametrize(
    ("key", "dropped", "kept_shield", "kept"),
    [
        # A buckler is held in the hand: it drops with the shortsword; the sling is carried.
        ("goblin", ["Shortsword", "Buckler"], None, ["sling"]),
        # A strapped medium shield stays on the arm.
        ("sword-and-shield", ["Broadsword"], "medium-shield", []),
        # Two-handed, the halberd takes both hands.
        ("halberdier", ["Halberd"], None, []),
        # The bow in both hands; the large knife stays in its sheath.
        ("archer", ["Short bow"], None, ["large-knife"]),
    ],
)
def test_seed000_what_drops_is_what_the_hands_held(
    make: Make, key: str, dropped: list[str], kept_shield: str | None, kept: list[str]
) -> None:
    victim = placed(template(key), "v", Side.RED)
    fencer = make("fencer", HOME, Facing.S, id="f", side=Side.BLUE)
    battle = Battle(BattleState(GRID, (fencer, victim)), 3, get_ruleset)
    events = battle.execute(EditCombatant("v", status=Status.UNCONSCIOUS), ScriptedDice(()))
    v = assert_fell_and_let_go(battle, events, "v", dropped)
    shield = v.fighter.shield
    assert (shield.key if shield is not None else None) == kept_shield
    assert [w.key for w in v.fighter.weapons if w.kind.value != "unarmed"] == kept


def test_seed000_a_stunned_fighter_stays_up_and_one_already_down_does_not_fall_again(
    make: Make,
) -> None:
    battle = Battle(duel(make), 3, get_ruleset)
    events = battle.execute(EditCombatant("f", status=Status.STUNNED), ScriptedDice(()))
    assert not of(events, PostureChanged) and not battle.state.items
    battle.execute(EditCombatant("f", status=Status.UNCONSCIOUS), ScriptedDice(()))
    events = battle.execute(EditCombatant("f", status=Status.DEAD), ScriptedDice(()))
    assert not of(events, PostureChanged) and not of(events, LetGo)
    assert len(battle.state.items) == 2


def test_seed000_paralysed_from_the_neck_down_is_down_and_lets_go(make: Make) -> None:
    ruleset = get_ruleset("000")
    f = duel(make).combatant("f")
    neck = Wound("000", "neck", "Neck", None, 5, None, frozenset({Condition.PARALYZED}))
    assert ruleset.conditions.fighter_condition(with_wounds(f, (neck,))).down is Down.PARALYSED
    shin = replace(neck, location="near_shin")
    assert ruleset.conditions.fighter_condition(with_wounds(f, (shin,))).able_to_act


# --- seed 002 -----------------------------------------------------------------------------

CRITICAL_HIT = (3, 99)  # a critical longsword cut (8, armour ignored), the dodge failed


def struck_002(defender: object, *more: int) -> tuple[Battle, tuple[Event, ...]]:
    b = d002.battle(d002.duel(None, defender))  # type: ignore[arg-type]
    events = b.execute(Attack("a", "d", d002.sword()), ScriptedDice((*CRITICAL_HIT, *more)))
    return b, events


def test_seed002_killed_at_0_hp_falls_and_lets_go() -> None:
    frail = d002.fighter("Frail", ("longsword", "dagger"), armour=None, hp=8)
    b, events = struck_002(frail)
    d = assert_fell_and_let_go(b, events, "d", ["Longsword", "Dagger"])
    assert d.status is Status.DEAD
    cited = str(of(events, LetGo)[0].citation)
    assert cited == "OpenQuest SRD: Hit points: at 0 or less the character dies"


def test_seed002_a_stopped_heart_knocks_out_and_lets_go() -> None:
    defender = d002.fighter("Defender", ("longsword", "dagger"), armour=None, hp=12)
    b, events = struck_002(defender, 7, 3)  # major wound 7, unconscious 3 rounds
    d = b.state.combatant("d")
    assert d.status is Status.UNCONSCIOUS and d.posture is Posture.PRONE
    assert [i.name for i in b.state.items] == ["Longsword", "Dagger"]
    assert str(of(events, LetGo)[0].citation) == "002 Major wound 7"
    # The seed's row laid it prone already: no second fall, only the letting go.
    assert not of(events, PostureChanged)


def test_seed002_a_legionary_drops_sword_and_shield_but_keeps_the_dagger() -> None:
    legionary = d002.fighter(
        "Legionary", ("longsword", "target-shield", "dagger", "fist"), armour=None, hp=8
    )
    b, events = struck_002(legionary)
    d = assert_fell_and_let_go(b, events, "d", ["Longsword", "Target shield"])
    assert [w.key for w in d.fighter.weapons] == ["dagger", "fist"]


def test_seed002_paralysed_below_the_neck_lets_go_and_a_lying_target_is_easier() -> None:
    defender = d002.fighter("Defender", ("longsword", "dagger"), armour=None, hp=12)
    b, _ = struck_002(defender, 8, 3)  # major wound 8, odd: below the neck
    assert d002.RULESET.conditions.fighter_condition(b.state.combatant("d")).down is Down.PARALYSED
    assert [i.name for i in b.state.items] == ["Longsword", "Dagger"]
    close = d002.RULESET.attacks.situation(b.state, "a", "d")
    assert any(m.value == 25 and "prone" in m.reason.lower() for m in close), close


# --- seed 003 -----------------------------------------------------------------------------


def test_seed003_incapacitated_falls_and_lets_go_of_the_sword_but_keeps_the_shield() -> None:
    b = d003.battle(d003.duel())
    # ++++ = 4 vs ---- = -2 (the swordsman's Fair defence -2 for the shield's +1): damage 8.
    events = b.execute(
        Attack("a", "d", Choices003("broadsword", "swing")),
        ScriptedDice(d003.fudge("++++") + d003.fudge("----")),
    )
    assert (
        d003.ruleset().conditions.fighter_condition(b.state.combatant("d")).down
        is Down.INCAPACITATED
    )
    d = b.state.combatant("d")
    assert d.posture is Posture.PRONE
    assert [(i.name, i.hex) for i in b.state.items] == [("Broadsword", d.hex)]
    assert d.fighter.shield is not None and d.fighter.shield.key == "medium-shield"
    assert of(events, LetGo)[0].how == "incapacitated"
    # An archer past half his range finds him lying low (our value, as the ruleset's).
    far = Hex.from_offset(8, 35)
    archer = d003.combatant(d003.template("archer"), far, Facing.N, "r", Side.BLUE)
    bow = archer.fighter.weapon("shortbow").mode("shoot")
    lying = [(m.value, m.reason) for m in attack_situation(b.state, archer, d, bow)]
    standing = attack_situation(b.state, archer, replace(d, posture=Posture.STANDING), bow)
    assert lying == [(-1, "distant target lying low")] and standing == ()


def test_seed003_near_death_is_unconscious_and_the_bow_drops() -> None:
    brute = d003.restat(d003.template("barbarian"), strength=3)
    b = d003.battle(d003.duel(brute, d003.template("archer")))
    events = b.execute(
        Attack("a", "d", Choices003("greatsword", "swing")),
        ScriptedDice(d003.fudge("++++") + d003.fudge("----")),
    )
    d = b.state.combatant("d")
    assert d003.ruleset().conditions.fighter_condition(d).down is Down.UNCONSCIOUS
    # The two-handed bow fills both hands; the dagger stays in its sheath.
    assert [i.name for i in b.state.items] == ["Short bow"]
    assert "dagger" in [w.key for w in d.fighter.weapons]
    assert of(events, LetGo)[0].how == "unconscious"


def test_seed003_a_buckler_drops() -> None:
    buckler = d003.ruleset().sheets.catalog().shields["buckler"]
    defender = replace(d003.template("swordsman"), shield=buckler)
    b = d003.battle(d003.duel(None, defender))
    events = b.execute(EditCombatant("d", status=Status.DEAD), ScriptedDice(()))
    assert_fell_and_let_go(b, events, "d", ["Broadsword", "Buckler"])


# --- seed 004 -----------------------------------------------------------------------------


def test_seed004_dead_at_minus_the_maximum_falls_and_lets_go() -> None:
    b = d004.duel(bob_hp=-30)
    # Ann hits (6+6), Bob's dodge fails (1+1), the torso (3+3): the club's 6 + 2 = 8,
    # doubled, from -30 to -46, past minus his 35.
    events = d004.hit(b, (6, 6, 1, 1, 3, 3, 6))
    bob = d004.bob(b)
    assert bob.status is Status.DEAD
    # Bob carries every catalog weapon; his hands held the knife and the club.
    assert_fell_and_let_go(b, events, "b", ["Knife", "Club"])


def test_seed004_a_failed_consciousness_check_falls_and_lets_go() -> None:
    b = d004.duel(bob_hp=1)
    # As above, to -15; the wound check and the consciousness check fail (1+1 each).
    events = d004.hit(b, (6, 6, 1, 1, 3, 3, 6, 1, 1, 1, 1))
    bob = d004.bob(b)
    assert bob.status is Status.UNCONSCIOUS
    bob = assert_fell_and_let_go(b, events, "b", ["Knife", "Club"])
    assert d004.RULESET.conditions.fighter_condition(bob).down is Down.UNCONSCIOUS
    # Lying prone, he is two size steps smaller to a shot (the base rules' table).
    upright = target_size(replace(bob, posture=Posture.STANDING))
    assert target_size(bob).step == upright.step - 2


def test_a_fighter_going_down_lets_go_of_what_its_hands_hold(make: Make) -> None:
    fencer = make("fencer", HOME, Facing.S)
    assert let_go_of(fencer) == ("rapier", "main-gauche")
    # A small shield is hand-held (000 CRITICAL MISSES ON DEFENSE ROLLS): it fills the off hand
    # and drops; what the guard carries at his belt stays there.
    assert let_go_of(placed(template("town-guard"), "g", Side.RED)) == ("spear", "small-shield")
