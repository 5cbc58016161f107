"""What every reader of a file must do with hostile input (issue 23), shared by the
readers' fuzz tests (tests/rules/test_file_codecs_fuzz.py, tests/app/test_readers_fuzz.py).

A read either succeeds, with a result the program can use (a battle it can save,
a fighter it can place), or raises the reader's own error with a message for the
GM: one line of plain words. Either way within ``tests.watchdog``'s limits (1 s of
CPU time, 200 MB), never anything else.

Each reader is fuzzed with ``EXAMPLES`` examples in all, shared among its tests
(``fuzz_settings(share)``): 2,000 in CI, repeatable (derandomized, no example
database). ``HEXFRAY_FUZZ_EXAMPLES=50000`` runs the same tests with that many by
hand, ``HEXFRAY_FUZZ_SHRINK=1`` shrinks a failing example.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, settings

from hexmap import Facing
from rules.battle.battle import Battle
from rules.battle.model import Combatant, Fighter, Side
from rules.battle.roster import AddCombatant, next_combatant_id
from rules.battle.savefile import PartlyReplayedFile, read_battle, saved_types_for, write_battle
from rules.battle.values import TYPE_KEY, ValueFileError
from rules.core.errors import RulesError
from rules.sets.protocol import ImportedCharacter
from rules.sets.registry import get_ruleset, ruleset_keys, sheet_owner
from tests.hostile_data import HostileFile
from tests.watchdog import Outcome, run_guarded

EXAMPLES_VARIABLE = "HEXFRAY_FUZZ_EXAMPLES"
EXAMPLES = int(os.environ.get(EXAMPLES_VARIABLE, "2000"))
SHRINK_VARIABLE = "HEXFRAY_FUZZ_SHRINK"
# A message the GM reads in a dialog or on the command line: one line, not a wall.
MAX_MESSAGE = 600
# What shows that a message is Python's, not the GM's.
PYTHON_SIGNS = (
    "Traceback (most recent", "object at 0x", "<class '", "<function ", "sys.set_int_max_str",
)  # fmt: skip
ROOT = Path(__file__).resolve().parent.parent


def fuzz_settings(share: float) -> settings:
    """``share`` of the reader's ``EXAMPLES``, repeatable in CI. A failing example
    is reported as found, with the changes that made it in words (shrinking one
    whose reads take a second each would take minutes); ``HEXFRAY_FUZZ_SHRINK=1``
    shrinks it."""
    phases = [Phase.explicit, Phase.reuse, Phase.generate]
    if os.environ.get(SHRINK_VARIABLE) == "1":
        phases.append(Phase.shrink)
    return settings(
        max_examples=max(1, round(EXAMPLES * share)),
        deadline=None,
        database=None,
        derandomize=True,
        phases=phases,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.large_base_example,
            HealthCheck.filter_too_much,
        ],
    )


def message_problem(message: str) -> str | None:
    """Why ``message`` is no message for the GM (None: it is one)."""
    if not message.strip():
        return "the message is empty"
    if "\n" in message or "\r" in message:
        return "the message has more than one line"
    if len(message) > MAX_MESSAGE:
        return f"the message is {len(message)} characters long"
    if any(ord(c) < 32 or ord(c) == 127 for c in message):
        return "the message holds control characters"
    try:
        message.encode("utf-8")
    except UnicodeEncodeError:  # the log file and the terminal cannot hold it
        return "the message holds a lone surrogate"
    sign = next((s for s in PYTHON_SIGNS if s in message), None)
    if sign is not None:
        return f"the message shows Python ({sign!r})"
    return None


def check_read(
    read: Callable[[], object],
    errors: tuple[type[BaseException], ...],
    what: str = "",
    usable: Callable[[object], object] | None = None,
) -> Outcome:
    """Run ``read`` under the limits; fail unless it returned or raised one of
    ``errors`` with a message for the GM. ``usable`` then checks what it gave (its
    value or its error: a partly read battle is offered to the GM), outside the
    read's time, and answers in a few words. ``what`` describes the input, for the
    failure's text."""
    outcome = run_guarded(read, errors, then=usable)
    where = f"\ninput: {what}" if what else ""
    assert outcome.kind in ("returned", "raised"), outcome.describe() + where
    if outcome.kind == "raised":
        problem = message_problem(outcome.message)
        assert problem is None, f"{problem}: {outcome.describe()}{where}"
    return outcome


