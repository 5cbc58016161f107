"""Write each ruleset's demo battle, assets/battles/demo-<key>.hexfray.

    python packaging/make_demo_battles.py              # (re)write every demo battle
    python packaging/make_demo_battles.py --only 002   # only ruleset 002's
    python packaging/make_demo_battles.py --check      # exit 1 if a committed demo is stale

For every ruleset of ``rules.sets.registry.RULESETS`` that has a set-up file
``assets/rulesets/<key>/demo-setup.json``, the script builds a battle the way a GM
would, through ``Battle`` commands only: the map, the ruleset (and its options)
and the named sides go into the initial state, as the New Battle dialog makes it;
then ``PaintTerrain`` for each terrain patch, ``AddCombatant`` for each fighter
(from a bundled template of ``assets/templates/``, on its hex, with its facing
and name) and ``StartTurns``, so that the GM opens the file with the turn order
rolled and the first fighter's turn begun. The dice come from the set-up's fixed
seed, so the same set-up always writes the same file (``rules.battle.savefile``).
A ruleset without a set-up file has no demo battle; ``--check`` names it.

Run it again after a change to a set-up, a template, the rules or the file
format; ``--check`` (tests/rules/test_demo_battles.py runs it) fails while a
committed demo differs from what the script would write, or is missing.

The set-up file (strict JSON; every key not marked optional is required)::

    {
      "name": "Demo 002: ...",            optional: a title (not used in the file)
      "about": "...",                     optional: what the demo shows, for its readers
      "seed": 12,                         optional: the battle's dice seed (default 1)
      "options": ["some-option"],         optional: the ruleset's options (default none)
      "map": {"cols": 20, "rows": 14},    the map's size in hexes
      "sides": [                          optional: 2 to 4 sides with their names and
        {"side": "red", "name": "The Duke's guard", "colour": "#b03a2e"},   colours
        {"side": "blue", "name": "Outlaws", "colour": "#2e5eb0"}            ("red",
      ],                                  "blue", "green", "gold"; "#rrggbb")
      "fighters": [                       at least two, each
        {"template": "002-legionary",     a bundled template's key (its file name in
                                          assets/templates/ without .json), whose
                                          "ruleset" must be this ruleset
         "side": "red",                   the side it fights for (one of "sides")
         "at": {"col": 8, "row": 5},      its hex (offset column and row, as the map shows)
         "facing": "S",                   optional: N, NE, SE, S, SW, NW (default: toward
                                          the map's middle)
         "name": "Sergeant Brann"}        optional: its name (default the template's,
                                          numbered "Fencer 2" if taken)
      ],
      "terrain": [                        optional: patches painted in order, each
        {"hexes": [{"col": 9, "row": 7}], the hexes, and any of
         "light": 4,                      darkness 0 (daylight) to 10 (total darkness)
         "footing": "bad",                good, bad, very bad, treacherous
         "water": "knee",                 none, ankle, knee, thigh, hip, waist, chest, deep
         "cover": "partial",              none, partial, full
         "height": 1}                     whole levels above the ground
      ]
    }

Set the fighters a few hexes apart, facing each other, so that the demo's first
rounds show movement, attacks and wounds (the ten-round test,
tests/rules/test_demo_battles.py, plays each demo with a simple policy and fails
if nobody attacks or no hit point is lost).
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
BATTLES = ROOT / "assets" / "battles"
RULESETS_DIR = ROOT / "assets" / "rulesets"
TEMPLATES = ROOT / "assets" / "templates"
SETUP_NAME = "demo-setup.json"
SCRIPT_NAME = "packaging/make_demo_battles.py"
DEFAULT_SEED = 1
sys.path.insert(0, str(ROOT))

from app.new_battle import facing_toward_centre  # noqa: E402  (the repository root is on the path)
from app.templates import numbered_name, read_template_file  # noqa: E402
from hexmap import Facing, Hex, HexGrid  # noqa: E402
from rules.battle.battle import Battle  # noqa: E402
from rules.battle.commands import PaintTerrain  # noqa: E402
from rules.battle.model import Combatant, Fighter, Side  # noqa: E402
from rules.battle.roster import AddCombatant, next_combatant_id  # noqa: E402
from rules.battle.savefile import json_object  # noqa: E402
from rules.battle.sides import SideSetup  # noqa: E402
from rules.battle.state import BattleState  # noqa: E402
from rules.battle.terrain import Cover, Footing, Light, TerrainChange, WaterDepth  # noqa: E402
from rules.battle.turns import StartTurns  # noqa: E402
from rules.core.errors import DataError, RulesError  # noqa: E402
from rules.core.jsondata import (  # noqa: E402
    as_enum,
    as_list,
    as_object,
    check_keys,
    get_enum,
    get_int,
    get_str,
)
from rules.sets.registry import get_ruleset, ruleset_keys  # noqa: E402


def _example_script() -> ModuleType:
    """packaging/make_example_battle.py (packaging/ is no package): its hexes and
    its battle text are this script's too."""
    spec = importlib.util.spec_from_file_location(
        "hexfray_make_example_battle", Path(__file__).with_name("make_example_battle.py")
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


EXAMPLE = _example_script()
SETUP_KEYS = ("map", "fighters")
SETUP_OPTIONAL = ("name", "about", "seed", "options", "sides", "terrain")
FIGHTER_KEYS = ("template", "side", "at")
FIGHTER_OPTIONAL = ("facing", "name")
TERRAIN_OPTIONAL = ("light", "footing", "water", "cover", "height")


class SetupError(DataError):
    """A set-up file that cannot be built; the message names the place in it."""


def setup_path(key: str) -> Path:
    return RULESETS_DIR / key / SETUP_NAME


def demo_path(key: str) -> Path:
    return BATTLES / f"demo-{key}.hexfray"


def demo_keys() -> tuple[str, ...]:
    """The registered rulesets that have a demo set-up, in the registry's order."""
    return tuple(key for key in ruleset_keys() if setup_path(key).is_file())


@dataclass(frozen=True)
class FighterEntry:
    template: str
    side: Side
    at: Hex
    facing: Facing | None
    name: str


def _hex(data: object, where: str, grid: HexGrid) -> Hex:
    obj = as_object(data, where)
    check_keys(obj, where, ("col", "row"))
    at = Hex.from_offset(get_int(obj, "col", where), get_int(obj, "row", where))
    if at not in grid:
        raise SetupError(f"{where}: {at} is off the {grid.width} x {grid.height} map")
    return at


def _sides(data: object) -> tuple[SideSetup, ...]:
    sides: list[SideSetup] = []
    for i, item in enumerate(as_list(data, "sides")):
        where = f"sides[{i}]"
        obj = as_object(item, where)
        check_keys(obj, where, ("side", "name", "colour"))
        try:
            sides.append(
                SideSetup(
                    get_enum(obj, "side", Side, where),
                    get_str(obj, "name", where),
                    get_str(obj, "colour", where),
                )
            )
        except RulesError as exc:
            raise SetupError(f"{where}: {exc}") from None
    if len({s.side for s in sides}) != len(sides):
        raise SetupError("sides: a side is named twice")
    return tuple(sides)


def _terrain(data: object, grid: HexGrid) -> tuple[PaintTerrain, ...]:
    patches: list[PaintTerrain] = []
    for i, item in enumerate(as_list(data, "terrain")):
        where = f"terrain[{i}]"
        obj = as_object(item, where)
        check_keys(obj, where, ("hexes",), TERRAIN_OPTIONAL)
        places = tuple(
            _hex(h, f"{where}.hexes[{j}]", grid)
            for j, h in enumerate(as_list(obj["hexes"], f"{where}.hexes"))
        )
        change = TerrainChange(
            light=Light(get_int(obj, "light", where)) if "light" in obj else None,
            footing=get_enum(obj, "footing", Footing, where) if "footing" in obj else None,
            water=get_enum(obj, "water", WaterDepth, where) if "water" in obj else None,
            cover=get_enum(obj, "cover", Cover, where) if "cover" in obj else None,
            height=get_int(obj, "height", where) if "height" in obj else None,
        )
        if not places or change.is_empty:
            raise SetupError(f"{where}: a patch needs hexes and something to paint")
        patches.append(PaintTerrain(places, change))
    return tuple(patches)


def _fighters(data: object, grid: HexGrid, sides: Sequence[Side]) -> tuple[FighterEntry, ...]:
    entries: list[FighterEntry] = []
    for i, item in enumerate(as_list(data, "fighters")):
        where = f"fighters[{i}]"
        obj = as_object(item, where)
        check_keys(obj, where, FIGHTER_KEYS, FIGHTER_OPTIONAL)
        side = get_enum(obj, "side", Side, where)
        if side not in sides:
            raise SetupError(f"{where}.side: {side.value!r} is not one of the set-up's sides")
        entries.append(
            FighterEntry(
                template=get_str(obj, "template", where),
                side=side,
                at=_hex(obj["at"], f"{where}.at", grid),
                facing=as_enum(obj["facing"], Facing, f"{where}.facing")
                if "facing" in obj
                else None,
                name=get_str(obj, "name", where) if "name" in obj else "",
            )
        )
    if len(entries) < 2:
        raise SetupError("fighters: a demo battle needs at least two fighters")
    return tuple(entries)


def template_fighter(key: str, template_key: str, where: str) -> Fighter:
    """The fighter of the bundled template ``template_key``, which must be a
    template of ruleset ``key``."""
    path = TEMPLATES / f"{template_key}.json"
    if not path.is_file():
        raise SetupError(f"{where}.template: no bundled template {template_key!r} ({path.name})")
    try:
        template = read_template_file(path)
    except DataError as exc:
        raise SetupError(f"{where}.template: {path.name}: {exc}") from None
    if template.ruleset_key != key:
        raise SetupError(
            f"{where}.template: {template_key!r} is a template of ruleset "
            f"{template.ruleset_key}, not of ruleset {key}"
        )
    return template.fighter


def demo_battle(key: str, setup: Mapping[str, object]) -> Battle:
    """The demo battle of ruleset ``key`` that ``setup`` (a parsed set-up file)
    describes, built through commands and with its turns started."""
    check_keys(setup, "demo-setup", SETUP_KEYS, SETUP_OPTIONAL)
    size = as_object(setup["map"], "map")
    check_keys(size, "map", ("cols", "rows"))
    cols, rows = get_int(size, "cols", "map"), get_int(size, "rows", "map")
    if cols < 2 or rows < 2:
        raise SetupError(f"map: at least 2 x 2 hexes, got {cols} x {rows}")
    grid = HexGrid(cols, rows)
    seed = get_int(setup, "seed", "demo-setup", DEFAULT_SEED)
    options = tuple(
        str(o) if isinstance(o, str) else _not_text(o, f"options[{i}]")
        for i, o in enumerate(as_list(setup.get("options", []), "options"))
    )
    sides = _sides(setup["sides"]) if "sides" in setup else ()
    side_members = tuple(s.side for s in sides) if sides else tuple(Side)
    get_ruleset(key, options)  # an unknown option is refused here, by its name
    state = BattleState(grid, (), ruleset_key=key, ruleset_options=options, sides=sides)
    battle = Battle(state, seed, get_ruleset)
    for patch in _terrain(setup.get("terrain", []), grid):
        battle.execute(patch)
    for i, entry in enumerate(_fighters(setup["fighters"], grid, side_members)):
        fighter = template_fighter(key, entry.template, f"fighters[{i}]")
        name = numbered_name(battle.state, entry.name or fighter.name)
        fighter = replace(fighter, name=name)
        # Facing.N is 0: only a facing left out means toward the middle.
        facing = (
            entry.facing if entry.facing is not None else facing_toward_centre(grid, entry.at)
        )
        combatant = Combatant(
            next_combatant_id(battle.state),
            fighter,
            entry.side,
            entry.at,
            facing,
            fighter.hit_points,
        )
        try:
            battle.execute(AddCombatant(combatant))
        except RulesError as exc:
            raise SetupError(f"fighters[{i}]: {exc}") from None
    battle.execute(StartTurns())
    return battle


def _not_text(value: object, where: str) -> str:
    raise SetupError(f"{where}: an option is a name, got {value!r:.40}")


def read_setup(key: str) -> Mapping[str, object]:
    path = setup_path(key)
    return json_object(path.read_bytes(), SetupError, 32, kind="a demo set-up", holding="set-up")


def demo_text(key: str) -> str:
    """The text of ruleset ``key``'s demo battle file, as the script writes it."""
    try:
        battle = demo_battle(key, read_setup(key))
    except DataError as exc:
        raise SetupError(f"{setup_path(key).relative_to(ROOT)}: {exc}") from None
    text: str = EXAMPLE.battle_text(battle)
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--only", metavar="KEY", action="append", help="only this ruleset's demo")
    parser.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 if a committed demo differs from what would be written",
    )
    args = parser.parse_args(argv)
    keys = demo_keys()
    for asked in args.only or ():
        if asked not in ruleset_keys():
            parser.error(f"no ruleset {asked!r} (known: {', '.join(ruleset_keys())})")
        if asked not in keys:
            parser.error(f"ruleset {asked} has no {setup_path(asked).relative_to(ROOT)}")
    chosen = [k for k in keys if not args.only or k in args.only]
    stale: list[str] = []
    for key in chosen:
        out = demo_path(key)
        try:
            text = demo_text(key)
        except SetupError as exc:
            print(f"cannot build the demo of ruleset {key}: {exc}", file=sys.stderr)
            return 2
        if args.check:
            if not out.is_file() or out.read_text(encoding="utf-8") != text:
                stale.append(str(out.relative_to(ROOT)))
            continue
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text, encoding="utf-8", newline="\n")
        print(f"wrote {out.relative_to(ROOT)} ({len(text.encode('utf-8')):,} bytes)")
    if args.check:
        missing = [k for k in ruleset_keys() if k not in keys]
        for key in missing:
            print(f"ruleset {key} has no demo set-up ({setup_path(key).relative_to(ROOT)})")
        for path in stale:
            print(f"{path} is not what the script writes: run python {SCRIPT_NAME}")
        if stale:
            return 1
        print(f"the demo battles of {', '.join(chosen) or 'no ruleset'} are up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
