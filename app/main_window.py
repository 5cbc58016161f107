"""The main window: the map in the middle, the panes docked around it.

Dock layout and window geometry are saved with ``QSettings`` (``saveState`` /
``restoreState``) a moment after they change and at close, so the window reopens as
it was, maximized included, however the program ended; the panes' stable object
names make that work across runs. The
default layout fits a 1366x768 laptop: the turn tracker over combatants, inspector
and hex tabbed on the left over the combat log, the attack pane alone on the right
(the whole height).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import shiboken6
from PySide6.QtCore import (
    QByteArray,
    QEvent,
    QModelIndex,
    QObject,
    QPointF,
    QRect,
    QRectF,
    QSettings,
    QSize,
    Qt,
    QTimer,
)
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QColor,
    QIcon,
    QIconEngine,
    QMoveEvent,
    QPainter,
    QPainterPath,
    QPen,
    QPixmap,
    QPolygonF,
    QResizeEvent,
    QShowEvent,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QDockWidget,
    QLabel,
    QLineEdit,
    QMainWindow,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QStyleOption,
    QTabWidget,
    QTextEdit,
    QToolBar,
    QToolButton,
)

from app import user_dirs
from app.autoplay_animation import animate_auto_play
from app.autoplay_menu import AutoPlay
from app.character_editor import CharacterEditing
from app.command_names import command_name
from app.controller import BattleController, Redraw
from app.defense_answers import DefenseAnswers, chosen_detail
from app.dice_entry import DiceEntryPrompt, dice_icon
from app.export_folders import ask_export_path
from app.fighter_placement import FighterPlacement
from app.file_actions import FileActions
from app.gcs_import import CharacterImport
from app.help import app_icon, build_help_menu, key_sequences, keys_text
from app.help import shortcut as help_shortcut
from app.map import animation
from app.map.banner import BattleBanner
from app.map.export import export_map_png
from app.map.view import MapView
from app.override import OverrideAction
from app.panes.combat_log import CombatLogPane
from app.panes.combatants import CombatantsPane
from app.panes.hex_pane import TERRAIN_FIELDS, HexPane, TerrainValue, terrain_change
from app.panes.inspector import InspectorPane
from app.panes.labels import enum_label
from app.panes.templates import TemplatesPane
from app.panes.turn_tracker import TurnTrackerPane, movement_text
from app.panes.widgets import ID_ROLE, clear_swatches, guard_wheel
from app.preferences import (
    Confirmation,
    DiceMode,
    Preferences,
    PreferencesDialog,
    apply_colours,
    read_preferences,
    write_preferences,
)
from app.rulesets import ruleset_ui
from hexmap import Hex
from rules.battle import catalog
from rules.battle.battle import Battle, BattleChange
from rules.battle.commands import EndTurn
from rules.battle.decision import awaiting_continue
from rules.battle.model import Combatant
from rules.battle.notes import CommandNote
from rules.battle.state import BattleState, Command
from rules.battle.terrain import (
    Cover,
    Footing,
    Light,
    TerrainChange,
    TerrainLabel,
    WaterDepth,
    fact_label,
)
from rules.battle.turns import start_turns
from rules.battle.values import hex_name
from rules.core.dice import SeededDice
from rules.sets.registry import get_ruleset

DEFAULT_SIZE = QSize(1280, 720)
DEFAULT_SEED = 1
# Bumped whenever the default dock layout changes, so an older saved layout does not
# override the new default (restoreState refuses a state of another version).
STATE_VERSION = 4
# The default dock sizes (px): the left column (combatants over the log) and the
# attack pane on the right, which gets the whole height.
LEFT_COLUMN_WIDTH = 270
RIGHT_COLUMN_WIDTH = 330
TRACKER_HEIGHT = 200
COMBATANTS_HEIGHT = 170
LOG_HEIGHT = 260
GEOMETRY_KEY = "mainWindow/geometry"
STATE_KEY = "mainWindow/state"
LEGEND_FOLDED_KEY = "view/legend_folded"
# A resize, a maximize or a dock moved is saved once it settles: the window reopens
# as it was even after the program was ended without closing it.
LAYOUT_SAVE_DELAY_MS = 1000

BRUSH_KINDS: tuple[tuple[str, str], ...] = (
    ("light", "Light"),
    ("footing", "Footing"),
    ("water", "Water"),
    ("cover", "Cover"),
    ("height", "Height"),
    ("open", "Open ground (erase)"),
)
_BRUSH_FIELDS = {field.name: field for field in TERRAIN_FIELDS}


def brush_values(kind: str, label: TerrainLabel) -> list[tuple[str, TerrainValue | None]]:
    """The values the brush combo offers for a terrain property, each fact named
    by ``label``."""
    if kind == "height":
        return [(f"{h:+d}" if h else "0", h) for h in range(-3, 6)]
    if kind == "open":
        return [("everything", None)]
    return [(enum_label(m, label), m) for m in _BRUSH_FIELDS[kind].choices]


def brush_change(kind: str, value: object) -> TerrainChange | None:
    """The ``TerrainChange`` of a brush (kind, value); None without a value."""
    if kind == "open":
        return TerrainChange.open_ground()
    if isinstance(value, Light | Footing | WaterDepth | Cover | int):
        return terrain_change(value)
    return None


def move_text(c: Combatant) -> str:
    """Movement points used this turn, for the status bar."""
    used = c.move_used
    steps = max(0, len(c.path_this_turn) - 1)
    hexes = f" ({steps} hex{'' if steps == 1 else 'es'})" if steps else ""
    return f"Move {used}/{c.fighter.move}{hexes}"


def load_demo_battle(seed: int = DEFAULT_SEED, *, turn_order: bool = False) -> Battle:
    """The demo battle shipped in ``assets/battles/demo.json``; with ``turn_order``
    it starts with its turn order rolled (rules.battle.turns.start_turns, on dice
    of its own seed), as the window opens it once the ruleset may load."""
    grid, combatants = catalog.load_demo_battle()
    state = BattleState(grid, combatants)
    if turn_order:
        ruleset = get_ruleset(state.ruleset_key, state.ruleset_options)
        state, _ = start_turns(state, ruleset, SeededDice(f"hexfray/{seed}/turn-order"))
    return Battle(state, seed, get_ruleset)


class MainWindow(QMainWindow):
    def __init__(
        self,
        controller: BattleController,
        settings: QSettings | None = None,
        *,
        restore_layout: bool = True,
        seed: int = DEFAULT_SEED,
        defer_panes: bool = False,
    ) -> None:
        """``defer_panes``: build the dock panes (and restore the saved layout) only
        once the map has been painted, so the window shows sooner at start-up
        (docs/packaging.md); ``ensure_panes`` builds them at once."""
        super().__init__()
        self.setObjectName("mainWindow")
        self.setWindowTitle("Hexfray")
        self.setWindowIcon(app_icon())
        self._controller = controller
        self._settings = settings if settings is not None else user_dirs.settings()
        self._seed = seed
        self.preferences = read_preferences(self._settings)
        apply_colours(self.preferences)  # before anything is drawn

        self.map_view = MapView(controller, self)
        self.map_view.set_legend_folded(
            bool(self._settings.value(LEGEND_FOLDED_KEY, False, type=bool))
        )
        self.setCentralWidget(self.map_view)
        self.battle_banner = BattleBanner(controller, self.map_view)
        self.setDockOptions(
            QMainWindow.DockOption.AnimatedDocks
            | QMainWindow.DockOption.AllowTabbedDocks
            | QMainWindow.DockOption.AllowNestedDocks
        )
        self.setTabPosition(Qt.DockWidgetArea.AllDockWidgetAreas, QTabWidget.TabPosition.North)
        self.panes: tuple[QDockWidget, ...] = ()
        self._restore_layout = restore_layout
        self._geometry_restored: bool | None = None
        self._size_docks_on_show = False
        self._after_first_paint: list[Callable[[], object]] = []
        self._first_paint_seen = False
        self._layout_save = QTimer(self)
        self._layout_save.setSingleShot(True)
        self._layout_save.setInterval(LAYOUT_SAVE_DELAY_MS)
        self._layout_save.timeout.connect(self.save_layout)

        # The File menu's logic: new, open, save, recent files, the unsaved-changes
        # question, the autosave (app.file_actions).
        self.file_actions = FileActions(
            self, controller, self.map_view, self._settings, lambda: self.preferences
        )
        self.file_actions.replace_battle = self.replace_battle
        self.fighter_placement = FighterPlacement(controller, self.map_view, self)
        self.fighter_placement.prompt_changed.connect(self._show_drop_prompt)
        self.fighter_placement.prompt_changed.connect(self._on_fighter_placement_prompt_changed)
        # File > Import Character...: a fighter from a character file (app.gcs_import).
        self.character_import = CharacterImport(controller, self)
        self.character_import.watch_map(self.map_view)  # a .gcs file dropped on the map
        # Battle > Edit Fighter... and Sides... (app.character_editor); new side
        # colours repaint the tokens.
        self.character_editing = CharacterEditing(
            controller, self, self.file_actions.show_side_colours
        )
        self.character_editing.watch_map(self.map_view)
        # Battle > Auto-play: the computer plays its fighters (app.autoplay_menu).
        self.auto_play = AutoPlay(controller, self)
        self.auto_play.note_decision = self._note_decision
        animate_auto_play(self.auto_play, self.map_view)
        # The defender's answer asked of its controller (app.defense_answers).
        self.defense_answers = DefenseAnswers(controller, self, lambda: self.preferences)
        self.auto_play.answer_for_gm = self.defense_answers.answer_for_gm
        self._make_actions()
        self._make_menus()
        self._make_toolbar()
        self._make_status_bar()

        controller.selection_changed.connect(self._update_selection_label)
        controller.target_changed.connect(self._update_selection_label)
        controller.battle_changed.connect(self._on_battle_changed)
        controller.battle_reset.connect(self._update_selection_label)
        controller.command_refused.connect(self._show_refusal)
        controller.command_cancelled.connect(self._on_controller_command_cancelled)
        self.map_view.hovered_hex_changed.connect(self._update_hover_label)
        self.map_view.drop_prompt_changed.connect(self._show_drop_prompt)
        self.map_view.drop_prompt_changed.connect(self._on_map_view_drop_prompt_changed)
        self.map_view.legend_folded_changed.connect(self._on_map_view_legend_folded_changed)
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._on_application_focus_changed)

        self.resize(DEFAULT_SIZE)
        if defer_panes:
            # The saved size and place now, so the window opens there; the docks'
            # state once they exist.
            self._geometry_restored = restore_layout and self._restore_geometry()
            self.call_after_first_paint(self.ensure_panes)
        else:
            self.ensure_panes()
        self._update_selection_label()
        self.map_view.setFocus()

    # --- the panes -----------------------------------------------------------------------
    def ensure_panes(self) -> None:
        """Build the dock panes in the default layout, then restore the saved layout
        (a no-op once built)."""
        if self.panes:
            return
        controller = self._controller
        self.combatants_pane: CombatantsPane = CombatantsPane(controller, self)
        self.inspector_pane: InspectorPane = InspectorPane(controller, self)
        # The attack pane is the battle's ruleset's own ("attackPane" in every ruleset).
        self.attack_pane: QDockWidget = ruleset_ui(controller.state.ruleset_key).attack_pane(
            controller, self
        )
        self.log_pane: CombatLogPane = CombatLogPane(controller, self, self._settings)
        self.hex_pane: HexPane = HexPane(controller, self.map_view, self)
        self.inspector_pane.edit_requested.connect(self.character_editing.edit)
        self.combatants_pane.table.doubleClicked.connect(self._edit_combatant_at)
        self.tracker_pane = TurnTrackerPane(controller, self, end_turn=self.end_turn)
        self.templates_pane = TemplatesPane(
            controller, self.map_view, self, placement=self.fighter_placement
        )
        self.map_view.show_conditions = True  # the ruleset is loaded by now: badges too
        self.map_view.update()
        self.panes = (
            self.tracker_pane,
            self.combatants_pane,
            self.inspector_pane,
            self.attack_pane,
            self.log_pane,
            self.hex_pane,
            self.templates_pane,
        )
        self._arrange_default_docks()
        for pane in self.panes:
            guard_wheel(pane)  # the wheel scrolls a pane, not the box it passes over
            self._watch_dock(pane)
            toggle = pane.toggleViewAction()
            toggle.setText(f"Show {pane.windowTitle()}")
            self._view_menu.insertAction(self._pane_toggles_end, toggle)
        self._default_state = self.saveState(STATE_VERSION)
        # The default dock sizes are set again once the window is shown at its size
        # (before that the dock layout has no geometry to share out).
        if self._geometry_restored is None:
            restored = self._restore_layout and self.restore_layout()
        else:
            restored = self._geometry_restored and self._restore_state()
        self._size_docks_on_show = not restored
        if self._size_docks_on_show and self.isVisible():
            self._size_docks_on_show = False
            self._resize_default_docks()
            QTimer.singleShot(0, self._resize_default_docks)

    def call_after_first_paint(self, callback: Callable[[], object]) -> None:
        """Run ``callback`` once the map's first frame is painted (at once if it was)."""
        if self._first_paint_seen:
            callback()
        else:
            if not self._after_first_paint:
                self.map_view.installEventFilter(self)
            self._after_first_paint.append(callback)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        first_paint = watched is self.map_view and event.type() == QEvent.Type.Paint
        if first_paint and not self._first_paint_seen:
            self._first_paint_seen = True
            self.map_view.removeEventFilter(self)
            # After the event loop turns: the frame reaches the screen first.
            QTimer.singleShot(0, self._run_after_first_paint)
        return super().eventFilter(watched, event)

    def _run_after_first_paint(self) -> None:
        callbacks, self._after_first_paint = self._after_first_paint, []
        for callback in callbacks:
            callback()

    # --- layout ------------------------------------------------------------------------
    def _arrange_default_docks(self) -> None:
        """The default layout for a 1366x768 laptop: on the left the turns (tabbed
        with the templates) over the combatants (tabbed with the inspector and the
        hex pane) over the combat log; on the right
        the attack pane alone, the whole height, so its modifiers, odds and Roll show
        without scrolling."""
        left, right = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea
        for pane in self.panes:
            pane.setVisible(True)
            pane.setFloating(False)
        # Split first (the turns over the combatants over the log), then tab the
        # others onto combatants.
        self.addDockWidget(left, self.tracker_pane, Qt.Orientation.Vertical)
        self.addDockWidget(left, self.combatants_pane, Qt.Orientation.Vertical)
        self.addDockWidget(left, self.log_pane, Qt.Orientation.Vertical)
        self.tabifyDockWidget(self.combatants_pane, self.inspector_pane)
        self.tabifyDockWidget(self.inspector_pane, self.hex_pane)
        # The templates beside the turns: they serve the set-up, the turns the battle,
        # and a fourth tab beside the combatants would cut every tab's name short.
        self.tabifyDockWidget(self.tracker_pane, self.templates_pane)
        self.tracker_pane.raise_()
        self.combatants_pane.raise_()
        self.addDockWidget(right, self.attack_pane)
        self._resize_default_docks()

    def _resize_default_docks(self) -> None:
        self.resizeDocks(
            [self.combatants_pane, self.attack_pane],
            [LEFT_COLUMN_WIDTH, RIGHT_COLUMN_WIDTH],
            Qt.Orientation.Horizontal,
        )
        self.resizeDocks(
            [self.tracker_pane, self.combatants_pane, self.log_pane],
            [TRACKER_HEIGHT, COMBATANTS_HEIGHT, LOG_HEIGHT],
            Qt.Orientation.Vertical,
        )

    def reset_layout(self) -> None:
        """Back to the default dock layout (all panes visible) and size."""
        self.ensure_panes()
        if self.isMaximized() or self.isFullScreen():
            self.showNormal()
        self.restoreState(self._default_state, STATE_VERSION)
        self._arrange_default_docks()
        self.resize(DEFAULT_SIZE)
        # The dock sizes settle once the window has its new size.
        QTimer.singleShot(0, self._resize_default_docks)

    @property
    def layout_save_pending(self) -> bool:
        """Whether a change of the window's size, state or docks waits to be saved."""
        return self._layout_save.isActive()

    def _layout_changed(self, *_args: object) -> None:
        if self.panes:
            self._layout_save.start()

    def _watch_dock(self, pane: QDockWidget) -> None:
        pane.dockLocationChanged.connect(self._layout_changed)
        pane.topLevelChanged.connect(self._layout_changed)
        pane.visibilityChanged.connect(self._layout_changed)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._layout_changed()

    def moveEvent(self, event: QMoveEvent) -> None:
        super().moveEvent(event)
        self._layout_changed()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.WindowStateChange:  # maximized, full screen, back
            self._layout_changed()

    def save_layout(self) -> None:
        self._layout_save.stop()
        if not self.panes:  # closed before the panes were built: keep the saved layout
            return
        self._settings.setValue(GEOMETRY_KEY, self.saveGeometry())
        self._settings.setValue(STATE_KEY, self.saveState(STATE_VERSION))
        self._settings.sync()

    def restore_layout(self) -> bool:
        """Geometry and dock state from the settings; False if none were saved."""
        restored = self._restore_geometry()
        return self._restore_state() and restored

    def _restore_geometry(self) -> bool:
        geometry = self._settings.value(GEOMETRY_KEY)
        if isinstance(geometry, QByteArray | bytes) and geometry:
            return bool(self.restoreGeometry(QByteArray(geometry)))
        return False

    def _restore_state(self) -> bool:
        state = self._settings.value(STATE_KEY)
        if isinstance(state, QByteArray | bytes) and state:
            return bool(self.restoreState(QByteArray(state), STATE_VERSION))
        return False

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._size_docks_on_show:
            self._size_docks_on_show = False
            self._resize_default_docks()
            QTimer.singleShot(0, self._resize_default_docks)

    def closeEvent(self, event: QCloseEvent) -> None:
        # The GM closing the window (its close button, Alt+F4) gets the unsaved-changes
        # question; Quit asked already, and the program's own close() asks nothing.
        if event.spontaneous() and not self.file_actions.may_close():
            event.ignore()
            return
        self.save_layout()
        super().closeEvent(event)

    # --- actions -----------------------------------------------------------------------
    def _make_actions(self) -> None:
        view = self.map_view
        self.new_demo_action = QAction("&New Demo Battle", self)
        self.new_demo_action.setShortcuts(key_sequences("new_demo"))
        self.new_demo_action.setStatusTip("Start the demo battle afresh")
        self.new_demo_action.triggered.connect(self.new_demo_battle)

        self.quit_action = QAction("&Quit", self)
        self.quit_action.setShortcuts(key_sequences("quit"))
        self.quit_action.setMenuRole(QAction.MenuRole.QuitRole)
        self.quit_action.triggered.connect(self._on_quit_action_triggered)

        self.preferences_action = QAction("&Preferences…", self)
        self.preferences_action.setObjectName("preferences")
        self.preferences_action.setShortcuts(key_sequences("preferences"))
        self.preferences_action.setMenuRole(QAction.MenuRole.PreferencesRole)
        self.preferences_action.setStatusTip("Colours, new fighters, animations, dice, questions")
        self.preferences_action.triggered.connect(self._on_preferences_action_triggered)

        self.export_map_action = QAction("E&xport Map as Picture…", self)
        self.export_map_action.setObjectName("exportMap")
        self.export_map_action.setStatusTip("Save the whole map, tokens, items and terrain as PNG")
        self.export_map_action.triggered.connect(self._on_export_map_action_triggered)

        # Enter rolls wherever the focus is in the window; a box being typed in keeps it
        # (_update_roll_enabled), and a dialog is a window of its own.
        self.roll_action = QAction("Roll the &Attack", self)
        self.roll_action.setObjectName("rollAttack")
        self.roll_action.setShortcuts(key_sequences("roll_attack"))
        self.roll_action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.roll_action.setStatusTip("Roll the attack the attack pane shows")
        self.roll_action.triggered.connect(self._on_roll_action_triggered)
        self.addAction(self.roll_action)

        self.fold_legend_action = QAction("Fold the &Legend", self)
        self.fold_legend_action.setObjectName("foldLegend")
        self.fold_legend_action.setCheckable(True)
        self.fold_legend_action.setStatusTip("Show only the legend's title (a click on it too)")
        self.fold_legend_action.setChecked(self.map_view.legend_folded)
        self.fold_legend_action.toggled.connect(self.map_view.set_legend_folded)

        self.end_turn_action = QAction("&End Turn", self)
        self.end_turn_action.setShortcuts(key_sequences("end_turn"))
        self.end_turn_action.setToolTip(f"End the turn ({keys_text(help_shortcut('end_turn'))})")
        self.end_turn_action.setStatusTip("End the turn: defenses and weapons are ready again")
        self.end_turn_action.triggered.connect(self.end_turn)
        # A decided battle ends no turn until the GM continues it (rules.battle.decision).
        self._controller.battle_changed.connect(self._update_end_turn_action)
        self._controller.battle_reset.connect(self._update_end_turn_action)
        self._update_end_turn_action()
        # A refused command, done anyway (app.override): the status bar offers it.
        self.override_action = OverrideAction(self._controller, self)
        self.override_action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.addAction(self.override_action)

        self.reset_layout_action = QAction("&Reset Layout", self)
        self.reset_layout_action.setStatusTip("Put every pane back where it started")
        self.reset_layout_action.triggered.connect(self.reset_layout)

        view.turn_left_action.setIcon(_turn_icon(clockwise=False))
        view.turn_right_action.setIcon(_turn_icon(clockwise=True))
        view.fit_action.setIcon(_fit_icon())
        view.zoom_in_action.setIcon(_zoom_icon(plus=True))
        view.zoom_out_action.setIcon(_zoom_icon(plus=False))
        self.end_turn_action.setIcon(_end_turn_icon())
        view.paint_terrain_action.setIcon(_terrain_icon())
        view.paint_terrain_action.setIconText("Terrain")  # the toolbar's short label

        self.animations_action = QAction("&Animate Flying Pieces", self)
        self.animations_action.setObjectName("animations")
        self.animations_action.setCheckable(True)
        self.animations_action.setStatusTip("Show dropped and knocked-away weapons on their way")
        wanted = self._settings.value(animation.SETTINGS_KEY, None)
        if wanted is not None and animation.animations_wanted():
            view.animations_enabled = str(wanted).lower() in ("true", "1")
        self.animations_action.setChecked(view.animations_enabled)
        self.animations_action.toggled.connect(self._set_animations)

        # Physical dice (Preferences.dice_mode): the GM rolls at the table and types
        # each roll into app.dice_entry's dialog.
        self._dice_prompt = DiceEntryPrompt(self)
        self.physical_dice_action = QAction(dice_icon(), "&Physical Dice", self)
        self.physical_dice_action.setObjectName("physicalDice")
        self.physical_dice_action.setCheckable(True)
        self.physical_dice_action.setIconText("Physical dice")  # the toolbar's short label
        self.physical_dice_action.setToolTip("Physical dice: type in what you rolled at the table")
        self.physical_dice_action.setStatusTip(
            "Roll at the table and type in each die; off: the computer rolls"
        )
        self._apply_dice_mode()
        self.physical_dice_action.toggled.connect(self._on_physical_dice_action_toggled)

    def _make_menus(self) -> None:
        view = self.map_view
        bar = self.menuBar()
        file_menu = bar.addMenu("&File")
        self.file_actions.add_to_menu(file_menu)
        file_menu.addAction(self.new_demo_action)
        file_menu.addSeparator()
        file_menu.addAction(self.character_import.action)
        file_menu.addSeparator()
        file_menu.addAction(self.export_map_action)
        file_menu.addSeparator()
        file_menu.addAction(self.preferences_action)
        file_menu.addSeparator()
        file_menu.addAction(self.quit_action)
        self._make_edit_menu()

        view_menu = bar.addMenu("&View")
        view_menu.addAction(view.zoom_in_action)
        view_menu.addAction(view.zoom_out_action)
        view_menu.addAction(view.fit_action)
        view_menu.addAction(self.animations_action)
        view_menu.addAction(self.fold_legend_action)
        pan_menu = view_menu.addMenu("&Pan")
        for action in view.pan_actions:
            pan_menu.addAction(action)
        view_menu.addSeparator()
        # The panes' "Show ..." toggles go before this separator (ensure_panes).
        self._view_menu = view_menu
        self._pane_toggles_end = view_menu.addSeparator()
        view_menu.addAction(self.reset_layout_action)

        battle_menu = bar.addMenu("&Battle")
        battle_menu.addAction(view.turn_left_action)
        battle_menu.addAction(view.turn_right_action)
        battle_menu.addSeparator()
        battle_menu.addAction(view.next_action)
        battle_menu.addAction(view.previous_action)
        battle_menu.addAction(view.clear_selection_action)
        battle_menu.addSeparator()
        battle_menu.addAction(view.paint_terrain_action)
        battle_menu.addMenu(self.fighter_placement.menu)
        battle_menu.addAction(self.character_editing.edit_action)
        battle_menu.addAction(self.character_editing.sides_action)
        battle_menu.addAction(self.fighter_placement.duplicate_action)
        battle_menu.addSeparator()
        battle_menu.addAction(self.roll_action)
        battle_menu.addAction(self.end_turn_action)
        battle_menu.addAction(self.override_action)
        battle_menu.addAction(self.physical_dice_action)
        battle_menu.addSeparator()
        battle_menu.addMenu(self.auto_play.menu)

        self.help_actions = build_help_menu(self)

    def _make_toolbar(self) -> None:
        view = self.map_view
        tools = QToolBar("Map tools", self)
        tools.setObjectName("mapToolBar")
        tools.setMovable(False)
        tools.setIconSize(QSize(20, 20))
        tools.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        tools.addAction(view.turn_left_action)
        tools.addAction(view.turn_right_action)
        tools.addSeparator()
        tools.addAction(view.zoom_out_action)
        tools.addAction(view.zoom_in_action)
        tools.addAction(view.fit_action)
        tools.addSeparator()
        tools.addAction(self.end_turn_action)
        tools.addAction(self.physical_dice_action)
        tools.addSeparator()
        tools.addAction(view.paint_terrain_action)
        self._make_terrain_brush(tools)
        self.toolbar = tools
        self.addToolBar(Qt.ToolBarArea.TopToolBarArea, tools)
        # Short labels on the buttons; the menus keep the long ones.
        for action, text in (
            (view.turn_left_action, "Turn left"),
            (view.turn_right_action, "Turn right"),
            (view.fit_action, "Fit"),
            (self.end_turn_action, "End turn"),
            (view.paint_terrain_action, "Terrain"),
        ):
            button = tools.widgetForAction(action)
            if isinstance(button, QToolButton):
                button.setText(text)
        for action in (view.zoom_in_action, view.zoom_out_action):
            button = tools.widgetForAction(action)
            if isinstance(button, QToolButton):
                button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonIconOnly)

    def _make_status_bar(self) -> None:
        status = self.statusBar()
        self.selection_label = QLabel()
        self.selection_label.setObjectName("selectionLabel")
        self.hover_label = QLabel()
        self.hover_label.setObjectName("hoverLabel")
        self.hover_label.setMinimumWidth(120)
        self.move_label = QLabel()
        self.move_label.setObjectName("moveLabel")
        self.override_button = QToolButton()
        self.override_button.setObjectName("overrideButton")
        self.override_button.setDefaultAction(self.override_action)
        self.override_button.setText("Override")
        self.override_button.setVisible(False)
        self.override_action.changed.connect(self._on_override_action_changed)
        status.addPermanentWidget(self.override_button)
        status.addPermanentWidget(self.move_label)
        status.addPermanentWidget(self.selection_label)
        status.addPermanentWidget(self.hover_label)

    # --- commands ------------------------------------------------------------------------
    def _note_decision(
        self, index: int, command: Command, text: str, detail: str, combatant_id: str
    ) -> None:
        """A computer fighter's reason, kept with its command (saved, autosaved and
        shown in the log before the command's events: rules.battle.notes); the
        reasons of its defenders' answers follow it, a line each."""
        if index == len(self.controller.battle.commands):
            answers = self.defense_answers.notes_for(command)
            text = "\n".join((text, *(a.reason for a in answers)))
            detail = "\n\n".join((detail, *(chosen_detail(a) for a in answers)))
            self.controller.note_next(command, CommandNote(combatant_id, text, detail))

    def new_demo_battle(self) -> None:
        if not self.file_actions.may_replace_battle():
            return
        self.replace_battle(load_demo_battle(self._seed, turn_order=True))
        self.statusBar().showMessage("New demo battle", 3000)

    def replace_battle(self, battle: Battle) -> None:
        """Show ``battle`` instead (New, Open, a restored autosave). A battle of
        another ruleset brings that ruleset's attack pane, in the old one's place:
        the old pane is taken out before the battle changes, so that it never reads
        a battle of rules it does not know."""
        # Nothing of the last battle stays chosen: no fighter selected (the inspector
        # clears) and no target.
        self._controller.select(None)
        self._controller.set_target(None)
        key = battle.state.ruleset_key
        if not self.panes or key == self._controller.state.ruleset_key:
            self._controller.replace_battle(battle)
            return
        old = self.attack_pane
        area = self.dockWidgetArea(old)
        tabbed_with = [d for d in self.tabifiedDockWidgets(old) if d in self.panes]
        floating, shown, geometry, width = (
            old.isFloating(),
            old.isVisible(),
            old.geometry(),
            old.width(),
        )
        toggles = self._view_menu.actions()
        old_toggle = old.toggleViewAction()
        at = toggles.index(old_toggle) + 1 if old_toggle in toggles else len(toggles)
        after = toggles[at] if at < len(toggles) else self._pane_toggles_end
        self._view_menu.removeAction(old_toggle)
        self.removeDockWidget(old)
        shiboken6.delete(old)  # its connections go with it, before the battle changes
        self._controller.replace_battle(battle)
        new = ruleset_ui(key).attack_pane(self._controller, self)
        if tabbed_with:
            self.tabifyDockWidget(tabbed_with[0], new)
        else:
            self.addDockWidget(area, new)
        if floating:
            new.setFloating(True)
            new.setGeometry(geometry)
        new.setVisible(shown)
        if not floating and not tabbed_with:
            self.resizeDocks([new], [width], Qt.Orientation.Horizontal)
        guard_wheel(new)
        self._watch_dock(new)
        toggle = new.toggleViewAction()
        toggle.setText(f"Show {new.windowTitle()}")
        self._view_menu.insertAction(after, toggle)
        self.attack_pane = new
        self.panes = tuple(new if pane is old else pane for pane in self.panes)

    def _on_quit_action_triggered(self) -> None:
        if self.file_actions.may_close():
            self.close()

    def _update_end_turn_action(self, *_args: object) -> None:
        self.end_turn_action.setEnabled(not awaiting_continue(self._controller.state))

    def end_turn(self) -> None:
        if awaiting_continue(self._controller.state):
            self.statusBar().showMessage(
                "The battle is decided: Undo takes it back, Continue anyway plays on", 6000
            )
            return
        if self.preferences.asks(Confirmation.END_TURN):
            answer = QMessageBox.question(
                self, "End the turn", f"End turn {self._controller.state.turn}?"
            )
            if answer != QMessageBox.StandardButton.Yes:
                return
        self._controller.execute(EndTurn())

    # --- preferences, the map's picture, Enter --------------------------------------------
    def _on_preferences_action_triggered(self) -> None:
        dialog = PreferencesDialog(self.preferences, self)
        if dialog.exec() == PreferencesDialog.DialogCode.Accepted:
            self.set_preferences(dialog.preferences())
        dialog.deleteLater()

    def set_preferences(self, preferences: Preferences) -> None:
        """Store the GM's preferences and show them: the map and the side swatches
        redrawn in the new colours, animations on or off."""
        self.preferences = preferences
        write_preferences(self._settings, preferences)
        if apply_colours(preferences):
            clear_swatches()
            self.map_view.refresh_look()
            for pane in self.panes:  # the lists draw their side swatches as they paint
                for view in pane.findChildren(QAbstractItemView):
                    view.viewport().update()
            if self.panes:
                self.inspector_pane.refresh()
        self.file_actions.show_side_colours()  # a battle's own side colours win
        self.animations_action.setChecked(preferences.animations)
        self._apply_dice_mode()

    def _apply_dice_mode(self) -> None:
        """The toolbar's switch and the controller follow ``Preferences.dice_mode``."""
        physical = self.preferences.dice_mode is DiceMode.PHYSICAL
        self.physical_dice_action.setChecked(physical)
        self._controller.set_dice_entry(self._dice_prompt if physical else None)

    def _on_physical_dice_action_toggled(self, on: bool) -> None:
        mode = DiceMode.PHYSICAL if on else DiceMode.COMPUTER
        if mode is not self.preferences.dice_mode:
            self.set_preferences(replace(self.preferences, dice_mode=mode))
            self.statusBar().showMessage(
                "Physical dice: you type in each roll" if on else "The computer rolls the dice",
                4000,
            )

    def _on_controller_command_cancelled(self, name: str) -> None:
        self.statusBar().showMessage(f"Cancelled at the table: {name} (nothing changed)", 6000)

    def _on_export_map_action_triggered(self) -> None:
        path = ask_export_path(
            self, self._settings, "Export Map as Picture", "hexfray-map.png",
            "PNG picture (*.png)",
        )  # fmt: skip
        if path is not None:
            self.export_map_picture(path)

    def export_map_picture(self, path: Path) -> bool:
        """The whole map as a PNG at ``path`` (".png" added if missing)."""
        if path.suffix.lower() != ".png":
            path = path.with_name(path.name + ".png")
        if export_map_png(self._controller.state, path):
            self.statusBar().showMessage(f"Map saved as {path}", 5000)
            return True
        QMessageBox.warning(self, "Export Map as Picture", f"Could not write {path}.")
        return False

    def _on_roll_action_triggered(self) -> None:
        roll = self.attack_pane.findChild(QPushButton, "rollButton") if self.panes else None
        if isinstance(roll, QPushButton) and roll.isEnabled():
            roll.click()

    def _on_application_focus_changed(self, _old: object, _new: object) -> None:
        self._update_roll_enabled()

    def _on_map_view_drop_prompt_changed(self, _message: str) -> None:
        self._update_roll_enabled()

    def _on_fighter_placement_prompt_changed(self, _message: str) -> None:
        self._update_roll_enabled()

    def _update_roll_enabled(self) -> None:
        """Enter rolls unless a box is being typed in (outside the attack pane, which
        rolls on Enter itself), the map waits for a drop's hex (Enter: own hex) or
        a fighter waits for its hex (the newcomer is no attacker yet)."""
        focus = QApplication.focusWidget()
        typing = isinstance(focus, QLineEdit | QAbstractSpinBox | QTextEdit | QPlainTextEdit) or (
            isinstance(focus, QComboBox) and focus.isEditable()
        )
        waiting = self.map_view.drop_pick is not None or self.fighter_placement.armed is not None
        self.roll_action.setEnabled(not typing and not waiting)

    def _on_map_view_legend_folded_changed(self, folded: bool) -> None:
        self.fold_legend_action.setChecked(folded)
        self._settings.setValue(LEGEND_FOLDED_KEY, folded)

    # --- the Edit menu: undo and redo ----------------------------------------------------
    def _make_edit_menu(self) -> None:
        """Undo and Redo, each named after the command it would take back or run
        again ("Undo Attack: Spearman → Fencer"), and disabled when there is none."""
        self.undo_action = QAction("&Undo", self)
        self.undo_action.setObjectName("undo")
        self.undo_action.setShortcuts(key_sequences("undo"))
        self.undo_action.triggered.connect(self._controller.undo)
        self.redo_action = QAction("&Redo", self)
        self.redo_action.setObjectName("redo")
        self.redo_action.setShortcuts(key_sequences("redo"))
        self.redo_action.triggered.connect(self._controller.redo)
        # No mnemonic: every letter of "Edit" already opens a menu or a pane's box
        # (the attack pane's "Mod&e"), and Ctrl+Z is what a GM reaches for.
        edit_menu = self.menuBar().addMenu("Edit")
        edit_menu.addAction(self.undo_action)
        edit_menu.addAction(self.redo_action)
        self._controller.battle_changed.connect(self._update_undo_actions)
        self._controller.battle_reset.connect(self._update_undo_actions)
        self._update_undo_actions()

    def _update_undo_actions(self, *_args: object) -> None:
        battle = self._controller.battle
        for action, verb, command in (
            (self.undo_action, "Undo", battle.undo_command),
            (self.redo_action, "Redo", battle.redo_command),
        ):
            action.setEnabled(command is not None)
            if command is None:
                action.setText(f"&{verb}")
                action.setStatusTip(f"Nothing to {verb.lower()}")
                continue
            name = command_name(command, battle.state)
            action.setText(f"&{verb} {name.replace('&', '&&')}")  # a lone & marks a mnemonic
            action.setStatusTip(f"{verb} {name}")

    # --- status bar ----------------------------------------------------------------------
    def _update_selection_label(self, *_args: object) -> None:
        state = self._controller.state
        parts = [f"Round {state.turn}"]
        sid, tid = self._controller.selected_id, self._controller.target_id
        if sid is not None:
            c = state.combatant(sid)
            health = ""
            if self.panes:  # the ruleset is loaded once the panes are
                ruleset = self._controller.ruleset
                health = (
                    f", {ruleset.conditions.health_heading}: {ruleset.conditions.health(c).text}"
                )
            parts.append(f"Selected: {c.name} ({c.facing.label}{health})")
        else:
            parts.append("Nothing selected")
        if tid is not None:
            parts.append(f"Target: {state.combatant(tid).name}")
        self.selection_label.setText("   ·   ".join(parts))
        self.move_label.setText(move_text(state.combatant(sid)) if sid is not None else "")
        if sid is not None and self.panes and state.turns_running:
            # what its maneuver leaves (the ruleset is loaded once the panes are)
            movement = movement_text(state, self._controller.ruleset, state.combatant(sid))
            self.move_label.setText(f"{self.move_label.text()} · {movement}")

    def _edit_combatant_at(self, index: QModelIndex) -> None:
        """A double-click on a row of the combatants list opens the character editor."""
        combatant_id = self.combatants_pane.model.data(index, ID_ROLE)
        if isinstance(combatant_id, str):
            self.character_editing.edit(combatant_id)

    def _on_battle_changed(self, _change: BattleChange, redraw: Redraw) -> None:
        if redraw.panes:
            self._update_selection_label()

    def _update_hover_label(self, h: object) -> None:
        if isinstance(h, Hex):
            occupant = self._controller.state.occupant(h)
            text = hex_name(h).capitalize()
            if occupant is not None:
                text += f" – {occupant.name}"
            self.hover_label.setText(text)
        else:
            self.hover_label.setText("")

    # --- the battlefield: terrain brush, animations ---------------------------------------
    def _make_terrain_brush(self, tools: QToolBar) -> None:
        """Two combos beside "Terrain": which property a stroke paints and its value."""
        self.brush_kind = QComboBox(self)
        self.brush_kind.setObjectName("brushKind")
        self.brush_kind.setToolTip("What a terrain stroke paints")
        for key, label in BRUSH_KINDS:
            self.brush_kind.addItem(label, key)
        self.brush_value = QComboBox(self)
        self.brush_value.setObjectName("brushValue")
        self.brush_value.setToolTip("The value a terrain stroke paints")
        self.brush_value.setMinimumContentsLength(12)
        self.brush_kind.currentIndexChanged.connect(self._brush_kind_changed)
        self.brush_value.currentIndexChanged.connect(self._brush_changed)
        self.brush_kind_action = tools.addWidget(self.brush_kind)
        self.brush_value_action = tools.addWidget(self.brush_value)
        self._brush_kind_changed()
        self.map_view.terrain_mode_changed.connect(self._terrain_mode_changed)
        self._controller.battle_reset.connect(self._label_brush_values)
        self._terrain_mode_changed(self.map_view.terrain_mode)

    def _brush_kind_changed(self, *_args: object) -> None:
        self.brush_value.blockSignals(True)
        self.brush_value.clear()
        for label, value in brush_values(str(self.brush_kind.currentData()), self._brush_label()):
            self.brush_value.addItem(label, value)
        self.brush_value.setCurrentIndex(min(1, self.brush_value.count() - 1))
        self.brush_value.blockSignals(False)
        self._brush_changed()

    def _brush_changed(self, *_args: object) -> None:
        self.map_view.set_terrain_brush(
            brush_change(str(self.brush_kind.currentData()), self.brush_value.currentData())
        )

    def _brush_label(self) -> TerrainLabel:
        """The battle's ruleset names the brush's values once the brush shows (no
        ruleset package loads before the first frame); the facts' own names until then."""
        return (
            self._controller.ruleset.battlefield.terrain_label
            if self.map_view.terrain_mode
            else fact_label
        )

    def _label_brush_values(self) -> None:
        if not self.map_view.terrain_mode:
            return
        label = self._brush_label()
        for i in range(self.brush_value.count()):
            value = self.brush_value.itemData(i)
            if isinstance(value, Light | Footing | WaterDepth | Cover):
                self.brush_value.setItemText(i, enum_label(value, label))

    def _terrain_mode_changed(self, on: bool) -> None:
        self._label_brush_values()  # before the brush shows: its width follows its texts
        self.brush_kind_action.setVisible(on)
        self.brush_value_action.setVisible(on)
        if on:
            self.statusBar().showMessage(
                "Paint terrain: click or drag over hexes; T or Esc to stop", 4000
            )

    def _set_animations(self, on: bool) -> None:
        self.preferences = replace(self.preferences, animations=on)
        self.map_view.animations_enabled = on
        if not on:
            self.map_view.skip_animation()
        self._settings.setValue(animation.SETTINGS_KEY, on)

    def _show_drop_prompt(self, message: str) -> None:
        if message:
            self.statusBar().showMessage(message)
        else:
            self.statusBar().clearMessage()

    def _show_refusal(self, message: str) -> None:
        if self.override_action.pending is None:
            self.statusBar().showMessage(f"Not allowed: {message}", 6000)
            return
        keys = self.override_action.keys
        self.statusBar().showMessage(f"Not allowed: {message} ({keys} overrides)")

    def _on_override_action_changed(self) -> None:
        self.override_button.setVisible(self.override_action.isEnabled())
        self.override_button.setText("Override")
        if not self.override_action.isEnabled() and self.statusBar().currentMessage().startswith(
            "Not allowed: "
        ):
            self.statusBar().clearMessage()

    @property
    def controller(self) -> BattleController:
        return self._controller

    def sizeHint(self) -> QSize:
        return DEFAULT_SIZE


