"""The Ruleset protocol at the battle level: the registry, the battle asking its
ruleset, the sheet and its codec, attack previews with exact odds, the legal
actions, and every kind of dice source driving the same commands."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from rules.battle.battle import Battle, command_rng
from rules.battle.catalog import load_battle_setup, load_catalog, load_fighters
from rules.battle.commands import Attack, EndTurn, PaintTerrain, SetRulesetOptions
from rules.battle.state import BattleState
from rules.battle.terrain import Footing, TerrainChange
from rules.core.assets import read_json
from rules.core.dice import DiceRequest, EnteredDice, ScriptedDice
from rules.core.errors import DataError, IllegalAttackError, IllegalCommandError, RulesError
from rules.sets.protocol import Ruleset, plain_attack
from rules.sets.registry import get_ruleset, ruleset_keys, ruleset_of
from rules.sets.seed000 import ruleset as seed000_ruleset_module
from rules.sets.seed000.attack import AttackOptions, AttackPlan, Seed000Answer, plan_attack
from rules.sets.seed000.attack_steps import whole_options
from rules.sets.seed000.defense import DefenseChoice
from rules.sets.seed000.defense_kinds import DefenseKind
from rules.sets.seed000.odds import attack_odds
from rules.sets.seed000.ruleset import Seed000
from rules.sets.seed000.sheet import InjuryTolerance, PainThreshold, read_stats
from rules.sets.seed000.sheet_codec import SHEET_FORMAT, SHEET_VERSION
from rules.sets.seed000.tables import LOCATIONS_001
from rules.sets.seed000.terrain_penalties import footing_penalty
from tests.rules.battle_level import in_hand
from tests.rules.sheets import amend

ROOT = Path(__file__).resolve().parents[2]


def demo() -> BattleState:
    grid, combatants = load_battle_setup(read_json("battles", "demo.json"))
    return BattleState(grid, combatants)


# --- the registry ----------------------------------------------------------------------


def test_the_registry_finds_seed_000_and_nothing_else_by_guess() -> None:
    assert ruleset_keys()[0] == "000"  # the default first; seeds 002-004 follow as registered
    ruleset = get_ruleset("000", (LOCATIONS_001,))
    assert isinstance(ruleset, Seed000) and ruleset.options == {LOCATIONS_001}
    assert ruleset.with_options(()) == get_ruleset("000")
    with pytest.raises(RulesError):
        get_ruleset("999")


def test_the_battle_core_loads_no_ruleset_until_the_registry_is_asked() -> None:
    code = textwrap.dedent(
        """
        import sys
        import rules.battle.battle, rules.battle.commands, rules.sets.registry
        before = sorted(m for m in sys.modules if m.startswith("rules.sets.seed"))
        rules.sets.registry.get_ruleset("000")
        after = any(m.startswith("rules.sets.seed000") for m in sys.modules)
        print(before, after)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["[]", "True"]


# --- the battle asks its ruleset -----------------------------------------------------------


def test_an_attack_command_goes_through_the_ruleset_and_is_logged() -> None:
    state = demo()
    ruleset = get_ruleset()
    choices = ruleset.attacks.default_attack(state, "c2", "c4")  # the long spear reaches across
    fencer_parries = (DefenseChoice(DefenseKind.PARRY, "rapier"),)
    assert choices == AttackOptions("long-spear", "thrust")  # the attacker's alone
    answer = ruleset.attacks.answers(state, "c2", "c4", choices)[0]
    assert answer == Seed000Answer(fencer_parries)  # the defender's, apart
    # Out of the spear's front reach: the knife at the spearman's belt does not
    # count until it is drawn (rules.battle.hands), and then it is thrown.
    assert ruleset.attacks.default_attack(state, "c2", "c3") is None
    drawn = state.with_combatants(in_hand(state.combatant("c2"), "knife"))
    thrown = ruleset.attacks.default_attack(drawn, "c2", "c3")
    assert isinstance(thrown, AttackOptions) and (thrown.weapon_key, thrown.mode) == (
        "knife",
        "throw",
    )
    battle = Battle(state, 3, get_ruleset)
    assert plain_attack(ruleset, state, "c2", "c4") == Attack("c2", "c4", choices, answer)
    events = battle.execute(Attack("c2", "c4", choices, answer))
    assert events and all(e.citation is not None for e in events)
    seed000 = get_ruleset()
    assert isinstance(seed000, Seed000) and isinstance(answer, Seed000Answer)
    whole = whole_options(choices, answer)
    resolution = seed000.resolution(state, "c2", "c4", whole, command_rng(3, 0))
    assert battle.state.combatant("c4") == resolution.defender_after
    assert battle.dice_log[0]  # the faces it rolled are kept with the command


