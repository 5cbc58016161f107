"""The character editor and the sides editor.

``CharacterEditor`` edits one combatant's sheet: the fighter's name, handedness
and side, the ruleset's fields as its sheet description gives them
(``rules.sets.sheet_fields``: kinds and ranges, nothing named here), the skills,
the weapons with their modes, the shield and the armor. Gear is picked from the
battle's ruleset's catalog (``Sheets.catalog``) or entered by hand; of a weapon,
the editor shows only the parts the ruleset reads (``SheetDescription.weapon_parts``:
no parry class or thr/sw base for a ruleset without them), and a fixed-damage
mode's own dice ("1d8+1") are typed in. Every change is
checked at once, by the description's ranges, by the battle's own rules
(``rules.battle.edits.fighter_problems``: a weapon without a skill, a reach the
map cannot show) and by the ruleset's (``Sheets.problems``); each problem
shows beside its field and Save stays disabled until there is none. Save
executes one ``EditFighter`` command, so the edit is undone and replayed.

``SidesEditor`` sets up, renames and recolours the battle's sides and moves a
fighter to another side, each change a command at once (``rules.battle.edits``);
it hands a whole side to the GM or a computer policy (``SetControllers``, as the
fighters' "Played by" menus: ``app.played_by_menu``).
``CharacterEditing`` holds the Battle menu's actions and opens both.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QAction, QColor, QMouseEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QAbstractSpinBox,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app import theme
from app.controller import BattleController
from app.map.tools import combatant_at
from app.map.view import MapView
from app.new_battle import ColourChooser, choose_colour_with_dialog, colour_icon
from app.panes.widgets import buddy_label
from app.played_by_menu import (
    GM_KEY,
    MIXED_KEY,
    choice_for,
    policy_label,
    side_controller_key,
)
from app.templates import first_untaken
from hexmap import Handedness, HexmapError, Reach, parse_digits, parse_signed_digits
from rules.battle.catalog import Catalog
from rules.battle.control import SetControllers
from rules.battle.edits import (
    AddSide,
    ChangeSide,
    EditFighter,
    RecolourSide,
    RenameSide,
    SheetProblem,
    fighter_problems,
    mode_place,
    weapon_place,
    weapon_problems,
)
from rules.battle.model import (
    Armor,
    Combatant,
    DamageBase,
    DamageSpec,
    DamageType,
    Fighter,
    ParryClass,
    Shield,
    ShieldSize,
    Side,
    Weapon,
    WeaponKind,
    WeaponMode,
    WeaponSize,
)
from rules.battle.policy_settings import POLICY_KEYS
from rules.battle.side_control import hand_side_over
from rules.battle.sides import MAX_SIDE_NAME, side_name
from rules.battle.state import BattleState, Command
from rules.battle.together import together
from rules.core.dice import Dice
from rules.core.errors import DataError
from rules.sets.protocol import Ruleset
from rules.sets.sheet_fields import (
    ALL_WEAPON_PARTS,
    ProtectionPart,
    SheetEntries,
    SheetField,
    SheetFieldKind,
    SheetValue,
    WeaponPart,
    skill_place,
)

PROBLEM_STYLE = "color: #b3261e;"
NONE_CHOICE = "None"
BY_HAND = "Entered by hand"
# A number box lets a value past the field's range be typed, so that the message
# beside it can say what the range is (a box clamped to it would refuse silently).
NUMBER_SLACK = 999
EDITOR_SIZE = (940, 620)  # fits a 1366x768 screen with the window's frame
REACH_HINT = "Write a reach as C, 1, 2, 1-2 or C,1."
DICE_HINT = "Write the fixed damage's dice as 1d8+1, 2d-1 or 3d (d alone is d6)."
_DICE_TEXT = re.compile(r"\s*([0-9]{1,2})\s*d\s*([0-9]{0,3})\s*(?:([+-])\s*([0-9]{1,3}))?\s*")
BOX_WIDTH = 220
# The modes table's columns and the weapon part each shows (None: always shown).
MODE_COLUMNS: tuple[tuple[str, WeaponPart | None], ...] = (
    ("Mode", None),
    ("Damage", WeaponPart.DAMAGE_BASE),
    ("Adds", WeaponPart.ADDS),
    ("Type", WeaponPart.DAMAGE_TYPE),
    ("Reach", None),
    ("Skill ±", WeaponPart.SKILL_MODIFIER),
    ("Dice", WeaponPart.DICE),
    ("Range", WeaponPart.RANGE),
    ("½D", WeaponPart.HALF_DAMAGE_RANGE),
)
TYPE_COLUMN = 3
DICE_COLUMN = 6
RANGE_COLUMN = 7
HALF_DAMAGE_COLUMN = 8
MAX_RANGE = 999  # hexes
PROTECTION_TAB = 3  # the "Shield and armor" tab's index
# A row of the shield and armor tab: caption, box, problem place, the part it shows.
GearRow = tuple[str, QWidget, str, ProtectionPart | None]


def problem_label(object_name: str) -> QLabel:
    label = QLabel()
    label.setObjectName(object_name)
    label.setStyleSheet(PROBLEM_STYLE)
    label.setWordWrap(True)
    return label


# --- drafts: the weapons as the form holds them -----------------------------------------


@dataclass
class ModeDraft:
    """A weapon mode being edited; its reach is the text typed."""

    source: WeaponMode
    name: str
    base: DamageBase
    adds: int
    damage_type: DamageType
    reach_text: str
    skill_modifier: int
    dice_text: str = ""  # a fixed mode's own dice
    range_hexes: int = 0  # a thrown or missile mode's range (0: a melee mode's none)
    half_damage_hexes: int = 0  # its 1/2D range, 0 for none

    @classmethod
    def of(cls, mode: WeaponMode) -> ModeDraft:
        d = mode.damage
        dice = dice_text(d.fixed) if d.fixed is not None else ""
        return cls(
            mode, mode.name, d.base, d.adds, d.type, str(mode.reach), mode.skill_modifier, dice,
            mode.range_hexes or 0, mode.half_damage_hexes or 0,
        )  # fmt: skip

    def build(self) -> tuple[WeaponMode | None, list[tuple[str, str]]]:
        """The mode, or None and what is wrong with the typed text, by the mode's
        part: a reach that is not a reach, a fixed damage's dice that are not dice."""
        wrong: list[tuple[str, str]] = []
        reach = self.source.reach
        try:
            reach = Reach.parse(self.reach_text)
        except HexmapError:
            wrong.append(("reach", REACH_HINT))
        fixed = self.source.damage.fixed
        # dice as they came (typed over or not) stay as they are, even a shape the
        # box does not take: seed 003's crossbow "0d" (its damage factor alone),
        # whose Dice column that ruleset does not show
        unchanged = fixed is not None and self.dice_text == dice_text(fixed)
        if self.base is DamageBase.FIXED and not unchanged:
            fixed = dice_of(self.dice_text)
            if fixed is None:
                wrong.append(("damage", DICE_HINT))
        if self.source.is_ranged and not 0 <= self.half_damage_hexes <= self.range_hexes:
            wrong.append((
                "range",
                f"The 1/2D range ({self.half_damage_hexes}) must be within the range "
                f"({self.range_hexes}).",
            ))  # fmt: skip
        if wrong:
            return None, wrong
        far, half = self.source.range_hexes, self.source.half_damage_hexes
        if self.source.is_ranged:  # at least 1 hex, as the catalog reads it
            far, half = max(1, self.range_hexes), self.half_damage_hexes or None
        damage = replace(
            self.source.damage, base=self.base, adds=self.adds, type=self.damage_type, fixed=fixed
        )
        return replace(
            self.source,
            name=self.name.strip(),
            damage=damage,
            reach=reach,
            skill_modifier=self.skill_modifier,
            range_hexes=far,
            half_damage_hexes=half,
        ), wrong


