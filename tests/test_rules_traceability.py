"""Traceability of the seed rules: docs/rules.md has one row per heading of seeds 000
and 001, and every row points at code and tests that exist.

The headings are extracted from the seed files themselves (not from a hand-made list),
so a heading the table forgets fails here. Run this file directly to print the
extracted headings:  python tests/test_rules_traceability.py

Table format (docs/rules.md): a Markdown table whose header row is
``| Seed heading | Rule (own words) | Implemented in | Tests | Interpretation |``.

* Seed heading: ``000 BLOCK``, ``001 Knocking a Weapon Away``; a heading that occurs
  more than once, or under a parent, carries a parenthesis: ``000 DODGE (under
  CRITICAL MISSES ON DEFENSE ROLLS)``; the notes of the random body hit table are
  ``000 RANDOM BODY HIT note 7``.
* Implemented in / Tests: groups ``[path](../path)::name, name`` separated by ``;``.
  Names may be dotted (``Class.method``) and wrapped in backticks.
* A row whose *Implemented in* cell starts with "not implemented" may have no test.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
DOC = REPO / "docs" / "rules.md"
# The seeds live in shared/, beside the checkout (as on CI).
SEEDS = REPO.parent / "shared" / "seeds"
SEED_000 = SEEDS / "000_95b315fe72b2d658.txt"
SEED_001 = SEEDS / "001_a048f450f5bf6f82.txt"

COPY_WINDOW = 12  # this many consecutive words identical to a seed count as copying

# ---------------------------------------------------------------------------------
# Heading extraction
# ---------------------------------------------------------------------------------

# Upper-case words in seed 000's running text that are not headings: game terms and
# emphasis ("Dodge is equal to MOVE", "an UNARMORED foe").
NOT_HEADINGS_000 = {"MOVE", "MOVE/2", "UNARMORED", "AREA RESULT GAME EFFECT"}
# Runs of capitals that the seed writes without a break between two headings, or
# with a table's column titles after the heading.
SPLITS_000 = {
    "NEAR MISSES HEAD SHOTS": ["NEAR MISSES", "HEAD SHOTS"],
    "RANDOM BODY HIT RESULT OF LOCATION PART PENALTY MAJOR DAMAGE": ["RANDOM BODY HIT"],
}


def _is_caps_word(tok: str) -> bool:
    core = tok.strip(',.;:()*"')
    if re.fullmatch(r"\d/\d", core):
        return True
    return len(core) >= 2 and not re.search(r"[a-z]", core) and bool(re.search(r"[A-Z]", core))


@cache
def seed_000_headings() -> tuple[str, ...]:
    """Seed 000's ALL-CAPS headings in reading order (repeats kept)."""
    toks = SEED_000.read_text(encoding="utf-8").split()
    runs: list[list[str]] = []
    cur: list[str] = []

    def close() -> None:
        nonlocal cur
        if cur:
            runs.append(cur)
        cur = []

    for i, tok in enumerate(toks):
        joins = (  # a lone "A" inside a heading: "BREAKING A BLADE"
            tok == "A" and bool(cur) and i + 1 < len(toks) and _is_caps_word(toks[i + 1])
        )
        if _is_caps_word(tok) or joins:
            cur.append(tok)
            # a sentence or list ends inside the run ("... DR. PD of armor"), but not "VS."
            if tok.endswith((",", ".")) and tok != "VS.":
                close()
        else:
            close()
    close()

    out: list[str] = []
    for run in runs:
        text = " ".join(run).strip(" :-,.")
        if len(re.findall(r"[A-Z]", text)) < 3 or text in NOT_HEADINGS_000:
            continue
        out.extend(SPLITS_000.get(text, [text]))
    return tuple(out)


