"""``main.py simulate FILE.hexfray --runs N --seed S``: many battles of one saved
battle, every fighter computer-controlled, counted (rules.sim).

Options: ``--workers K`` (the local process pool's workers, default every core;
1 plays in this process), ``--scheduler tcp://HOST:PORT`` (a Dask cluster instead),
``--until-ci W`` (stop once every side's win-rate 95% interval is at most W wide),
``--max-rounds R``, ``--json`` (the summary as one JSON object), ``--csv OUT`` (one
row per battle; with a sweep, one row per value), ``--sweep SPEC`` (one thing of
one fighter varied, rules.sim.sweep). A progress bar goes to stderr, the summary
to stdout. A bad file or argument: one line on stderr and exit status 2; Ctrl+C
stops every worker, prints what was counted and exits 130.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import json
import re
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, NoReturn

from tqdm import tqdm

from app.files import add_battle_file_argument, open_battle_or_say_why
from rules.battle.model import Side
from rules.battle.sides import side_name
from rules.battle.state import BattleState
from rules.play.autoplay import DEFAULT_MAX_ROUNDS
from rules.sim.backends import Backend, BatchResult, InProcess, ProcessPool, available_cores
from rules.sim.battle_record import BattleRecord, BattleSetup, battle_setup
from rules.sim.runner import Cancel, RunResult, run_battles
from rules.sim.seeds import MAX_MASTER_SEED
from rules.sim.sweep import SweepError, parse_sweep, sweep_states
from rules.sim.tally import Tally

EXIT_BAD_INPUT = 2  # a bad file or argument, as argparse's own errors
EXIT_CANCELLED = 130  # stopped by Ctrl+C, as a shell reports SIGINT
MAX_RUNS = 100_000_000
MAX_WORKERS = 4096
MAX_ROUNDS = 100_000
MAX_MESSAGE = 400  # characters of an error's message on its one line
_WHOLE = re.compile(r"\+?[0-9]{1,40}")  # checked before int(): no huge digit strings
_FRACTION = re.compile(r"(0?\.[0-9]{1,9}|1(\.0{0,9})?|0)")
_ADDRESS = re.compile(r"[a-z][a-z0-9+.-]{0,15}://[^\s/]{1,253}(:[0-9]{1,5})?/?|[^\s/:]{1,253}:[0-9]{1,5}")


class _Parser(argparse.ArgumentParser):
    """argparse, but a bad argument is one line (no usage) and status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: {' '.join(message.split())}\n")


