"""packaging/make_attack_corpus.py run by path (packaging/ is no package), for the
tests of the files it writes: the attack and odds corpora and the legacy digests."""

from __future__ import annotations

import functools
import runpy
from pathlib import Path
from types import SimpleNamespace

SCRIPT_PATH = Path(__file__).resolve().parents[2] / "packaging" / "make_attack_corpus.py"
REGENERATE = (
    "if the rules changed on purpose, run python packaging/make_attack_corpus.py "
    "(docs/architecture.md, 'The attack and odds corpora')"
)


@functools.cache
def corpus_script() -> SimpleNamespace:
    """The script's names (its ``main`` is not run)."""
    return SimpleNamespace(**runpy.run_path(str(SCRIPT_PATH), run_name="make_attack_corpus"))
