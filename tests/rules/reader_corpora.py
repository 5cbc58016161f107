"""The real files the readers' fuzz tests change (issue 23), and the pure readers as
the program uses them: the bundled battles and the legacy one, the GCS fixtures;
``read_battle_file`` and ``read_character`` with the checks of what they give
(tests/reader_fuzz.py). Shared by tests/rules/test_file_codecs_fuzz.py, its known
faults and the app's readers' tests."""

from __future__ import annotations

import json
from collections.abc import Mapping

from rules.battle.battle import Battle
from rules.battle.savefile import read_battle
from rules.sets.protocol import ImportedCharacter
from rules.sets.registry import get_ruleset, sheet_owner
from rules.sets.seed000.gcs_import import read_gcs
from tests.hostile_data import Corpus
from tests.reader_fuzz import ROOT, usable_battle_read, usable_character

BATTLE_FILES = [
    *sorted((ROOT / "assets" / "battles").glob("*.hexfray")),
    ROOT / "tests" / "data" / "legacy" / "evening-v2.hexfray",
]
BATTLES = Corpus(
    (f"{p.parent.name}/{p.name}", json.loads(p.read_text(encoding="utf-8"))) for p in BATTLE_FILES
)


GCS_FILES = sorted(
    p for p in (ROOT / "tests" / "data" / "gcs").glob("*.gcs") if p.read_bytes()[:1] == b"{"
)
# Keys the GCS reader reads, which a fixture's object may leave out.
GCS_KEYS = (
    "version", "type", "id", "name", "attr_id", "adj", "calc", "value", "current", "damage",
    "level", "st", "base", "reach", "parry", "block", "usage", "strength", "equipped",
    "amount", "dr", "weight", "quantity", "points", "defaults", "modifier", "attribute",
)  # fmt: skip
OLD_FORMAT = "version1.gcs"  # JSON, but of a version GCS itself no longer reads: refused
CHARACTERS = Corpus(
    (p.name, json.loads(p.read_text(encoding="utf-8"))) for p in GCS_FILES if p.name != OLD_FORMAT
)


def gcs_fields(obj: Mapping[str, object]) -> list[str]:
    return [key for key in GCS_KEYS if key not in obj]


# --- the readers as the program uses them --------------------------------------------------


def read_battle_file(data: bytes) -> Battle:
    """``read_battle`` as File ▸ Open uses it (``usable_battle_read`` checks it)."""
    return read_battle(data, rulesets=get_ruleset, sheet_owner=sheet_owner)


def read_character(data: bytes) -> ImportedCharacter:
    """``read_gcs`` as File ▸ Import Character uses it (``usable_character``)."""
    return read_gcs(data)


# The readers run once here, so that the rulesets they import and the caches they
# fill are the test process's, not paid again in each forked child.
for _data in (p.read_bytes() for p in BATTLE_FILES):
    usable_battle_read(read_battle_file(_data))
for _data in (p.read_bytes() for p in GCS_FILES if p.name != OLD_FORMAT):
    usable_character(read_character(_data))