@cache
def seed_000_notes() -> tuple[int, ...]:
    """The numbers of the notes under the random body hit table."""
    text = " ".join(SEED_000.read_text(encoding="utf-8").split())
    start = text.index("RANDOM BODY HIT RESULT")
    end = text.index("HIGH AND LOW PAIN THRESHOLD")
    # "N. Capital" also occurs inside the table rows and notes ("... by 1. Fortunately"),
    # so only the next number in sequence starts a note.
    found: list[int] = []
    for n in re.findall(r"(?<=\s)(\d{1,2})\. (?=[A-Z])", text[start:end]):
        if int(n) == len(found) + 1:
            found.append(int(n))
    return tuple(found)


def seed_000_labels() -> list[str]:
    """Every row label seed 000 needs, e.g. '000 SWORDS (under BROKEN WEAPONS)' is
    reported as its bare form '000 SWORDS'; repeats are kept."""
    labels = [f"000 {h}" for h in seed_000_headings()]
    labels += [f"000 RANDOM BODY HIT note {n}" for n in seed_000_notes()]
    return labels


# Seed 001: stand-alone title lines, and run-in titles at the start of a paragraph
# ("Torso (0): ...", "Striking at Weapons in Tactical Combat: ...", "No Brain: ...").
_MINOR = {"a", "an", "and", "or", "the", "in", "at", "of", "to", "for", "with", "your", "on"}


def _title_case(text: str) -> bool:
    words = re.findall(r"[A-Za-z][A-Za-z'-]*", text)
    return bool(words) and all(w[0].isupper() or w.lower() in _MINOR for w in words)


@cache
def seed_001_headings() -> tuple[str, ...]:
    out: list[str] = []
    for raw in SEED_001.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("•"):
            continue
        run_in = re.match(r"([A-Z][^:.()]{1,60}?)(?: \((?:-?\d+|varies)\))?:\s", line)
        if run_in and _title_case(run_in.group(1)) and run_in.group(1) != "Note":
            out.append(run_in.group(1).strip())
        elif (
            len(line.split()) <= 8
            and not line.endswith((".", "!", "?", ":"))
            and _title_case(line)
            and (not out or out[-1] != line)  # the document title = the first section
        ):
            out.append(line)
    return tuple(out)


def seed_001_labels() -> list[str]:
    return [f"001 {h}" for h in seed_001_headings()]


# ---------------------------------------------------------------------------------
# docs/rules.md
# ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Ref:
    path: str  # relative to the repository
    names: tuple[str, ...]


@dataclass(frozen=True)
class Row:
    line: int
    heading: str
    rule: str
    implemented: str
    tests: str
    interpretation: str

    @property
    def base_label(self) -> str:
        """'000 DODGE (under CRITICAL ...)' -> '000 DODGE'."""
        return re.sub(r"\s*\(.*\)\s*$", "", self.heading).strip()

    @property
    def not_implemented(self) -> bool:
        return _plain(self.implemented).lower().startswith("not implemented")


def _plain(cell: str) -> str:
    return re.sub(r"[*_`]", "", cell).strip()


_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")


def parse_refs(cell: str) -> list[Ref]:
    """``[rules/x.py](../rules/x.py)::a, B.c; [tests/y.py](../tests/y.py)::test_d``."""
    refs: list[Ref] = []
    for chunk in re.split(r";|<br\s*/?>", cell):
        m = _LINK.search(chunk)
        if not m:
            continue
        target = m.group(2)
        rest = chunk[m.end() :]
        names: tuple[str, ...] = ()
        if rest.lstrip().startswith("::"):
            tail = rest.lstrip()[2:]
            names = tuple(
                n.strip().strip("`").strip()
                for n in re.split(r",", tail)
                if n.strip().strip("`").strip()
            )
        refs.append(Ref(target, names))
    return refs


def _split_cells(line: str) -> list[str]:
    body = line.strip()
    body = body.removeprefix("|").removesuffix("|")
    return [c.strip() for c in re.split(r"(?<!\\)\|", body)]


