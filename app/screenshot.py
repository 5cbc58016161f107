"""``main.py --screenshot FILE.png``: the main window on the demo battle (or a
battle file), drawn offscreen at 1366x768 with one combatant selected (its arcs and
reach showing) and an enemy set as its target; a battle without fighters is drawn
with nobody selected."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QSettings, QTemporaryDir
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import QApplication

from app.controller import BattleController
from app.main_window import MainWindow, load_demo_battle
from hexmap import hex_line, reach_hexes
from rules.battle.battle import Battle
from rules.battle.commands import MoveCombatant
from rules.battle.model import Combatant

SCREEN_WIDTH, SCREEN_HEIGHT = 1366, 768


def pick_selection(
    combatants: tuple[Combatant, ...], active_id: str | None = None
) -> tuple[Combatant, Combatant | None] | None:
    """A combatant worth showing (the one whose turn it is while the turns run,
    else one with a shield and a weapon, if any) and the nearest enemy as its
    target; None for a battle without fighters."""
    if not combatants:
        return None
    armed = [c for c in combatants if c.fighter.weapons]
    shielded = [c for c in armed if c.fighter.shield is not None]
    active = [c for c in combatants if c.id == active_id]
    chosen = (active or shielded or armed or list(combatants))[0]
    enemies = [c for c in combatants if c.side is not chosen.side]
    target = min(enemies, key=lambda c: (c.hex.distance(chosen.hex), c.id), default=None)
    return chosen, target


def in_reach(attacker: Combatant, defender: Combatant) -> bool:
    return any(
        defender.hex in reach_hexes(attacker.hex, attacker.facing, w.reach)
        for w in attacker.fighter.weapons
    )


def stage(controller: BattleController) -> None:
    """Select a combatant and target the nearest enemy; if that enemy is out of
    reach, step towards it first (one move, as a GM would), so the attack pane shows
    an attack that can be rolled. A battle without fighters is drawn as it is."""
    picked = pick_selection(controller.state.combatants, controller.state.active_id)
    if picked is None:
        return
    chosen, target = picked
    if target is not None and not in_reach(chosen, target):
        line = hex_line(chosen.hex, target.hex)
        step = line[1] if len(line) > 2 else None
        state = controller.state
        if step is not None and step in state.grid and state.occupant(step) is None:
            controller.execute(MoveCombatant(chosen.id, step))
    controller.select(chosen.id)
    if target is not None:
        controller.set_target(target.id)


def render_main_window(seed: int, battle: Battle | None = None) -> QPixmap:
    """The window as a GM sees it first (on the demo battle, or ``battle``), with a
    selection and a target."""
    scratch = QTemporaryDir()  # layout settings of the user must not change the picture
    settings = QSettings(scratch.filePath("screenshot.ini"), QSettings.Format.IniFormat)
    controller = BattleController(battle if battle is not None else load_demo_battle(seed))
    window = MainWindow(controller, settings, restore_layout=False, seed=controller.battle.seed)
    window.resize(SCREEN_WIDTH, SCREEN_HEIGHT)
    window.show()
    QCoreApplication.processEvents()
    stage(controller)
    QCoreApplication.processEvents()
    pixmap = window.grab()
    window.close()
    window.deleteLater()
    QCoreApplication.processEvents()
    return pixmap


def save_screenshot(path: Path, seed: int, battle: Battle | None = None) -> bool:
    app = QApplication.instance()
    if app is None:
        raise RuntimeError("save_screenshot needs a QApplication")
    pixmap = render_main_window(seed, battle)
    path.parent.mkdir(parents=True, exist_ok=True)
    return pixmap.save(str(path), "PNG")
