"""The GM's preferences: one typed value, read and written in one place, and the
dialog that edits it (Edit ▸ Preferences…).

``Preferences`` holds the sides' and arcs' colours, the handedness new fighters
get, whether pieces fly across the map, how dice are rolled (by the computer or
at the table), which questions the window asks before acting and whether the
computer chooses the GM's fighters' defenses during auto-play. It lives in the
program's ``QSettings`` (``app.user_dirs.settings``); ``read_preferences`` and
``write_preferences`` are the only code that knows its keys. Other code asks the
value: ``preferences.asks(Confirmation.END_TURN)``, ``preferences.dice_mode``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from functools import partial
from types import MappingProxyType
from typing import TypeVar

from PySide6.QtCore import QSettings
from PySide6.QtGui import QColor, QIcon, QPixmap
from PySide6.QtWidgets import (
    QCheckBox,
    QColorDialog,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QGroupBox,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app import theme
from app.map.animation import SETTINGS_KEY as ANIMATIONS_KEY
from app.map.animation import animations_wanted
from app.panes.widgets import buddy_label
from hexmap import Arc, Handedness
from rules.battle.model import Side


class DiceMode(Enum):
    """Who rolls a command's dice: the computer, or the GM at the table, who types
    each die into a dialog (physical dice)."""

    COMPUTER = "computer"
    PHYSICAL = "physical"


class Confirmation(Enum):
    """A question the window may ask before it acts."""

    END_TURN = "end_turn"  # before ending the turn (Ctrl+Return, the toolbar)
    CLOSE_BATTLE = "close_battle"  # before closing or replacing a battle with unsaved changes


CONFIRMATION_TEXT: Mapping[Confirmation, str] = MappingProxyType(
    {
        Confirmation.END_TURN: "Ending the turn",
        Confirmation.CLOSE_BATTLE: "Closing or replacing a battle with unsaved changes",
    }
)
DICE_MODE_TEXT: Mapping[DiceMode, str] = MappingProxyType(
    {
        DiceMode.COMPUTER: "The computer rolls",
        DiceMode.PHYSICAL: "Physical dice: I type in what I rolled",
    }
)
HANDEDNESS_TEXT: Mapping[Handedness, str] = MappingProxyType(
    {Handedness.RIGHT: "Right-handed", Handedness.LEFT: "Left-handed"}
)
SIDE_TEXT: Mapping[Side, str] = MappingProxyType({side: side.value.capitalize() for side in Side})

DEFAULT_CONFIRMATIONS = frozenset({Confirmation.CLOSE_BATTLE})

# The settings' keys; nothing outside this module names them.
_SIDE_KEY = "colours/side/{}"
_ARC_KEY = "colours/arc/{}"
_HANDEDNESS_KEY = "fighters/default_handedness"
_DICE_KEY = "dice/mode"
_CONFIRM_KEY = "confirm/{}"
_COMPUTER_DEFENDS_KEY = "fighters/computer_defends"


def _default_sides() -> Mapping[Side, str]:
    return MappingProxyType(dict(theme.DEFAULT_SIDE_COLOURS))


def _default_arcs() -> Mapping[Arc, str]:
    return MappingProxyType(dict(theme.DEFAULT_ARC_COLOURS))


@dataclass(frozen=True)
class Preferences:
    """Everything the GM can set in the Preferences dialog. Colours are
    ``"#rrggbb"`` names, one for every side and every arc."""

    side_colours: Mapping[Side, str] = field(default_factory=_default_sides)
    arc_colours: Mapping[Arc, str] = field(default_factory=_default_arcs)
    # For the fighters a GM adds to a battle; a template that names its hand keeps it.
    default_handedness: Handedness = Handedness.RIGHT
    animations: bool = True
    dice_mode: DiceMode = DiceMode.COMPUTER
    confirmations: frozenset[Confirmation] = DEFAULT_CONFIRMATIONS
    # A GM's fighter attacked by a computer fighter: the computer (the default
    # policy) answers for it, rather than the window asking the GM.
    computer_defends: bool = False

    def asks(self, confirmation: Confirmation) -> bool:
        """Whether the window asks before the act ``confirmation`` names."""
        return confirmation in self.confirmations

    def with_colour(self, key: Side | Arc, name: str) -> Preferences:
        if isinstance(key, Side):
            return replace(self, side_colours=MappingProxyType({**self.side_colours, key: name}))
        return replace(self, arc_colours=MappingProxyType({**self.arc_colours, key: name}))

    def with_default_colours(self) -> Preferences:
        return replace(self, side_colours=_default_sides(), arc_colours=_default_arcs())


_E = TypeVar("_E", bound=Enum)


def _read_enum(settings: QSettings, key: str, enum: type[_E], default: _E) -> _E:
    value = settings.value(key, None)
    try:
        return enum(str(value)) if value is not None else default
    except ValueError:
        return default


def _read_bool(settings: QSettings, key: str, default: bool) -> bool:
    value = settings.value(key, None)
    if value is None:
        return default
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("true", "1", "yes", "on"):
        return True
    if text in ("false", "0", "no", "off"):
        return False
    return default


def _read_colour(settings: QSettings, key: str, default: str) -> str:
    value = settings.value(key, None)
    colour = QColor(str(value)) if value is not None else QColor()
    return colour.name() if colour.isValid() else default


def read_preferences(settings: QSettings) -> Preferences:
    """The GM's preferences as stored (shipped defaults for anything missing or
    unreadable). Animations default to on, except where nobody watches
    (``app.map.animation.animations_wanted``)."""
    return Preferences(
        side_colours=MappingProxyType(
            {
                side: _read_colour(settings, _SIDE_KEY.format(side.value), name)
                for side, name in theme.DEFAULT_SIDE_COLOURS.items()
            }
        ),
        arc_colours=MappingProxyType(
            {
                arc: _read_colour(settings, _ARC_KEY.format(arc.value), name)
                for arc, name in theme.DEFAULT_ARC_COLOURS.items()
            }
        ),
        default_handedness=_read_enum(settings, _HANDEDNESS_KEY, Handedness, Handedness.RIGHT),
        animations=_read_bool(settings, ANIMATIONS_KEY, animations_wanted()),
        dice_mode=_read_enum(settings, _DICE_KEY, DiceMode, DiceMode.COMPUTER),
        confirmations=frozenset(
            c
            for c in Confirmation
            if _read_bool(settings, _CONFIRM_KEY.format(c.value), c in DEFAULT_CONFIRMATIONS)
        ),
        computer_defends=_read_bool(settings, _COMPUTER_DEFENDS_KEY, False),
    )


def write_preferences(settings: QSettings, preferences: Preferences) -> None:
    for side, name in preferences.side_colours.items():
        settings.setValue(_SIDE_KEY.format(side.value), name)
    for arc, name in preferences.arc_colours.items():
        settings.setValue(_ARC_KEY.format(arc.value), name)
    settings.setValue(_HANDEDNESS_KEY, preferences.default_handedness.value)
    settings.setValue(ANIMATIONS_KEY, preferences.animations)
    settings.setValue(_DICE_KEY, preferences.dice_mode.value)
    for c in Confirmation:
        settings.setValue(_CONFIRM_KEY.format(c.value), preferences.asks(c))
    settings.setValue(_COMPUTER_DEFENDS_KEY, preferences.computer_defends)
    settings.sync()


def apply_colours(preferences: Preferences) -> bool:
    """Make the theme draw in the preferences' colours; True if any changed."""
    return theme.apply_colours(preferences.side_colours, preferences.arc_colours)