def test_the_attack_form_offers_every_option_once_and_the_rules_decide() -> None:
    """Each variant of the attack form is a distinct choice; the rules either plan
    it, with exact odds, or refuse it with a reason, never anything else."""
    state = demo()
    ruleset = get_ruleset()
    variants = ruleset.attacks.attack_variants(state, "c2", "c4")
    # the attacker's choices alone: the form's defenses are the defender's answer
    assert len(set(variants)) == len(variants) > 10
    planned = 0
    for choices in variants:
        try:
            preview = ruleset.attacks.preview_attack(state, "c2", "c4", choices)
        except IllegalAttackError:
            continue
        planned += 1
        assert sum(line.probability for line in preview.odds) == 1
    assert planned > len(variants) // 2
    assert ruleset.attacks.attack_variants(state, "c1", "c4") == ()  # nothing reaches


def test_an_attack_out_of_reach_has_no_default() -> None:
    state = demo()
    assert get_ruleset().attacks.default_attack(state, "c1", "c4") is None  # two hexes, a sword


def test_the_ruleset_options_command_swaps_the_ruleset_object() -> None:
    battle = Battle(demo(), 1, get_ruleset)
    battle.execute(SetRulesetOptions((LOCATIONS_001,)))
    assert ruleset_of(battle.state) == get_ruleset("000", (LOCATIONS_001,))
    assert battle.state.ruleset_options == (LOCATIONS_001,)
    with pytest.raises(IllegalCommandError):
        battle.execute(SetRulesetOptions(("no-such-option",)))


# --- dice sources -------------------------------------------------------------------------


def test_entered_dice_and_recorded_dice_give_the_battle_the_same_result() -> None:
    """The table's physical dice (EnteredDice) and a redo (ScriptedDice) run an
    attack on exactly the faces the seeded dice rolled."""
    state = demo()
    choices = AttackOptions(weapon_key="long-spear", mode="thrust")
    seeded = Battle(state, 11, get_ruleset)
    seeded.execute(Attack("c2", "c4", choices))
    faces = iter(seeded.dice_log[0])
    asked: list[DiceRequest] = []

    def at_the_table(request: DiceRequest) -> tuple[int, ...]:
        asked.append(request)
        return tuple(next(faces) for _ in range(request.count))

    by_hand = Battle(state, 999, get_ruleset)
    by_hand.execute(Attack("c2", "c4", choices), EnteredDice(at_the_table))
    assert by_hand.state == seeded.state and by_hand.events == seeded.events
    assert sum(r.count for r in asked) == len(seeded.dice_log[0])
    assert all((r.low, r.high) == (1, 6) for r in asked)
    redo = Battle(state, 999, get_ruleset)
    redo.execute(Attack("c2", "c4", choices), ScriptedDice(seeded.dice_log[0]))
    assert redo.state == seeded.state


def test_entered_dice_refuse_an_impossible_face() -> None:
    battle = Battle(demo(), 1, get_ruleset)
    with pytest.raises(RulesError):
        battle.execute(
            Attack("c2", "c4", AttackOptions("long-spear", "thrust")),
            EnteredDice(lambda r: (7,) * r.count),
        )
    assert battle.commands == ()  # nothing changed


