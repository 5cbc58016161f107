"""README.md and docs/ are guides for a GM and the next engineer, not diaries.

They say what the program is and does. When a figure was measured, how busy the
machine was, what a figure was before a change, or which session changed it is
history, and history belongs in commit messages (issue 22, "README and docs are
guides, not diaries"). And the README's speed table names exactly the figures
`make bench` prints (`main.py --benchmark --json`), read from app/benchmark.py.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
GUIDES = (README, *sorted((ROOT / "docs").glob("*.md")))
BENCHMARK = ROOT / "app" / "benchmark.py"

_MONTH = (
    r"(?:January|February|March|April|May|June|July|August|September|October"
    r"|November|December)"
)
# Each kind of diary text, as it was written in these files before issue 22.
DIARY: dict[str, re.Pattern[str]] = {
    "a date": re.compile(
        rf"\b\d{{1,2}} {_MONTH}\b|\b{_MONTH} (?:\d{{1,2}}|\d{{4}})\b|\b20\d\d-\d\d-\d\d\b"
    ),
    "a time of day": re.compile(r"\bUTC\b|\bat \d{1,2}:\d{2}\b"),
    "how busy the machine was": re.compile(
        r"\bload(?: average)?(?: of)? \d|\bunder load\b"
        r"|\b(?:quiet|busy|loaded|idle) machine\b"
        r"|\bmachine (?:was |still )?(?:busy|quiet|idle)\b",
        re.IGNORECASE,
    ),
    "a session": re.compile(r"\bsessions?\b", re.IGNORECASE),
    "an earlier run or figure": re.compile(
        r"\b(?:latest|previous|earlier|quiet|busy|later) runs?\b"
        r"|\bearlier (?:figure|tree|that day|the same day)\b"
        r"|\(\s*[\d.,]+ ?(?:ms|s|MiB|M|%|x)? before\b"
        r"|\bfrom [\d.,]+ ?ms to [\d.,]+ ?ms\b"
        r"|[\d.,]+(?: ?(?:ms|s|MiB|M))? ?(?:->|→) ?[\d.,]+ ?(?:ms|s|MiB|M)\b",
        re.IGNORECASE,
    ),
    "a before/after table": re.compile(
        r"^\|.*\|\s*before\b[^|]*\|\s*after\b", re.IGNORECASE | re.MULTILINE
    ),
    "a commit": re.compile(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b"),
    "an issue's history": re.compile(
        r"\b(?:before|after|under|since|until) issue \d+|\bissue \d+'s\b", re.IGNORECASE
    ),
}


def diary_text(text: str) -> list[tuple[int, str, str]]:
    """(line number, kind, the words) of every piece of diary text in ``text``."""
    found = []
    for kind, pattern in DIARY.items():
        for match in pattern.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            found.append((line, kind, match.group(0)))
    return sorted(found)


@pytest.mark.parametrize("guide", GUIDES, ids=lambda path: path.relative_to(ROOT).as_posix())
def test_the_guide_tells_no_dated_run(guide: Path) -> None:
    found = diary_text(guide.read_text(encoding="utf-8"))
    where = guide.relative_to(ROOT).as_posix()
    assert not found, "\n".join(f"{where}:{line}: {kind}: {words!r}" for line, kind, words in found)


# What README.md and docs/ said before issue 22, one sample of each kind, and text
# of the same words that a guide may well say.
DIARY_SAMPLES = (
    ("a date", "one run on 1 December 2026 at"),
    ("a date", "Three `make bench` runs on 2 December at"),
    ("a time of day", "at 18:26 UTC on a quiet machine"),
    ("a time of day", "the worst set-up alone, cold, minimum of 9 runs, at 01:47"),
    ("how busy the machine was", "kept one of the two cores busy (load 1.6 to 1.9)"),
    ("how busy the machine was", "found the machine busy throughout"),
    ("how busy the machine was", "(All figures from one run each, under load.)"),
    ("how busy the machine was", "about 20 s each on a quiet machine, 24 s on a busy one"),
    ("a session", "at the end of the session that applied issue 11's rules"),
    ("a session", "The next session found"),
    ("an earlier run or figure", "The latest run, `packaging/measure.py --runs 11`"),
    ("an earlier run or figure", "| 5.4 ms (4.4 ms earlier that day) |"),
    ("an earlier run or figure", "7.4 ms (8.3 ms before the tokens were drawn into whole pixels"),
    ("an earlier run or figure", "8,437 per second (9,460 before issue 11 put shock"),
    ("an earlier run or figure", "repaint went from 14.7 ms to 6.2 ms and back"),
    ("an earlier run or figure", "an A/B in one process gave 7.84 → 7.05 ms"),
    ("a before/after table", "| figure | before | after |"),
    ("a before/after table", "| | before (ad5f39b) | after |"),
    ("a commit", "| 1,224,509 (ad5f39b) | 1,138,894 (-7.0%) |"),
    ("an issue's history", "How the packaged ratio came down under issue 5:"),
    ("an issue's history", "at the end of issue 9's rework"),
)  # fmt: skip
GUIDE_TEXT = (
    "Save never silently replaces a file that changed on disk since it was read.",
    "A fighter may aim at a body part, paying a penalty; the GM may drop the roll.",
    "The last 256 commands keep a checkpoint each; before and after a command the states",
    "| field | meaning |",
    "Figures from one run of `make bench` on the 2-core development machine, offscreen:",
    "How busy the machine is does not change these counts.",
    "Seed 002 (`002_814acb322fa082f2.txt`) is the combat chapter of OpenQuest.",
    "A roll of 3 or 4 (5 at an effective skill of 15 or more) is a critical hit.",
    "Undo Attack: Spearman → Fencer",
    "the defender's state before and after the blow",
)


@pytest.mark.parametrize(("kind", "sample"), DIARY_SAMPLES)
def test_each_kind_of_diary_text_is_caught(kind: str, sample: str) -> None:
    assert kind in {found_kind for _, found_kind, _ in diary_text(sample)}


@pytest.mark.parametrize("text", GUIDE_TEXT)
def test_guide_text_is_not_taken_for_diary_text(text: str) -> None:
    assert diary_text(text) == []


# --- the README's speed table against the benchmark's figures -------------------------
MEASURE_ROW = "`make measure`"  # a start-up figure of packaging/measure.py, not a JSON key


def speed_table_problems(readme: str, figures: set[str]) -> list[str]:
    """What is wrong with the key column of the table in README.md's "## Speed"
    section, against ``figures``, the JSON keys `make bench` prints."""
    section = readme.split("\n## Speed\n", 1)[1].split("\n## ", 1)[0]
    rows = [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in section.splitlines()
        if line.startswith("|")
    ]
    if len(rows) < 3:
        return ["the speed section has no table"]
    header, _rule, *body = rows
    keyed = [i for i, cell in enumerate(header) if "key" in cell.lower()]
    if len(keyed) != 1:
        return [f"the speed table has no one key column: {header}"]
    cells = [row[keyed[0]] for row in body]
    problems = [
        f"not a JSON key in backticks: {cell}"
        for cell in cells
        if cell != MEASURE_ROW and not re.fullmatch(r"`[a-z0-9_]+`", cell)
    ]
    named = [cell.strip("`") for cell in cells if cell != MEASURE_ROW]
    problems += [f"twice: {key}" for key in sorted({k for k in named if named.count(k) > 1})]
    problems += [f"not a figure make bench prints: {key}" for key in sorted(set(named) - figures)]
    problems += [f"missing: {key}" for key in sorted(figures - set(named))]
    return problems


def benchmark_keys() -> set[str]:
    """The JSON keys of ``main.py --benchmark --json``, read from app/benchmark.py:
    every ``figures[...] = ...`` in ``measure``, its names resolved from the
    module's constants and from the keys of the dict a loop walks."""
    tree = ast.parse(BENCHMARK.read_text(encoding="utf-8"))
    constants: dict[str, object] = {
        node.targets[0].id: node.value.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
        and isinstance(node.value, ast.Constant)
    }
    functions = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}
    keys: set[str] = set()
    for values in _bindings(functions["measure"], functions, constants):
        for node in ast.walk(functions["measure"]):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Subscript) and _is_name(target.value, "figures"):
                        keys.add(_text(target.slice, {**constants, **values}))
    return keys


