"""An old battle file still opens as it did: tests/data/legacy/evening-v2.hexfray is
the example battle as schema 2 wrote it (seed 000, with Attacks whose choices still
hold the defender's defenses). It loads, on its recorded faces, to the state, the
events and the faces recorded in tests/data/legacy/digests.json, and its log rolled
again from its seed rolls those faces again."""

from __future__ import annotations

import json

from rules.battle.battle import Battle
from rules.battle.savefile import read_battle
from rules.sets.registry import get_ruleset
from tests.rules.corpora import REGENERATE, corpus_script

SCRIPT = corpus_script()
EVENING = SCRIPT.LEGACY / "evening-v2.hexfray"


def test_the_old_file_is_schema_2_with_the_defenses_in_the_attacks() -> None:
    document = json.loads(EVENING.read_text(encoding="utf-8"))
    assert document["schema_version"] == 2
    attacks = [
        entry["command"]
        for entry in (*document["log"], *document["undone"])
        if entry["command"]["@type"] == "Attack"
    ]
    assert attacks and all(a["options"]["@type"] == "AttackOptions" for a in attacks)
    assert any("defenses" in a["options"] for a in attacks)
    assert document["undone"], "a command waiting for a redo"


def test_the_old_file_loads_to_its_recorded_state_events_and_faces() -> None:
    recorded = json.loads(SCRIPT.LEGACY_DIGESTS.read_text(encoding="utf-8"))
    assert SCRIPT.legacy_digest(EVENING) == recorded[EVENING.name], REGENERATE


def test_its_log_rolled_again_from_its_seed_rolls_the_recorded_faces() -> None:
    loaded = read_battle(EVENING.read_bytes(), rulesets=get_ruleset)
    again = Battle.replay(loaded.initial, loaded.seed, loaded.commands, rulesets=get_ruleset)
    assert again.dice_log == loaded.dice_log
    assert again.state == loaded.state
    assert again.event_batches == loaded.event_batches
