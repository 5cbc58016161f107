"""Write the example battle file, assets/battles/evening-in-progress.hexfray.

    python packaging/make_example_battle.py            # rewrite the example
    python packaging/make_example_battle.py --out F    # write somewhere else

The demo battle (assets/battles/demo.json, seed 7) played by a script: terrain
painted (a muddy patch, dim light, a low wall), the blue fighters close in, blows
are traded over three turns (someone is wounded), the spearman drops his knife, a
weapon may fly, and the last facing change is undone, so that the file shows every
part of the format: the initial state, the log with its dice and the undo position
(docs/file-format.md). The same script always writes the same file
(tests/app/test_example_battle.py checks it); run it again after a change to the
rules or the format.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "assets" / "battles" / "evening-in-progress.hexfray"
sys.path.insert(0, str(ROOT))

from hexmap import Facing, Hex  # noqa: E402  (the repository root is on the path now)
from rules.battle.battle import Battle  # noqa: E402
from rules.battle.catalog import load_demo_battle  # noqa: E402
from rules.battle.commands import (  # noqa: E402
    DropItem,
    EndTurn,
    MoveCombatant,
    PaintTerrain,
    TurnCombatant,
)
from rules.battle.savefile import write_battle  # noqa: E402
from rules.battle.state import BattleState  # noqa: E402
from rules.battle.terrain import Cover, Footing, Light, TerrainChange  # noqa: E402
from rules.core.errors import RulesError  # noqa: E402
from rules.sets.protocol import plain_attack  # noqa: E402
from rules.sets.registry import get_ruleset, ruleset_of  # noqa: E402

SEED = 7
TURNS = 3  # turns fought; the battle is then in its fourth


def hexes(*offsets: tuple[int, int]) -> tuple[Hex, ...]:
    return tuple(Hex.from_offset(col, row) for col, row in offsets)


def attack(battle: Battle, attacker: str, defender: str) -> None:
    """A plain attack (the ruleset's default choices, the defender's likeliest
    answer), if it can be made now."""
    state = battle.state
    attack = plain_attack(ruleset_of(state), state, attacker, defender)
    if attack is None:
        return
    # A fighter down or disarmed cannot strike: the evening goes on.
    with contextlib.suppress(RulesError):
        battle.execute(attack)


def example_battle() -> Battle:
    grid, combatants = load_demo_battle()
    battle = Battle(BattleState(grid, combatants), SEED, get_ruleset)
    battle.execute(PaintTerrain(hexes((9, 7), (9, 8), (10, 8)), TerrainChange(footing=Footing.BAD)))
    battle.execute(PaintTerrain(hexes((15, 5), (15, 6), (16, 6)), TerrainChange(light=Light.DIM_4)))
    battle.execute(PaintTerrain(hexes((12, 9)), TerrainChange(cover=Cover.PARTIAL)))
    battle.execute(MoveCombatant("c3", Hex.from_offset(11, 7)))
    battle.execute(DropItem("c2", "knife"))
    for _ in range(TURNS):
        attack(battle, "c1", "c3")
        attack(battle, "c3", "c1")
        attack(battle, "c2", "c4")
        attack(battle, "c4", "c2")
        battle.execute(EndTurn())
    battle.execute(TurnCombatant("c4", Facing.NW))
    battle.undo()  # the GM took the last facing change back: it waits for a redo
    return battle


def battle_text(battle: Battle) -> str:
    """The battle file's text (``rules.battle.savefile``), with its ruleset's types;
    packaging/make_demo_battles.py writes the demo battles with it too."""
    return write_battle(battle, get_ruleset(battle.initial.ruleset_key).sheets.saved_types)


def check_example(battle: Battle) -> None:
    """What the example is for: a battle in progress with every part of a file."""
    state = battle.state
    problems = [
        "not yet in its third turn" if state.turn < TURNS else "",
        "no item on the ground" if not state.items else "",
        "no painted terrain" if not len(state.terrain) else "",
        "nobody wounded" if all(c.hp == c.fighter.hit_points for c in state.combatants) else "",
        "nothing undone" if not battle.undone else "",
    ]
    found = [p for p in problems if p]
    if found:
        raise SystemExit(f"the example battle is {', '.join(found)}: change the script")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help="the battle file to write")
    args = parser.parse_args(argv)
    battle = example_battle()
    check_example(battle)
    text = battle_text(battle)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8", newline="\n")
    print(f"wrote {args.out} ({len(text.encode('utf-8')):,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
