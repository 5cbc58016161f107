"""Attacks in battle files of every version (rules.battle.savefile.lift_attack): schema
2's ``options`` read as today's ``choices``, a defender's answer that older files
kept inside the attacker's choices moved into an answer of its own (seed 004's
defense, since schema 3; seed 003's, since schema 5), in a whole file and in an
autosave journal's entry alike, and everything else left as written."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import pytest

from rules.battle.attack_choices import AnswerInChoices, AttackChoices, DefenderAnswer
from rules.battle.commands import Attack
from rules.battle.savefile import (
    SCHEMA_VERSION,
    answers_in_choices,
    decode_entry,
    lift_attack,
    read_battle,
    saved_types_for,
    write_battle,
)
from rules.battle.values import TYPE_KEY, ValueCodec
from rules.core.dice import ScriptedDice
from rules.core.errors import RulesError
from rules.sets.registry import get_ruleset
from rules.sets.seed000.attack import AttackOptions, DefenseChoice, Seed000Answer
from rules.sets.seed000.attack import DefenseKind as DefenseKind000
from rules.sets.seed002.attack import Attack002, DefenseKind, Seed002Answer
from rules.sets.seed003.combat import Choices003, Seed003Answer
from rules.sets.seed003.combat import Defense as Defense003
from rules.sets.seed003.events import OpposedRolled
from rules.sets.seed004.attack import Defense, Seed004Answer, Seed004Attack
from tests.rules.seed003_battle import battle as battle003
from tests.rules.seed003_battle import duel as duel003
from tests.rules.seed003_battle import fudge as fudge003


@dataclass(frozen=True, slots=True)
class OldChoices(AttackChoices):
    weapon: str = "club"


@dataclass(frozen=True, slots=True)
class NewAnswer(DefenderAnswer):
    defense: str = "dodge"
    retreat: bool = False
    was_in_choices: ClassVar[AnswerInChoices | None] = AnswerInChoices(
        "OldChoices", ("defense", "retreat"), before_schema=3
    )


ANSWERS: dict[str, type[DefenderAnswer]] = {"OldChoices": NewAnswer}


def attack(**fields: object) -> dict[str, object]:
    return {TYPE_KEY: "Attack", "attacker_id": "a", "defender_id": "b", **fields}


def test_schema_2_options_are_the_choices() -> None:
    old = attack(options={TYPE_KEY: "AttackOptions", "weapon_key": "rapier"}, gm_override=True)
    assert lift_attack(old, {}) == attack(
        choices={TYPE_KEY: "AttackOptions", "weapon_key": "rapier"}, gm_override=True
    )


def test_the_answer_moves_out_of_the_choices_it_was_kept_in() -> None:
    old = attack(options={TYPE_KEY: "OldChoices", "weapon": "knife", "defense": "block"})
    assert lift_attack(old, ANSWERS) == attack(
        choices={TYPE_KEY: "OldChoices", "weapon": "knife"},
        answer={TYPE_KEY: "NewAnswer", "defense": "block"},
    )
    at_defaults = attack(choices={TYPE_KEY: "OldChoices"})
    assert lift_attack(at_defaults, ANSWERS) == attack(
        choices={TYPE_KEY: "OldChoices"}, answer={TYPE_KEY: "NewAnswer"}
    )


def test_an_attack_of_today_and_other_commands_are_left_as_written() -> None:
    today = attack(choices={TYPE_KEY: "OldChoices"}, answer={TYPE_KEY: "NewAnswer"})
    assert lift_attack(today, ANSWERS) == today
    other = {TYPE_KEY: "MoveCombatant", "options": 1}
    assert lift_attack(other, ANSWERS) is other
    unknown = attack(choices={TYPE_KEY: "AttackOptions"})
    assert lift_attack(unknown, ANSWERS) == unknown


def test_the_codec_names_the_answers_kept_in_choices_in_files_before_they_moved() -> None:
    codec = ValueCodec(saved_types_for((OldChoices, NewAnswer)))
    assert answers_in_choices(codec, 2) == ANSWERS
    assert answers_in_choices(codec, 3) == {}  # written with the answer apart
    assert answers_in_choices(ValueCodec(saved_types_for(())), 2) == {}


EXAMPLE = Path(__file__).resolve().parents[2] / "assets" / "battles" / "evening-in-progress.hexfray"


def test_a_schema_2_file_loads_the_same_battle() -> None:
    """The example battle (attacks in its log and its redo list) written back in
    schema 2's shape: each attack's choices under ``options``."""
    text = EXAMPLE.read_text(encoding="utf-8")
    document = json.loads(text)
    assert document["schema_version"] == SCHEMA_VERSION == 6
    document["schema_version"] = 2
    attacks = 0
    for entry in (*document["log"], *document["undone"]):
        if entry["command"][TYPE_KEY] == "Attack":
            entry["command"]["options"] = entry["command"].pop("choices")
            attacks += 1
    assert attacks
    now = read_battle(text, rulesets=get_ruleset)
    old = read_battle(json.dumps(document), rulesets=get_ruleset)
    assert (old.state, old.commands, old.undone, old.dice_log) == (
        now.state,
        now.commands,
        now.undone,
        now.dice_log,
    )


def test_an_autosave_entry_of_schema_2_is_lifted_too() -> None:
    codec = ValueCodec(saved_types_for(get_ruleset("000").sheets.saved_types))
    choices = {TYPE_KEY: "AttackOptions", "weapon_key": "rapier", "mode": "thrust"}
    entry = {"command": attack(options=choices), "dice": [3, 4, 5]}
    command, faces = decode_entry(entry, codec, "autosave change 1")
    assert isinstance(command, Attack)
    assert codec.encode(command.choices, AttackChoices) == choices
    assert (command.answer, faces) == (None, (3, 4, 5))


# --- seed 004, whose defender answers apart since schema 3 -------------------------------------


def seed004_file(version: int, choices: dict[str, object], **more: object) -> str:
    """The seed 004 demo battle with one attack of the Knife fighter's in its log
    (the GM's +6 makes its 1 and 1 a miss), written as schema ``version``."""
    demo = json.loads((EXAMPLE.parent / "demo-004.hexfray").read_text(encoding="utf-8"))
    key = "options" if version < 3 else "choices"
    command = attack(**{key: {TYPE_KEY: "Seed004Attack", "adjustment": 6, **choices}}, **more)
    command.update(attacker_id="c4", defender_id="c1")
    demo["log"].append({"command": command, "dice": [1, 1]})  # a miss
    demo["schema_version"] = version
    return json.dumps(demo)


def last_attack(text: str) -> Attack:
    command = read_battle(text, rulesets=get_ruleset).commands[-1]
    assert isinstance(command, Attack)
    return command


def test_a_seed_004_defense_of_schema_2_is_the_defenders_answer() -> None:
    stab = {"weapon_key": "knife", "mode": "stab"}
    blocked = last_attack(seed004_file(2, {**stab, "defense": "BLOCK"}))
    assert blocked.choices == Seed004Attack("knife", "stab", adjustment=6)
    assert blocked.answer == Seed004Answer(Defense.BLOCK)
    assert last_attack(seed004_file(2, stab)).answer == Seed004Answer(Defense.DODGE)


def test_a_seed_004_attack_of_schema_3_keeps_its_answer_or_none() -> None:
    stab = {"weapon_key": "knife", "mode": "stab"}
    assert last_attack(seed004_file(3, stab)).answer is None
    chosen = last_attack(seed004_file(3, stab, answer={TYPE_KEY: "Seed004Answer"}))
    assert chosen.answer == Seed004Answer()


# --- seed 003, whose defender answers apart since schema 5 -------------------------------------


def seed003_text() -> str:
    """A seed 003 duel of four sword blows: the better defense by default, a
    parry and a dodge answered, and one more by default, written today."""
    b = battle003(duel003())
    sword = Choices003("broadsword", "swing")
    answers = (None, Seed003Answer(Defense003.PARRY), Seed003Answer(Defense003.DODGE), None)
    for number, answer in enumerate(answers):
        faces = fudge003("+0-0") + fudge003("0-0-" if number % 2 else "00+0") + fudge003("0000")
        b.execute(Attack("a", "d", sword, answer), ScriptedDice(faces))
    return write_battle(b, get_ruleset("003").sheets.saved_types)


def as_written_in(text: str, version: int) -> str:
    """``text`` in the shape of schema ``version`` below 6: each attack's answer
    back inside its choices (schema 2 also names the choices ``options``)."""
    document = json.loads(text)
    document["schema_version"] = version
    for entry in (*document["log"], *document["undone"]):
        command = entry["command"]
        if command[TYPE_KEY] != "Attack":
            continue
        answer = command.pop("answer", None) or {}
        choices = command.pop("choices")
        choices.update({k: v for k, v in answer.items() if k != TYPE_KEY})
        command["options" if version < 3 else "choices"] = choices
    return json.dumps(document)


@pytest.mark.parametrize("version", [2, 3, 4])
def test_a_seed_003_defense_kept_in_the_choices_is_the_defenders_answer(version: int) -> None:
    """A file of any schema before 5 (whether or not a schema 4 moved another
    ruleset's answer) replays the same duel, each defense as the answer."""
    text = seed003_text()
    assert json.loads(text)["schema_version"] == SCHEMA_VERSION
    now = read_battle(text, rulesets=get_ruleset)
    old = read_battle(as_written_in(text, version), rulesets=get_ruleset)
    assert (old.state, old.dice_log, old.events) == (now.state, now.dice_log, now.events)
    attacks = [c for c in old.commands if isinstance(c, Attack)]
    assert [c.choices for c in attacks] == [Choices003("broadsword", "swing")] * 4
    assert [c.answer for c in attacks] == [
        Seed003Answer(),
        Seed003Answer(Defense003.PARRY),
        Seed003Answer(Defense003.DODGE),
        Seed003Answer(),
    ]
    kinds = [e.defense_kind for e in old.events if isinstance(e, OpposedRolled)]
    assert kinds == ["parry", "parry", "dodge", "parry"]  # the swordsman parries better
# --- seed 002, whose defender answers apart since schema 4 -------------------------------------


def seed002_file(version: int, choices: dict[str, object], **more: object) -> str:
    """The seed 002 demo battle with Ilsa the archer's shot at Sergeant Varro in its
    log (a 99 misses), written as schema ``version``."""
    demo = json.loads((EXAMPLE.parent / "demo-002.hexfray").read_text(encoding="utf-8"))
    key = "options" if version < 3 else "choices"
    throw = {TYPE_KEY: "Attack002", "weapon_key": "shortbow", "mode": "shoot", **choices}
    command = attack(**{key: throw}, **more)
    command.update(attacker_id="c2", defender_id="c1")
    demo["log"].append({"command": command, "dice": [99]})
    demo["schema_version"] = version
    return json.dumps(demo)


def test_a_seed_002_defense_of_schema_3_is_the_defenders_answer() -> None:
    for version in (2, 3):
        undefended = last_attack(seed002_file(version, {"defense": "NONE"}))
        assert undefended.choices == Attack002("shortbow", "shoot")
        assert undefended.answer == Seed002Answer(DefenseKind.NONE)
        assert last_attack(seed002_file(version, {})).answer == Seed002Answer(DefenseKind.DODGE)


def test_a_seed_002_attack_of_schema_4_keeps_its_answer_or_none() -> None:
    assert last_attack(seed002_file(4, {})).answer is None
    chosen = last_attack(seed002_file(4, {}, answer={TYPE_KEY: "Seed002Answer"}))
    assert chosen.answer == Seed002Answer()


def test_a_seed_002_attack_of_schema_3_replays_as_recorded() -> None:
    """The old file's attack replays to the log and state of the same attack made
    today with its defense as the defender's answer."""
    old = read_battle(seed002_file(3, {"defense": "NONE"}), rulesets=get_ruleset)
    today = read_battle(seed002_file(4, {}), rulesets=get_ruleset)
    today.undo()
    events = today.execute(
        Attack("c2", "c1", Attack002("shortbow", "shoot"), Seed002Answer(DefenseKind.NONE)),
        ScriptedDice((99,)),
    )
    assert old.state == today.state
    assert old.events[-len(events) :] == events


# --- seed 000, whose defender answers apart since schema 6 -------------------------------------


@pytest.mark.parametrize("version", [2, 3, 4, 5])
def test_a_seed_000_defense_kept_in_the_choices_is_the_defenders_answer(version: int) -> None:
    """The example battle (seed 000) in the shape of any schema before 6, each
    attack's announced defenses inside its ``AttackOptions``, replays the same
    evening: the same events, state and dice, each defense the defender's answer."""
    text = EXAMPLE.read_text(encoding="utf-8")
    now = read_battle(text, rulesets=get_ruleset)
    old = read_battle(as_written_in(text, version), rulesets=get_ruleset)
    assert (old.state, old.dice_log, old.undone) == (now.state, now.dice_log, now.undone)
    assert [e.describe() for e in old.events] == [e.describe() for e in now.events]
    attacks = [c for c in old.commands if isinstance(c, Attack)]
    assert attacks and all(isinstance(c.answer, Seed000Answer) for c in attacks)
    assert [c.answer for c in attacks] == [
        c.answer for c in now.commands if isinstance(c, Attack)
    ]
    assert all(not c.choices.defenses for c in attacks if isinstance(c.choices, AttackOptions))


def test_a_seed_000_attack_announcing_defenses_in_its_choices_is_refused() -> None:
    """Today the defenses are the defender's answer, never the attacker's choices."""
    battle = read_battle(
        (EXAMPLE.parent / "demo-000.hexfray").read_text(encoding="utf-8"), rulesets=get_ruleset
    )
    dodge = (DefenseChoice(DefenseKind000.DODGE),)
    with pytest.raises(RulesError, match="answers apart"):
        choices = AttackOptions("broadsword", "swing", defenses=dodge)
        battle.execute(Attack("c1", "c3", choices, gm_override=True))