# --- toolbar icons, drawn so they look the same on every platform ---------------------
class _DrawnIcon(QIconEngine):
    """A toolbar icon drawn at the size asked for when first asked (issue 5: not
    every size of every icon before the first frame); disabled and other modes
    get the style's usual look."""

    def __init__(self, draw: Callable[[QPainter], None]) -> None:
        super().__init__()
        self._draw = draw
        self._pixmaps: dict[tuple[int, float, QIcon.Mode], QPixmap] = {}

    def clone(self) -> QIconEngine:
        return _DrawnIcon(self._draw)

    def paint(self, painter: QPainter, rect: QRect, mode: QIcon.Mode, state: QIcon.State) -> None:
        painter.drawPixmap(rect, self.pixmap(rect.size(), mode, state))

    def pixmap(self, size: QSize, mode: QIcon.Mode, state: QIcon.State) -> QPixmap:
        return self.scaledPixmap(size, mode, state, 1.0)

    def scaledPixmap(
        self, size: QSize, mode: QIcon.Mode, state: QIcon.State, scale: float
    ) -> QPixmap:
        side = min(size.width(), size.height())
        key = (side, scale, mode)
        pixmap = self._pixmaps.get(key)
        if pixmap is None:
            pixmap = self._render(max(1, round(side * scale)))
            if mode != QIcon.Mode.Normal:
                pixmap = QApplication.style().generatedIconPixmap(mode, pixmap, QStyleOption())
            pixmap.setDevicePixelRatio(scale)
            self._pixmaps[key] = pixmap
        return pixmap

    def _render(self, size: int) -> QPixmap:
        pixmap = QPixmap(size, size)
        pixmap.fill(Qt.GlobalColor.transparent)
        p = QPainter(pixmap)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.scale(size / 24.0, size / 24.0)
        self._draw(p)
        p.end()
        return pixmap