def _bindings(
    function: ast.FunctionDef,
    functions: dict[str, ast.FunctionDef],
    constants: Mapping[str, object],
) -> list[dict[str, object]]:
    """Each value the loop variables of ``for name, _ in helper(...).items()`` take:
    the constant keys of the dict ``helper`` returns."""
    bindings: list[dict[str, object]] = [{}]
    for node in ast.walk(function):
        if not (
            isinstance(node, ast.For)
            and isinstance(node.target, ast.Tuple)
            and isinstance(node.target.elts[0], ast.Name)
            and isinstance(node.iter, ast.Call)
            and isinstance(node.iter.func, ast.Attribute)
            and node.iter.func.attr == "items"
            and isinstance(node.iter.func.value, ast.Call)
            and isinstance(node.iter.func.value.func, ast.Name)
        ):
            continue
        helper = functions[node.iter.func.value.func.id]
        name = node.target.elts[0].id
        bindings = [
            {**binding, name: key}
            for binding in bindings
            for key in _returned_dict_keys(helper, constants)
        ]
    return bindings


def _returned_dict_keys(function: ast.FunctionDef, constants: Mapping[str, object]) -> list[str]:
    returned = [
        node.value for node in ast.walk(function) if isinstance(node, ast.Return) and node.value
    ]
    assert len(returned) == 1 and isinstance(returned[0], ast.Name), function.name
    name = returned[0].id
    keys: list[str] = []
    for node in ast.walk(function):
        value: ast.expr | None
        if isinstance(node, ast.Assign):
            targets, value = list(node.targets), node.value
        elif isinstance(node, ast.AnnAssign):
            targets, value = [node.target], node.value
        else:
            continue
        for target in targets:
            if _is_name(target, name) and isinstance(value, ast.Dict):
                keys += [_text(key, constants) for key in value.keys if key is not None]
            elif isinstance(target, ast.Subscript) and _is_name(target.value, name):
                keys.append(_text(target.slice, constants))
    assert keys, f"{function.name} returns a dict of no constant keys"
    return keys


