"""Map export: the whole map as a PNG, tokens, items and terrain, at the map's aspect."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPointF
from PySide6.QtGui import QColor, QImage

from app import theme
from app.main_window import MainWindow, load_demo_battle
from app.map import painter as mp
from app.map.export import EXPORT_MARGIN, export_zoom, render_map_image
from hexmap import Hex, HexGrid
from rules.battle.battle import Battle
from rules.battle.commands import AddItem, PaintTerrain
from rules.battle.items import ItemKind
from rules.battle.state import BattleState
from rules.battle.terrain import Light, TerrainChange
from rules.sets.registry import get_ruleset


def _near(c: QColor, colour: QColor, tolerance: int = 60) -> bool:
    return (
        abs(c.red() - colour.red()) + abs(c.green() - colour.green())
        + abs(c.blue() - colour.blue())
    ) < tolerance  # fmt: skip


def _square(image: QImage, centre: QPointF, half: float) -> list[QColor]:
    return [
        image.pixelColor(x, y)
        for y in range(round(centre.y() - half), round(centre.y() + half))
        for x in range(round(centre.x() - half), round(centre.x() + half))
    ]


def _on_picture(state: BattleState, h: Hex) -> QPointF:
    zoom = export_zoom(state)
    bounds = mp.GridCache(state.grid).bounds
    point = mp.center(h)
    return QPointF(
        EXPORT_MARGIN + (point.x() - bounds.left()) * zoom,
        EXPORT_MARGIN + (point.y() - bounds.top()) * zoom,
    )


def test_the_picture_holds_the_whole_map_at_its_aspect_with_every_token(qapp) -> None:
    state = load_demo_battle(1).state
    image = render_map_image(state)
    bounds = mp.GridCache(state.grid).bounds
    inner_w, inner_h = image.width() - 2 * EXPORT_MARGIN, image.height() - 2 * EXPORT_MARGIN
    assert abs(inner_w / inner_h - bounds.width() / bounds.height()) < 0.01
    assert inner_w >= bounds.width()  # never smaller than the map on screen at zoom 1
    half = mp.token_extent(mp.HEX_SIZE * export_zoom(state)) * 0.6
    for c in state.combatants:
        pixels = _square(image, _on_picture(state, c.hex), half)
        side = theme.SIDE_COLOURS[c.side]
        assert sum(_near(p, side) for p in pixels) > len(pixels) // 5, c.name
    # an empty hex far from everyone is parchment, and the margin is the table
    empty = _square(image, _on_picture(state, Hex.from_offset(1, 1)), 4)
    assert all(_near(p, theme.PARCHMENT, 90) for p in empty)
    assert _near(image.pixelColor(2, 2), theme.TABLE, 10)


def test_the_picture_shows_items_and_terrain(qapp) -> None:
    battle = load_demo_battle(1)
    dark, strewn = Hex.from_offset(2, 2), Hex.from_offset(5, 12)
    battle.execute(PaintTerrain((dark,), TerrainChange(light=list(Light)[-1])))
    sword = battle.state.combatant("c1").fighter.weapons[0]
    battle.execute(AddItem(strewn, sword.name, ItemKind.WEAPON, weapon=sword))
    before = render_map_image(load_demo_battle(1).state)
    after = render_map_image(battle.state)
    half = mp.HEX_SIZE * export_zoom(battle.state) * 0.8
    for h, share in ((dark, 2), (strewn, 50)):
        centre = _on_picture(battle.state, h)
        pairs = zip(_square(before, centre, half), _square(after, centre, half), strict=True)
        changed = [a != b for a, b in pairs]
        assert sum(changed) > len(changed) // share, h


def test_a_huge_map_is_drawn_smaller(qapp) -> None:
    state = BattleState(HexGrid(300, 300), ())
    image = render_map_image(state)
    assert max(image.width(), image.height()) <= 8000
    assert export_zoom(state) < 1.0
    small = Battle(BattleState(HexGrid(3, 2), ()), 1, get_ruleset).state
    assert render_map_image(small).width() > 2 * EXPORT_MARGIN


def test_file_menu_exports_the_map_as_png(main_window: MainWindow, tmp_path: Path) -> None:
    file_menu = main_window.menuBar().actions()[0].menu()
    assert main_window.export_map_action in file_menu.actions()
    assert main_window.export_map_picture(tmp_path / "battle")
    written = QImage(str(tmp_path / "battle.png"))
    expected = render_map_image(main_window.controller.state)
    assert written.size() == expected.size()
