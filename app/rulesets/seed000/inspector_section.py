"""Seed 000's part of the inspector: the selected combatant's sheet as seed 000
reads it.

ST, DX, IQ, HT, HP, Move, dodge and PD; the weapon hand, pain threshold and the
traits the rules read; the guarded body area; located wounds; weapons with their
damage dice and parries, the shield with its block, the armor. Every number comes
from the rules (``rules.sets.seed000.defense`` for dodge, block and parry, the
ruleset's tables for damage dice); the section only lays them out. The guarded
area changes only through ``SetDefendedArea``, executed by the controller.
"""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QGridLayout, QLabel, QVBoxLayout, QWidget

from app.controller import BattleController
from app.panes.widgets import (
    BAD_TEXT,
    StatGrid,
    caption_grid,
    muted_html,
    section_label,
)
from app.rulesets import InspectorControls
from app.rulesets.seed000.tables import seed000_tables
from hexmap import Arc
from rules.battle.hands import hand_problem
from rules.battle.model import Combatant, ParryClass, Status, Weapon
from rules.core.errors import RulesError
from rules.sets.seed000.attack import victim_of
from rules.sets.seed000.commands import SetDefendedArea, guarded_area_fixed
from rules.sets.seed000.defense import (
    DefenseChoice,
    DefensePlan,
    DefenseSituation,
    dodge_base,
    plan_defense,
)
from rules.sets.seed000.defense_kinds import DefenseKind
from rules.sets.seed000.location_rules import LocationRules
from rules.sets.seed000.sheet import sheet_of
from rules.sets.seed000.stances import (
    BODY_AREA_CITATION,
    BodyArea,
    acrobatics_skill_of,
    weapon_side,
)
from rules.sets.seed000.tables import Tables
from rules.sets.seed000.tracks import tracks_of, wounds_of

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


