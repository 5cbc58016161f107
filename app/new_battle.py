"""A battle from nothing: the New Battle dialog, and fighters from the template
library put on the map.

``NewBattleDialog`` asks for the map size, the ruleset and its options (from the
registry: the app knows only the ``Ruleset`` protocol), the sides with their names
and colours, and the battle seed: random by default (the system's source), shown, and
typed in to play a battle again with the same dice, and how many fighters each
side starts with. ``setup()`` is the GM's choice as data (``NewBattleSetup``);
``new_battle(setup)`` makes the battle, its starting fighters taken from the
chosen ruleset's bundled templates (``starting_lineup``: different templates for
each side, in two lines facing each other across the middle of the map), each
added by an ``AddCombatant`` command, so an undo takes them away one by one.

Fighters then come from the template library (``assets/templates/`` and the GM's
own, through ``app.templates``) in two clicks: a right-click on an empty hex opens "Add
fighter" with the sides and their templates (``add_fighter_menu``), and a click on
a template puts it there. Battle ▸ Add Fighter arms a template for the next click
on the map instead (``app.file_actions``). Either way it is an ``AddCombatant``
command: undone, saved and replayed like any other.
"""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from PySide6.QtCore import QRegularExpression, QSettings, Qt
from PySide6.QtGui import (
    QColor,
    QIcon,
    QPainter,
    QPixmap,
    QRegularExpressionValidator,
    QShowEvent,
)
from PySide6.QtWidgets import (
    QCheckBox,
    QColorDialog,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.controller import BattleController
from app.panes.widgets import BAD_TEXT, MUTED
from app.preferences import Preferences
from app.templates import (
    Template,
    duplicate_of,
    load_library,
    nearest_free_hex,
    numbered_name,
)
from app.theme import SIDE_COLOURS
from hexmap import Facing, Handedness, Hex, HexGrid, parse_digits
from rules.battle.battle import Battle
from rules.battle.control import SetControllers
from rules.battle.controllers import PolicyChoice
from rules.battle.edits import fighter_problems
from rules.battle.limits import MAX_MAP_SIDE
from rules.battle.model import Combatant, Side
from rules.battle.policy_settings import POLICY_KEYS
from rules.battle.roster import AddCombatant, RemoveCombatant, next_combatant_id
from rules.battle.side_control import SetSideControllers
from rules.battle.sides import MAX_SIDE_NAME, SideSetup, side_name
from rules.battle.state import BattleState
from rules.battle.together import together
from rules.core.assets import asset_path, read_json
from rules.core.errors import DataError, RulesError
from rules.core.formats import DEFAULT_RULESET_KEY
from rules.core.writable_text import unwritable_text
from rules.sets.protocol import OptionChoice
from rules.sets.registry import get_ruleset, ruleset_keys

log = logging.getLogger(__name__)

DEFAULT_COLUMNS = 24
DEFAULT_ROWS = 16
MIN_SIDES = 2
# Tokens are coloured by side; a battle has as many sides as ``Side`` has members.
MAX_SIDES = len(Side)
SEED_DIGITS = 9  # a seed a GM can read out and type in again
DEFAULT_STARTING_FIGHTERS = 2  # per side: a skirmish ready to play
MAX_STARTING_FIGHTERS = 6
# Hexes between the two facing lines of starting fighters: a step or two apart.
LINE_GAP = 3
DIALOG_WIDTH = 520
DEFAULT_SIDE_NAMES: Mapping[Side, str] = {side: side.value.capitalize() for side in Side}

ColourChooser = Callable[[QColor, QWidget], QColor | None]


def random_seed() -> int:
    """A new battle's seed: random (from the system's secure source), short enough
    to read out."""
    return random.SystemRandom().randrange(10**SEED_DIGITS)


@dataclass(frozen=True)
class NewBattleSetup:
    columns: int
    rows: int
    ruleset_key: str
    ruleset_options: tuple[str, ...]
    sides: tuple[SideSetup, ...]
    seed: int
    starting_fighters: int = 0  # per side, from the ruleset's bundled templates
    # Roll the turn order as the battle starts (False: free play, no maneuver
    # limits). The window rolls it through its controller, so that physical dice
    # ask the table for it (``app.file_actions.FileActions.new_battle``).
    roll_initiative: bool = False
    # The sides the computer plays, each with its policy's key (issue 25): their
    # starting fighters are handed to it in one ``SetControllers``; the other
    # sides are the GM's.
    computer_sides: tuple[tuple[Side, str], ...] = ()


# --- the last set-up, for the next New Battle -------------------------------------------

LAST_SETUP_KEY = "newBattle/lastSetup"
MAX_SETUP_TEXT = 4096  # characters: a set-up of four sides with long names fits


def write_last_setup(settings: QSettings, setup: NewBattleSetup) -> None:
    """Keep ``setup`` for the next New Battle dialog (``read_last_setup``)."""
    document = {
        "columns": setup.columns,
        "rows": setup.rows,
        "ruleset": setup.ruleset_key,
        "options": list(setup.ruleset_options),
        "sides": [{"side": s.side.value, "name": s.name, "colour": s.colour} for s in setup.sides],
        "seed": setup.seed,
        "starting_fighters": setup.starting_fighters,
        "roll_initiative": setup.roll_initiative,
    }
    if setup.computer_sides:  # a set-up of the GM's sides alone is kept as before
        document["computer_sides"] = {side.value: key for side, key in setup.computer_sides}
    settings.setValue(LAST_SETUP_KEY, json.dumps(document))


def read_last_setup(settings: QSettings) -> NewBattleSetup | None:
    """The set-up ``write_last_setup`` kept; None when there is none or it is not
    one this Hexfray can offer (a ruleset or option it lacks, a number out of range)."""
    text = settings.value(LAST_SETUP_KEY, "")
    if not isinstance(text, str) or not text or len(text) > MAX_SETUP_TEXT:
        return None
    try:
        document = json.loads(text)
        unwritable = unwritable_text(document)  # a side name no battle file could hold
        if unwritable is not None:
            raise ValueError(unwritable)
        return _setup_of(document)
    except (ValueError, TypeError, KeyError, RecursionError, RulesError) as exc:
        log.info("the last New Battle set-up is not offered again: %s", exc)
        return None


def _bounded(value: object, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"expected a whole number {low} to {high}, got {value!r:.20}")
    return value


def _setup_of(document: object) -> NewBattleSetup:
    if not isinstance(document, dict):
        raise TypeError("not a set-up")
    key = document["ruleset"]
    options = document["options"]
    if key not in ruleset_keys() or not isinstance(options, list):
        raise ValueError(f"no ruleset {key!r:.20} to offer")
    get_ruleset(key, options)  # every option known and allowed together
    sides = tuple(
        SideSetup(Side(side["side"]), str(side["name"]), str(side["colour"]))
        for side in document["sides"]
    )
    if not MIN_SIDES <= len({s.side for s in sides}) == len(sides) <= MAX_SIDES:
        raise ValueError("not a set of sides")
    roll_initiative = document["roll_initiative"]
    if not isinstance(roll_initiative, bool):
        raise TypeError("roll_initiative: expected true or false")
    computer = document.get("computer_sides", {})  # none kept before computer control
    if not isinstance(computer, dict) or not all(key in POLICY_KEYS for key in computer.values()):
        raise ValueError("computer_sides: expected a policy for each side")
    in_battle = {s.side for s in sides}
    computer_sides = tuple(
        (Side(side), key) for side, key in computer.items() if Side(side) in in_battle
    )
    return NewBattleSetup(
        columns=_bounded(document["columns"], 1, MAX_MAP_SIDE),
        rows=_bounded(document["rows"], 1, MAX_MAP_SIDE),
        ruleset_key=key,
        ruleset_options=tuple(options),
        sides=sides,
        seed=_bounded(document["seed"], 0, 10**SEED_DIGITS - 1),
        starting_fighters=_bounded(document["starting_fighters"], 0, MAX_STARTING_FIGHTERS),
        roll_initiative=roll_initiative,
        computer_sides=computer_sides,
    )


def new_battle(
    setup: NewBattleSetup,
    templates: Sequence[Template] | None = None,
    handedness: Handedness = Handedness.RIGHT,
) -> Battle:
    """The battle the dialog describes: its map, rules and sides, and its starting
    fighters (``setup.starting_fighters`` a side, from ``templates``, by default
    the ruleset's bundled ones; ``starting_lineup``), each an ``AddCombatant``;
    those of the sides the computer plays (``setup.computer_sides``) then handed to
    it, with the sides themselves (``SetSideControllers``), by one command.
    ``RulesError`` for an unknown ruleset or options it refuses together, before
    anything is made."""
    get_ruleset(setup.ruleset_key, setup.ruleset_options)
    state = BattleState(
        HexGrid(setup.columns, setup.rows),
        (),
        ruleset_key=setup.ruleset_key,
        ruleset_options=setup.ruleset_options,
        sides=setup.sides,
    )
    battle = Battle(state, setup.seed, get_ruleset)
    if setup.starting_fighters > 0:
        if templates is None:
            templates = starting_templates(setup.ruleset_key)
        for combatant in starting_lineup(state, templates, setup.starting_fighters, handedness):
            battle.execute(AddCombatant(combatant))
    policies = dict(setup.computer_sides)
    fighters = battle.state.combatants
    handed = tuple((c.id, PolicyChoice(policies[c.side])) for c in fighters if c.side in policies)
    # one command: Undo gives the whole line-up back to the GM; the sides stay the
    # computer's for the fighters who join them later (rules.battle.side_control)
    command = together(
        SetSideControllers(tuple((side, PolicyChoice(key)) for side, key in setup.computer_sides))
        if setup.computer_sides
        else None,
        SetControllers(handed) if handed else None,
    )
    if command is not None:
        battle.execute(command)
    return battle


def demo_template_keys(ruleset_key: str) -> tuple[str, ...]:
    """The template keys of the ruleset's demo battle, in the order it lists them
    (``assets/rulesets/<key>/demo-setup.json``, packaging/make_demo_battles.py); ()
    when it has none or the file cannot be read."""
    path = asset_path("rulesets", ruleset_key, "demo-setup.json")
    if not path.is_file():
        return ()
    try:
        setup = read_json("rulesets", ruleset_key, "demo-setup.json")
    except DataError as exc:
        log.warning("the demo set-up of ruleset %s cannot be read: %s", ruleset_key, exc)
        return ()
    fighters = setup.get("fighters") if isinstance(setup, dict) else None
    keys = [f.get("template") for f in fighters or () if isinstance(f, dict)]
    return tuple(dict.fromkeys(k for k in keys if isinstance(k, str)))


def starting_templates(ruleset_key: str) -> tuple[Template, ...]:
    """The bundled templates a new battle of the ruleset starts with, in the order
    they are handed out: the ruleset's demo battle's fighters first (the ones its
    author set against each other), then the others by file name."""
    bundled = [t for t in fighter_templates(ruleset_key) if not t.custom]
    demo = demo_template_keys(ruleset_key)
    rank = {key: i for i, key in enumerate(demo)}
    return tuple(sorted(bundled, key=lambda t: rank.get(t.key, len(rank))))


def _line_hexes(grid: HexGrid, side_index: int, count: int) -> list[Hex]:
    """Where the ``side_index``-th side's line stands: the first side north of the
    middle, the second south of it (``LINE_GAP`` rows apart), the third west and
    the fourth east; ``count`` hexes side by side, centred."""
    mid_col, mid_row = grid.width // 2, grid.height // 2
    half_gap = (LINE_GAP + 1) // 2
    places: list[Hex] = []
    for j in range(count):
        offset = (j + 1) // 2 * (1 if j % 2 else -1) * 2  # centre, then right, left ...
        if side_index == 0:
            col, row = mid_col + offset, mid_row - half_gap
        elif side_index == 1:
            col, row = mid_col + offset, mid_row + LINE_GAP - half_gap
        elif side_index == 2:
            col, row = mid_col - LINE_GAP - 2, mid_row + offset // 2
        else:
            col, row = mid_col + LINE_GAP + 2, mid_row + offset // 2
        places.append(Hex.from_offset(col, row))
    return places


def starting_lineup(
    state: BattleState,
    templates: Sequence[Template],
    per_side: int,
    handedness: Handedness = Handedness.RIGHT,
) -> tuple[Combatant, ...]:
    """``per_side`` fighters for each of the battle's sides (``battle_sides``) from
    ``templates`` in turn, each side starting where the last one stopped (so two
    sides of two from four templates field four different fighters), in lines
    facing each other across the middle of the map (the nearest free hex where a
    small map has no room); named "Fencer 2" where a Fencer stands already. Fewer
    when the map is full; none without templates. A template whose fighter the
    map refuses (a reach longer than the map: ``fighter_problems``) is passed over."""
    templates = [t for t in templates if not fighter_problems(t.fighter, state.grid)]
    if not templates:
        return ()
    placed = state
    lineup: list[Combatant] = []
    picked = 0
    for index, side in enumerate(battle_sides(state)):
        for at in _line_hexes(state.grid, index, per_side):
            free = nearest_free_hex(placed, at if at in state.grid else _clamped(state.grid, at))
            if free is None:
                return tuple(lineup)
            template = templates[picked % len(templates)]
            picked += 1
            combatant = new_combatant(placed, template, side, free, handedness)
            facing = (
                _LINE_FACINGS[index]
                if index in _LINE_FACINGS
                else facing_toward_centre(state.grid, free)
            )
            combatant = replace(combatant, facing=facing)
            placed = replace(placed, combatants=(*placed.combatants, combatant))
            lineup.append(combatant)
    return tuple(lineup)


# The first two sides' lines face each other; the others face the middle.
_LINE_FACINGS: Mapping[int, Facing] = {0: Facing.S, 1: Facing.N}


def _clamped(grid: HexGrid, at: Hex) -> Hex:
    col, row = at.to_offset()
    return Hex.from_offset(min(max(col, 0), grid.width - 1), min(max(row, 0), grid.height - 1))


# --- the dialog -------------------------------------------------------------------------


def choose_colour_with_dialog(current: QColor, parent: QWidget) -> QColor | None:
    colour = QColorDialog.getColor(current, parent, "Side colour")
    return colour if colour.isValid() else None


def colour_icon(colour: QColor, size: int = 16) -> QIcon:
    pixmap = QPixmap(size, size)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(QColor("#3a3128"))
    painter.setBrush(colour)
    painter.drawEllipse(1, 1, size - 2, size - 2)
    painter.end()
    return QIcon(pixmap)


class SideRow(QWidget):
    """One side: its name, its colour button and a remove button."""

    def __init__(
        self, side: Side, colour: QColor, choose_colour: ColourChooser, parent: QWidget
    ) -> None:
        super().__init__(parent)
        self.side = side
        self.colour = QColor(colour)
        self._choose_colour = choose_colour
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.name_edit = QLineEdit(DEFAULT_SIDE_NAMES[side], self)
        self.name_edit.setObjectName(f"sideName:{side.value}")
        self.name_edit.setMaxLength(MAX_SIDE_NAME)
        self.name_edit.setPlaceholderText("Name of the side")
        self.colour_button = QPushButton("Colour…", self)
        self.colour_button.setObjectName(f"sideColour:{side.value}")
        self.colour_button.setToolTip("The colour of this side's tokens")
        self.colour_button.clicked.connect(self._on_colour_button_clicked)
        self.played_by_box = QComboBox(self)
        self.played_by_box.setObjectName(f"newSidePlayedBy:{side.value}")
        self.played_by_box.setToolTip("Who plays this side's starting fighters")
        self.played_by_box.addItem("The GM", "")
        for key in POLICY_KEYS:
            self.played_by_box.addItem(f"The computer: {key}", key)
        self.remove_button = QToolButton(self)
        self.remove_button.setObjectName(f"removeSide:{side.value}")
        self.remove_button.setText("Remove")
        self.remove_button.setToolTip("Take this side out of the battle")
        layout.addWidget(self.name_edit, 1)
        layout.addWidget(self.colour_button)
        layout.addWidget(self.played_by_box)
        layout.addWidget(self.remove_button)
        self._show_colour()

    def _show_colour(self) -> None:
        self.colour_button.setIcon(colour_icon(self.colour))

    def set_colour(self, colour: QColor) -> None:
        if colour.isValid():
            self.colour = QColor(colour)
            self._show_colour()

    def _on_colour_button_clicked(self) -> None:
        chosen = self._choose_colour(self.colour, self)
        if chosen is not None:
            self.set_colour(chosen)

    def setup(self) -> SideSetup:
        name = self.name_edit.text().strip() or DEFAULT_SIDE_NAMES[self.side]
        return SideSetup(self.side, name, self.colour.name())

    @property
    def policy_key(self) -> str:
        """The policy the computer plays this side with; "" for the GM."""
        key = self.played_by_box.currentData()
        return key if isinstance(key, str) else ""

    def set_policy_key(self, key: str) -> None:
        self.played_by_box.setCurrentIndex(max(0, self.played_by_box.findData(key)))


class NewBattleDialog(QDialog):
    """Map size, ruleset and options, sides, seed; OK makes ``setup()``. ``last``:
    the set-up of the last battle made, shown again (but for its seed: a new
    battle gets new dice unless the GM types the old seed)."""

    def __init__(
        self,
        parent: QWidget | None = None,
        *,
        side_colours: Mapping[Side, str] | None = None,
        choose_colour: ColourChooser = choose_colour_with_dialog,
        seed: int | None = None,
        last: NewBattleSetup | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("newBattleDialog")
        self.setWindowTitle("New Battle")
        self._side_colours = side_colours or {s: SIDE_COLOURS[s].name() for s in Side}
        self._choose_colour = choose_colour
        # Narrow enough to read at a glance; long texts wrap (a 1366 x 768 screen).
        self.setMinimumWidth(DIALOG_WIDTH)
        self.setMaximumWidth(DIALOG_WIDTH + 120)
        layout = QVBoxLayout(self)

        form = self._form = QFormLayout()
        size_row = QHBoxLayout()
        self.columns_box = self._size_box("columnsBox", DEFAULT_COLUMNS, "Columns of hexes")
        self.rows_box = self._size_box("rowsBox", DEFAULT_ROWS, "Rows of hexes")
        size_row.addWidget(self.columns_box)
        size_row.addWidget(QLabel("columns  ×", self))
        size_row.addWidget(self.rows_box)
        size_row.addWidget(QLabel("rows", self))
        size_row.addStretch(1)
        form.addRow("&Map:", size_row)
        self.columns_box.setFocus()
        label = form.labelForField(size_row)
        if isinstance(label, QLabel):
            label.setBuddy(self.columns_box)

        self.ruleset_box = QComboBox(self)
        self.ruleset_box.setObjectName("rulesetBox")
        for key in ruleset_keys():
            try:
                name = get_ruleset(key).name
            except RulesError as exc:  # a ruleset that cannot load is not offered
                log.warning("ruleset %s cannot be offered: %s", key, exc)
                continue
            self.ruleset_box.addItem(name, key)
        self.ruleset_box.currentIndexChanged.connect(self._on_ruleset_box_changed)
        form.addRow("&Rules:", self.ruleset_box)
        self.ruleset_description = QLabel(self)
        self.ruleset_description.setObjectName("rulesetDescription")
        self.ruleset_description.setWordWrap(True)
        form.addRow("", self.ruleset_description)
        self.options_box = QWidget(self)
        self.options_layout = QVBoxLayout(self.options_box)
        self.options_layout.setContentsMargins(0, 0, 0, 0)
        # An option that stands alone is a check box; options that exclude each
        # other (``Ruleset.option_choices``) are one box, keyed by the choice's label.
        self.option_checks: dict[str, QCheckBox] = {}
        self.option_choice_boxes: dict[str, QComboBox] = {}
        self._option_notes: list[QLabel] = []
        self._option_widgets: list[QWidget] = []
        form.addRow("Options:", self.options_box)

        fighters_row = QHBoxLayout()
        self.fighters_box = QSpinBox(self)
        self.fighters_box.setObjectName("startingFightersBox")
        self.fighters_box.setRange(0, MAX_STARTING_FIGHTERS)
        self.fighters_box.setValue(DEFAULT_STARTING_FIGHTERS)
        self.fighters_box.setToolTip(
            "How many fighters each side starts with, from the chosen rules' templates "
            "(0: an empty map)"
        )
        fighters_row.addWidget(self.fighters_box)
        fighters_row.addWidget(QLabel("per side", self))
        fighters_row.addStretch(1)
        form.addRow("&Fighters:", fighters_row)
        fighters_label = form.labelForField(fighters_row)
        if isinstance(fighters_label, QLabel):
            fighters_label.setBuddy(self.fighters_box)
        self.starting_fighters_note = QLabel(self)
        self.starting_fighters_note.setObjectName("startingFightersNote")
        self.starting_fighters_note.setWordWrap(True)
        self.starting_fighters_note.setStyleSheet(f"color: {MUTED.name()}")
        form.addRow("", self.starting_fighters_note)
        self.fighters_box.valueChanged.connect(self._show_starting_fighters)
        self.initiative_check = QCheckBox("Roll initiative now", self)
        self.initiative_check.setObjectName("rollInitiativeCheck")
        self.initiative_check.setChecked(True)
        form.addRow("", self.initiative_check)

        seed_row = QHBoxLayout()
        self.seed_edit = QLineEdit(self)
        self.seed_edit.setObjectName("seedEdit")
        self.seed_edit.setValidator(
            QRegularExpressionValidator(QRegularExpression(rf"[0-9]{{1,{SEED_DIGITS}}}"), self)
        )
        self.seed_edit.setToolTip(
            "The battle's dice follow from this number: type the seed of an earlier "
            "battle to roll the same dice again"
        )
        self.seed_edit.setText(str(random_seed() if seed is None else seed))
        self.new_seed_button = QPushButton("New seed", self)
        self.new_seed_button.setObjectName("newSeedButton")
        self.new_seed_button.clicked.connect(self._on_new_seed_button_clicked)
        seed_row.addWidget(self.seed_edit, 1)
        seed_row.addWidget(self.new_seed_button)
        form.addRow("&Seed:", seed_row)
        seed_label = form.labelForField(seed_row)
        if isinstance(seed_label, QLabel):
            seed_label.setBuddy(self.seed_edit)
        layout.addLayout(form)

        sides_group = QGroupBox("Sides", self)
        self.sides_layout = QVBoxLayout(sides_group)
        self.side_rows: list[SideRow] = []
        self.add_side_button = QPushButton("Add side", sides_group)
        self.add_side_button.setObjectName("addSideButton")
        self.add_side_button.clicked.connect(self._on_add_side_button_clicked)
        self.sides_layout.addWidget(self.add_side_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(sides_group)
        for side in tuple(Side)[:MIN_SIDES]:
            self.add_side(side)

        hint = QLabel(
            "Right-click a hex (or Battle ▸ Add Fighter) to put more fighters from the "
            "template library on the map.",
            self,
        )
        hint.setWordWrap(True)
        layout.addWidget(hint)
        # What keeps the battle from being made, in the dialog: nothing typed is lost.
        self.problem_label = QLabel(self)
        self.problem_label.setObjectName("newBattleProblem")
        self.problem_label.setWordWrap(True)
        self.problem_label.setStyleSheet(f"color: {BAD_TEXT.name()}")
        self.problem_label.hide()
        layout.addWidget(self.problem_label)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        ok = self.create_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setText("Create Battle")
        ok.setObjectName("createBattleButton")
        self.buttons.accepted.connect(self._on_buttons_accepted)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self._on_ruleset_box_changed()
        if last is not None:
            self.show_setup(last)

    def _size_box(self, name: str, value: int, tip: str) -> QSpinBox:
        box = QSpinBox(self)
        box.setObjectName(name)
        box.setRange(1, MAX_MAP_SIDE)
        box.setValue(value)
        box.setToolTip(f"{tip} (1 to {MAX_MAP_SIDE})")
        return box

    # --- sides ---------------------------------------------------------------------------
    def add_side(self, side: Side | None = None) -> SideRow | None:
        """A row for ``side`` (the first one not yet in the battle); None when every
        side is in."""
        taken = {row.side for row in self.side_rows}
        if side is None:
            side = next((s for s in Side if s not in taken), None)
        if side is None or side in taken:
            return None
        row = SideRow(side, QColor(self._side_colours[side]), self._choose_colour, self)
        row.remove_button.clicked.connect(lambda _=False, r=row: self.remove_side(r))
        self.side_rows.append(row)
        self.side_rows.sort(key=lambda r: tuple(Side).index(r.side))
        self.sides_layout.insertWidget(self.side_rows.index(row), row)
        self._update_side_buttons()
        return row

    def remove_side(self, row: SideRow) -> None:
        if len(self.side_rows) <= MIN_SIDES:
            return
        self.side_rows.remove(row)
        self.sides_layout.removeWidget(row)
        row.deleteLater()
        self._update_side_buttons()

    def show_setup(self, setup: NewBattleSetup) -> None:
        """Show ``setup``'s choices (the seed aside): map, rules and options, the
        starting fighters and the turn order, and the sides with their names and
        colours. A ruleset no longer offered leaves the rules as they are."""
        self.columns_box.setValue(setup.columns)
        self.rows_box.setValue(setup.rows)
        index = self.ruleset_box.findData(setup.ruleset_key)
        if index >= 0:
            self.ruleset_box.setCurrentIndex(index)
            for option, check in self.option_checks.items():
                check.setChecked(option in setup.ruleset_options)
            for box in self.option_choice_boxes.values():
                chosen = next((o for o in setup.ruleset_options if box.findData(o) >= 0), "")
                box.setCurrentIndex(box.findData(chosen))
        self.fighters_box.setValue(setup.starting_fighters)
        self.initiative_check.setChecked(setup.roll_initiative)
        wanted = {s.side: s for s in setup.sides}
        if len(wanted) >= MIN_SIDES:
            for row in list(self.side_rows):
                if row.side not in wanted:
                    self.remove_side(row)
            for side in wanted:
                self.add_side(side)
            computer = dict(setup.computer_sides)
            for row in self.side_rows:
                row.name_edit.setText(wanted[row.side].name)
                row.set_colour(QColor(wanted[row.side].colour))
                row.set_policy_key(computer.get(row.side, ""))

    def _update_side_buttons(self) -> None:
        self.add_side_button.setEnabled(len(self.side_rows) < MAX_SIDES)
        for row in self.side_rows:
            row.remove_button.setEnabled(len(self.side_rows) > MIN_SIDES)
        self._show_starting_fighters()

    def _on_add_side_button_clicked(self) -> None:
        row = self.add_side()
        if row is not None:
            row.name_edit.setFocus()
            row.name_edit.selectAll()

    # --- ruleset and seed ----------------------------------------------------------------
    def _on_ruleset_box_changed(self, *_args: object) -> None:
        for widget in self._option_widgets:
            self.options_layout.removeWidget(widget)
            widget.hide()  # gone at once, not when the event loop deletes it
            widget.deleteLater()
        self.option_checks = {}
        self.option_choice_boxes = {}
        self._option_notes = []
        self._option_widgets = []
        key = self.ruleset_box.currentData()
        if not isinstance(key, str):
            self.ruleset_description.setText("No ruleset can be loaded.")
            return
        ruleset = get_ruleset(key)
        self.ruleset_description.setText(ruleset.description)
        options = ruleset.available_options
        grouped = {o for choice in ruleset.option_choices for o in choice.options}
        labels = option_labels(options)
        for choice in ruleset.option_choices:
            self._add_option_choice(choice, options, labels)
        for option, explanation in options.items():
            if option in grouped:
                continue
            check = QCheckBox(labels[option])
            check.setObjectName(f"option:{option}")
            check.setToolTip(explanation)
            check.toggled.connect(self._check_options)
            self._add_option_widget(check)
            self.option_checks[option] = check
            details = explanation.partition(": ")[2]
            if details:
                self._add_option_note(details)
        self._form.setRowVisible(self.options_box, bool(self._option_widgets))
        self._show_starting_fighters()
        self._check_options()
        self._fit_height()

    def _add_option_widget(self, widget: QWidget) -> None:
        self.options_layout.addWidget(widget)
        self._option_widgets.append(widget)

    def _add_option_note(self, text: str) -> QLabel:
        note = QLabel(text[:1].upper() + text[1:], self.options_box)
        note.setWordWrap(True)
        note.setIndent(20)
        note.setStyleSheet(f"color: {MUTED.name()}")
        self._add_option_widget(note)
        self._option_notes.append(note)
        return note

    def _add_option_choice(
        self, choice: OptionChoice, options: Mapping[str, str], labels: Mapping[str, str]
    ) -> None:
        """Options that exclude each other as one box: "Hit locations: [Seed 000
        table]", the chosen one's explanation below it."""
        row = QWidget(self.options_box)
        row_layout = QHBoxLayout(row)
        row_layout.setContentsMargins(0, 0, 0, 0)
        box = QComboBox(row)
        box.setObjectName(f"optionChoice:{choice.label}")
        box.addItem(choice.none_label, "")
        for option in choice.options:
            if option in options:
                box.addItem(labels[option], option)
                box.setItemData(box.count() - 1, options[option], Qt.ItemDataRole.ToolTipRole)
        caption = QLabel(f"{choice.label}:", row)
        caption.setBuddy(box)
        row_layout.addWidget(caption)
        row_layout.addWidget(box, 1)
        self._add_option_widget(row)
        note = self._add_option_note("")
        self.option_choice_boxes[choice.label] = box

        def show_chosen(*_args: object) -> None:
            option = box.currentData()
            details = options.get(option, "").partition(": ")[2] if option else ""
            note.setText(details[:1].upper() + details[1:])
            note.setVisible(bool(details))
            box.setToolTip(options[option] if option else choice.none_label)
            self._check_options()
            self._fit_height()

        box.currentIndexChanged.connect(show_chosen)
        show_chosen()

    def chosen_options(self) -> tuple[str, ...]:
        """The options chosen, in the order the ruleset lists them."""
        key = self.ruleset_box.currentData()
        if not isinstance(key, str):
            return ()
        chosen = {o for o, check in self.option_checks.items() if check.isChecked()}
        chosen |= {box.currentData() for box in self.option_choice_boxes.values()} - {""}
        return tuple(o for o in get_ruleset(key).available_options if o in chosen)

    def problem(self) -> str:
        """Why the battle cannot be made as chosen, in the GM's words; "" when it can."""
        key = self.ruleset_box.currentData()
        if not isinstance(key, str):
            return "No ruleset can be loaded: this Hexfray cannot make a battle."
        try:
            get_ruleset(key, self.chosen_options())
        except RulesError as refusal:
            reason = str(refusal)
            return f"These options cannot go together: {reason[:1].lower()}{reason[1:]}."
        return ""

    def _check_options(self, *_args: object) -> None:
        """Say at once what keeps the battle from being made, and allow Create only
        when nothing does."""
        problem = self.problem()
        self.problem_label.setText(problem)
        self.problem_label.setVisible(bool(problem))
        self.create_button.setEnabled(not problem)
        self._fit_height()

    def _fit_height(self) -> None:
        """Make room for the wrapped option notes at the dialog's width: a window
        takes its size from its layout's size hints, which leave out the extra
        height a wrapped line needs, so a note of two lines would get one and
        overlap the next box."""
        layout = self.layout()
        if layout is None or not layout.hasHeightForWidth():
            return
        needed = layout.totalHeightForWidth(self.width())
        self.setMinimumHeight(needed)
        if self.height() < needed:
            self.resize(self.width(), needed)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._fit_height()  # the width is final only now

    def _show_starting_fighters(self, *_args: object) -> None:
        """Which templates the starting fighters come from (the first few named), and
        whether there is anybody to roll initiative for."""
        key = self.ruleset_box.currentData()
        templates = starting_templates(key) if isinstance(key, str) else ()
        count = self.fighters_box.value()
        orderable = count > 0 and bool(templates)
        self.initiative_check.setEnabled(orderable)
        self.initiative_check.setToolTip(
            "Start with the turn order rolled: each fighter acts on its own turn, within "
            "its maneuver's limits. Untick for free play: anybody moves and attacks, in "
            "any order, with no maneuver limit."
            if orderable
            else "Nobody to roll initiative for yet: add fighters, then roll it in the "
            "turn tracker."
        )
        if count == 0:
            text = "The map starts empty."
        elif not templates:
            text = "These rules have no templates: the map starts empty."
        else:
            wanted = count * len(self.side_rows)
            names = list(dict.fromkeys(t.fighter.name for t in templates[:wanted]))
            text = f"From the rules' templates: {', '.join(names)}."
        self.starting_fighters_note.setText(text)

    def _on_new_seed_button_clicked(self) -> None:
        self.seed_edit.setText(str(random_seed()))

    def _on_buttons_accepted(self) -> None:
        self._check_options()
        if self.problem_label.isVisible():
            return  # the problem shows in the dialog; nothing typed is lost
        if not self.seed_edit.text():
            self.seed_edit.setText(str(random_seed()))
        self.accept()

    def setup(self) -> NewBattleSetup:
        key = self.ruleset_box.currentData()
        return NewBattleSetup(
            columns=self.columns_box.value(),
            rows=self.rows_box.value(),
            ruleset_key=key if isinstance(key, str) else "",
            ruleset_options=self.chosen_options(),
            sides=tuple(row.setup() for row in self.side_rows),
            seed=parse_digits(self.seed_edit.text(), SEED_DIGITS) or 0,
            starting_fighters=self.fighters_box.value(),
            roll_initiative=self.initiative_check.isEnabled()
            and self.initiative_check.isChecked(),
            computer_sides=tuple(
                (row.side, row.policy_key) for row in self.side_rows if row.policy_key
            ),
        )


def option_labels(options: Mapping[str, str]) -> dict[str, str]:
    """The name each option is offered by: its explanation's words before ": "
    ("hit locations: seed 001's ..." -> "Hit locations"), told apart by its key
    where two share a name; the whole explanation when it has no such part."""
    names = [explanation.partition(": ")[0] for explanation in options.values()]
    labels: dict[str, str] = {}
    for option, explanation in options.items():
        name, _, details = explanation.partition(": ")
        label = name[:1].upper() + name[1:] if details else explanation
        if details and names.count(name) > 1:  # two options of one name: keep them apart
            label = f"{label} ({option})"
        labels[option] = label
    return labels


# --- fighters from the template library --------------------------------------------------


def fighter_templates(ruleset_key: str = DEFAULT_RULESET_KEY) -> tuple[Template, ...]:
    """The template library's templates for ``ruleset_key``: the bundled ones and
    the GM's own (``app.templates``; a broken file is logged and skipped)."""
    return load_library().for_ruleset(ruleset_key)


def battle_sides(state: BattleState) -> tuple[Side, ...]:
    """The sides a fighter may join: those the battle names, else those on the map
    and at least two."""
    if state.sides:
        return tuple(s.side for s in state.sides)
    present = {c.side for c in state.combatants} | set(tuple(Side)[:MIN_SIDES])
    return tuple(s for s in Side if s in present)


def facing_toward_centre(grid: HexGrid, at: Hex) -> Facing:
    """The hex side that looks most nearly at the middle of the map."""
    centre = Hex.from_offset(grid.width // 2, grid.height // 2)
    if centre == at:
        return Facing.N
    return min(Facing, key=lambda f: (at + f.vector).distance(centre))


def new_combatant(
    state: BattleState, template: Template, side: Side, at: Hex, handedness: Handedness
) -> Combatant:
    """A fighter of ``template`` for ``side`` at ``at``, facing the middle of the
    map, in the GM's default hand unless the template names one; named "Fencer 2"
    if a Fencer is on the map already."""
    fighter = template.fighter
    if not template.names_its_hand:
        fighter = replace(fighter, handedness=handedness)
    name = numbered_name(state, fighter.name)
    if name != fighter.name:
        fighter = replace(fighter, name=name)
    return Combatant(
        id=next_combatant_id(state),
        fighter=fighter,
        side=side,
        hex=at,
        facing=facing_toward_centre(state.grid, at),
        hp=fighter.hit_points,
    )


def preferred_handedness(widget: QWidget | None) -> Handedness:
    """The hand the GM's preferences give new fighters, from the window ``widget``
    is in (right-handed outside one)."""
    window = widget.window() if widget is not None else None
    preferences = getattr(window, "preferences", None)
    if isinstance(preferences, Preferences):
        return preferences.default_handedness
    return Handedness.RIGHT


def add_fighter_menu(
    menu: QMenu,
    controller: BattleController,
    at: Hex,
    templates: Sequence[Template] | None = None,
) -> QMenu | None:
    """The "Add fighter" submenu of an empty hex: one submenu per side, each with
    the templates; a click puts one on ``at`` (``AddCombatant``), in the hand the
    GM's preferences give new fighters."""
    state = controller.state
    templates = fighter_templates(state.ruleset_key) if templates is None else templates
    handedness = preferred_handedness(menu.parentWidget())
    if not templates or at not in state.grid or state.occupant(at) is not None:
        return None
    sub = menu.addMenu("Add &fighter")
    sub.setObjectName("addFighterMenu")
    for side in battle_sides(state):
        side_menu = sub.addMenu(colour_icon(SIDE_COLOURS[side]), side_name(state.sides, side))
        side_menu.setObjectName(f"addFighter:{side.value}")
        side_menu.setToolTipsVisible(True)  # each template's description
        for template in templates:
            action = side_menu.addAction(template.name)
            action.setObjectName(f"addFighter:{side.value}:{template.key}")
            action.setToolTip(template.description)
            action.setStatusTip(template.description)
            action.triggered.connect(
                lambda _=False, t=template, s=side: controller.execute(
                    AddCombatant(new_combatant(controller.state, t, s, at, handedness))
                )
            )
    return sub


def duplicate_fighter(controller: BattleController, combatant_id: str) -> Combatant | None:
    """A copy of the combatant in the free hex nearest it (``AddCombatant``, so Undo
    takes it away), selected; None when the map is full or the rules refuse."""
    copy = duplicate_of(controller.state, controller.state.combatant(combatant_id))
    if copy is None or controller.execute(AddCombatant(copy)) is None:
        return None
    controller.select(copy.id)
    return copy


def duplicate_fighter_action(menu: QMenu, controller: BattleController, who: Combatant) -> None:
    """ "Duplicate" for a combatant's menu: a fresh copy beside it."""
    action = menu.addAction(f"&Duplicate {who.name}")
    action.setObjectName("duplicateFighter")
    action.setStatusTip(f"A fresh copy of {who.name} in the nearest free hex (Undo removes it)")
    action.setEnabled(nearest_free_hex(controller.state, who.hex) is not None)
    action.triggered.connect(lambda _=False: duplicate_fighter(controller, who.id))


def remove_fighter_action(menu: QMenu, controller: BattleController, who: Combatant) -> None:
    """ "Remove from the battle" for a combatant's menu (``RemoveCombatant``; Undo
    brings it back)."""
    menu.addSeparator()
    action = menu.addAction(f"Remove {who.name} from the Battle")
    action.setObjectName("removeFighter")
    action.setStatusTip(f"Take {who.name} off the map (Undo brings them back)")
    action.triggered.connect(lambda _=False: controller.execute(RemoveCombatant(who.id)))