@cache
def parse_rows() -> tuple[Row, ...]:
    lines = DOC.read_text(encoding="utf-8").splitlines()
    rows: list[Row] = []
    in_table = False
    for no, line in enumerate(lines, 1):
        if not line.lstrip().startswith("|"):
            in_table = False
            continue
        cells = _split_cells(line)
        if not in_table:
            header = [_plain(c).lower() for c in cells]
            in_table = len(header) >= 5 and header[0].startswith("seed heading")
            continue
        if all(re.fullmatch(r":?-{2,}:?", c) for c in cells):
            continue
        assert len(cells) == 5, f"docs/rules.md:{no}: expected 5 cells, got {len(cells)}"
        rows.append(Row(no, _plain(cells[0]), *cells[1:]))
    return tuple(rows)


def _resolve(target: str) -> Path:
    return (DOC.parent / target).resolve()


def _defines(text: str, name: str) -> bool:
    """``name`` is defined in the file: def, class, or a module/class-level assignment."""
    last = re.escape(name.split(".")[-1])
    return bool(
        re.search(rf"^\s*(?:async\s+)?(?:def|class)\s+{last}\b", text, re.M)
        or re.search(rf"^\s*{last}\s*(?::[^=\n]*)?=", text, re.M)
    )


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


@cache
def _seed_windows() -> frozenset[tuple[str, ...]]:
    out: set[tuple[str, ...]] = set()
    for path in sorted(SEEDS.glob("0*.txt")):
        w = _words(path.read_text(encoding="utf-8"))
        out.update(tuple(w[i : i + COPY_WINDOW]) for i in range(len(w) - COPY_WINDOW + 1))
    return frozenset(out)


# ---------------------------------------------------------------------------------
# Tests
# ---------------------------------------------------------------------------------

needs_seeds = pytest.mark.skipif(not SEED_000.exists(), reason="seed texts not present")


@needs_seeds
def test_heading_extraction_finds_the_known_structure() -> None:
    h0 = seed_000_headings()
    assert h0[0] == "VERIFYING CRITICAL MISSES" and h0[-1] == "IMPROVISED WEAPONS"
    assert Counter(h0)["DODGE"] == 2 and Counter(h0)["IMPROVISED WEAPONS"] == 2
    for h in ("BREAKING A BLADE", "RANDOM BODY HIT", "HEAD SHOTS", "2/3 SKILL", "CHAINS"):
        assert h in h0
    assert seed_000_notes() == tuple(range(1, 27))
    h1 = seed_001_headings()
    assert h1[0] == "Hit Location" and h1[-1] == "Strangulation and Smothering"
    for h in ("Arm or Leg", "Weapon", "Striking at Weapons in Tactical Combat", "No Brain"):
        assert h in h1


@needs_seeds
def test_every_seed_heading_has_a_row() -> None:
    have = Counter(r.base_label for r in parse_rows())
    need = Counter(seed_000_labels() + seed_001_labels())
    missing = {label: n - have[label] for label, n in need.items() if have[label] < n}
    assert not missing, f"headings without a row in docs/rules.md: {missing}"


@needs_seeds
def test_every_row_is_a_seed_heading() -> None:
    """Rows of seeds 000 and 001 name their headings; the other seeds' rows are
    checked by their own files (tests/test_rules_traceability_002.py ...)."""
    need = set(seed_000_labels() + seed_001_labels())
    stray = [
        f"{r.line}: {r.heading}"
        for r in parse_rows()
        if r.base_label not in need and r.base_label[:4] in ("000 ", "001 ")
    ]
    unknown = [
        f"{r.line}: {r.heading}"
        for r in parse_rows()
        if r.base_label[:4] not in ("000 ", "001 ", "002 ", "003 ", "004 ")
    ]
    assert not unknown, f"rows that name no seed: {unknown}"
    assert not stray, f"rows that name no seed heading: {stray}"
    counts = Counter(r.heading for r in parse_rows())
    assert not [h for h, n in counts.items() if n > 1], "duplicate row headings"