def _icon(draw: Callable[[QPainter], None]) -> QIcon:
    return QIcon(_DrawnIcon(draw))


_ICON_INK = QColor("#3a3128")


def _turn_icon(clockwise: bool) -> QIcon:
    def draw(p: QPainter) -> None:
        pen = QPen(_ICON_INK, 2.4, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap)
        p.setPen(pen)
        rect = QRectF(4, 5, 16, 16)
        start, span = (200, -230) if clockwise else (-20, 230)
        p.drawArc(rect, start * 16, span * 16)
        end_angle = math.radians(start + span)
        ex = rect.center().x() + 8 * math.cos(end_angle)
        ey = rect.center().y() - 8 * math.sin(end_angle)
        d = 1 if clockwise else -1
        head = QPolygonF(
            [
                QPointF(ex + 4.5 * d, ey - 1),
                QPointF(ex - 1.5 * d, ey - 4.5),
                QPointF(ex - 1 * d, ey + 3),
            ]
        )
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(_ICON_INK)
        p.drawPolygon(head)
        # a little hex in the middle
        hexagon = QPolygonF(
            [
                QPointF(12 + 3.5 * math.cos(math.radians(a)), 13 + 3.5 * math.sin(math.radians(a)))
                for a in range(0, 360, 60)
            ]
        )
        p.setBrush(QColor("#4caf50"))
        p.drawPolygon(hexagon)

    return _icon(draw)


