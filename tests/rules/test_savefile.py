"""The battle file (rules.battle.savefile): round trips of every command type and of
random battles with their undo history, the migration from schema version 1, and
the refusals a game master reads (column and row, facing letters, versions)."""

from __future__ import annotations

import dataclasses
import importlib
import json
import pkgutil
import random
import subprocess
import sys
import types
import typing
from enum import Enum
from fractions import Fraction
from pathlib import Path
from types import MappingProxyType

import pytest

import rules.battle
import rules.sets
from hexmap import Facing, Hex, HexGrid, Reach
from rules.battle.battle import Battle
from rules.battle.commands import MoveCombatant, TurnCombatant
from rules.battle.savefile import (
    FORMAT,
    SCHEMA_VERSION,
    BattleFileError,
    PartlyReplayedFile,
    battle_document,
    document_text,
    read_battle,
    saved_types_for,
    write_battle,
)
from rules.battle.state import Command
from rules.battle.values import ValueCodec
from rules.core.dice import Dice
from rules.core.version import ENGINE_VERSION
from rules.sets.registry import get_ruleset
from tests.rules.test_history import demo_battle, play_random_sequence

RULESET_TYPES = get_ruleset("000").sheets.saved_types
ROOT = Path(__file__).resolve().parents[2]


def played_battle(seed: int, steps: int = 60) -> Battle:
    battle = demo_battle(seed)
    play_random_sequence(battle, random.Random(seed), steps)
    return battle


def round_trip(battle: Battle) -> Battle:
    return read_battle(write_battle(battle, RULESET_TYPES), rulesets=get_ruleset)


def document(battle: Battle) -> dict[str, object]:
    return json.loads(write_battle(battle, RULESET_TYPES))  # type: ignore[no-any-return]


def text_of(data: object) -> str:
    return json.dumps(data)


# --- round trips ---------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(12))
def test_random_battles_with_their_undo_history_load_as_they_were_saved(seed: int) -> None:
    battle = played_battle(seed)
    loaded = round_trip(battle)
    assert loaded.state == battle.state
    assert loaded.initial == battle.initial
    assert loaded.commands == battle.commands
    assert loaded.dice_log == battle.dice_log
    assert loaded.undone == battle.undone
    assert loaded.seed == battle.seed
    # The same battle is always the same text, and loading changes nothing in it.
    assert write_battle(loaded, RULESET_TYPES) == write_battle(battle, RULESET_TYPES)


def test_the_file_names_its_format_versions_seed_and_undo_position() -> None:
    battle = played_battle(3)
    data = document(battle)
    assert data["format"] == FORMAT
    assert data["schema_version"] == SCHEMA_VERSION
    assert data["engine_version"] == ENGINE_VERSION
    assert data["seed"] == 3
    log = data["log"]
    assert isinstance(log, list) and len(log) == len(battle.commands)
    assert [entry["dice"] for entry in log] == [list(f) for f in battle.dice_log]
    undone = data["undone"]
    assert isinstance(undone, list)
    assert [entry["dice"] for entry in undone] == [list(f) for _, f in battle.undone]


def test_the_engine_version_is_pyproject_s() -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert f'\nversion = "{ENGINE_VERSION}"\n' in text


def test_a_loaded_battle_redoes_its_undone_commands_on_their_dice() -> None:
    battle = demo_battle(5)
    battle.execute(TurnCombatant("c1", Facing.SE))
    battle.execute(MoveCombatant("c3", Hex.from_offset(10, 9)))
    battle.undo()
    loaded = round_trip(battle)
    assert loaded.redo_command == MoveCombatant("c3", Hex.from_offset(10, 9))
    loaded.redo()
    battle.redo()
    assert loaded.state == battle.state


def every_command_class() -> list[type[Command]]:
    """Every Command subclass that the battle and the rulesets define."""
    for package in (rules.battle, rules.sets):
        for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            importlib.import_module(module.name)
    found: list[type[Command]] = []
    pending: list[type[Command]] = [Command]
    while pending:
        for sub in pending.pop().__subclasses__():
            pending.append(sub)
            if sub.__module__.startswith(("rules.battle.", "rules.sets.")):
                found.append(sub)
    return sorted(set(found), key=lambda cls: cls.__name__)