def test_the_table_is_there() -> None:
    rows = parse_rows()
    assert len(rows) > 100
    for r in rows:
        assert _plain(r.rule), f"docs/rules.md:{r.line}: no rule text"


def test_implementations_exist() -> None:
    problems: list[str] = []
    for r in parse_rows():
        refs = parse_refs(r.implemented)
        if not refs and not r.not_implemented:
            problems.append(f"{r.line} {r.heading}: no implementation reference")
        for ref in refs:
            path = _resolve(ref.path)
            if not path.is_file():
                problems.append(f"{r.line} {r.heading}: no file {ref.path}")
                continue
            text = path.read_text(encoding="utf-8")
            for name in ref.names:
                if not _defines(text, name):
                    problems.append(f"{r.line} {r.heading}: {name} not in {ref.path}")
    assert not problems, "\n".join(problems)


def test_tests_exist_and_every_row_has_one() -> None:
    problems: list[str] = []
    for r in parse_rows():
        refs = parse_refs(r.tests)
        n_tests = 0
        for ref in refs:
            path = _resolve(ref.path)
            if not path.is_file() or not path.name.startswith("test_"):
                problems.append(f"{r.line} {r.heading}: no test file {ref.path}")
                continue
            text = path.read_text(encoding="utf-8")
            if not ref.names:
                problems.append(f"{r.line} {r.heading}: {ref.path} names no test")
            for name in ref.names:
                base = name.split("[")[0]
                if not base.startswith("test_") or not re.search(
                    rf"^\s*(?:async\s+)?def {re.escape(base)}\(", text, re.M
                ):
                    problems.append(f"{r.line} {r.heading}: no test {base} in {ref.path}")
                else:
                    n_tests += 1
        if n_tests == 0 and not r.not_implemented:
            problems.append(f"{r.line} {r.heading}: no test and not marked not implemented")
    assert not problems, "\n".join(problems)


def test_links_are_relative_and_resolve() -> None:
    bad = []
    for no, line in enumerate(DOC.read_text(encoding="utf-8").splitlines(), 1):
        for m in _LINK.finditer(line):
            target = m.group(2).split("#")[0]
            if target.startswith(("http:", "https:")):
                continue
            if target.startswith("/") or not _resolve(target).exists():
                bad.append(f"{no}: {target}")
    assert not bad, f"broken or absolute links: {bad}"


@needs_seeds
def test_no_seed_text_is_copied() -> None:
    windows = _seed_windows()
    copied: list[str] = []
    for no, line in enumerate(DOC.read_text(encoding="utf-8").splitlines(), 1):
        # Table cells are checked one by one, so a heading (seed words by design)
        # followed by our own text is not mistaken for a copy.
        parts = _split_cells(line) if line.lstrip().startswith("|") else [line]
        for part in parts:
            w = _words(part)
            for i in range(len(w) - COPY_WINDOW + 1):
                if tuple(w[i : i + COPY_WINDOW]) in windows:
                    copied.append(f"{no}: {' '.join(w[i : i + COPY_WINDOW])}")
                    break
    assert not copied, f"lines repeating {COPY_WINDOW}+ words of a seed: {copied}"


def test_the_checker_parses_references() -> None:
    cell = "[rules/a.py](../rules/a.py)::`f`, C.m; [tests/t.py](../tests/t.py)::test_x[1]"
    assert parse_refs(cell) == [
        Ref("../rules/a.py", ("f", "C.m")),
        Ref("../tests/t.py", ("test_x[1]",)),
    ]
    assert _defines("class C:\n    def m(self): ...\n", "C.m")
    assert _defines("X: int = 1\n", "X") and not _defines("def g(): ...\n", "f")


if __name__ == "__main__":  # pragma: no cover - a helper for whoever edits the table
    for label in seed_000_labels() + seed_001_labels():
        print(label)
    sys.exit(0)