def _fit_icon() -> QIcon:
    def draw(p: QPainter) -> None:
        pen = QPen(_ICON_INK, 2.2, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap)
        p.setPen(pen)
        for sx, sy in ((1, 1), (-1, 1), (1, -1), (-1, -1)):
            cx, cy = 12 - 8 * sx, 12 - 8 * sy
            path = QPainterPath(QPointF(cx, cy + 5 * sy))
            path.lineTo(cx, cy)
            path.lineTo(cx + 5 * sx, cy)
            p.drawPath(path)
        hexagon = QPolygonF(
            [
                QPointF(12 + 5 * math.cos(math.radians(a)), 12 + 5 * math.sin(math.radians(a)))
                for a in range(0, 360, 60)
            ]
        )
        p.setPen(QPen(_ICON_INK, 1.6))
        p.setBrush(QColor("#efe4c8"))
        p.drawPolygon(hexagon)

    return _icon(draw)


def _zoom_icon(plus: bool) -> QIcon:
    def draw(p: QPainter) -> None:
        p.setPen(QPen(_ICON_INK, 2.2, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
        p.drawEllipse(QRectF(3, 3, 13, 13))
        p.drawLine(QPointF(14.5, 14.5), QPointF(21, 21))
        p.drawLine(QPointF(6.5, 9.5), QPointF(12.5, 9.5))
        if plus:
            p.drawLine(QPointF(9.5, 6.5), QPointF(9.5, 12.5))

    return _icon(draw)


def _terrain_icon() -> QIcon:
    def draw(p: QPainter) -> None:
        hexagon = QPolygonF(
            [
                QPointF(11 + 8 * math.cos(math.radians(a)), 12 + 8 * math.sin(math.radians(a)))
                for a in range(0, 360, 60)
            ]
        )
        p.setPen(QPen(_ICON_INK, 1.4))
        p.setBrush(QColor("#8fb3d9"))
        p.drawPolygon(hexagon)
        # a brush
        p.setPen(QPen(QColor("#8a5a2b"), 2.6, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
        p.drawLine(QPointF(22, 2), QPointF(15, 11))
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor("#0b6e79"))
        p.drawEllipse(QPointF(14, 12.5), 2.6, 2.6)

    return _icon(draw)


def _end_turn_icon() -> QIcon:
    def draw(p: QPainter) -> None:
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor("#2f5fa8"))
        p.drawPolygon(QPolygonF([QPointF(4, 4), QPointF(15, 12), QPointF(4, 20)]))
        p.setBrush(_ICON_INK)
        p.drawRoundedRect(QRectF(16, 4, 4, 16), 1, 1)

    return _icon(draw)