class Seed000InspectorSection(QWidget):
    """Seed 000's ``InspectorSection``. It places the inspector's posture combo
    beside its guarded area and the ready and drop buttons over its weapons."""

    def __init__(self, controller: BattleController, controls: InspectorControls) -> None:
        super().__init__()
        self._controller = controller
        self._shown: Combatant | None = None

        # --- numbers ---------------------------------------------------------------
        self.stats = StatGrid(STAT_KEYS, columns=4)
        self.hands_label = QLabel()
        self.hands_label.setObjectName("inspectorHands")
        self.hands_label.setWordWrap(True)
        self.weapons_label = _rich_label("inspectorWeapons")
        self.shield_label = _rich_label("inspectorShield")
        self.armor_label = _rich_label("inspectorArmor")
        self.traits_label = _rich_label("inspectorTraits")
        self.wounds_label = _rich_label("inspectorWounds")

        # --- the defender's choice: the guarded area -----------------------------------
        self.area_combo = QComboBox()
        self.area_combo.setObjectName("defendedAreaCombo")
        self._area_tip = (
            "The body area this fighter guards this turn: +2 to block or parry blows "
            f"aimed there, -1 elsewhere; fixed once it defends ({BODY_AREA_CITATION})"
        )
        self.area_combo.setToolTip(self._area_tip)
        self.area_combo.addItem("(none)", None)
        for area in BodyArea:
            self.area_combo.addItem(area.label, area)
        self.area_combo.activated.connect(self._area_chosen)
        stance_row = caption_grid((("Guards", self.area_combo), ("Posture", controls.posture)))

        # --- assembly: laid into the inspector's column, so no margins of its own --------
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(3)
        layout.addWidget(self.stats)
        layout.addWidget(self.hands_label)
        layout.addWidget(self.traits_label)
        layout.addLayout(stance_row)
        layout.addWidget(section_label("Wounds and conditions"))
        layout.addWidget(self.wounds_label)
        weapons_head = QGridLayout()
        weapons_head.setContentsMargins(0, 0, 0, 0)
        weapons_head.addWidget(section_label("Weapons"), 0, 0)
        weapons_head.addWidget(controls.ready, 0, 1, Qt.AlignmentFlag.AlignBottom)
        weapons_head.addWidget(controls.drop, 0, 2, Qt.AlignmentFlag.AlignBottom)
        weapons_head.setColumnStretch(0, 1)
        layout.addLayout(weapons_head)
        layout.addWidget(self.weapons_label)
        layout.addWidget(section_label("Shield and armor"))
        layout.addWidget(self.shield_label)
        layout.addWidget(self.armor_label)
        self._detail_widgets: tuple[QWidget, ...] = (
            self.stats,
            self.hands_label,
            self.traits_label,
            self.wounds_label,
            self.area_combo,
            self.weapons_label,
            self.shield_label,
            self.armor_label,
        )

    # --- InspectorSection ------------------------------------------------------------
    @property
    def widget(self) -> QWidget:
        return self

    def show_combatant(self, combatant: Combatant | None) -> None:
        self._shown = combatant
        for w in self._detail_widgets:
            w.setEnabled(combatant is not None)
        if combatant is None:
            self._show_nothing()
        else:
            self._show(combatant)

    # --- what it shows -----------------------------------------------------------------
    def _show_nothing(self) -> None:
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

    def _show(self, c: Combatant) -> None:
        f = c.fighter
        ruleset = seed000_tables(self._controller.state)
        a = sheet_of(f).attributes
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
        self.wounds_label.setText(wounds_html(c, ruleset.hit_locations))
        guarded = tracks_of(c).defended_area
        self.area_combo.setCurrentIndex(max(0, self.area_combo.findData(guarded)))
        # 000 DEFENDING A SPECIFIC BODY AREA: chosen for the turn, fixed once it defended.
        fixed = guarded_area_fixed(c)
        self.area_combo.setEnabled(fixed is None)
        self.area_combo.setToolTip(fixed or self._area_tip)

        self.weapons_label.setText(self._weapons_html(c, ruleset))
        self.shield_label.setText(self._shield_html(c, ruleset))
        if f.armor is not None:
            self.armor_label.setText(
                f"<b>{escape(f.armor.name)}</b> · PD {f.armor.pd} · DR {f.armor.dr}"
            )
        else:
            self.armor_label.setText(muted_html("No armor"))

    def _weapons_html(self, c: Combatant, ruleset: Tables) -> str:
        f = c.fighter
        if not f.weapons:
            return muted_html("No weapons")
        blocks: list[str] = []
        sheet = sheet_of(f)
        for w in f.weapons:
            skill = sheet.skill(w.skill)
            flags = []
            if w.two_handed:
                flags.append("two-handed")
            if hand_problem(c, w.key) is not None:
                flags.append(muted_html("carried, not in hand"))
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
                    dice = f" ({ruleset.weapon_damage(mode.damage, sheet.attributes.st)})"
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

    # --- the defender's choice -----------------------------------------------------------
    def _area_chosen(self, _index: int) -> None:
        c = self._shown
        area = self.area_combo.currentData()
        if c is None or area == tracks_of(c).defended_area:
            return
        self._controller.execute(SetDefendedArea(c.id, area))


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
    sheet = sheet_of(c)
    parts = []
    parts.append(f"pain threshold <b>{escape(sheet.pain_threshold.value)}</b>")
    if sheet.injury_tolerance:
        tolerance = sorted(t.value for t in sheet.injury_tolerance)
        parts.append("injury tolerance: " + escape(", ".join(tolerance)))
    if sheet.combat_reflexes:
        parts.append("Combat Reflexes")
    if sheet.fencing or "Fencing" in sheet.skills:
        parts.append("Fencing")
    acrobatics = acrobatics_skill_of(c.fighter)
    if acrobatics is not None:
        parts.append(f"Acrobatics {acrobatics}")
    if sheet.encumbrance:
        parts.append(f"encumbrance {sheet.encumbrance}")
    return " · ".join(parts)


def wounds_html(c: Combatant, system: LocationRules | None = None) -> str:
    """Every located wound (with crippled limbs and lasting conditions), the wound
    track of each hurt part where the battle's hit location ``system`` keeps one
    (the FUDGE option), then the combatant's own states: off balance, shield lost."""
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
    tracks = () if system is None else system.wound_tracks(victim_of(c))
    if tracks:
        lines.append(muted_html("Wound tracks (Scratch, Hurt, Very Hurt, then the two worst):"))
        lines.extend(escape(line) for line in tracks)
    if tracks_of(c).off_balance:
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