@dataclass(frozen=True)
class Case:
    """A file that showed a fault, whether it must be read (not only read or
    refused), and, for a fault still open, why it is open: the case is expected to
    fail until the fault is fixed (the lead decides how; see the branch's report)."""

    name: str
    file: HostileFile
    must_read: bool = False
    open_fault: str = ""

    @property
    def param(self) -> object:
        marks = []
        if self.open_fault:
            marks.append(pytest.mark.xfail(strict=False, reason=f"open: {self.open_fault}"))
        return pytest.param(self.file, self.must_read, id=self.name, marks=marks)


# --- the fields a file's object may gain -------------------------------------------------------


def _fields_by_class() -> dict[str, frozenset[str]]:
    """The fields of every class a battle file of any ruleset may hold, by name."""
    found: dict[str, frozenset[str]] = {}
    for key in ruleset_keys():
        types = saved_types_for(get_ruleset(key).sheets.saved_types)
        for name in sorted(types.names):
            try:
                cls = types.named(name, (object,), name)
            except ValueFileError:  # an enum
                continue
            found[name] = frozenset(field for field, _, _ in types.fields(cls))
    return found


FIELDS_BY_CLASS = _fields_by_class()


def missing_fields(obj: Mapping[str, object]) -> list[str]:
    """The fields an object of a battle file leaves out (at their defaults): those
    of the class it names, or of every class that has all the fields it holds."""
    held = set(obj) - {TYPE_KEY}
    kind = obj.get(TYPE_KEY)
    classes = [
        fields
        for name, fields in FIELDS_BY_CLASS.items()
        if (kind == name if kind is not None else held <= fields)
    ]
    return sorted(set().union(*classes) - held) if classes else []


# --- what a successful read must give --------------------------------------------------------


def saved_text(battle: Battle) -> str:
    """The battle as File ▸ Save writes it."""
    return write_battle(battle, get_ruleset(battle.initial.ruleset_key).sheets.saved_types)


def usable_battle_read(found: object) -> str:
    """What File ▸ Open gives: a battle, or a refusal; a partly replayed file's
    battle is offered to the GM, so it must be usable too."""
    if isinstance(found, Battle):
        return usable_battle(found)
    if isinstance(found, PartlyReplayedFile):
        return f"partly: {usable_battle(found.battle)}"
    assert isinstance(found, BaseException), f"the read gave {type(found).__name__}"
    return "refused"


def usable_character(found: object) -> str:
    """What an imported character file gives: a fighter that joins a battle of its
    ruleset (seed 000's, for GCS), or a refusal."""
    if isinstance(found, ImportedCharacter):
        return joins_a_battle(found.fighter, found.hit_points_now, "000")
    assert isinstance(found, BaseException), f"the read gave {type(found).__name__}"
    return "refused"


def usable_battle(battle: Battle, *, as_utf8: bool = True) -> str:
    """The checks of a battle the GM opened: it saves (as UTF-8, which every battle
    file is, unless ``as_utf8`` is False: a journal holds any text), the saved file
    opens again, and a newcomer can be named (Add, Duplicate and Import all ask
    ``next_combatant_id``). A few words on it."""
    text = saved_text(battle)
    data = text.encode("utf-8") if as_utf8 else text.encode("utf-8", "surrogatepass")
    if as_utf8:
        read_battle(data, rulesets=get_ruleset, sheet_owner=sheet_owner)
    next_combatant_id(battle.state)
    return f"a battle of {len(battle.commands)} commands"


@functools.cache
def demo_battle_of(ruleset_key: str) -> Battle:
    """The bundled demo battle of a ruleset, as played to its end."""
    data = (ROOT / "assets" / "battles" / f"demo-{ruleset_key}.hexfray").read_bytes()
    return read_battle(data, rulesets=get_ruleset, sheet_owner=sheet_owner)


def joins_a_battle(fighter: Fighter, hit_points: int, ruleset_key: str) -> str:
    """The checks of a fighter read from a file (a template, an imported character):
    it joins the ruleset's demo battle, or the battle refuses it as a rule
    (``RulesError``), and the battle then saves as UTF-8. A few words on it."""
    state = demo_battle_of(ruleset_key).state
    battle = Battle(state, 1, get_ruleset)
    taken = {c.hex for c in state.combatants}
    where = next(h for h in state.grid.hexes() if h not in taken)
    newcomer = Combatant(
        id=next_combatant_id(state),
        fighter=fighter,
        side=Side.RED,
        hex=where,
        facing=Facing.N,
        hp=hit_points,
    )
    try:
        battle.execute(AddCombatant(newcomer))
    except RulesError as refusal:
        return f"refused by the battle: {refusal}"
    saved_text(battle).encode("utf-8")
    return f"{fighter.name!r:.40} joined"
