"""``main.py autobattle FILE.hexfray``: a saved battle played to its end by the
computer, without a window (rules.play.autoplay).

Every computer fighter plays its own policy, every GM's fighter the default one
(aggressive). It prints the winner,
the rounds and each fighter's end state, one line each or, with ``--json``, one
JSON object; ``--save`` writes the played battle (its log replays exactly). A
file that cannot be opened: one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from app.files import add_battle_file_argument, open_battle_or_say_why, save_battle
from rules.battle.battle import Battle
from rules.battle.sides import side_name
from rules.play.autoplay import DEFAULT_MAX_ROUNDS, AutoPlayReport, auto_play
from rules.play.policies import AGGRESSIVE
from rules.sets.protocol import Ruleset
from rules.sets.registry import get_ruleset

EXIT_BAD_FILE = 2


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="hexfray autobattle",
        description="Play a saved battle to its end with every fighter computer-controlled "
        "(its own policy; a GM's fighter the aggressive one) and print how it ended.",
    )
    add_battle_file_argument(parser, "the battle to play")
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        help="the dice seed of the commands played (default: the file's own)",
    )
    parser.add_argument(
        "--max-rounds",
        type=int,
        default=DEFAULT_MAX_ROUNDS,
        help=f"stop after this round if nobody has won (default {DEFAULT_MAX_ROUNDS})",
    )
    parser.add_argument(
        "--save", metavar="OUT.hexfray", type=Path, help="write the played battle there"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if args.max_rounds < 1:
        parser.error("--max-rounds: at least 1")
    return args


def with_seed(battle: Battle, seed: int) -> Battle:
    """The same battle (its log on its recorded dice) whose next commands roll
    with ``seed``."""
    return Battle.restore(
        battle.initial,
        seed,
        battle.commands,
        battle.dice_log,
        battle.undone,
        rulesets=battle.rulesets,
        entered=(*battle.entered_log, *battle.undone_entered),
    )


def summary(battle: Battle, report: AutoPlayReport) -> dict[str, object]:
    """How the battle ended, as the JSON object prints it."""
    state = battle.state
    ruleset: Ruleset = get_ruleset(state.ruleset_key, state.ruleset_options)
    fighters = []
    for c in state.combatants:
        health = ruleset.conditions.health(c)
        condition = ruleset.conditions.fighter_condition(c)
        fighters.append(
            {
                "id": c.id,
                "name": c.name,
                "side": side_name(state.sides, c.side),
                "health": health.text,
                "able_to_act": condition.able_to_act,
                "conditions": list(ruleset.conditions.labels(c)),
            }
        )
    return {
        "decided": report.decided,
        "winner": report.winner_name if report.decided else None,
        "draw": report.decided and report.winner is None,
        "rounds": report.rounds,
        "stopped_for": report.stopped_for,
        "decisions": len(report.decisions),
        "refused": report.refused,
        "fighters": fighters,
    }


def lines(result: dict[str, object]) -> list[str]:
    """The summary as lines: the result, the rounds, then each fighter."""
    if result["decided"]:
        first = "Draw" if result["draw"] else f"Winner: {result['winner']}"
    else:
        first = f"Undecided: stopped at {result['stopped_for']}"
    out = [first, f"Rounds: {result['rounds']}"]
    fighters = result["fighters"]
    assert isinstance(fighters, list)
    for f in fighters:
        state = "able to act" if f["able_to_act"] else "out of the fight"
        labels = ", ".join(f["conditions"])
        out.append(
            f"{f['name']} ({f['side']}): {f['health']}, {state}" + (f", {labels}" if labels else "")
        )
    return out


def run(argv: Sequence[str]) -> int:
    args = parse_args(argv)
    battle = open_battle_or_say_why(args.file)
    if battle is None:
        return EXIT_BAD_FILE
    if args.seed is not None:
        battle = with_seed(battle, args.seed)
    report = auto_play(battle, default=AGGRESSIVE, max_rounds=args.max_rounds)
    result = summary(battle, report)
    if args.save is not None:
        try:
            save_battle(battle, args.save)
        except (OSError, ValueError) as problem:
            print(f"hexfray: cannot write {args.save}: {problem}", file=sys.stderr)
            return 1
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        for line in lines(result):
            print(line)
    return 0