def _is_name(node: ast.expr, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _text(node: ast.expr, names: Mapping[str, object]) -> str:
    """A constant string, or an f-string of constants and known names."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        parts = []
        for part in node.values:
            if isinstance(part, ast.Constant):
                parts.append(str(part.value))
            elif (
                isinstance(part, ast.FormattedValue)
                and isinstance(part.value, ast.Name)
                and part.format_spec is None
                and part.value.id in names
            ):
                parts.append(str(names[part.value.id]))
            else:
                raise AssertionError(f"a figure's key this test cannot read: {ast.unparse(node)}")
        return "".join(parts)
    raise AssertionError(f"a figure's key this test cannot read: {ast.unparse(node)}")


def test_the_benchmark_keys_are_read_as_the_benchmark_writes_them() -> None:
    keys = benchmark_keys()
    assert {"repaint_still_ms", "repaint_fit_ms", "attack_commands_per_s"} <= keys
    assert {"attack_commands_per_s_at_10000", "replay_1000_s", "log_append_ms_at_5000"} <= keys


def test_the_speed_table_names_every_figure_make_bench_prints_and_no_other() -> None:
    assert speed_table_problems(README.read_text(encoding="utf-8"), benchmark_keys()) == []


def test_a_speed_table_with_a_figure_the_benchmark_does_not_print_is_refused() -> None:
    readme = (
        "# Hexfray\n\n## Speed\n\n| figure | key | value | budget |\n|---|---|---|---|\n"
        "| repaint | `repaint_still_ms` | 5 ms | 8 ms |\n"
        "| repaint on Tuesdays | `repaint_tuesday_ms` | 5 ms | 8 ms |\n"
        "| start | `make measure` | 2.0 x | 2.0 x |\n\n## How it is built\n"
    )
    problems = speed_table_problems(readme, {"repaint_still_ms", "odds_ms_median"})
    assert problems == [
        "not a figure make bench prints: repaint_tuesday_ms",
        "missing: odds_ms_median",
    ]