def dice_text(dice: Dice) -> str:
    """A fixed damage's dice as the editor writes them, the die always named
    ("1d6+1", "1d8"): the 3d6 family's "1d+1" beside another ruleset's "1d8" would
    read as no die at all in a d100 or 2d6 battle. ``dice_of`` reads it back."""
    adds = f"{dice.adds:+d}" if dice.adds else ""
    return f"{dice.count}d{dice.sides}{adds}"


def dice_of(text: str) -> Dice | None:
    """The dice of "1d8+1", "2d-1", "3d" or "2d6" (d alone is d6), None for text
    that is no dice."""
    match = _DICE_TEXT.fullmatch(text)
    if match is None:
        return None
    count, sides, adds = (parse_digits(part or "") for part in match.group(1, 2, 4))
    if count is None or count < 1 or (sides is not None and sides < 2):
        return None
    return Dice(count, (adds or 0) * (-1 if match.group(3) == "-" else 1), sides or 6)


@dataclass
class WeaponDraft:
    source: Weapon
    name: str
    key: str
    kind: WeaponKind
    skill: str
    parry: ParryClass
    two_handed: bool
    weight: float
    modes: list[ModeDraft] = field(default_factory=list)
    size: WeaponSize = WeaponSize.SMALL

    @classmethod
    def of(cls, weapon: Weapon) -> WeaponDraft:
        return cls(
            weapon,
            weapon.name,
            weapon.key,
            weapon.kind,
            weapon.skill,
            weapon.parry,
            weapon.two_handed,
            weapon.weight,
            [ModeDraft.of(m) for m in weapon.modes],
            weapon.size,
        )

    def build(self, index: int) -> tuple[Weapon | None, list[SheetProblem]]:
        problems: list[SheetProblem] = []
        modes: list[WeaponMode] = []
        for m_index, draft in enumerate(self.modes):
            mode, wrong = draft.build()
            problems += [
                SheetProblem(mode_place(index, m_index, part), text) for part, text in wrong
            ]
            if mode is not None:
                modes.append(mode)
        if not self.modes:
            problems.append(
                SheetProblem(weapon_place(index, "modes"), "A weapon needs at least one mode.")
            )
        if problems:
            return None, problems
        weapon = replace(
            self.source,
            name=self.name.strip(),
            key=self.key.strip(),
            kind=self.kind,
            skill=self.skill.strip(),
            parry=self.parry,
            two_handed=self.two_handed,
            weight=self.weight,
            modes=tuple(modes),
            size=self.size,
        )
        return weapon, problems


def new_weapon(key: str, parts: frozenset[WeaponPart] = ALL_WEAPON_PARTS) -> Weapon:
    """A weapon entered by hand starts as a one-handed sword with a swing (1d6 of
    its own for a ruleset without thr and sw); its skill is left for the GM to fill in."""
    damage = DamageSpec(DamageBase.SWING, 0, DamageType.CUTTING)
    if WeaponPart.DAMAGE_BASE not in parts:
        damage = DamageSpec(DamageBase.FIXED, 0, DamageType.CUTTING, fixed=Dice(1))
    swing = WeaponMode("swing", damage, Reach.of(1))
    return Weapon(key, "New weapon", WeaponKind.SWORD, "", (swing,), ParryClass.FULL, 3.0)


def _combo(object_name: str, items: Sequence[tuple[str, object]]) -> QComboBox:
    box = QComboBox()
    box.setObjectName(object_name)
    for text, data in items:
        box.addItem(text, data)
    return box


def _show_played_by(box: QComboBox, key: str, enabled: bool) -> None:
    """A side's "played by" box showing ``key``; "Mixed" is offered only while
    the side's fighters are played by different controllers."""
    mixed = box.findData(MIXED_KEY)
    if key == MIXED_KEY and mixed < 0:
        box.addItem("Mixed", MIXED_KEY)
    elif key != MIXED_KEY and mixed >= 0:
        box.removeItem(mixed)
    _select_data(box, key)
    box.setEnabled(enabled)


def _select_data(box: QComboBox, data: object) -> None:
    index = box.findData(data)
    box.setCurrentIndex(max(index, 0))


def _show_dice_box(box: QLineEdit, base: DamageBase) -> None:
    """A mode's dice box: typed in for fixed damage, else empty and off (the dice
    of thr and sw come from the wielder)."""
    fixed = base is DamageBase.FIXED
    box.setEnabled(fixed)
    box.setPlaceholderText("1d6" if fixed else "")
    box.setToolTip(
        f"The fixed damage's own dice. {DICE_HINT}"
        if fixed
        else f"{base.value}: the dice come from the wielder, not the weapon"
    )


def _spin(object_name: str, low: int, high: int) -> QSpinBox:
    box = QSpinBox()
    box.setObjectName(object_name)
    box.setRange(low, high)
    box.setKeyboardTracking(True)
    return box