def sample(hint: object, variant: int) -> object:
    """A value of the declared type, one of two variants (defaults left out or not)."""
    if hint is object:  # a ruleset's attack choices
        return sample(RULESET_TYPES[0], variant)
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        members = [m for m in typing.get_args(hint) if m is not type(None)]
        return (
            None
            if variant == 0 and len(members) < len(typing.get_args(hint))
            else sample(members[variant % len(members)], variant)
        )
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is tuple:
        if args and args[-1] is not Ellipsis:
            return tuple(sample(a, variant) for a in args)
        return tuple(sample(args[0], v) for v in range(variant + 1))
    if origin is frozenset:
        return frozenset(sample(args[0], v) for v in range(variant + 1))
    if origin is not None and args and len(args) == 2:  # a mapping
        return MappingProxyType({f"key{v}": sample(args[1], v) for v in range(variant + 1)})
    simple: dict[object, object] = {
        int: 1 + variant,
        str: f"text {variant}",
        bool: variant == 1,
        float: 1.5 + variant,
        Hex: Hex.from_offset(variant, 2),
        Fraction: Fraction(3, 2 + variant),
        Reach: Reach.of(1, 1 + variant),
        Dice: Dice(1 + variant, -1),
        HexGrid: HexGrid(10, 10),
    }
    if hint in simple:
        return simple[hint]
    assert isinstance(hint, type), hint
    if issubclass(hint, Enum):
        members = list(hint)
        return members[variant % len(members)]
    assert dataclasses.is_dataclass(hint), hint
    hints = typing.get_type_hints(hint)
    required = {
        f.name
        for f in dataclasses.fields(hint)
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    }
    values = {
        f.name: sample(hints[f.name], variant)
        for f in dataclasses.fields(hint)
        if f.init and (variant == 1 or f.name in required)
    }
    return hint(**values)


@pytest.mark.parametrize("command_class", every_command_class(), ids=lambda c: c.__name__)
@pytest.mark.parametrize("variant", [0, 1])
def test_every_command_of_the_battle_and_the_rulesets_round_trips(
    command_class: type[Command], variant: int
) -> None:
    codec = ValueCodec(saved_types_for(RULESET_TYPES), HexGrid(10, 10))
    command = sample(command_class, variant)
    encoded = codec.encode(command, Command)
    assert json.loads(json.dumps(encoded)) == encoded  # plain JSON
    assert codec.decode(encoded, Command, "log entry 1") == command


def test_the_file_knows_every_command_without_importing_anything_else() -> None:
    """A fresh program that imports only the file's modules knows every command the
    battle and the rulesets define (none is left to a module nobody imported)."""
    script = (
        "from rules.battle.savefile import saved_types_for\n"
        "from rules.sets.registry import get_ruleset\n"
        "print(' '.join(sorted(saved_types_for(get_ruleset('000').sheets.saved_types).names)))\n"
    )
    known = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    missing = [cls.__name__ for cls in every_command_class() if cls.__name__ not in known]
    assert missing == []


# --- migrations and versions ------------------------------------------------------------


def as_version_1(data: dict[str, object]) -> dict[str, object]:
    """The first draft's layout (docs/file-format.md, "Version 1")."""
    log = data.pop("log")
    assert isinstance(log, list)
    data.pop("undone")
    data.pop("schema_version")
    data["version"] = 1
    data["state"] = data.pop("initial_state")
    data["commands"] = [entry["command"] for entry in log]
    data["dice"] = [entry["dice"] for entry in log]
    return data


def test_a_version_1_file_is_migrated_and_loads_the_same_battle() -> None:
    battle = demo_battle(4)
    play_random_sequence(battle, random.Random(4), 50)
    while battle.can_redo:  # version 1 kept no undo history
        battle.redo()
    old = as_version_1(document(battle))
    loaded = read_battle(text_of(old), rulesets=get_ruleset)
    assert loaded.state == battle.state
    assert loaded.commands == battle.commands
    assert loaded.undone == ()


def test_a_version_1_file_whose_lists_differ_is_refused() -> None:
    old = as_version_1(document(played_battle(1)))
    dice = old["dice"]
    assert isinstance(dice, list)
    old["dice"] = [*dice, [3]]
    with pytest.raises(BattleFileError, match="commands but dice for"):
        read_battle(text_of(old), rulesets=get_ruleset)


def test_a_file_from_a_newer_hexfray_is_refused_with_its_version() -> None:
    data = document(demo_battle(1))
    data["schema_version"] = SCHEMA_VERSION + 1
    data["engine_version"] = "9.0.0"
    with pytest.raises(BattleFileError, match=r"Hexfray 9\.0\.0 .*update Hexfray"):
        read_battle(text_of(data), rulesets=get_ruleset)


# --- refusals in a game master's terms ---------------------------------------------------


