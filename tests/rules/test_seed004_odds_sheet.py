"""Seed 004's exact odds (against a brute-force enumeration of every face), its
attack form, its sheet codec and editor fields, its templates and its battle
file (save, load, replay, undo)."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from pathlib import Path

import pytest

from rules.battle.model import Posture
from rules.battle.savefile import read_battle, write_battle
from rules.core.dice import ScriptedDice
from rules.core.enumerate import exact_outcomes
from rules.core.errors import DataError
from rules.sets.attack_form import FLAG_ON
from rules.sets.components.zones_2d6 import Zone
from rules.sets.registry import get_ruleset
from rules.sets.seed004.attack import Defense, Seed004Answer, Seed004Attack, plan_attack
from rules.sets.seed004.attack_steps import STEPS, contest
from rules.sets.seed004.events import AttackOutcome
from rules.sets.seed004.sheet import ZoneArmor, sheet_of
from rules.sets.seed004.sheet_codec import SHEET_FORMAT
from tests.rules.seed004_battle import RULESET, duel, fighter, hit

TEMPLATES = Path(__file__).resolve().parents[2] / "assets" / "templates"


def brute_force(
    bonus: int, difficulty: int, defense: Defense, defense_bonus: int
) -> dict[str, Fraction]:
    """The base rules' contest written out on every face of the four dice."""
    counts: dict[str, int] = {}
    for a1, a2, d1, d2 in itertools.product(range(1, 7), repeat=4):
        total = a1 + a2 + bonus
        if total < difficulty:
            outcome = "miss"
        elif defense is Defense.NONE or d1 + d2 + defense_bonus <= total:
            outcome = "hit"
        else:
            outcome = "dodged" if defense is Defense.DODGE else "blocked"
        counts[outcome] = counts.get(outcome, 0) + 1
    return {k: Fraction(n, 6**4) for k, n in counts.items()}


LABELS = {"hit": "hit", "blocked": "hit, blocked (half damage)", "dodged": "dodged", "miss": "miss"}


@pytest.mark.parametrize(
    ("choices", "defense", "bob_posture", "bonus", "difficulty", "defense_bonus"),
    [
        (Seed004Attack("club", "strike"), Defense.DODGE, Posture.STANDING, 2, 6, 1),
        (Seed004Attack("club", "strike"), Defense.BLOCK, Posture.STANDING, 2, 6, 0),
        (Seed004Attack("knife", "stab", Zone.HEART), Defense.DODGE, Posture.STANDING, 2, 8, 1),
        (
            Seed004Attack("knife", "slash", Zone.ARMS, adjustment=4),
            Defense.DODGE,
            Posture.KNEELING,
            2,
            12,
            1,
        ),
        (Seed004Attack("club", "strike", surprise=True), Defense.DODGE, Posture.PRONE, 2, 8, 0),
        (Seed004Attack("club", "strike", adjustment=-6), Defense.NONE, Posture.STANDING, 2, 0, 0),
    ],
)
def test_the_preview_odds_are_exact(
    choices: Seed004Attack,
    defense: Defense,
    bob_posture: Posture,
    bonus: int,
    difficulty: int,
    defense_bonus: int,
) -> None:
    battle = duel(bob_posture=bob_posture)
    answer = Seed004Answer(defense)
    preview = RULESET.attacks.preview_attack(battle.state, "a", "b", choices, answer)
    plan = plan_attack(battle.state, "a", "b", choices)
    made = plan.defense_made(answer)
    assert (plan.attack_bonus, plan.difficulty, plan.defense_bonus(made)) == (
        bonus,
        difficulty,
        defense_bonus,
    )
    expected = brute_force(bonus, difficulty, made, defense_bonus)
    assert {line.label: line.probability for line in preview.odds} == {
        LABELS[k]: p for k, p in expected.items()
    }
    assert sum(line.probability for line in preview.odds) == 1
    by_faces = exact_outcomes(lambda d: contest(plan, made, d).outcome, by_totals=False)
    assert {o.value: p for o, p in by_faces.items()} == expected
    assert sum(m.value for m in preview.modifiers) == difficulty


def test_the_standing_duel_odds_as_numbers() -> None:
    preview = RULESET.attacks.preview_attack(
        duel().state, "a", "b", Seed004Attack("club", "strike")
    )
    odds = {line.label: line.probability for line in preview.odds}
    assert odds["miss"] == Fraction(3, 36)  # 2d6+2 below 6: totals 2 and 3
    assert sum(odds.values()) == 1


@pytest.mark.parametrize("defense", [Defense.DODGE, Defense.BLOCK])
def test_the_odds_match_the_attack_command_on_every_face(defense: Defense) -> None:
    """The preview's odds against the Attack command itself, executed through
    Battle on each of the 6^4 faces of the attack and defense dice."""
    choices = Seed004Attack("club", "strike")
    preview = RULESET.attacks.preview_attack(
        duel().state, "a", "b", choices, Seed004Answer(defense)
    )
    counts: dict[str, int] = {}
    for faces in itertools.product(range(1, 7), repeat=4):
        events = hit(duel(), (*faces, 3, 3, 1, 6, 6, 6, 6), exact=False, defense=defense)
        (outcome,) = [e.outcome for e in events if isinstance(e, AttackOutcome)]
        counts[outcome] = counts.get(outcome, 0) + 1
    assert {line.label: line.probability for line in preview.odds} == {
        LABELS[k]: Fraction(n, 6**4) for k, n in counts.items()
    }


# --- the attack form ------------------------------------------------------------------------