class CharacterEditor(QDialog):
    """The sheet of ``combatant``, edited; ``command()`` is the edit to execute."""

    problems_changed = Signal()

    def __init__(
        self,
        ruleset: Ruleset,
        state: BattleState,
        combatant: Combatant,
        parent: QWidget | None = None,
        catalog: Catalog | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("characterEditor")
        self.setWindowTitle(f"Edit {combatant.name}")
        self._ruleset = ruleset
        self._state = state
        self._combatant = combatant
        self._catalog = catalog if catalog is not None else ruleset.sheets.catalog()
        self._description = ruleset.sheets.description()
        self._parts = self._description.weapon_parts
        self._original_entries = ruleset.sheets.entries(combatant.fighter)
        self._loading = False
        self._ready = False  # no checks until every tab is built
        self._problems: tuple[SheetProblem, ...] = ()
        self._fighter: Fighter | None = None
        self.messages: dict[str, QLabel] = {}
        self.field_boxes: dict[str, QWidget] = {}
        self._weapons = [WeaponDraft.of(w) for w in combatant.fighter.weapons]

        self.tabs = QTabWidget()
        self.tabs.setObjectName("characterTabs")
        self.tabs.addTab(self._sheet_tab(), "Sheet")
        self.tabs.addTab(self._skills_tab(), "Skills")
        self.tabs.addTab(self._weapons_tab(), "Weapons")
        self.tabs.addTab(self._protection_tab(), "Shield and armor")
        # A ruleset that reads neither a shield nor an armor suit (armor by zone on
        # its sheet) gets no empty tab; the values stay as they are.
        protection = self._description.protection_parts
        self.tabs.setTabVisible(
            PROTECTION_TAB, bool({ProtectionPart.SHIELD, ProtectionPart.ARMOR} & protection)
        )
        self._tab_titles = tuple(self.tabs.tabText(i) for i in range(self.tabs.count()))

        self.summary = problem_label("problemSummary")
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        self.save_button = self.buttons.button(QDialogButtonBox.StandardButton.Save)
        self.save_button.setObjectName("saveCharacterButton")
        self.buttons.accepted.connect(self._on_save)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs, 1)
        footer = QHBoxLayout()
        footer.addWidget(self.summary, 1)
        footer.addWidget(self.buttons)
        layout.addLayout(footer)
        self.resize(*EDITOR_SIZE)
        self._ready = True
        self._select_weapon(0 if self._weapons else -1)
        self.revalidate()

    # --- the tabs ------------------------------------------------------------------------
    def _message(self, place: str) -> QLabel:
        label = problem_label(f"problem:{place}")
        self.messages[place] = label
        return label

    def _sheet_tab(self) -> QWidget:
        page = QWidget()
        grid = QGridLayout(page)
        grid.setColumnStretch(2, 1)
        fighter = self._combatant.fighter
        self.name_edit = QLineEdit(fighter.name)
        self.name_edit.setObjectName("fighterName")
        self.name_edit.textEdited.connect(self.revalidate)
        self.handedness_box = _combo(
            "handednessBox", [(f"{h.value}-handed", h) for h in Handedness]
        )
        _select_data(self.handedness_box, fighter.handedness)
        self.handedness_box.currentIndexChanged.connect(self.revalidate)
        self.side_box = _combo("sideBox", [(side_name(self._state.sides, s), s) for s in Side])
        _select_data(self.side_box, self._combatant.side)
        self.side_box.currentIndexChanged.connect(self.revalidate)
        # Who plays the fighter (issue 25): Save hands it over with SetControllers.
        self.played_by_box = _combo(
            "playedByBox", [("The GM", GM_KEY)] + [(policy_label(k), k) for k in POLICY_KEYS]
        )
        current = self._state.controller(self._combatant.id)
        _select_data(self.played_by_box, GM_KEY if current is None else current.key)
        rows: list[tuple[str, QWidget, str]] = [
            ("Name", self.name_edit, "name"),
            ("Hand", self.handedness_box, "handedness"),
            ("Side", self.side_box, "side"),
            ("Played by", self.played_by_box, "played_by"),
        ]
        row = 0
        for text, box, place in rows:
            row = self._grid_row(grid, row, text, box, place)
        for section in self._description.sections:
            heading = QLabel(f"<b>{section}</b>")
            grid.addWidget(heading, row, 0, 1, 3)
            row += 1
            for f in self._description.fields:
                if f.section == section:
                    box = self._field_box(f, self._original_entries.values.get(f.key))
                    self.field_boxes[f.key] = box
                    row = self._grid_row(grid, row, f.label, box, f.key, f.tooltip)
        grid.setRowStretch(row, 1)
        return page

    def _grid_row(
        self, grid: QGridLayout, row: int, text: str, box: QWidget, place: str, tip: str = ""
    ) -> int:
        label = buddy_label(text, box)
        if tip:
            label.setToolTip(tip)
            box.setToolTip(tip)
        if isinstance(box, QLineEdit | QComboBox | QAbstractSpinBox):
            box.setMinimumWidth(BOX_WIDTH)
        grid.addWidget(label, row, 0)
        grid.addWidget(box, row, 1)
        grid.addWidget(self._message(place), row, 2)
        return row + 1

    def _field_box(self, f: SheetField, value: SheetValue) -> QWidget:
        name = f"field:{f.key}"
        if f.kind is SheetFieldKind.NUMBER:
            low = f.minimum - 1 if f.optional else -NUMBER_SLACK
            spin = _spin(name, low, NUMBER_SLACK)
            if f.optional:
                spin.setSpecialValueText("none")
            spin.setValue(value if isinstance(value, int) else low)
            spin.valueChanged.connect(self.revalidate)
            return spin
        if f.kind is SheetFieldKind.FLAG:
            check = QCheckBox()
            check.setObjectName(name)
            check.setChecked(value is True)
            check.toggled.connect(self.revalidate)
            return check
        if f.kind is SheetFieldKind.CHOICE:
            box = _combo(name, [(c, c) for c in f.choices])
            _select_data(box, value)
            box.currentIndexChanged.connect(self.revalidate)
            return box
        edit = QLineEdit(value if isinstance(value, str) else "")
        edit.setObjectName(name)
        edit.textEdited.connect(self.revalidate)
        return edit

    def _field_value(self, f: SheetField) -> SheetValue:
        box = self.field_boxes[f.key]
        if isinstance(box, QSpinBox):
            value = box.value()
            return None if f.optional and value < f.minimum else value
        if isinstance(box, QCheckBox):
            return box.isChecked()
        if isinstance(box, QComboBox):
            data = box.currentData()
            return data if isinstance(data, str) else None
        assert isinstance(box, QLineEdit)
        return box.text()

    def _skills_tab(self) -> QWidget:
        page = QWidget()
        layout = QVBoxLayout(page)
        self.skills_table = QTableWidget(0, 2)
        self.skills_table.setObjectName("skillsTable")
        self.skills_table.setHorizontalHeaderLabels(["Skill", "Level"])
        self.skills_table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.skills_table.verticalHeader().setVisible(False)
        self.skills_table.setToolTip(self._description.skills_tooltip)
        for name, level in sorted(self._original_entries.skills.items()):
            self.add_skill(name, level)
        self.skills_table.itemChanged.connect(self.revalidate)
        add = QPushButton("Add skill")
        add.setObjectName("addSkillButton")
        add.clicked.connect(lambda: self.add_skill("", self._description.skill_minimum))
        remove = QPushButton("Remove skill")
        remove.setObjectName("removeSkillButton")
        remove.clicked.connect(self._remove_skill)
        buttons = QHBoxLayout()
        buttons.addWidget(add)
        buttons.addWidget(remove)
        buttons.addStretch(1)
        layout.addWidget(self.skills_table, 1)
        layout.addWidget(self._message("skills"))
        layout.addLayout(buttons)
        return page

    def add_skill(self, name: str, level: int) -> None:
        self._loading = True
        row = self.skills_table.rowCount()
        self.skills_table.insertRow(row)
        self.skills_table.setItem(row, 0, QTableWidgetItem(name))
        self.skills_table.setItem(row, 1, QTableWidgetItem(str(level)))
        self._loading = False
        self.revalidate()

    def _remove_skill(self) -> None:
        row = self.skills_table.currentRow()
        if row >= 0:
            self.skills_table.removeRow(row)
            self.revalidate()

    def _skills(self) -> tuple[dict[str, int], list[SheetProblem]]:
        skills: dict[str, int] = {}
        problems: list[SheetProblem] = []
        for row in range(self.skills_table.rowCount()):
            name_item, level_item = self.skills_table.item(row, 0), self.skills_table.item(row, 1)
            name = name_item.text().strip() if name_item is not None else ""
            text = level_item.text().strip() if level_item is not None else ""
            level = parse_signed_digits(text)
            if level is None:
                problems.append(
                    SheetProblem(skill_place(name), f"{name or 'A skill'}'s level is a number.")
                )
                continue
            if name in skills:
                problems.append(SheetProblem(skill_place(name), f"{name} is listed twice."))
            skills[name] = level
        return skills, problems

    def _weapons_tab(self) -> QWidget:
        page = QWidget()
        outer = QHBoxLayout(page)
        left = QVBoxLayout()
        self.weapon_list = QListWidget()
        self.weapon_list.setObjectName("weaponList")
        self.weapon_list.currentRowChanged.connect(self._select_weapon)
        self.catalog_weapons = _combo(
            "catalogWeapons",
            [(w.name, w.key) for w in sorted(self._catalog.weapons.values(), key=lambda w: w.name)],
        )
        add_catalog = QPushButton("Add from catalog")
        add_catalog.setObjectName("addCatalogWeaponButton")
        add_catalog.clicked.connect(self.add_catalog_weapon)
        add_new = QPushButton("New weapon")
        add_new.setObjectName("newWeaponButton")
        add_new.clicked.connect(self.add_new_weapon)
        remove = QPushButton("Remove weapon")
        remove.setObjectName("removeWeaponButton")
        remove.clicked.connect(self._remove_weapon)
        left.addWidget(self.weapon_list, 1)
        left.addWidget(self._message("weapons"))  # the list itself: too many weapons
        left.addWidget(self.catalog_weapons)
        left.addWidget(add_catalog)
        left.addWidget(add_new)
        left.addWidget(remove)
        outer.addLayout(left, 1)

        self.weapon_form = QWidget()
        grid = QGridLayout(self.weapon_form)
        grid.setColumnStretch(2, 1)
        self.weapon_name = QLineEdit()
        self.weapon_name.setObjectName("weaponName")
        self.weapon_key = QLineEdit()
        self.weapon_key.setObjectName("weaponKey")
        self.weapon_kind = _combo("weaponKind", [(k.value, k) for k in WeaponKind])
        self.weapon_skill = QComboBox()
        self.weapon_skill.setObjectName("weaponSkill")
        self.weapon_skill.setEditable(True)
        self.weapon_parry = _combo("weaponParry", [(p.value, p) for p in ParryClass])
        self.weapon_two_handed = QCheckBox("two-handed")
        self.weapon_two_handed.setObjectName("weaponTwoHanded")
        self.weapon_weight = QDoubleSpinBox()
        self.weapon_weight.setObjectName("weaponWeight")
        self.weapon_weight.setRange(0, 200)
        self.weapon_weight.setSuffix(" lb")
        self.weapon_size = _combo("weaponSize", [(z.value, z) for z in WeaponSize])
        row = 0
        for text, box, part, read in (
            ("Name", self.weapon_name, "name", None),
            ("Key", self.weapon_key, "key", None),
            ("Kind", self.weapon_kind, "kind", WeaponPart.KIND),
            ("Skill", self.weapon_skill, "skill", None),
            ("Parry", self.weapon_parry, "parry", WeaponPart.PARRY),
            ("Hands", self.weapon_two_handed, "hands", WeaponPart.HANDS),
            ("Size", self.weapon_size, "size", WeaponPart.SIZE),
            ("Weight", self.weapon_weight, "weight", WeaponPart.WEIGHT),
        ):
            if read is not None and read not in self._parts:
                # the ruleset reads no such thing: the box is not shown, and the
                # weapon keeps its value
                box.setParent(self.weapon_form)
                box.hide()
                continue
            row = self._grid_row(grid, row, text, box, f"weapon/{part}")
        self.weapon_name.textEdited.connect(self._weapon_edited)
        self.weapon_key.textEdited.connect(self._weapon_edited)
        self.weapon_kind.currentIndexChanged.connect(self._weapon_edited)
        self.weapon_skill.currentTextChanged.connect(self._weapon_edited)
        self.weapon_parry.currentIndexChanged.connect(self._weapon_edited)
        self.weapon_two_handed.toggled.connect(self._weapon_edited)
        self.weapon_size.currentIndexChanged.connect(self._weapon_edited)
        self.weapon_weight.valueChanged.connect(self._weapon_edited)

        self.modes_table = QTableWidget(0, len(MODE_COLUMNS))
        self.modes_table.setObjectName("modesTable")
        self.modes_table.setHorizontalHeaderLabels([title for title, _part in MODE_COLUMNS])
        # The dice stand beside the base they replace (a column added last, so a
        # column's number stays what it was); a part the ruleset reads not is hidden.
        header = self.modes_table.horizontalHeader()
        header.moveSection(DICE_COLUMN, 2)
        header.moveSection(RANGE_COLUMN, header.visualIndex(4) + 1)  # after the reach
        header.moveSection(HALF_DAMAGE_COLUMN, header.visualIndex(RANGE_COLUMN) + 1)
        for column, (_title, read) in enumerate(MODE_COLUMNS):
            self.modes_table.setColumnHidden(column, read is not None and read not in self._parts)
        self.modes_table.verticalHeader().setVisible(False)
        self.modes_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.modes_table.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents
        )
        # the typed columns at the width of what is typed there ("1d8+1", "C,1"), the
        # mode's name taking the rest: every column in view at the editor's size
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column, width in ((DICE_COLUMN, 64), (4, 56)):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Fixed)
            header.resizeSection(column, width)
        grid.addWidget(QLabel("<b>Modes</b>"), row, 0, 1, 3)
        grid.addWidget(self.modes_table, row + 1, 0, 1, 3)
        grid.addWidget(self._message("weapon/modes"), row + 2, 0, 1, 3)
        add_mode = QPushButton("Add mode")
        add_mode.setObjectName("addModeButton")
        add_mode.clicked.connect(self._add_mode)
        remove_mode = QPushButton("Remove mode")
        remove_mode.setObjectName("removeModeButton")
        remove_mode.clicked.connect(self._remove_mode)
        mode_buttons = QHBoxLayout()
        mode_buttons.addWidget(add_mode)
        mode_buttons.addWidget(remove_mode)
        mode_buttons.addStretch(1)
        grid.addLayout(mode_buttons, row + 3, 0, 1, 3)
        grid.setRowStretch(row + 1, 1)
        outer.addWidget(self.weapon_form, 3)
        self._fill_weapon_list()
        return page

    def _fill_weapon_list(self) -> None:
        current = self.weapon_list.currentRow()
        self.weapon_list.blockSignals(True)
        self.weapon_list.clear()
        for draft in self._weapons:
            self.weapon_list.addItem(draft.name or "(no name)")
        self.weapon_list.blockSignals(False)
        if self._weapons:
            self.weapon_list.setCurrentRow(min(max(current, 0), len(self._weapons) - 1))

    @property
    def current_weapon(self) -> int:
        """The index of the weapon the form shows (-1: none)."""
        return self.weapon_list.currentRow()

    def _select_weapon(self, index: int) -> None:
        self.weapon_form.setEnabled(0 <= index < len(self._weapons))
        if not 0 <= index < len(self._weapons):
            self.modes_table.setRowCount(0)
            self.revalidate()
            return
        draft = self._weapons[index]
        self._loading = True
        self.weapon_name.setText(draft.name)
        self.weapon_key.setText(draft.key)
        _select_data(self.weapon_kind, draft.kind)
        self.weapon_skill.clear()
        self.weapon_skill.addItems(sorted(self._skills()[0]))
        self.weapon_skill.setCurrentText(draft.skill)
        _select_data(self.weapon_parry, draft.parry)
        _select_data(self.weapon_size, draft.size)
        self.weapon_two_handed.setChecked(draft.two_handed)
        self.weapon_weight.setValue(draft.weight)
        self.modes_table.setRowCount(0)
        for mode in draft.modes:
            self._mode_row(mode)
        self._loading = False
        self.revalidate()

    def _mode_row(self, mode: ModeDraft) -> None:
        row = self.modes_table.rowCount()
        self.modes_table.insertRow(row)
        name = QLineEdit(mode.name)
        base = _combo(f"modeBase:{row}", [(b.value, b) for b in DamageBase])
        _select_data(base, mode.base)
        # The ranges take in the mode's own value (an imported sw+25, a kick at -12):
        # a box clamping it would change the mode silently at the next edit.
        adds = _spin(f"modeAdds:{row}", min(-10, mode.adds), max(20, mode.adds))
        adds.setValue(mode.adds)
        # the ruleset's damage types by its own names; a mode's type it does not
        # offer stays, by its code, so that nothing changes unasked
        types = list(self._description.damage_type_choices)
        if all(t is not mode.damage_type for _name, t in types):
            types.append((mode.damage_type.value, mode.damage_type))
        kind = _combo(f"modeType:{row}", types)
        _select_data(kind, mode.damage_type)
        reach = QLineEdit(mode.reach_text)
        reach.setObjectName(f"modeReach:{row}")
        reach.setToolTip(REACH_HINT)
        modifier = _spin(
            f"modeModifier:{row}", min(-10, mode.skill_modifier), max(10, mode.skill_modifier)
        )
        modifier.setValue(mode.skill_modifier)
        dice = QLineEdit(mode.dice_text)
        dice.setObjectName(f"modeDice:{row}")
        _show_dice_box(dice, mode.base)
        # a thrown or missile mode's range and 1/2D range; a melee mode has none
        ranged = mode.source.is_ranged
        far = _spin(f"modeRange:{row}", 1 if ranged else 0, MAX_RANGE)
        far.setValue(max(1, mode.range_hexes) if ranged else 0)
        far.setToolTip("How far the thrown or missile mode strikes, in hexes")
        half = _spin(f"modeHalfDamage:{row}", 0, MAX_RANGE)
        half.setSpecialValueText("none")
        half.setValue(mode.half_damage_hexes)
        half.setToolTip("From this range on the mode does half damage (none: no 1/2D range)")
        for box in (far, half):
            box.setEnabled(ranged)
            if not ranged:
                box.setSpecialValueText("–")
        name.setObjectName(f"modeName:{row}")
        widgets = (name, base, adds, kind, reach, modifier, dice, far, half)
        for column, widget in enumerate(widgets):
            self.modes_table.setCellWidget(row, column, widget)
        far.valueChanged.connect(self._weapon_edited)
        half.valueChanged.connect(self._weapon_edited)
        name.textEdited.connect(self._weapon_edited)
        base.currentIndexChanged.connect(self._weapon_edited)
        dice.textEdited.connect(self._weapon_edited)
        adds.valueChanged.connect(self._weapon_edited)
        kind.currentIndexChanged.connect(self._weapon_edited)
        reach.textEdited.connect(self._weapon_edited)
        modifier.valueChanged.connect(self._weapon_edited)

    def mode_widget(self, row: int, column: int) -> QWidget:
        widget = self.modes_table.cellWidget(row, column)
        assert widget is not None
        return widget

    def _weapon_edited(self, *_args: object) -> None:
        index = self.current_weapon
        if self._loading or not 0 <= index < len(self._weapons):
            return
        draft = self._weapons[index]
        draft.name = self.weapon_name.text()
        draft.key = self.weapon_key.text()
        draft.kind = self.weapon_kind.currentData()
        draft.skill = self.weapon_skill.currentText()
        draft.parry = self.weapon_parry.currentData()
        draft.two_handed = self.weapon_two_handed.isChecked()
        draft.size = self.weapon_size.currentData()
        draft.weight = self.weapon_weight.value()
        for row, mode in enumerate(draft.modes):
            name, base, adds, kind, reach, modifier, dice, far, half = (
                self.mode_widget(row, c) for c in range(len(MODE_COLUMNS))
            )
            assert isinstance(name, QLineEdit) and isinstance(reach, QLineEdit)
            assert isinstance(dice, QLineEdit)
            assert isinstance(far, QSpinBox) and isinstance(half, QSpinBox)
            assert isinstance(base, QComboBox) and isinstance(kind, QComboBox)
            assert isinstance(adds, QSpinBox) and isinstance(modifier, QSpinBox)
            mode.name = name.text()
            mode.base = base.currentData()
            mode.adds = adds.value()
            mode.damage_type = kind.currentData()
            mode.reach_text = reach.text()
            mode.skill_modifier = modifier.value()
            mode.dice_text = dice.text()
            _show_dice_box(dice, mode.base)
            mode.range_hexes = far.value()
            mode.half_damage_hexes = half.value()
        item = self.weapon_list.item(index)
        if item is not None:
            item.setText(draft.name or "(no name)")
        self.revalidate()

    def add_catalog_weapon(self) -> None:
        key = self.catalog_weapons.currentData()
        if isinstance(key, str):
            weapon = self._catalog.weapon(key)
            taken = [w.key for w in self._weapons]
            self._add_weapon(replace(weapon, key=first_untaken(weapon.key, taken, "-")))

    def add_new_weapon(self) -> None:
        taken = [w.key for w in self._weapons]
        self._add_weapon(new_weapon(first_untaken("weapon", taken, "-"), self._parts))

    def _add_weapon(self, weapon: Weapon) -> None:
        self._weapons.append(WeaponDraft.of(weapon))
        self._fill_weapon_list()
        self.weapon_list.setCurrentRow(len(self._weapons) - 1)

    def _remove_weapon(self) -> None:
        index = self.current_weapon
        if 0 <= index < len(self._weapons):
            del self._weapons[index]
            self._fill_weapon_list()
            self._select_weapon(self.current_weapon)

    def _add_mode(self) -> None:
        index = self.current_weapon
        if 0 <= index < len(self._weapons):
            source = new_weapon("mode", self._parts).modes[0]
            self._weapons[index].modes.append(ModeDraft.of(source))
            self._select_weapon(index)

    def _remove_mode(self) -> None:
        index, row = self.current_weapon, self.modes_table.currentRow()
        if 0 <= index < len(self._weapons) and 0 <= row < len(self._weapons[index].modes):
            del self._weapons[index].modes[row]
            self._select_weapon(index)

    def _protection_tab(self) -> QWidget:
        page = QWidget()
        grid = QGridLayout(page)
        grid.setColumnStretch(2, 1)
        fighter = self._combatant.fighter
        shields = sorted(self._catalog.shields.values(), key=lambda s: s.name)
        self.shield_source = _combo(
            "shieldSource",
            [(NONE_CHOICE, None), *((s.name, s.key) for s in shields), (BY_HAND, BY_HAND)],
        )
        self.shield_name = QLineEdit()
        self.shield_name.setObjectName("shieldName")
        self.shield_size = _combo("shieldSize", [(s.value, s) for s in ShieldSize])
        self.shield_pd = _spin("shieldPd", 0, 9)
        self.shield_weight = QDoubleSpinBox()
        self.shield_weight.setObjectName("shieldWeight")
        self.shield_weight.setRange(0, 100)
        self.shield_weight.setSuffix(" lb")
        armors = sorted(self._catalog.armor.values(), key=lambda a: a.name)
        self.armor_source = _combo(
            "armorSource",
            [(NONE_CHOICE, None), *((a.name, a.key) for a in armors), (BY_HAND, BY_HAND)],
        )
        self.armor_name = QLineEdit()
        self.armor_name.setObjectName("armorName")
        self.armor_pd = _spin("armorPd", 0, 9)
        self.armor_dr = _spin("armorDr", 0, 99)
        self.armor_weight = QDoubleSpinBox()
        self.armor_weight.setObjectName("armorWeight")
        self.armor_weight.setRange(0, 200)
        self.armor_weight.setSuffix(" lb")
        parts = self._description.protection_parts
        groups: tuple[tuple[str, ProtectionPart, tuple[GearRow, ...]], ...] = (
            ("Shield", ProtectionPart.SHIELD, (
                ("Shield", self.shield_source, "shield", None),
                ("Name", self.shield_name, "shield/name", None),
                ("Size", self.shield_size, "shield/size", ProtectionPart.SHIELD_SIZE),
                ("PD", self.shield_pd, "shield/pd", ProtectionPart.SHIELD_PD),
                ("Weight", self.shield_weight, "shield/weight", ProtectionPart.WEIGHT),
            )),
            ("Armor", ProtectionPart.ARMOR, (
                ("Armor", self.armor_source, "armor", None),
                ("Name", self.armor_name, "armor/name", None),
                ("PD", self.armor_pd, "armor/pd", ProtectionPart.ARMOR_PD),
                ("DR", self.armor_dr, "armor/dr", ProtectionPart.ARMOR_DR),
                ("Weight", self.armor_weight, "armor/weight", ProtectionPart.WEIGHT),
            )),
        )  # fmt: skip
        row = 0
        for title, group, rows in groups:
            if group in parts:
                grid.addWidget(QLabel(f"<b>{title}</b>"), row, 0, 1, 3)
                row += 1
            for text, box, place, read in rows:
                if group in parts and (read is None or read in parts):
                    row = self._grid_row(grid, row, text, box, place)
                else:  # not read by the ruleset: not shown, the value kept
                    box.setParent(page)
                    box.hide()
        grid.setRowStretch(row, 1)
        self._shield_key = fighter.shield.key if fighter.shield else "shield"
        self._armor_key = fighter.armor.key if fighter.armor else "armor"
        self._show_shield(fighter.shield, by_hand=self._not_catalog(fighter.shield))
        self._show_armor(fighter.armor, by_hand=self._not_catalog(fighter.armor))
        self.shield_source.currentIndexChanged.connect(self._shield_source_changed)
        self.armor_source.currentIndexChanged.connect(self._armor_source_changed)
        for box in (self.shield_name, self.armor_name):
            box.textEdited.connect(self.revalidate)
        self.shield_size.currentIndexChanged.connect(self.revalidate)
        for spin in (self.shield_pd, self.armor_pd, self.armor_dr):
            spin.valueChanged.connect(self.revalidate)
        for double in (self.shield_weight, self.armor_weight):
            double.valueChanged.connect(self.revalidate)
        return page

    def _not_catalog(self, item: Shield | Armor | None) -> bool:
        if item is None:
            return False
        known: Mapping[str, Shield | Armor] = (
            self._catalog.shields if isinstance(item, Shield) else self._catalog.armor
        )
        return known.get(item.key) != item

    def _show_shield(self, shield: Shield | None, *, by_hand: bool) -> None:
        self._loading = True
        _select_data(self.shield_source, BY_HAND if by_hand else (shield.key if shield else None))
        if shield is not None:
            self.shield_name.setText(shield.name)
            _select_data(self.shield_size, shield.size)
            self.shield_pd.setValue(shield.pd)
            self.shield_weight.setValue(shield.weight)
        for box in (self.shield_name, self.shield_size, self.shield_pd, self.shield_weight):
            box.setEnabled(by_hand)
        self._loading = False

    def _show_armor(self, armor: Armor | None, *, by_hand: bool) -> None:
        self._loading = True
        _select_data(self.armor_source, BY_HAND if by_hand else (armor.key if armor else None))
        if armor is not None:
            self.armor_name.setText(armor.name)
            self.armor_pd.setValue(armor.pd)
            self.armor_dr.setValue(armor.dr)
            self.armor_weight.setValue(armor.weight)
        for box in (self.armor_name, self.armor_pd, self.armor_dr, self.armor_weight):
            box.setEnabled(by_hand)
        self._loading = False

    def _shield_source_changed(self) -> None:
        choice = self.shield_source.currentData()
        if choice == BY_HAND:
            self._show_shield(self._shield(), by_hand=True)
        else:
            self._show_shield(self._catalog.shield(choice) if choice else None, by_hand=False)
        self.revalidate()

    def _armor_source_changed(self) -> None:
        choice = self.armor_source.currentData()
        if choice == BY_HAND:
            self._show_armor(self._armor(), by_hand=True)
        else:
            self._show_armor(self._catalog.armor_suit(choice) if choice else None, by_hand=False)
        self.revalidate()

    def _shield(self) -> Shield | None:
        choice = self.shield_source.currentData()
        if choice is None:
            return None
        if choice != BY_HAND:
            return self._catalog.shield(choice)
        old = self._combatant.fighter.shield
        return Shield(
            key=self._shield_key,
            name=self.shield_name.text().strip(),
            size=self.shield_size.currentData(),
            pd=self.shield_pd.value(),
            weight=self.shield_weight.value(),
            heavy=old.heavy if old is not None else False,
        )

    def _armor(self) -> Armor | None:
        choice = self.armor_source.currentData()
        if choice is None:
            return None
        if choice != BY_HAND:
            return self._catalog.armor_suit(choice)
        return Armor(
            key=self._armor_key,
            name=self.armor_name.text().strip(),
            pd=self.armor_pd.value(),
            dr=self.armor_dr.value(),
            weight=self.armor_weight.value(),
        )

    # --- checking and saving ---------------------------------------------------------------
    def _entries(self) -> tuple[SheetEntries, list[SheetProblem]]:
        values = {f.key: self._field_value(f) for f in self._description.fields}
        skills, problems = self._skills()
        return SheetEntries(MappingProxyType(values), MappingProxyType(skills)), problems

    def _build(self) -> tuple[Fighter | None, tuple[SheetProblem, ...]]:
        entries, problems = self._entries()
        problems.extend(self._description.problems(entries))
        built: list[tuple[int, Weapon]] = []
        for index, draft in enumerate(self._weapons):
            weapon, unbuilt = draft.build(index)
            problems.extend(unbuilt)
            if weapon is not None:
                built.append((index, weapon))
        for place, item in (("shield/name", self._shield()), ("armor/name", self._armor())):
            if item is not None and not item.name:
                problems.append(SheetProblem(place, "It needs a name."))
        base = self._combatant.fighter
        fighter = replace(
            base,
            name=self.name_edit.text().strip(),
            handedness=self.handedness_box.currentData(),
            weapons=tuple(w for _, w in built),
            shield=self._shield(),
            armor=self._armor(),
        )
        if problems:
            # The weapons that built, each checked at its own place in the list.
            problems.extend(fighter_problems(replace(fighter, weapons=()), self._state.grid))
            for index, weapon in built:
                problems.extend(weapon_problems(weapon, index, self._state.grid))
            return None, tuple(problems)
        if entries != self._original_entries:
            try:
                fighter = self._ruleset.sheets.with_entries(fighter, entries)
            except DataError as exc:
                return None, (SheetProblem("sheet", str(exc)),)
        found = (
            *fighter_problems(fighter, self._state.grid),
            *self._ruleset.sheets.problems(fighter),
        )
        return (None if found else fighter), found

    def revalidate(self, *_args: object) -> None:
        """Check the sheet as it stands; show each problem beside its field."""
        if self._loading or not self._ready:
            return
        self._fighter, self._problems = self._build()
        by_label: dict[str, list[str]] = {place: [] for place in self.messages}
        current = self.current_weapon
        flagged_weapons: set[int] = set()
        flagged_tabs: set[int] = set()
        for problem in self._problems:
            place, text, tab = self._label_place(problem, current, flagged_weapons)
            by_label.setdefault(place, []).append(text)
            flagged_tabs.add(tab)
        for place, label in self.messages.items():
            label.setText("\n".join(by_label.get(place, [])))
        for index in range(self.weapon_list.count()):
            item = self.weapon_list.item(index)
            name = self._weapons[index].name or "(no name)"
            item.setText(f"⚠ {name}" if index in flagged_weapons else name)
        for index, title in enumerate(self._tab_titles):
            self.tabs.setTabText(index, f"⚠ {title}" if index in flagged_tabs else title)
        count = len(self._problems)
        self.summary.setText(
            "" if not count else f"{count} problem{'s' if count > 1 else ''} to fix before saving"
        )
        self.save_button.setEnabled(not self._problems)
        self.problems_changed.emit()

    def _label_place(
        self, problem: SheetProblem, current: int, flagged_weapons: set[int]
    ) -> tuple[str, str, int]:
        """Which message label shows ``problem``, its text there, and its tab."""
        parts = problem.place.split("/")
        if parts[0] == "skills":
            return "skills", problem.message, 1
        if problem.place == "weapons":  # the list itself (rules.battle.limits.MAX_WEAPONS)
            return "weapons", problem.message, 2
        if parts[0] == "weapons":
            index = int(parts[1])
            flagged_weapons.add(index)
            if index != current:
                return "", problem.message, 2
            if parts[2] == "modes":
                if len(parts) > 3:
                    row = int(parts[3])
                    return "weapon/modes", f"Mode {row + 1}: {problem.message}", 2
                return "weapon/modes", problem.message, 2
            return f"weapon/{parts[2]}", problem.message, 2
        if parts[0] in ("shield", "armor"):
            return problem.place, problem.message, 3
        if problem.place in self.messages:
            return problem.place, problem.message, 0
        return "name", problem.message, 0

    @property
    def problems(self) -> tuple[SheetProblem, ...]:
        return self._problems

    def message(self, place: str) -> str:
        """The text beside the field at ``place`` ("st", "weapon/skill", "skills")."""
        return self.messages[place].text()

    def command(self) -> Command | None:
        """The edit to execute; None while the sheet is invalid or nothing changed."""
        if self._fighter is None:
            return None
        side = self.side_box.currentData()
        side = side if side is not self._combatant.side else None
        if self._fighter == self._combatant.fighter and side is None:
            return None
        return EditFighter(self._combatant.id, self._fighter, side)

    def controller_command(self) -> Command | None:
        """Who plays the fighter, when Save changes it (run with the edit's as one
        command: ``together``); None when it stays as it was."""
        key = self.played_by_box.currentData()
        current = self._state.controller(self._combatant.id)
        if not isinstance(key, str) or key == (GM_KEY if current is None else current.key):
            return None
        choice = None if key == GM_KEY else choice_for(current, key)
        return SetControllers(((self._combatant.id, choice),))

    def _on_save(self) -> None:
        if not self._problems:
            self.accept()


