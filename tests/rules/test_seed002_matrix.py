"""Every cell of seed 002's attacker/defender result matrix, through ``Battle``
commands: a longsword (medium, Close Combat 50%: critical 01-05, success 06-50)
against a defender with 20 HP (no major wound below 10 damage) in hard leather
(2 armour points) who dodges (40%) or parries (50%). The dice are scripted
exactly: a cell that rolls no damage would leave a face unused and fail."""

from __future__ import annotations

from hexmap import Hex
from rules.battle.commands import Attack
from rules.battle.model import Posture
from rules.core.dice import ScriptedDice
from rules.sets.seed002.attack import NO_DEFENSE, Attack002
from rules.sets.seed002.events import DamageDealt, Fumbled, ResultApplied
from rules.sets.seed002.tables import Damage, Level, matrix_cell, result_matrix
from tests.rules.seed002_duel import RULESET, battle, duel, fighter, of, parry, rolls, sword

FUMBLE, FAIL, SUCCESS, CRITICAL_ATTACK, CRITICAL_DEFENSE = 100, 99, 10, 3, 2
HP = 20


def run(faces, choices=None, attacker=None, defender=None, answer=None):  # type: ignore[no-untyped-def]
    b = battle(duel(attacker, defender or fighter("Defender", ("longsword", "dagger"), hp=HP)))
    dice = ScriptedDice(faces)
    events = b.execute(Attack("a", "d", choices or sword(), answer), dice)
    assert dice.unused == 0
    return b, events


def hp_lost(b) -> int:  # type: ignore[no-untyped-def]
    return HP - b.state.combatant("d").hp


def test_matrix_has_every_cell_of_the_seed() -> None:
    cells = [(c.attacker, c.defender) for c in result_matrix()]
    assert cells[:2] == [(Level.FUMBLE, None), (Level.FAILURE, None)]
    assert len(cells) == 10
    for a in (Level.SUCCESS, Level.CRITICAL):
        for d in Level:
            assert matrix_cell(a, d).defender is d


def test_fumble_na_attacker_fumbles_and_drops_the_weapon_on_the_map() -> None:
    b, events = run([FUMBLE])
    assert len(rolls(events)) == 1  # the defender does not roll
    assert of(events, Fumbled)[0].name == "Attacker"
    attacker = b.state.combatant("a")
    assert [w.key for w in attacker.fighter.weapons] == []
    assert [(i.name, i.hex) for i in b.state.items] == [("Longsword", attacker.hex)]
    assert hp_lost(b) == 0


def test_fumble_unarmed_attacker_falls_prone() -> None:
    puncher = fighter("Puncher", ("fist",))
    b, _ = run([FUMBLE], Attack002("fist", "punch"), attacker=puncher)
    assert b.state.combatant("a").posture is Posture.PRONE
    assert not b.state.items


def test_failure_na_attacker_misses() -> None:
    b, events = run([FAIL])
    assert len(rolls(events)) == 1
    assert of(events, ResultApplied)[0].text == "the attack misses"
    assert hp_lost(b) == 0


def test_success_fumble_damage_minus_armour_and_defender_fumbles() -> None:
    b, _ = run([SUCCESS, FUMBLE, 7])
    assert hp_lost(b) == 7 - 2
    assert b.state.combatant("d").posture is Posture.PRONE  # a fumbled dodge
    parried, _ = run([SUCCESS, FUMBLE, 7], sword(), answer=parry("longsword"))
    assert hp_lost(parried) == 5
    assert [i.name for i in parried.state.items] == ["Longsword"]  # a fumbled parry drops it


def test_success_failure_damage_minus_armour() -> None:
    b, events = run([SUCCESS, FAIL, 7])
    damage = of(events, DamageDealt)[0]
    assert (damage.rolled, damage.armour, damage.taken) == (7, 2, 5)
    assert hp_lost(b) == 5
    low, _ = run([SUCCESS, FAIL, 1])
    assert hp_lost(low) == 0  # armour stops it all


def test_no_defense_counts_as_a_failed_defense() -> None:
    b, events = run([SUCCESS, 7], sword(), answer=NO_DEFENSE)
    assert len(rolls(events)) == 1
    assert hp_lost(b) == 5


def test_success_success_dodge_avoids_the_attack() -> None:
    b, events = run([SUCCESS, SUCCESS])
    assert of(events, ResultApplied)[0].text == "the dodge avoids the attack"
    assert hp_lost(b) == 0
    assert matrix_cell(Level.SUCCESS, Level.SUCCESS).damage is Damage.BY_DEFENSE


def test_success_success_parry_with_an_equal_or_larger_weapon_avoids_all() -> None:
    equal, _ = run([SUCCESS, SUCCESS], sword(), answer=parry("longsword"))
    assert hp_lost(equal) == 0
    stabber = fighter("Stabber", ("dagger",))
    larger, _ = run(
        [SUCCESS, SUCCESS],
        Attack002("dagger", "stab"),
        answer=parry("longsword"),
        attacker=stabber,
    )
    assert hp_lost(larger) == 0


def test_success_success_parry_one_rank_smaller_halves_the_damage() -> None:
    b, events = run([SUCCESS, SUCCESS, 8], sword(), answer=parry("dagger"))
    damage = of(events, DamageDealt)[0]
    assert (damage.rolled, damage.armour, damage.halved, damage.taken) == (8, 2, True, 3)
    assert hp_lost(b) == 3  # (8 - 2) / 2


