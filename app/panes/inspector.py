"""The inspector pane: the selected combatant's sheet and current state.

Every number shown comes from the rules package (``rules.sets.seed000.defense`` for dodge,
block and parry, the ruleset for damage dice); the pane only lays them out. The
GM edits HP and status through ``EditCombatant`` and turns the fighter with
``TurnCombatant``; nothing here changes the battle any other way.
"""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QComboBox,
    QDockWidget,
    QGridLayout,
    QLabel,
    QMenu,
    QPushButton,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.controller import BattleController, Redraw
from app.map.drops import droppable_items
from app.panes.tables import seed000_tables
from app.panes.widgets import (
    BAD_TEXT,
    MUTED,
    StatGrid,
    VerticalScrollArea,
    caption_grid,
    configure_dock,
    hline,
    muted_html,
    section_label,
    side_swatch,
)
from hexmap import Arc
from rules.battle.battle import BattleChange, TurnCombatant
from rules.battle.commands import EditCombatant, SetPosture
from rules.battle.model import BodyArea, Combatant, ParryClass, Posture, Status, Weapon
from rules.core.errors import RulesError
from rules.sets.seed000.commands import SetDefendedArea
from rules.sets.seed000.defense import (
    DefenseChoice,
    DefenseKind,
    DefensePlan,
    DefenseSituation,
    dodge_base,
    plan_defense,
)
from rules.sets.seed000.stances import BODY_AREA_CITATION, acrobatics_skill_of, weapon_side
from rules.sets.seed000.tables import Tables
from rules.sets.seed000.tracks import wounds_of

STAT_KEYS = (
    ("st", "ST"),
    ("dx", "DX"),
    ("iq", "IQ"),
    ("ht", "HT"),
    ("hp", "HP"),
    ("move", "Move"),
    ("dodge", "Dodge"),
    ("pd", "PD"),
)


def defense_at_rest(combatant: Combatant, choice: DefenseChoice, ruleset: Tables) -> DefensePlan:
    """The defense score against a thrust from the front with nothing else done
    this turn: what a character sheet shows. Computed entirely by ``rules.sets.seed000.defense``."""
    pd = ruleset.passive_defense(combatant.fighter, Arc.FRONT).total
    situation = DefenseSituation(arc=Arc.FRONT, pd_total=pd)
    return plan_defense(
        combatant,
        choice,
        situation,
        (),
        ruleset.directional,
        ruleset.defense_cap,
        ruleset.defense_plus_pd_cap,
    )


def plan_tooltip(plan: DefensePlan) -> str:
    lines = [f"{plan.base:d}  {plan.base_reason} ({plan.citation})"]
    lines += [f"{m.value:+d}  {m.reason} ({m.citation})" for m in plan.modifiers]
    lines.append("Against a thrust from the front, first defense this turn.")
    return "\n".join(lines)