def whole_number(low: int, high: int) -> Callable[[str], int]:
    def read(text: str) -> int:
        text = text.strip()
        if not _WHOLE.fullmatch(text):
            raise argparse.ArgumentTypeError(f"not a whole number: {text[:20]!r}")
        value = int(text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{low:,} to {high:,}, not {text[:20]}")
        return value

    read.__name__ = "whole number"
    return read


def ci_width(text: str) -> float:
    """A width of an interval as a fraction, more than 0 and at most 1 ("0.02")."""
    text = text.strip()
    if not _FRACTION.fullmatch(text) or float(text) <= 0:
        raise argparse.ArgumentTypeError(f"a width between 0 and 1 such as 0.02, not {text[:20]!r}")
    return float(text)


def scheduler_address(text: str) -> str:
    text = text.strip()
    if not _ADDRESS.fullmatch(text):
        raise argparse.ArgumentTypeError(
            f"a scheduler's address such as tcp://host:8786, not {text[:60]!r}"
        )
    return text


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = _Parser(
        prog="hexfray simulate",
        description="Play a saved battle many times with every fighter computer-controlled "
        "and print each side's win rate with its 95%% interval, and more.",
    )
    add_battle_file_argument(parser, "the battle to simulate")
    parser.add_argument(
        "--runs",
        required=True,
        type=whole_number(1, MAX_RUNS),
        help="how many battles (the most with --until-ci)",
    )
    parser.add_argument(
        "--seed",
        required=True,
        type=whole_number(0, MAX_MASTER_SEED),
        help="the run's master seed: each battle's seed is spawned from it",
    )
    parser.add_argument(
        "--workers",
        type=whole_number(1, MAX_WORKERS),
        default=None,
        help="worker processes on this machine (default: every core; 1 plays here)",
    )
    parser.add_argument(
        "--scheduler",
        metavar="ADDR",
        type=scheduler_address,
        help="a Dask scheduler's address (tcp://HOST:PORT) to play the battles on its cluster",
    )
    parser.add_argument(
        "--until-ci",
        metavar="W",
        type=ci_width,
        help="stop once every side's win-rate 95%% interval is at most W wide (0.02: 2 points)",
    )
    parser.add_argument(
        "--max-rounds",
        type=whole_number(1, MAX_ROUNDS),
        default=DEFAULT_MAX_ROUNDS,
        help=f"a battle not decided after this round is stopped (default {DEFAULT_MAX_ROUNDS})",
    )
    parser.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    parser.add_argument(
        "--csv", metavar="OUT", type=Path, help="write one row per battle (with --sweep: per value)"
    )
    parser.add_argument(
        "--sweep",
        metavar="SPEC",
        help='vary one thing of one fighter: "Fencer.skill=10..18", "Knight.shield=none,small"',
    )
    args = parser.parse_args(argv)
    if args.scheduler is not None and args.workers is not None:
        parser.error("--workers and --scheduler: one or the other")
    if args.sweep is not None:
        try:
            args.sweep = parse_sweep(args.sweep)
        except SweepError as refusal:
            parser.error(f"--sweep: {refusal}")
    return args


# --- the backends -----------------------------------------------------------------------
def make_backend(args: argparse.Namespace) -> Backend:
    if args.scheduler is not None:
        from rules.sim.dask_backend import DaskCluster

        return DaskCluster(args.scheduler)
    workers = args.workers if args.workers is not None else available_cores()
    return InProcess() if workers == 1 else ProcessPool(workers)


@contextlib.contextmanager
def ctrl_c_cancels(cancel: Cancel) -> Iterator[None]:
    """Ctrl+C cancels the run (which then ends its workers) instead of raising."""
    try:
        previous = signal.signal(signal.SIGINT, lambda _sig, _frame: cancel())
    except ValueError:  # not the main thread: leave signals alone
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


# --- per-battle rows --------------------------------------------------------------------
BATTLE_COLUMNS = (
    "battle", "seed", "winner", "stopped", "rounds", "dropped", "broken", "knocked_away",
    "scatter", "injury_by_location",
)  # fmt: skip


def battle_row(number: int, record: BattleRecord) -> list[object]:
    row: list[object] = [
        number,
        record.seed,
        record.winner or "",
        int(record.stopped),
        record.rounds,
        record.dropped,
        record.broken,
        record.knocked_away,
        " ".join(str(d) for d in record.scatter),
        "; ".join(f"{where}: {injury}" for where, injury in record.injury_by_location),
    ]
    for end in record.fighters:
        row += [end.end, end.injury]
    return row


@dataclass
class BattleRows:
    """Writes each battle of a run as a CSV row, in battle order."""

    out: IO[str]
    header_written: bool = False

    def __post_init__(self) -> None:
        self.writer = csv.writer(self.out)

    def write(self, batch: BatchResult, _tally: Tally) -> None:
        for offset, record in enumerate(batch.records):
            if not self.header_written:
                fighters = [(f"{f.name} end", f"{f.name} injury") for f in record.fighters]
                self.writer.writerow([*BATTLE_COLUMNS, *(c for pair in fighters for c in pair)])
                self.header_written = True
            self.writer.writerow(battle_row(batch.job.first + offset, record))


# --- a run ------------------------------------------------------------------------------
def side_names(state: BattleState) -> dict[str, str]:
    return {side.value: side_name(state.sides, side) for side in Side}


def play(
    setup: BattleSetup,
    args: argparse.Namespace,
    cancel: Cancel,
    label: str,
    rows: BattleRows | None,
) -> RunResult:
    backend = make_backend(args)
    with tqdm(
        total=args.runs,
        desc=label,
        unit="battle",
        file=sys.stderr,
        mininterval=0.5,
        dynamic_ncols=True,
    ) as bar:
        return run_battles(
            setup,
            runs=args.runs,
            master_seed=args.seed,
            max_rounds=args.max_rounds,
            backend=backend,
            until_ci=args.until_ci,
            cancel=cancel,
            on_batch=rows.write if rows is not None else None,
            on_progress=bar.update,
        )


def run_summary(
    result: RunResult, args: argparse.Namespace, names: dict[str, str]
) -> dict[str, object]:
    summary = result.tally.summary()
    return {
        "file": str(args.file),
        "seed": args.seed,
        "runs": args.runs,
        "max_rounds": args.max_rounds,
        "until_ci": args.until_ci,
        "settled": result.settled,
        "cancelled": result.cancelled,
        "seconds": result.seconds,
        "battles_per_s": result.battles / result.seconds if result.seconds else None,
        "side_names": {key: names[key] for key in result.tally.sides if key in names},
        **summary,
    }


def how_it_ended(result: RunResult) -> str:
    if result.cancelled:
        return f"Cancelled after {result.battles:,} of {result.runs:,} battles"
    if result.settled:
        return (
            f"Stopped after {result.battles:,} battles: every win rate's interval is narrow enough"
        )
    rate = result.battles / max(result.seconds, 1e-9)
    return f"{result.battles:,} battles in {result.seconds:.1f} s ({rate:,.1f} a second)"


def sweep_row(
    value: str, result: RunResult, sides: list[str], names: dict[str, str]
) -> list[object]:
    tally = result.tally
    row: list[object] = [value, tally.battles]
    for side in sides:
        interval = tally.win_interval(side)
        row += [round(interval.rate, 6), round(interval.low, 6), round(interval.high, 6)]
    summary = tally.summary()["rounds_to_decision"]
    assert isinstance(summary, dict)
    row += [tally.draws, tally.stopped, summary["median"]]
    return row


def sweep_header(thing: str, sides: list[str], names: dict[str, str]) -> list[str]:
    header = [thing, "battles"]
    for side in sides:
        name = names.get(side, side)
        header += [f"{name} wins", f"{name} ci95 low", f"{name} ci95 high"]
    return [*header, "draws", "stopped", "median rounds"]


def sweep_table(header: list[str], rows: list[list[object]]) -> list[str]:
    """The sweep's rows as aligned text, rates as percentages."""
    texts = [header] + [[_cell(header[i], value) for i, value in enumerate(row)] for row in rows]
    widths = [max(len(r[i]) for r in texts) for i in range(len(header))]
    return ["  ".join(cell.rjust(w) for cell, w in zip(r, widths, strict=True)) for r in texts]


def _cell(column: str, value: object) -> str:
    if isinstance(value, float) and (" wins" in column or " ci95 " in column):
        return f"{100 * value:.1f}%"
    if isinstance(value, float):
        return f"{value:g}"
    return "-" if value is None else str(value)


def run(argv: Sequence[str]) -> int:
    args = parse_args(argv)
    battle = open_battle_or_say_why(args.file)
    if battle is None:
        return EXIT_BAD_INPUT
    state = battle.state
    names = side_names(state)
    try:
        variants = [("", state)] if args.sweep is None else sweep_states(state, args.sweep)
    except SweepError as refusal:
        print(f"hexfray: --sweep: {refusal}", file=sys.stderr)
        return EXIT_BAD_INPUT
    csv_file: IO[str] | None = None
    if args.csv is not None:
        try:
            csv_file = args.csv.open("w", encoding="utf-8", newline="")
        except OSError as problem:
            print(
                f"hexfray: cannot write {args.csv}: {problem.strerror or problem}", file=sys.stderr
            )
            return EXIT_BAD_INPUT
    cancel = Cancel()
    try:
        with ctrl_c_cancels(cancel):
            return _run_variants(args, variants, names, cancel, csv_file)
    except Exception as problem:  # a worker's error, a cluster that cannot be reached
        said = " ".join(str(problem).split())[:MAX_MESSAGE]  # one line
        print(f"hexfray: simulation failed: {type(problem).__name__}: {said}", file=sys.stderr)
        return 1
    finally:
        if csv_file is not None:
            csv_file.close()


def _run_variants(
    args: argparse.Namespace,
    variants: list[tuple[str, BattleState]],
    names: dict[str, str],
    cancel: Cancel,
    csv_file: IO[str] | None,
) -> int:
    if args.sweep is None:
        rows = BattleRows(csv_file) if csv_file is not None else None
        result = play(battle_setup(variants[0][1]), args, cancel, "battles", rows)
        if args.json:
            print(json.dumps(run_summary(result, args, names), ensure_ascii=False))
        else:
            print(how_it_ended(result))
            for line in result.tally.lines(names):
                print(line)
        return EXIT_CANCELLED if result.cancelled else 0
    results: list[tuple[str, RunResult]] = []
    for value, state in variants:
        label = f"{args.sweep.thing}={value}"
        results.append((value, play(battle_setup(state), args, cancel, label, None)))
        if cancel.requested:
            break
    sides: list[str] = []
    for _value, result in results:
        sides += [s for s in result.tally.sides if s not in sides]
    header = sweep_header(args.sweep.thing, sides, names)
    table = [sweep_row(value, result, sides, names) for value, result in results]
    if csv_file is not None:
        writer = csv.writer(csv_file)
        writer.writerow(header)
        writer.writerows(table)
    if args.json:
        print(
            json.dumps(
                {
                    "sweep": {"fighter": args.sweep.fighter, "thing": args.sweep.thing},
                    "values": [
                        {"value": value, **run_summary(result, args, names)}
                        for value, result in results
                    ],
                },
                ensure_ascii=False,
            )
        )
    else:
        print(f"Sweep of {args.sweep.fighter}'s {args.sweep.thing} (win rates with 95% intervals)")
        for line in sweep_table(header, table):
            print(line)
    return EXIT_CANCELLED if cancel.requested else 0