def test_a_whole_evening_replays_on_its_recorded_dice() -> None:
    battle = Battle(demo(), 5, get_ruleset)
    for _ in range(3):
        battle.execute(Attack("c2", "c4", AttackOptions("long-spear", "thrust")))
        battle.execute(EndTurn())
    again = Battle.replay(
        battle.initial, 12345, battle.commands, battle.dice_log, rulesets=get_ruleset
    )
    assert again.state == battle.state and again.events == battle.events
    with pytest.raises(IllegalCommandError):
        Battle.replay(
            battle.initial, 5, battle.commands, battle.dice_log[:-1], rulesets=get_ruleset
        )


# --- the attack preview ------------------------------------------------------------------


def test_the_preview_gives_exact_odds_that_sum_to_one() -> None:
    state = demo()
    ruleset = get_ruleset()
    choices = AttackOptions(weapon_key="long-spear", mode="thrust")
    preview = ruleset.attacks.preview_attack(state, "c2", "c4", choices)
    assert sum(line.probability for line in preview.odds) == 1
    assert all(isinstance(line.probability, Fraction) for line in preview.odds)
    assert isinstance(ruleset, Seed000)
    from_odds = attack_odds(
        _plan(ruleset, state, choices), state.combatant("c2"), state.combatant("c4"), ruleset
    )
    hit = next(line.probability for line in preview.odds if line.label == "hit")
    assert hit == from_odds.p_hit
    assert "Spear" in preview.summary and preview.modifiers


def _plan(ruleset: Seed000, state: BattleState, choices: AttackOptions) -> AttackPlan:
    return plan_attack(state.combatant("c2"), state.combatant("c4"), choices, ruleset)


def test_the_situation_comes_from_the_map() -> None:
    state = demo()
    ruleset = get_ruleset()
    assert ruleset.attacks.situation(state, "c2", "c3") == ()
    attacker_hex = state.combatant("c2").hex
    battle = Battle(state, 1, get_ruleset)
    battle.execute(PaintTerrain((attacker_hex,), TerrainChange(footing=Footing.BAD)))
    modifiers = ruleset.attacks.situation(battle.state, "c2", "c3")
    assert [m.value for m in modifiers] == [footing_penalty(Footing.BAD)] == [-1]
    assert "attacker's hex" in modifiers[0].reason


# --- legal actions --------------------------------------------------------------------------


def test_every_legal_action_is_a_command_the_battle_accepts() -> None:
    state = demo()
    ruleset = get_ruleset()
    for combatant in state.combatants:
        actions = ruleset.turns.legal_actions(state, combatant.id)
        assert actions, combatant.name
        for action in actions:
            copy = Battle(state, 1, get_ruleset)
            for command in action.commands:
                copy.execute(command)  # raises if illegal
    offered = [a.command for a in ruleset.turns.legal_actions(state, "c2")]
    foes = {c.defender_id for c in offered if isinstance(c, Attack)}
    assert foes == {"c4"}  # the long spear reaches the fencer across; the knife to throw
    # is at the belt, and the sword-and-shield fighter is on its side


def test_the_fallen_have_no_legal_actions() -> None:
    state = demo()
    fallen = replace(state.combatant("c3"), hp=-20, status=state.combatant("c3").status.DEAD)
    state = state.with_combatants(fallen)
    ruleset: Ruleset = get_ruleset()
    assert ruleset.turns.legal_actions(state, "c3") == ()
    assert not any("Flail" in a.label for a in ruleset.turns.legal_actions(state, "c2"))
    assert any("Fencer" in a.label for a in ruleset.turns.legal_actions(state, "c2"))


# --- the sheet and its codec -----------------------------------------------------------