def test_the_form_offers_each_weapon_mode_with_its_damage_type() -> None:
    form = RULESET.attacks.attack_form(duel().state, "a", "b", {})
    labels = [c.label for c in form.field("weapon").choices]
    assert "Knife: stab (1d piercing)" in labels
    assert "Knife: slash (1d slashing)" in labels
    assert (form.choices, form.answer) == (Seed004Attack("knife", "stab"), Seed004Answer())


def test_the_form_takes_the_gm_entries() -> None:
    entries = {
        "weapon": "club/strike",
        "aim": "brain",
        "defense": "block",
        "adjustment": "-2",
        "exposed": FLAG_ON,
    }
    form = RULESET.attacks.attack_form(duel().state, "a", "b", entries)
    assert form.choices == Seed004Attack("club", "strike", Zone.BRAIN, -2, exposed=True)
    assert form.answer == Seed004Answer(Defense.BLOCK)
    assert form.entries == {**entries, "surprise": ""}


def test_the_form_greys_the_defenses_of_a_surprised_defender() -> None:
    form = RULESET.attacks.attack_form(
        duel().state, "a", "b", {"surprise": FLAG_ON, "defense": "dodge"}
    )
    defense = form.field("defense")
    assert defense.value == "none"
    assert [c.problem for c in defense.choices] == ["a surprise attack", "a surprise attack", ""]


def test_the_form_has_no_choices_when_nothing_reaches() -> None:
    from hexmap import Facing
    from tests.rules.seed004_battle import FRONT

    far = duel(bob_hex=FRONT + Facing.S.vector + Facing.S.vector)
    form = RULESET.attacks.attack_form(far.state, "a", "b", {})
    assert form.choices is None and "reaches" in form.problem
    assert RULESET.attacks.default_attack(far.state, "a", "b") is None
    assert all(c.problem for c in form.field("weapon").choices)


def test_attack_variants_cover_modes_and_zones_and_the_answers_each_defense() -> None:
    state = duel().state
    variants = RULESET.attacks.attack_variants(state, "a", "b")
    assert Seed004Attack("knife", "slash", Zone.HEART) in variants
    # Ann holds the knife and the club (the rest of her catalog is carried): the
    # modes in hand and in reach (knife 2, club, fists) x (random + six zones).
    assert len(variants) == 4 * 7
    plan = STEPS.plan(state, "a", "b", variants[0])
    assert [a.defense for a in STEPS.answers(plan)] == [Defense.DODGE, Defense.BLOCK, Defense.NONE]


# --- the sheet ----------------------------------------------------------------------------------


def test_the_sheet_codec_round_trips_and_names_its_format() -> None:
    f = fighter("Ann", strength=7, armor=ZoneArmor(head=2, legs=1))
    data = RULESET.sheets.encode(f)
    assert (data["format"], data["version"]) == (SHEET_FORMAT, 1)
    assert RULESET.sheets.decode(json.loads(json.dumps(data))) == f
    with pytest.raises(DataError, match="hexfray-sheet-004"):
        RULESET.sheets.decode({**data, "format": "hexfray-sheet-000"})
    with pytest.raises(DataError, match="version"):
        RULESET.sheets.decode({**data, "version": 2})
    with pytest.raises(DataError, match="strength"):
        abilities = data["abilities"]
        assert isinstance(abilities, dict)
        RULESET.sheets.decode({**data, "abilities": {**abilities, "strength": 11}})


def test_the_editor_fields_round_trip() -> None:
    f = fighter("Ann", dexterity=8, armor=ZoneArmor(torso=3))
    entries = RULESET.sheets.entries(f)
    assert entries.values["dexterity"] == 8 and entries.values["dr_torso"] == 3
    assert RULESET.sheets.with_entries(f, entries) == f
    keys = [field.key for field in RULESET.sheets.description().fields]
    assert keys[:6] == [
        "strength",
        "dexterity",
        "constitution",
        "intelligence",
        "perception",
        "charisma",
    ]
    with pytest.raises(DataError):
        RULESET.sheets.with_entries(f, type(entries)({**entries.values, "dr_head": 99}, {}))


def test_a_3d6_weapon_is_a_sheet_problem() -> None:
    seed000 = get_ruleset("000").sheets.catalog()
    from dataclasses import replace

    f = replace(fighter("Ann"), weapons=(seed000.weapon("broadsword"),))
    problems = RULESET.sheets.problems(f)
    assert problems and "own dice" in problems[0].message
    assert RULESET.sheets.problems(fighter("Ann")) == ()


@pytest.mark.parametrize("path", sorted(TEMPLATES.glob("004-*.json")), ids=lambda p: p.stem)
def test_each_template_reads_as_a_seed_004_sheet(path: Path) -> None:
    from app.templates import read_template_file

    template = read_template_file(path)
    assert template.ruleset_key == "004"
    sheet = sheet_of(template.fighter)
    assert (
        template.fighter.hit_points == 25 + sheet.abilities.constitution + sheet.abilities.strength
    )
    assert RULESET.sheets.problems(template.fighter) == ()


def test_at_least_four_templates() -> None:
    assert len(list(TEMPLATES.glob("004-*.json"))) >= 4


# --- the battle file -----------------------------------------------------------------------------


def test_a_battle_saves_loads_and_replays() -> None:
    battle = duel()
    hit(battle, (3, 3, 1, 1, 5, 5, 5, 3, 3), zone=None)
    hit(battle, (3, 3, 1, 1, 4, 6, 6), "knife", "stab", zone=Zone.HEAD)
    text = write_battle(battle, RULESET.sheets.saved_types)
    loaded = read_battle(text, rulesets=get_ruleset)
    assert loaded.state == battle.state
    assert loaded.commands == battle.commands
    loaded.undo()
    loaded.undo()
    assert loaded.state.combatant("b").hp == 35
    loaded.redo()
    loaded.redo()
    assert loaded.state == battle.state
    assert ScriptedDice(()).unused == 0