# --- the dialog ---------------------------------------------------------------------------
def colour_icon(name: str, size: int = 16) -> QIcon:
    pixmap = QPixmap(size, size)
    pixmap.fill(QColor(name))
    return QIcon(pixmap)


class PreferencesDialog(QDialog):
    """Edits a ``Preferences``; ``preferences()`` is the edited value (the caller
    stores and applies it when the dialog is accepted)."""

    def __init__(self, preferences: Preferences, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("preferencesDialog")
        self.setWindowTitle("Preferences")
        self._preferences = preferences
        self.colour_buttons: dict[Side | Arc, QPushButton] = {}

        colours = QGroupBox("Colours on the map")
        grid = QGridLayout(colours)
        grid.setHorizontalSpacing(8)
        grid.setVerticalSpacing(3)
        grid.addWidget(QLabel("<b>Sides</b>"), 0, 0, 1, 2)
        for row, side in enumerate(Side, start=1):
            self._add_colour_row(grid, row, 0, side, SIDE_TEXT[side])
        grid.addWidget(QLabel("<b>Arcs</b>"), 0, 2, 1, 2)
        for row, arc in enumerate(theme.ARC_ORDER, start=1):
            self._add_colour_row(grid, row, 2, arc, theme.ARC_LEGEND_TEXT[arc])
        self.default_colours_button = QPushButton("Shipped &colours")
        self.default_colours_button.setObjectName("defaultColoursButton")
        self.default_colours_button.setToolTip("Every side and arc back to its shipped colour")
        self.default_colours_button.clicked.connect(self._on_default_colours_clicked)
        grid.addWidget(self.default_colours_button, len(theme.ARC_ORDER) + 1, 0, 1, 4)
        grid.setColumnStretch(1, 1)
        grid.setColumnStretch(3, 1)

        self.handedness_combo = QComboBox()
        self.handedness_combo.setObjectName("handednessCombo")
        for handedness, text in HANDEDNESS_TEXT.items():
            self.handedness_combo.addItem(text, handedness)
        self.handedness_combo.setToolTip(
            "The weapon hand of a fighter added without one (a template that names its "
            "hand keeps it)"
        )
        self.animations_check = QCheckBox("&Animate flying and falling pieces")
        self.animations_check.setObjectName("animationsCheck")
        self.dice_combo = QComboBox()
        self.dice_combo.setObjectName("diceModeCombo")
        for mode, text in DICE_MODE_TEXT.items():
            self.dice_combo.addItem(text, mode)
        table = QGroupBox("At the table")
        table_grid = QGridLayout(table)
        hand_label = buddy_label("New &fighters are", self.handedness_combo)
        dice_label = buddy_label("&Dice", self.dice_combo)
        table_grid.addWidget(hand_label, 0, 0)
        table_grid.addWidget(self.handedness_combo, 0, 1)
        table_grid.addWidget(dice_label, 1, 0)
        table_grid.addWidget(self.dice_combo, 1, 1)
        table_grid.addWidget(self.animations_check, 2, 0, 1, 2)
        self.computer_defends_check = QCheckBox("Choose my fighters' defenses for &me")
        self.computer_defends_check.setObjectName("computerDefendsCheck")
        self.computer_defends_check.setToolTip(
            "When a computer fighter attacks one of yours during auto-play, the computer "
            "picks its defense (the answer that does the least harm) instead of asking you"
        )
        table_grid.addWidget(self.computer_defends_check, 3, 0, 1, 2)
        table_grid.setColumnStretch(1, 1)

        asks = QGroupBox("Ask before")
        asks_layout = QVBoxLayout(asks)
        self.confirm_checks: dict[Confirmation, QCheckBox] = {}
        for confirmation, text in CONFIRMATION_TEXT.items():
            check = QCheckBox(text)
            check.setObjectName(f"confirm_{confirmation.value}")
            asks_layout.addWidget(check)
            self.confirm_checks[confirmation] = check

        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addWidget(colours)
        layout.addWidget(table)
        layout.addWidget(asks)
        layout.addWidget(self.buttons)
        self._load(preferences)

    def _add_colour_row(
        self, grid: QGridLayout, row: int, col: int, key: Side | Arc, text: str
    ) -> None:
        button = QPushButton()
        button.setObjectName(f"colour_{type(key).__name__.lower()}_{key.value}")
        button.setToolTip(f"Choose the colour of {text.lower()}")
        button.clicked.connect(partial(self._on_colour_button_clicked, key))
        label = buddy_label(text, button)
        grid.addWidget(button, row, col)
        grid.addWidget(label, row, col + 1)
        self.colour_buttons[key] = button

    def _load(self, preferences: Preferences) -> None:
        self._preferences = preferences
        for key, button in self.colour_buttons.items():
            name = self.colour_of(key)
            button.setIcon(colour_icon(name))
            button.setText(name)
        self.handedness_combo.setCurrentIndex(
            self.handedness_combo.findData(preferences.default_handedness)
        )
        self.animations_check.setChecked(preferences.animations)
        self.computer_defends_check.setChecked(preferences.computer_defends)
        self.dice_combo.setCurrentIndex(self.dice_combo.findData(preferences.dice_mode))
        for confirmation, check in self.confirm_checks.items():
            check.setChecked(preferences.asks(confirmation))

    def colour_of(self, key: Side | Arc) -> str:
        if isinstance(key, Side):
            return self._preferences.side_colours[key]
        return self._preferences.arc_colours[key]

    def set_colour(self, key: Side | Arc, name: str) -> None:
        """Give a side or an arc the colour ``name`` (as picking it in the colour
        dialog does)."""
        colour = QColor(name)
        if colour.isValid():
            self._load(self.preferences().with_colour(key, colour.name()))

    def _on_colour_button_clicked(self, key: Side | Arc) -> None:
        colour = QColorDialog.getColor(
            QColor(self.colour_of(key)), self, self.colour_buttons[key].toolTip()
        )
        if colour.isValid():
            self.set_colour(key, colour.name())

    def _on_default_colours_clicked(self) -> None:
        self._load(self.preferences().with_default_colours())

    def preferences(self) -> Preferences:
        """The preferences as the dialog shows them now."""
        handedness = self.handedness_combo.currentData()
        dice = self.dice_combo.currentData()
        return replace(
            self._preferences,
            default_handedness=handedness if isinstance(handedness, Handedness) else (
                self._preferences.default_handedness
            ),
            animations=self.animations_check.isChecked(),
            dice_mode=dice if isinstance(dice, DiceMode) else self._preferences.dice_mode,
            confirmations=frozenset(c for c, check in self.confirm_checks.items()
                                    if check.isChecked()),
            computer_defends=self.computer_defends_check.isChecked(),
        )  # fmt: skip