class InspectorPane(QDockWidget):
    def __init__(self, controller: BattleController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        configure_dock(self, "inspectorPane", "Inspector")
        self._controller = controller
        self._shown: Combatant | None = None

        # --- header: name, place, turn buttons -----------------------------------
        self.swatch = QLabel()
        self.name_label = QLabel("No fighter selected")
        self.name_label.setObjectName("inspectorName")
        big = QFont(self.name_label.font())
        big.setBold(True)
        big.setPointSizeF(big.pointSizeF() * 1.15)
        self.name_label.setFont(big)
        self.name_label.setWordWrap(True)
        self.place_label = QLabel("Select a fighter on the map or in the list.")
        self.place_label.setObjectName("inspectorPlace")
        self.place_label.setStyleSheet(f"color:{MUTED.name()}")
        self.place_label.setWordWrap(True)
        self.turn_left = QToolButton()
        self.turn_left.setObjectName("turnLeftButton")
        self.turn_left.setText("↺")
        self.turn_left.setToolTip("Turn one hex side counter-clockwise")
        self.turn_left.clicked.connect(lambda: self._turn(-1))
        self.turn_right = QToolButton()
        self.turn_right.setObjectName("turnRightButton")
        self.turn_right.setText("↻")
        self.turn_right.setToolTip("Turn one hex side clockwise")
        self.turn_right.clicked.connect(lambda: self._turn(1))
        for button in (self.turn_left, self.turn_right):
            button.setAutoRaise(False)
            button.setMinimumSize(30, 26)
            f = QFont(button.font())
            f.setPointSizeF(f.pointSizeF() * 1.2)
            button.setFont(f)

        header = QGridLayout()
        header.setContentsMargins(0, 0, 0, 0)
        header.setHorizontalSpacing(6)
        header.addWidget(self.swatch, 0, 0)
        header.addWidget(self.name_label, 0, 1)
        header.addWidget(self.turn_left, 0, 2)
        header.addWidget(self.turn_right, 0, 3)
        header.addWidget(self.place_label, 1, 1, 1, 3)
        header.setColumnStretch(1, 1)

        # --- numbers ---------------------------------------------------------------
        self.stats = StatGrid(STAT_KEYS, columns=4)
        self.hands_label = QLabel()
        self.hands_label.setObjectName("inspectorHands")
        self.hands_label.setWordWrap(True)
        self.weapons_label = _rich_label("inspectorWeapons")
        # A deliberate drop (000 DROPPED WEAPONS): pick the item here, the hex on the map.
        self.drop_menu = QMenu(self)
        self.drop_menu.setObjectName("inspectorDropMenu")
        self.drop_button = QToolButton()
        self.drop_button.setObjectName("dropButton")
        self.drop_button.setText("Drop…")
        self.drop_button.setToolTip(
            "Drop a weapon or the shield deliberately: pick the hex on the map (a hex "
            "passed through this turn or next to one; 000 DROPPED WEAPONS)"
        )
        self.drop_button.setMenu(self.drop_menu)
        self.drop_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.shield_label = _rich_label("inspectorShield")
        self.armor_label = _rich_label("inspectorArmor")

        self.traits_label = _rich_label("inspectorTraits")
        self.wounds_label = _rich_label("inspectorWounds")

        # --- the defender's choices: guarded area, posture ----------------------------
        self.area_combo = QComboBox()
        self.area_combo.setObjectName("defendedAreaCombo")
        self.area_combo.setToolTip(
            "The body area this fighter guards this turn: +2 to block or parry blows "
            f"aimed there, -1 elsewhere ({BODY_AREA_CITATION})"
        )
        self.area_combo.addItem("(none)", None)
        for area in BodyArea:
            self.area_combo.addItem(area.label, area)
        self.area_combo.activated.connect(self._area_chosen)
        self.posture_combo = QComboBox()
        self.posture_combo.setObjectName("postureCombo")
        self.posture_combo.setToolTip(
            "Standing, crouching, kneeling, lying (000 ADVERSE COMBAT CONDITIONS)"
        )
        for posture in Posture:
            self.posture_combo.addItem(posture.value.replace("_", " "), posture)
        self.posture_combo.activated.connect(self._posture_chosen)
        stance_row = caption_grid((("Guards", self.area_combo), ("Posture", self.posture_combo)))

        # --- the GM's edits ----------------------------------------------------------
        self.hp_spin = QSpinBox()
        self.hp_spin.setObjectName("hpSpin")
        self.hp_spin.setToolTip("Current hit points (Enter applies)")
        self.hp_spin.setAccelerated(True)
        self.hp_spin.setKeyboardTracking(False)
        self.status_combo = QComboBox()
        self.status_combo.setObjectName("statusCombo")
        for status in Status:
            self.status_combo.addItem(status.value, status)
        self.apply_button = QPushButton("Appl&y")
        self.apply_button.setObjectName("applyEditButton")
        self.apply_button.setToolTip("Record the GM's edit of HP and status in the battle log")
        self.apply_button.clicked.connect(self.apply_edit)
        self.hp_spin.lineEdit().returnPressed.connect(self.apply_edit)
        self.hp_spin.valueChanged.connect(self._edits_changed)
        self.status_combo.currentIndexChanged.connect(self._edits_changed)
        edit_row = caption_grid((("HP", self.hp_spin), ("Stat&us", self.status_combo)))
        edit_row.addWidget(self.apply_button, 0, 2, 2, 1)  # beside both rows

        # --- assembly ----------------------------------------------------------------
        self.body = QWidget()
        self.body.setObjectName("inspectorBody")
        layout = QVBoxLayout(self.body)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.setSpacing(3)
        layout.addLayout(header)
        layout.addWidget(hline())
        layout.addWidget(self.stats)
        layout.addWidget(self.hands_label)
        layout.addWidget(self.traits_label)
        layout.addLayout(stance_row)
        layout.addWidget(section_label("Wounds and conditions"))
        layout.addWidget(self.wounds_label)
        weapons_head = QGridLayout()
        weapons_head.setContentsMargins(0, 0, 0, 0)
        weapons_head.addWidget(section_label("Weapons"), 0, 0)
        weapons_head.addWidget(self.drop_button, 0, 1, Qt.AlignmentFlag.AlignBottom)
        weapons_head.setColumnStretch(0, 1)
        layout.addLayout(weapons_head)
        layout.addWidget(self.weapons_label)
        layout.addWidget(section_label("Shield and armor"))
        layout.addWidget(self.shield_label)
        layout.addWidget(self.armor_label)
        layout.addWidget(section_label("GM edit"))
        layout.addLayout(edit_row)
        layout.addStretch(1)
        self._detail_widgets: tuple[QWidget, ...] = (
            self.stats,
            self.hands_label,
            self.traits_label,
            self.wounds_label,
            self.area_combo,
            self.posture_combo,
            self.weapons_label,
            self.shield_label,
            self.armor_label,
            self.hp_spin,
            self.status_combo,
            self.apply_button,
            self.turn_left,
            self.turn_right,
            self.drop_button,
        )

        scroll = VerticalScrollArea(self.body)
        self.setWidget(scroll)

        controller.selection_changed.connect(lambda _id: self.refresh())
        controller.battle_reset.connect(self.refresh)
        controller.battle_changed.connect(self._on_battle_changed)
        self.refresh()

    # --- reactions -------------------------------------------------------------------
    def _on_battle_changed(self, change: BattleChange, redraw: Redraw) -> None:
        selected = self._controller.selected_id
        if selected is not None and (selected in change.changed_ids or redraw.panes):
            self.refresh()

    @property
    def combatant(self) -> Combatant | None:
        """The combatant currently shown (None when nothing is selected)."""
        return self._shown

    def refresh(self) -> None:
        selected = self._controller.selected_id
        combatant = None
        if selected is not None:
            try:
                combatant = self._controller.state.combatant(selected)
            except RulesError:
                combatant = None
        self._shown = combatant
        for w in self._detail_widgets:
            w.setEnabled(combatant is not None)
        if combatant is None:
            self._show_nothing()
        else:
            self._show(combatant)

    def _show_nothing(self) -> None:
        self.swatch.clear()
        self.name_label.setText("No fighter selected")
        self.place_label.setText("Select a fighter on the map or in the list.")
        self.stats.clear()
        for label in (
            self.hands_label,
            self.traits_label,
            self.wounds_label,
            self.weapons_label,
            self.shield_label,
            self.armor_label,
        ):
            label.clear()
        self.apply_button.setEnabled(False)
        self.drop_menu.clear()

    def _load_drop_menu(self, c: Combatant) -> None:
        """One entry per weapon (not bare hands) and the shield; each asks the map
        for the hex (``BattleController.request_drop``)."""
        self.drop_menu.clear()
        for key, name in droppable_items(c):
            action = self.drop_menu.addAction(f"Drop {name}…")
            action.setObjectName(f"drop:{key}")
            action.triggered.connect(
                lambda _=False, cid=c.id, k=key: self._controller.request_drop(cid, k)
            )
        self.drop_button.setEnabled(not self.drop_menu.isEmpty())

    def _show(self, c: Combatant) -> None:
        f = c.fighter
        ruleset = seed000_tables(self._controller.state)
        self.swatch.setPixmap(side_swatch(c.side, 14, c.status is Status.DEAD).pixmap(14, 14))
        self.name_label.setText(c.name)
        self.place_label.setText(
            f"{c.side.value.capitalize()} side · hex {c.hex.q},{c.hex.r} · "
            f"facing {c.facing.label} · {c.status.value}"
        )
        a = f.attributes
        self.stats.set_value("st", str(a.st))
        self.stats.set_value("dx", str(a.dx))
        self.stats.set_value("iq", str(a.iq))
        self.stats.set_value("ht", str(a.ht))
        self.stats.set_value("hp", f"{c.hp}/{f.hit_points}")
        self.stats.set_value("move", str(f.move))
        try:
            dodge = defense_at_rest(c, DefenseChoice(DefenseKind.DODGE), ruleset)
            self.stats.set_value("dodge", str(dodge.value), plan_tooltip(dodge))
        except RulesError as refusal:
            base = dodge_base(f)
            self.stats.set_value("dodge", f"({base.value})", str(refusal))
        front_pd = ruleset.passive_defense(f, Arc.FRONT)
        self.stats.set_value(
            "pd",
            str(front_pd.total),
            "Passive defense against an attack from the front:\n"
            + "\n".join(f"{m.value:+d}  {m.reason} ({m.citation})" for m in front_pd.modifiers),
        )

        side = weapon_side(f.handedness)
        hands = f"{f.handedness.value.capitalize()}-handed: weapon in the {side.value} hand, "
        if f.shield is not None:
            hands += f"shield on the {side.other.value}."
        else:
            hands += f"no shield (off hand on the {side.other.value})."
        self.hands_label.setText(hands)
        self.traits_label.setText(traits_html(c))
        self.wounds_label.setText(wounds_html(c))
        self._load_choices(c)

        self.weapons_label.setText(self._weapons_html(c, ruleset))
        self._load_drop_menu(c)
        self.shield_label.setText(self._shield_html(c, ruleset))
        if f.armor is not None:
            self.armor_label.setText(
                f"<b>{escape(f.armor.name)}</b> · PD {f.armor.pd} · DR {f.armor.dr}"
            )
        else:
            self.armor_label.setText(muted_html("No armor"))

        self._load_edits(c)

    def _weapons_html(self, c: Combatant, ruleset: Tables) -> str:
        f = c.fighter
        if not f.weapons:
            return muted_html("No weapons")
        blocks: list[str] = []
        for w in f.weapons:
            skill = f.skill(w.skill)
            flags = []
            if w.two_handed:
                flags.append("two-handed")
            if w.key in c.unready:
                flags.append(f'<span style="color:{BAD_TEXT.name()}">unready</span>')
            state = weapon_state_text(c, w.key)
            if state:
                flags.append(f'<span style="color:{BAD_TEXT.name()}">{escape(state)}</span>')
            lines = [f"<b>{escape(w.name)}</b> · {escape(w.skill)} {skill}"]
            if flags:
                lines[0] += " · " + ", ".join(flags)
            for mode in w.modes:
                try:
                    dice = f" ({ruleset.weapon_damage(mode.damage, f.attributes.st)})"
                except RulesError:
                    dice = ""
                skill_mod = f", {mode.skill_modifier:+d} to hit" if mode.skill_modifier else ""
                lines.append(
                    f"&nbsp;&nbsp;{escape(mode.name)}: {escape(str(mode.damage))}{escape(dice)}"
                    f" · {escape(mode.reach_text)}{escape(skill_mod)}"
                )
            lines.append(f"&nbsp;&nbsp;{self._parry_text(c, w, ruleset)}")
            blocks.append("<br>".join(lines))
        return '<div style="margin-bottom:4px">' + '</div><div style="margin-bottom:4px">'.join(
            blocks
        ) + "</div>"

    def _parry_text(self, c: Combatant, w: Weapon, ruleset: Tables) -> str:
        if w.parry is ParryClass.NONE:
            return muted_html("cannot parry")
        try:
            plan = defense_at_rest(c, DefenseChoice(DefenseKind.PARRY, w.key), ruleset)
        except RulesError as refusal:
            return f"parry ({w.parry.value}): " + muted_html(str(refusal))
        return f"parry ({w.parry.value}) <b>{plan.value}</b> " + muted_html(f"· {plan.citation}")

    def _shield_html(self, c: Combatant, ruleset: Tables) -> str:
        shield = c.fighter.shield
        if shield is None:
            return muted_html("No shield")
        text = f"<b>{escape(shield.name)}</b> · PD {shield.pd}"
        if not c.shield_ready or shield.key in c.unready:
            text += f' · <span style="color:{BAD_TEXT.name()}">not ready</span>'
        else:
            text += " · ready"
        state = weapon_state_text(c, shield.key)
        if state:
            text += f' · <span style="color:{BAD_TEXT.name()}">{escape(state)}</span>'
        try:
            plan = defense_at_rest(c, DefenseChoice(DefenseKind.BLOCK), ruleset)
            text += f" · block <b>{plan.value}</b> " + muted_html(
                f"({plan.base_reason}) · {plan.citation}"
            )
        except RulesError as refusal:
            text += " · " + muted_html(str(refusal))
        return text

    # --- edits -------------------------------------------------------------------------
    def _load_edits(self, c: Combatant) -> None:
        maximum = c.fighter.hit_points
        self.hp_spin.blockSignals(True)
        self.status_combo.blockSignals(True)
        try:
            # The death threshold is -5xHP; leave room below it and above full HP.
            self.hp_spin.setRange(-6 * max(maximum, 1), max(maximum * 2, maximum + 10))
            self.hp_spin.setValue(c.hp)
            self.hp_spin.setSuffix(f" / {maximum}")
            self.status_combo.setCurrentIndex(self.status_combo.findData(c.status))
        finally:
            self.hp_spin.blockSignals(False)
            self.status_combo.blockSignals(False)
        self._edits_changed()

    def _edits_changed(self) -> None:
        c = self._shown
        changed = c is not None and (
            self.hp_spin.value() != c.hp or self.status_combo.currentData() is not c.status
        )
        self.apply_button.setEnabled(changed)

    def apply_edit(self) -> None:
        """Execute ``EditCombatant`` with the spin box and combo values."""
        c = self._shown
        if c is None:
            return
        self.hp_spin.interpretText()
        hp = self.hp_spin.value()
        status = self.status_combo.currentData()
        if hp == c.hp and status is c.status:
            return
        self._controller.execute(
            EditCombatant(
                c.id,
                hp=hp if hp != c.hp else None,
                status=status if status is not c.status else None,
            )
        )

    # --- the defender's choices -------------------------------------------------------
    def _load_choices(self, c: Combatant) -> None:
        self.area_combo.setCurrentIndex(max(0, self.area_combo.findData(c.defended_area)))
        self.posture_combo.setCurrentIndex(max(0, self.posture_combo.findData(c.posture)))

    def _area_chosen(self, _index: int) -> None:
        c = self._shown
        area = self.area_combo.currentData()
        if c is None or area == c.defended_area:
            return
        self._controller.execute(SetDefendedArea(c.id, area))

    def _posture_chosen(self, _index: int) -> None:
        c = self._shown
        posture = self.posture_combo.currentData()
        if c is None or posture is c.posture:
            return
        self._controller.execute(SetPosture(c.id, posture))

    def _turn(self, steps: int) -> None:
        c = self._shown
        if c is not None:
            self._controller.execute(TurnCombatant(c.id, c.facing.turned(steps)))


def weapon_state_text(c: Combatant, weapon_key: str) -> str:
    """"damaged (3)", "weakened", "broken" or "" for an intact weapon."""
    for key, state in c.weapon_states:
        if key != weapon_key:
            continue
        if state.broken:
            return "broken"
        if state.weakened:
            return f"weakened ({state.damage_taken} damage)"
        if state.damage_taken:
            return f"damaged ({state.damage_taken})"
    return ""


def traits_html(c: Combatant) -> str:
    """Pain threshold and the traits the rules read, one line."""
    f = c.fighter
    parts = []
    parts.append(f"pain threshold <b>{escape(f.pain_threshold.value)}</b>")
    if f.injury_tolerance:
        tolerance = sorted(t.value for t in f.injury_tolerance)
        parts.append("injury tolerance: " + escape(", ".join(tolerance)))
    if f.combat_reflexes:
        parts.append("Combat Reflexes")
    if f.fencing or "Fencing" in f.skills:
        parts.append("Fencing")
    acrobatics = acrobatics_skill_of(f)
    if acrobatics is not None:
        parts.append(f"Acrobatics {acrobatics}")
    if f.encumbrance:
        parts.append(f"encumbrance {f.encumbrance}")
    return " · ".join(parts)


def wounds_html(c: Combatant) -> str:
    """Every located wound (with crippled limbs and lasting conditions), then the
    combatant's own states: off balance, shield lost."""
    lines = []
    for w in wounds_of(c):
        side = f" ({w.side.value})" if w.side is not None else ""
        text = f"<b>{escape(w.label)}</b>{escape(side)}: {w.injury} HP"
        if w.crippled is not None:
            crippled = escape(f"{w.crippled.value} crippled")
            text += f' · <span style="color:{BAD_TEXT.name()}">{crippled}</span>'
        conditions = sorted(k.value for k in w.conditions if k.value != "crippled")
        if conditions:
            text += " · " + escape(", ".join(conditions))
        cites = ", ".join(str(x) for x in w.citations)
        if cites:
            text += " " + muted_html(f"· {cites}")
        lines.append(text)
    if c.off_balance:
        lines.append(
            f'<span style="color:{BAD_TEXT.name()}">off balance</span> '
            + muted_html("· defense penalties doubled this turn")
        )
    if c.status is not Status.ACTIVE:
        lines.append(escape(c.status.value.capitalize()))
    return "<br>".join(lines) if lines else muted_html("None")


def _rich_label(name: str) -> QLabel:
    label = QLabel()
    label.setObjectName(name)
    label.setTextFormat(Qt.TextFormat.RichText)
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label
