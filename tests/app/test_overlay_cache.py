"""The selected fighter's overlay is kept for its next selection (the long evening:
an auto-battle selects each fighter in turn) and built again when anything it is
drawn from changed, never for its hit points alone."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtWidgets import QApplication

from app.map.painter import OverlayCache, build_overlay
from hexmap import HexGrid
from rules.battle.catalog import load_demo_battle


def test_an_overlay_is_kept_until_what_it_is_drawn_from_changes(qapp: QApplication) -> None:
    grid, combatants = load_demo_battle()
    c = combatants[0]
    cache = OverlayCache()
    first = cache.get(c, grid)
    assert cache.get(c, grid) is first
    assert cache.get(replace(c, hp=c.hp - 3), grid) is first  # hurt: the same arcs
    turned = cache.get(replace(c, facing=c.facing.turned(1)), grid)
    assert turned is not first and turned.facing is c.facing.turned(1)
    moved = cache.get(replace(c, hex=c.hex.neighbor(c.facing)), grid)
    assert moved is not first and moved.origin == c.hex.neighbor(c.facing)
    other_map = cache.get(c, HexGrid(grid.width, grid.height))
    assert other_map is not first
    built = build_overlay(c, grid)
    assert (first.origin, first.facing, set(first.arcs), [a.key for a in first.reach]) == (
        built.origin, built.facing, set(built.arcs), [a.key for a in built.reach],
    )
    cache.clear()
    assert cache.get(c, grid) is not first
