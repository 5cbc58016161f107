"""The selected fighter's overlay: a reach area for each weapon in hand that
strikes in melee, a range area for each that throws or shoots; a weapon that only shoots
has no reach area (its legend row would claim it strikes in its own hex)."""

from __future__ import annotations

from pathlib import Path

from app.map.painter import build_overlay
from rules.battle.hands import wielded_weapons
from rules.battle.savefile import read_battle
from rules.sets.registry import get_ruleset

DEMO_002 = Path(__file__).resolve().parents[2] / "assets" / "battles" / "demo-002.hexfray"


def test_a_bow_has_a_range_area_and_no_reach_area() -> None:
    battle = read_battle(DEMO_002.read_bytes(), rulesets=get_ruleset)
    archer = next(
        c
        for c in battle.state.combatants
        if any(all(m.is_ranged for m in w.modes) for w in c.fighter.weapons)
    )
    # What the hands hold (the dagger waits at the belt behind the two-handed bow).
    held = wielded_weapons(archer)
    shooting_only = {w.key for w in held if all(m.is_ranged for m in w.modes)}
    striking = {w.key for w in held if any(not m.is_ranged for m in w.modes)}
    overlay = build_overlay(archer, battle.state.grid)
    assert {a.key for a in overlay.reach} == striking
    assert shooting_only <= {a.key for a in overlay.ranges}