def test_success_success_parry_two_ranks_smaller_avoids_nothing() -> None:
    staff = fighter("Staff", ("quarterstaff",))  # large against a small dagger
    b, events = run(
        [SUCCESS, SUCCESS, 8],
        Attack002("quarterstaff", "strike"),
        answer=parry("dagger"),
        attacker=staff,
    )
    assert of(events, DamageDealt)[0].halved is False
    assert hp_lost(b) == 6


def test_success_critical_defender_avoids_whatever_the_sizes() -> None:
    dodge, _ = run([SUCCESS, CRITICAL_DEFENSE])
    assert hp_lost(dodge) == 0
    staff = fighter("Staff", ("quarterstaff",))
    b, events = run(
        [SUCCESS, CRITICAL_DEFENSE],
        Attack002("quarterstaff", "strike"),
        answer=parry("dagger"),
        attacker=staff,
    )
    assert hp_lost(b) == 0
    assert of(events, ResultApplied)[0].text == "the defender avoids the attack"


def test_critical_fumble_maximum_damage_ignores_armour_and_defender_fumbles() -> None:
    b, events = run([CRITICAL_ATTACK, FUMBLE])
    damage = of(events, DamageDealt)[0]
    assert (damage.maximum, damage.rolled, damage.armour, damage.taken) == (True, 8, 0, 8)
    assert of(events, Fumbled)[0].name == "Defender"
    assert b.state.combatant("d").posture is Posture.PRONE


def test_critical_failure_maximum_damage_ignores_armour() -> None:
    b, _ = run([CRITICAL_ATTACK, FAIL])
    assert hp_lost(b) == 8


def test_critical_success_maximum_damage_ignores_armour() -> None:
    b, _ = run([CRITICAL_ATTACK, SUCCESS])
    assert hp_lost(b) == 8
    parried, _ = run([CRITICAL_ATTACK, SUCCESS], sword(), answer=parry("longsword"))
    assert hp_lost(parried) == 8  # the parry's size does not help


def test_critical_critical_damage_rolled_minus_armour() -> None:
    b, events = run([CRITICAL_ATTACK, CRITICAL_DEFENSE, 7])
    damage = of(events, DamageDealt)[0]
    assert (damage.maximum, damage.rolled, damage.taken) == (False, 7, 5)
    assert hp_lost(b) == 5


def test_maximum_includes_the_damage_modifier() -> None:
    strong = fighter("Strong", strength=18, size=14)  # STR+SIZ 32: +1d4
    _, events = run([CRITICAL_ATTACK, FAIL, 5], attacker=strong)  # 12: a major wound (d10 5)
    assert of(events, DamageDealt)[0].rolled == 8 + 4
    weak = fighter("Weak", strength=6, size=8)  # 14: -1d4
    _, events = run([SUCCESS, FAIL, 5, 4], attacker=weak)
    assert of(events, DamageDealt)[0].rolled == 1


def test_a_large_shield_parries_a_huge_weapon_for_half_damage() -> None:
    giant = fighter("Giant", ("greatsword",))
    guard = fighter("Guard", ("longsword", "target-shield"), hp=HP)
    b, events = run(
        [SUCCESS, SUCCESS, 8, 8],
        Attack002("greatsword", "cut"),
        answer=parry("target-shield"),
        attacker=giant,
        defender=guard,
    )
    damage = of(events, DamageDealt)[0]
    assert (damage.rolled, damage.halved, damage.taken) == (16, True, 7)  # (16 - 2) / 2
    assert hp_lost(b) == 7


def test_a_thrown_weapon_lands_in_the_target_s_hex_hit_or_miss() -> None:
    near = Hex.from_offset(8, 13)  # three hexes away
    for faces in ([FAIL], [SUCCESS, FAIL, 3]):
        thrower = fighter("Thrower", ("dagger", "fist"))
        b = battle(duel(thrower, fighter("Defender", hp=HP), defender_hex=near))
        b.execute(Attack("a", "d", Attack002("dagger", "throw")), ScriptedDice(faces))
        assert [(i.name, i.hex) for i in b.state.items] == [("Dagger", near)]
        assert [w.key for w in b.state.combatant("a").fighter.weapons] == ["fist"]


def test_the_damage_dice_read_as_d100_dice_in_the_log_the_pane_and_the_sheet() -> None:
    """A shortsword (1d6) in a strong hand (STR + SIZ 38: +1d6): "1d6+1d6", never
    the 3d6 family's "1d"."""
    strong = fighter("Strong", ("shortsword",), strength=20, size=18)
    _, events = run([SUCCESS, FAIL, 4, 3], Attack002("shortsword", "cut"), attacker=strong)
    damage = of(events, DamageDealt)[0]
    assert (damage.dice, damage.rolled) == ("1d6+1d6", 7)
    assert damage.describe().startswith("Damage 1d6+1d6: 4+3 = 7;")
    state = duel(strong, fighter("Defender", hp=HP))
    summary = RULESET.attacks.preview_attack(
        state, "a", "d", Attack002("shortsword", "cut")
    ).summary
    assert "(Shortsword, cut, 1d6+1d6)" in summary
    sheet = {
        r.label: r.value for s in RULESET.sheets.sections(state.combatant("a")) for r in s.rows
    }
    assert sheet["Damage modifier"] == "+1d6"