def test_the_sheet_shows_the_fighter_and_its_wounds() -> None:
    state = demo()
    ruleset = get_ruleset()
    c3 = state.combatant("c3")
    sections = {s.title: s for s in ruleset.sheets.sections(c3)}
    assert {"Attributes", "Skills", "Weapons", "Protection"} <= set(sections)
    hp = next(r for r in sections["Attributes"].rows if r.label == "HP")
    assert hp.value == f"{c3.hp} of {c3.fighter.hit_points}"
    assert "Wounds" not in sections


@pytest.mark.parametrize("key", sorted(load_fighters()))
def test_every_template_round_trips_through_json(key: str) -> None:
    ruleset = get_ruleset()
    fighter = load_fighters()[key]
    text = json.dumps(ruleset.sheets.encode(fighter))
    # The template's statistics come unread from the file; the codec gives them read.
    assert ruleset.sheets.decode(json.loads(text)) == read_stats(fighter)


def test_every_field_round_trips() -> None:
    ruleset = get_ruleset()
    catalog = load_catalog()
    fighter = amend(
        load_fighters()["fencer"],
        pain_threshold=PainThreshold.HIGH,
        injury_tolerance=frozenset({InjuryTolerance.NO_BRAIN, InjuryTolerance.UNLIVING}),
        ambidextrous=True,
        dodge_skill=14,
        combat_reflexes=True,
        weapons=(catalog.weapon("chair-leg"), catalog.weapon("knife")),
        armor=next(iter(catalog.armor.values())),
    )
    data = ruleset.sheets.encode(fighter)
    assert data["format"] == SHEET_FORMAT and data["version"] == SHEET_VERSION
    assert ruleset.sheets.decode(json.loads(json.dumps(data))) == fighter


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "gcs"}, "format"),
        ({"version": SHEET_VERSION + 1}, "version"),
        ({"hit_points": 0}, "hit_points"),
        ({"attributes": {"st": 0, "dx": 10, "iq": 10, "ht": 10}}, "attributes"),
        ({"encumbrance": 7}, "encumbrance"),
        ({"pain_threshold": "numb"}, "pain_threshold"),
        ({"surprise": 1}, "surprise"),
    ],
)
def test_a_broken_sheet_is_refused_with_the_field_named(
    change: dict[str, object], message: str
) -> None:
    ruleset = get_ruleset()
    data = {**ruleset.sheets.encode(load_fighters()["spearman"]), **change}
    with pytest.raises(DataError, match=message):
        ruleset.sheets.decode(data)


def test_a_turn_passes_through_the_ruleset() -> None:
    """EndTurn: the ruleset's end-of-turn effects, then the battle's reset and the
    ruleset's new turn; a stunned fighter rolls to recover (base rules), logged,
    before the new turn begins."""
    state = demo()
    stunned = replace(state.combatant("c1"), status=state.combatant("c1").status.STUNNED)
    battle = Battle(state.with_combatants(stunned), 4, get_ruleset)
    events = battle.execute(EndTurn())
    names = [type(e).__name__ for e in events]
    assert names.index("StunRecoveryRolled") < names.index("TurnEnded")
    assert battle.state.turn == state.turn + 1


def test_the_battles_ruleset_arrives_with_every_table_read() -> None:
    """The registry's seed 000 ruleset has read its tables when it is made, so the
    first preview reads none and a damaged bundled table is refused at once."""
    seed000_ruleset_module._instance.cache_clear()  # a new one, as a cold start makes
    ruleset = get_ruleset("000", ())
    assert isinstance(ruleset, Seed000)
    read = vars(ruleset)
    for table in ("directional", "hit_locations", "critical_misses", "adverse_conditions"):
        assert table in read, table


@pytest.mark.parametrize("damaged", ["postures.json", "broken_weapons.json", "wounding.json"])
def test_reading_every_table_refuses_a_damaged_one(damaged: str) -> None:
    class DamagedTables(Seed000):
        def _read(self, name: str) -> object:
            return {"nonsense": True} if name == damaged else super()._read(name)

    tables = DamagedTables()
    with pytest.raises(DataError):
        tables.read_every_table()