def refusal(data: object) -> str:
    with pytest.raises(BattleFileError) as caught:
        read_battle(data if isinstance(data, str | bytes) else text_of(data), rulesets=get_ruleset)
    return str(caught.value)


def test_a_hex_off_the_map_is_named_by_column_and_row() -> None:
    battle = demo_battle(1)
    battle.execute(MoveCombatant("c1", Hex.from_offset(10, 6)))
    data = document(battle)
    data["log"][0]["command"]["destination"] = {"col": 99, "row": 41}  # type: ignore[index]
    message = refusal(data)
    assert "log entry 1" in message and "column 99, row 41 is off the map" in message
    assert "Hex(" not in message and "q=" not in message


def test_a_wrong_facing_names_the_facing_letters() -> None:
    data = document(demo_battle(1))
    data["initial_state"]["combatants"][0]["facing"] = "UP"  # type: ignore[index]
    message = refusal(data)
    assert "not a facing (one of N, NE, SE, S, SW, NW)" in message
    assert "combatants[0].facing" in message


def test_duplicate_ids_unknown_commands_and_wrong_types_are_named() -> None:
    data = document(demo_battle(1))
    combatants = data["initial_state"]["combatants"]  # type: ignore[index]
    combatants[1]["id"] = combatants[0]["id"]
    assert "two combatants have the id 'c1'" in refusal(data)

    data = document(demo_battle(1))
    data["log"] = [{"command": {"@type": "Teleport", "combatant_id": "c1"}, "dice": []}]
    assert "log entry 1: unknown kind 'Teleport'" in refusal(data)

    data = document(demo_battle(1))
    data["initial_state"]["combatants"][0]["hp"] = "lots"  # type: ignore[index]
    assert "combatants[0].hp: expected a whole number" in refusal(data)


def test_hostile_numbers_nesting_and_damage_are_refused() -> None:
    text = write_battle(demo_battle(1), RULESET_TYPES)
    assert "damaged or cut short" in refusal(text[: len(text) // 2])
    assert "nested too deeply" in refusal("[" * 100_000 + "]" * 100_000)
    assert "nested too deeply" in refusal('{"a":' * 70 + "1" + "}" * 70)
    assert "too long to read" in refusal('{"seed": ' + "9" * 5000 + "}")
    data = document(demo_battle(1))
    data["initial_state"]["combatants"][0]["hp"] = 10**30  # type: ignore[index]
    assert "too large" in refusal(data)
    data = document(demo_battle(1))
    data["initial_state"]["grid"] = {"height": 10**6, "width": 10**6}  # type: ignore[index]
    assert "too large" in refusal(data)
    assert "not allowed" in refusal('{"seed": NaN}')
    assert "appears twice" in refusal('{"format": "hexfray-battle", "format": 1}')
    assert "not text" in refusal(b"\xff\xfe\x00garbage")
    assert "not a Hexfray battle file" in refusal({"format": "something else"})


def test_a_log_that_cannot_be_replayed_is_refused() -> None:
    battle = demo_battle(1)
    battle.execute(MoveCombatant("c1", Hex.from_offset(10, 6)))
    data = document(battle)
    data["log"][0]["command"]["combatant_id"] = "nobody"  # type: ignore[index]
    assert "cannot be replayed" in refusal(data)


def test_a_log_refused_part_way_offers_the_battle_before_the_refused_command() -> None:
    battle = played_battle(5, steps=60)
    data = document(battle)
    log = data["log"]
    assert isinstance(log, list) and len(log) > 12
    kept = Battle.replay(
        battle.initial, battle.seed, battle.commands[:9], battle.dice_log[:9], rulesets=get_ruleset
    )
    log[9]["command"] = {"@type": "TurnCombatant", "combatant_id": "nobody", "facing": "N"}
    with pytest.raises(PartlyReplayedFile) as caught:
        read_battle(text_of(data), rulesets=get_ruleset)
    partly = caught.value
    assert "cannot be replayed" in str(partly) and "nobody" in str(partly)
    assert (partly.replayed, partly.total) == (9, len(log) + len(battle.undone))
    assert partly.battle.commands == battle.commands[:9]
    assert partly.battle.state == kept.state and not partly.battle.can_redo


def test_the_text_is_indented_sorted_and_ends_with_a_newline() -> None:
    data = battle_document(demo_battle(2), RULESET_TYPES)
    text = document_text(data)
    assert text.endswith("}\n") and text.startswith('{\n "engine_version"')
    assert text == document_text(json.loads(text))
