"""The battle core's shared mechanics (turn sequence, movement, readying, drops,
postures) cite what each ruleset names (``BattleRuleset.core_citations``): seed
000 its 3d6 basics and its own headings, every other ruleset never a 3d6 book."""

from __future__ import annotations

import pytest

from rules.battle.citations import HEXFRAY_CORE
from rules.battle.commands import MoveCombatant, SetPosture, TurnCombatant
from rules.battle.model import Posture
from rules.core.events import Event
from rules.sets.registry import get_ruleset, ruleset_keys
from rules.sets.seed000.core_citations import SEED000_CORE
from tests.rules.test_demo_battles import load_demo

THREE_D6_SOURCES = ("base", "000", "001")


def _shared_mechanics(key: str) -> tuple[Event, ...]:
    """The demo battle's own log and a turn of step, turn and kneel by the fighter
    whose turn it is, each as a command of the battle."""
    battle = load_demo(key)
    who = battle.state.combatant(battle.state.active_id or battle.state.initiative[0])
    free = next(h for h in who.hex.neighbors() if battle.state.occupant(h) is None)
    events = [*battle.events]
    for command in (
        MoveCombatant(who.id, free, gm_override=True),
        TurnCombatant(who.id, who.facing.turned(1), gm_override=True),
        SetPosture(who.id, Posture.KNEELING, gm_override=True),
    ):
        events.extend(battle.execute(command))
    return tuple(events)


@pytest.mark.parametrize("key", [k for k in ruleset_keys() if k != "000"])
def test_no_other_ruleset_cites_the_3d6_books(key: str) -> None:
    events = _shared_mechanics(key)
    cited = {e.citation.seed for e in events if e.citation is not None}
    assert cited, "the battle logged nothing cited"
    assert not cited & set(THREE_D6_SOURCES), f"ruleset {key} cites {sorted(cited)}"
    assert get_ruleset(key).core_citations == HEXFRAY_CORE


def test_seed_000_cites_its_basics_and_headings() -> None:
    events = _shared_mechanics("000")
    citations = {e.citation for e in events if e.citation is not None}
    assert SEED000_CORE.movement in citations
    assert SEED000_CORE.posture in citations
    assert SEED000_CORE.turn_sequence in citations