# --- the sides ------------------------------------------------------------------------------


class SideRowWidgets:
    """The widgets of one side in the sides editor."""

    def __init__(self, side: Side, parent: QWidget) -> None:
        self.side = side
        self.name_edit = QLineEdit(parent)
        self.name_edit.setObjectName(f"sideName:{side.value}")
        self.name_edit.setMaxLength(MAX_SIDE_NAME)
        self.colour_button = QPushButton("Colour…", parent)
        self.colour_button.setObjectName(f"sideColour:{side.value}")
        self.count_label = QLabel(parent)
        self.count_label.setObjectName(f"sideCount:{side.value}")
        # Who plays the side's fighters: the GM or a computer policy (issue 25).
        self.played_by_box = QComboBox(parent)
        self.played_by_box.setObjectName(f"sidePlayedBy:{side.value}")
        self.played_by_box.setToolTip(
            "Who plays every fighter of this side, and those who join it later"
        )
        self.played_by_box.addItem("The GM", GM_KEY)
        for key in POLICY_KEYS:
            self.played_by_box.addItem(policy_label(key), key)


class SidesEditor(QDialog):
    """The battle's sides: set up, renamed and recoloured, and a fighter moved to
    another side, each change a command at once (so each is undone alone)."""

    def __init__(
        self,
        controller: BattleController,
        parent: QWidget | None = None,
        choose_colour: ColourChooser = choose_colour_with_dialog,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("sidesEditor")
        self.setWindowTitle("Sides")
        self._controller = controller
        self._choose_colour = choose_colour
        self.rows: dict[Side, SideRowWidgets] = {}
        self.sides_grid = QGridLayout()
        self.add_button = QPushButton("Add side")
        self.add_button.setObjectName("addSideButton")
        self.add_button.setToolTip("Set up a side no fighter is on yet")
        self.add_button.clicked.connect(self.add_side)
        self.fighter_box = QComboBox()
        self.fighter_box.setObjectName("moveFighterBox")
        self.target_side = QComboBox()
        self.target_side.setObjectName("moveToSideBox")
        self.move_button = QPushButton("Move to side")
        self.move_button.setObjectName("moveToSideButton")
        self.move_button.clicked.connect(self.move_fighter)
        self.refusal = problem_label("sidesRefusal")
        move_row = QHBoxLayout()
        move_row.addWidget(self.fighter_box, 1)
        move_row.addWidget(self.target_side, 1)
        move_row.addWidget(self.move_button)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.reject)
        hint = QLabel(
            "A new name takes effect on Enter. Each change is a command: Edit > Undo takes it back."
        )
        hint.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(hint)
        layout.addLayout(self.sides_grid)
        layout.addWidget(self.add_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(QLabel("<b>Move a fighter</b>"))
        layout.addLayout(move_row)
        layout.addWidget(self.refusal)
        layout.addStretch(1)
        layout.addWidget(close)
        controller.battle_changed.connect(self._reload)
        controller.battle_reset.connect(self._reload)
        controller.command_refused.connect(self.refusal.setText)
        self._reload()

    @property
    def _state(self) -> BattleState:
        return self._controller.state

    def shown_sides(self) -> tuple[Side, ...]:
        """The sides set up or fought for, in the order of ``Side``."""
        state = self._state
        used = {s.side for s in state.sides} | {c.side for c in state.combatants}
        return tuple(s for s in Side if s in used)

    def colour_of(self, side: Side) -> str:
        for setup in self._state.sides:
            if setup.side is side:
                return setup.colour
        return theme.SIDE_COLOURS[side].name()

    def _reload(self, *_args: object) -> None:
        shown = self.shown_sides()
        state = self._state
        for row, side in enumerate(shown):
            widgets = self.rows.get(side)
            if widgets is None:
                widgets = self._add_row(side, row)
            widgets.name_edit.setText(side_name(state.sides, side))
            widgets.colour_button.setIcon(colour_icon(QColor(self.colour_of(side))))
            count = sum(1 for c in state.combatants if c.side is side)
            widgets.count_label.setText(f"{count} fighter{'s' if count != 1 else ''}")
            key = side_controller_key(state, side)
            if count == 0:  # no fighter yet: who plays those who join it
                joins_as = state.side_controller(side)
                key = GM_KEY if joins_as is None else joins_as.key
            _show_played_by(widgets.played_by_box, key, True)
        self.add_button.setEnabled(len(shown) < len(Side))
        chosen_fighter = self.fighter_box.currentData()
        self.fighter_box.clear()
        for c in state.combatants:
            self.fighter_box.addItem(f"{c.name} ({side_name(state.sides, c.side)})", c.id)
        _select_data(self.fighter_box, chosen_fighter)
        chosen_side = self.target_side.currentData()
        self.target_side.clear()
        for side in shown:
            self.target_side.addItem(side_name(state.sides, side), side)
        _select_data(self.target_side, chosen_side)

    def _add_row(self, side: Side, row: int) -> SideRowWidgets:
        widgets = SideRowWidgets(side, self)
        widgets.name_edit.editingFinished.connect(lambda s=side: self.rename(s))
        widgets.colour_button.clicked.connect(lambda _=False, s=side: self.recolour(s))
        self.sides_grid.addWidget(widgets.name_edit, row, 0)
        self.sides_grid.addWidget(widgets.colour_button, row, 1)
        self.sides_grid.addWidget(widgets.count_label, row, 2)
        self.sides_grid.addWidget(widgets.played_by_box, row, 3)
        widgets.played_by_box.activated.connect(lambda _=0, s=side: self.set_played_by(s))
        self.rows[side] = widgets
        return widgets

    def _set_up(self, side: Side) -> bool:
        return any(s.side is side for s in self._state.sides)

    def _run(self, command: Command) -> None:
        self.refusal.clear()
        self._controller.execute(command)

    def add_side(self) -> None:
        shown = self.shown_sides()
        free = next((s for s in Side if s not in shown), None)
        if free is not None:
            self._run(AddSide(free, free.value.capitalize(), self.colour_of(free)))

    def rename(self, side: Side) -> None:
        name = self.rows[side].name_edit.text()
        if name == side_name(self._state.sides, side):
            return
        if self._set_up(side):
            self._run(RenameSide(side, name))
        else:
            self._run(AddSide(side, name, self.colour_of(side)))
        self._reload()  # a refused name goes back to the side's own

    def recolour(self, side: Side) -> None:
        chosen = self._choose_colour(QColor(self.colour_of(side)), self)
        if chosen is None:
            return
        colour = chosen.name()
        if self._set_up(side):
            self._run(RecolourSide(side, colour))
        else:
            self._run(AddSide(side, side_name(self._state.sides, side), colour))

    def set_played_by(self, side: Side) -> None:
        """Every fighter of ``side`` to the player chosen in its row: one command."""
        key = self.rows[side].played_by_box.currentData()
        command = None
        if isinstance(key, str) and key != MIXED_KEY:
            # the side itself too: a fighter who joins it later is played so
            command = hand_side_over(self._state, side, None if key == GM_KEY else key)
        if command is not None:
            self._run(command)
        self._reload()  # a refusal, or "mixed" picked again, shows the side as it is

    def move_fighter(self) -> None:
        who, side = self.fighter_box.currentData(), self.target_side.currentData()
        if isinstance(who, str) and isinstance(side, Side):
            self._run(ChangeSide(who, side))


# --- the Battle menu's entries --------------------------------------------------------------


class CharacterEditing(QObject):
    """The Battle menu's "Edit Fighter…" and "Sides…", a double-click on a token
    (``watch_map``), and the editors they open.
    ``recolour`` is called when the battle's sides change, so the tokens take the
    new colours."""

    def __init__(
        self,
        controller: BattleController,
        parent: QWidget,
        recolour: Callable[[], None],
        choose_colour: ColourChooser = choose_colour_with_dialog,
    ) -> None:
        super().__init__(parent)
        self._controller = controller
        self._parent = parent
        self._recolour = recolour
        self._choose_colour = choose_colour
        self._shown_sides = controller.state.sides
        self.editor: CharacterEditor | None = None
        self._map_view: MapView | None = None
        self.sides_editor: SidesEditor | None = None
        self.edit_action = QAction("&Edit Fighter…", parent)
        self.edit_action.setObjectName("editFighterAction")
        self.edit_action.setToolTip("Edit the selected fighter's sheet (an undoable command)")
        self.edit_action.triggered.connect(self.edit_selected)
        self.sides_action = QAction("&Sides…", parent)
        self.sides_action.setObjectName("sidesAction")
        self.sides_action.setToolTip("Add, rename and recolour sides; move a fighter to a side")
        self.sides_action.triggered.connect(self.edit_sides)
        controller.selection_changed.connect(self._update_actions)
        controller.battle_changed.connect(self._on_battle_changed)
        controller.battle_reset.connect(self._on_battle_changed)
        self._update_actions()

    def watch_map(self, view: MapView) -> None:
        """A double-click on a token opens the editor on its fighter."""
        self._map_view = view
        view.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        view = self._map_view
        if (
            watched is view
            and view is not None
            and event.type() == QEvent.Type.MouseButtonDblClick
            and isinstance(event, QMouseEvent)
            and event.button() == Qt.MouseButton.LeftButton
            and not view.terrain_mode
            and view.tools.drop is None
        ):
            who = combatant_at(self._controller.state, view.hex_at(event.position()))
            if who is not None:
                view.tools.forget_press()  # the second press is the editor's, not a drag
                self.edit(who.id)
                return True
        return super().eventFilter(watched, event)

    def _update_actions(self, *_args: object) -> None:
        self.edit_action.setEnabled(self._controller.selected_id is not None)

    def _on_battle_changed(self, *_args: object) -> None:
        self._update_actions()
        sides = self._controller.state.sides
        if sides != self._shown_sides:
            self._shown_sides = sides
            self._recolour()

    def edit_selected(self) -> None:
        selected = self._controller.selected_id
        if selected is not None:
            self.edit(selected)

    def edit(self, combatant_id: str) -> CharacterEditor:
        """Open the editor on ``combatant_id`` (window-modal); Save executes the edit."""
        state = self._controller.state
        editor = CharacterEditor(
            self._controller.ruleset, state, state.combatant(combatant_id), self._parent
        )
        editor.accepted.connect(lambda: self._save(editor))
        editor.finished.connect(editor.deleteLater)
        self.editor = editor
        editor.open()
        return editor

    def _save(self, editor: CharacterEditor) -> None:
        # the sheet's edit and the hand-over are one gesture: one undo
        command = together(editor.command(), editor.controller_command())
        if command is not None:
            self._controller.execute(command)

    def edit_sides(self) -> SidesEditor:
        if self.sides_editor is None:
            self.sides_editor = SidesEditor(self._controller, self._parent, self._choose_colour)
        self.sides_editor.show()
        self.sides_editor.raise_()
        return self.sides_editor
