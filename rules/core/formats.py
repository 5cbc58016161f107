"""Rules of Hexfray's file formats that no single layer owns.

``DEFAULT_RULESET_KEY`` is the ruleset that a battle state, a battle file or a
ruleset question names none of means: a ``BattleState`` built without a
``ruleset_key``, and a battle file whose ``initial_state`` has none (every file
written before a second ruleset existed), play it (docs/file-format.md). The
registry (``rules.sets.registry``) resolves a missing key to it, and a test
checks that it is registered. It lives here, in a module without tables, so that
the battle neither names a ruleset nor loads one at start-up (docs/packaging.md).
"""

from __future__ import annotations

DEFAULT_RULESET_KEY = "000"
