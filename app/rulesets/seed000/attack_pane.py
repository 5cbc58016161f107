"""The attack pane: set up one attack, see every number before the roll, roll it.

The attacker is the controller's selection and the target its target (changing
either combo changes them in the controller, so the map agrees). Weapon, mode,
aimed location, the defender's announced defenses (rolled in the order they are
ticked), "from below" and a GM's situational modifier make ``AttackOptions``; the
preview is the roll's own plan of those options (``planned``), redrawn live. A refusal
(out of reach, no shield ...) is shown in place of the preview and disables Roll.
Roll (Enter anywhere in the main window) executes ``Attack`` through the controller;
the pane never changes the battle itself. Ctrl+Return is always End Turn, in the
pane too, so it can never roll a second attack.

A new attacker or target starts afresh: weapon and mode are the ruleset's default
attack for the pair (``Attacks.default_attack``), the defender announces its
default defense, and every other choice of the last exchange is gone. Over Roll
the pane says in plain words when the target is the attacker's ally and when the
blow meets no defense.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import replace
from enum import Enum
from fractions import Fraction
from html import escape

from PySide6.QtCore import QEvent, QKeyCombination, QObject, Qt
from PySide6.QtGui import QKeyEvent, QKeySequence, QStandardItemModel
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QDockWidget,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSizePolicy,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.background_work import LatestResult
from app.controller import BattleController, Redraw
from app.defense_answers import computer_answer, note_answer
from app.help import key_sequences
from app.panes.attack_notes import (
    ally_mark,
    ally_notice,
    last_roll_follows_history,
    no_target_hint,
    notice_label,
    show_notices,
)
from app.panes.labels import fighter_choice
from app.panes.widgets import (
    BAD_TEXT,
    MUTED,
    WARN_BACK,
    FittedScrollArea,
    buddy_label,
    configure_dock,
    hline,
    muted_label,
    pane_body,
    section_label,
)
from app.rulesets.seed000.attack_parts import (
    DOWN_STATUSES,
    Collapsible,
    ConditionsPicker,
    OddsPanel,
    OddsRow,
    injury_text,
    percent,
    weapon_targets,
)
from app.rulesets.seed000.tables import seed000_steps, seed000_tables
from app.theme import ARC_COLOURS
from rules.battle.attack_steps import planned
from rules.battle.battle import BattleChange
from rules.battle.commands import Attack, SetRulesetOptions
from rules.battle.hands import wielded_weapons
from rules.battle.model import Combatant, WeaponMode
from rules.battle.state import BattleRuleset, BattleState
from rules.battle.turns import attack_problems, attacks_left, terms_of
from rules.core.citation import cite
from rules.core.errors import RulesError
from rules.core.events import Event
from rules.core.modifiers import Modifier
from rules.play.defense import DefenseAnswer
from rules.sets.seed000.attack import (
    PARRYING_LIMB,
    PARRYING_LIMB_BONUS,
    AttackOptions,
    AttackPlan,
    Seed000Answer,
    SubdueMode,
    WeaponAttack,
    attack_arc,
    parried_bare_handed,
)
from rules.sets.seed000.attack_events import AttackResolved, DamageDealt, StatusChanged
from rules.sets.seed000.attack_form import likely_defense
from rules.sets.seed000.attack_steps import (
    Plan000,
    attack_command,
    defended_plan,
    known_odds,
    preview_odds,
    split_answer,
)
from rules.sets.seed000.commands import ReverseWeapon
from rules.sets.seed000.conditions import SelectedCondition
from rules.sets.seed000.defense import DefenseChoice, DefensePlan, possible_defenses
from rules.sets.seed000.defense_kinds import DefenseKind
from rules.sets.seed000.disarm import DisarmContest
from rules.sets.seed000.locations import AimChoice, aim_choices
from rules.sets.seed000.odds import AttackOdds
from rules.sets.seed000.sheet import sheet_of
from rules.sets.seed000.situation import Situation, situation_modifiers
from rules.sets.seed000.tables import LOCATION_OPTION_NAMES, LOCATIONS_001, Tables
from rules.sets.seed000.weapon_strikes import WEAPON_STRIKES_000, turns_end_for_end

# The GM's situational modifier is one of seed 000's adverse combat conditions.
SITUATIONAL_CITATION = cite("000", "ADVERSE COMBAT CONDITIONS")
SITUATIONAL_REASON = "GM's situational modifier"
UNARMED_PARRIES = cite("000", "UNARMED PARRIES")
CHINK_TIP = (
    "Aim for a chink in the defender's armor: -8 on the torso, -10 elsewhere, the "
    f"armor's DR halved; piercing, impaling and tight-beam burning attacks only "
    f"({cite('001', 'Targeting Chinks in Armor')})"
)
KNOCK_AWAY_TIP = (
    "A weapon lost to this disarm is knocked away: a small one 1d3-1 hexes in a random "
    f"direction, a large one at the feet or beside ({cite('000', 'DROPPED WEAPONS')}); "
    "unticked it drops in its wielder's hex (000 DISARMING AN OPPONENT)"
)

_ORDINALS = ("1st", "2nd", "3rd")


PAIRED_COMBO_CHARS = 5  # the least a box of two in a row shows (8 elsewhere)
# The lines of the preview (the itemised modifiers) that stay in view while the
# choices above scroll ("More options" open).
PREVIEW_LEAST_LINES = 12


class AttackPane(QDockWidget):
    def __init__(self, controller: BattleController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        configure_dock(self, "attackPane", "Attack")
        self._controller = controller
        self._updating = 0
        self._plan: AttackPlan | None = None
        self._error: str | None = None
        # Announced defenses in the order they were ticked: the order of rolling.
        self._announced: list[DefenseKind] = []
        # (attacker, defender) the choices were made for: another pair starts afresh
        self._pair: tuple[str | None, str | None] | None = None
        self._pulled_for: str | None = None
        # (attacker, defender, turn) the GM's situational modifier was set for.
        self._situational_for: tuple[str | None, str | None, int] | None = None
        self._last_roll_by: str | None = None
        self._all_out_by_maneuver = False  # the defender's maneuver ticked All-out defense

        # --- who -------------------------------------------------------------------------------
        self.attacker_combo = _combo("attackerCombo", "The attacker (the selected combatant)")
        self.target_combo = _combo("targetCombo", "The defender (the target)")
        self.weapon_combo = _combo("weaponCombo", "The attacker's weapon")
        self.mode_combo = _combo("modeCombo", "How the weapon is used")
        self.location_combo = _combo("locationCombo", "Aim at a hit location (000 HIT LOCATIONS)")

        # --- the defender's announced defenses -------------------------------------------------
        self.dodge_check = QCheckBox("Do&dge")
        self.dodge_check.setObjectName("dodgeCheck")
        self.block_check = QCheckBox("B&lock")
        self.block_check.setObjectName("blockCheck")
        self.parry_check = QCheckBox("&Parry")
        self.parry_check.setObjectName("parryCheck")
        self.parry_weapon_combo = _combo("parryWeaponCombo", "The weapon the defender parries with")
        # The defense boxes' own tooltips while a computer defender's choice shows.
        self._tips_before_computer: dict[QCheckBox, str] = {}
        self._checks = {
            DefenseKind.DODGE: self.dodge_check,
            DefenseKind.BLOCK: self.block_check,
            DefenseKind.PARRY: self.parry_check,
        }
        self._order_labels: dict[DefenseKind, QLabel] = {}
        for kind, check in self._checks.items():
            check.setToolTip(
                f"The defender announces a {kind.value} ({kind.citation}). "
                "Defenses are rolled in the order they are ticked."
            )
            check.toggled.connect(lambda on, k=kind: self._defense_toggled(k, on))
            badge = muted_label(f"{kind.value}Order")
            badge.setMinimumWidth(24)
            self._order_labels[kind] = badge

        self.below_check = QCheckBox("From bel&ow")
        self.below_check.setObjectName("belowCheck")
        self.below_check.setToolTip("The blow comes from below (000 BLOCK, 000 PARRY)")
        self.extra_spin = QSpinBox()
        self.extra_spin.setObjectName("extraSpin")
        self.extra_spin.setRange(-20, 20)
        self.extra_spin.setToolTip(
            f"The GM's situational modifier to the attack ({SITUATIONAL_CITATION})"
        )
        self.extra_spin.setKeyboardTracking(True)
        self.reason_edit = QLineEdit()
        self.reason_edit.setObjectName("reasonEdit")
        self.reason_edit.setPlaceholderText("reason, e.g. bad footing")
        self.reason_edit.setClearButtonEnabled(True)

        # --- where the blow goes, the defender's extras, from above -----------------------------
        self.random_check = QCheckBox("at random")
        self.random_check.setObjectName("randomLocationCheck")
        self.random_check.setToolTip(
            "Swing at random: roll the hit location instead of aiming "
            "(000 RANDOM HIT LOCATION; the table follows the Hit locations option)"
        )
        self.above_check = QCheckBox("From above")
        self.above_check.setObjectName("aboveCheck")
        self.above_check.setToolTip("The blow comes from above (000 HIT LOCATIONS)")
        self.acrobatic_check = QCheckBox("Acrobatic dodge")
        self.acrobatic_check.setObjectName("acrobaticCheck")
        self.acrobatic_check.setToolTip(
            "The defender tries an acrobatic dodge first: Acrobatics roll, +2 or -4 "
            "to the dodge (000 ACROBATIC DODGE)"
        )
        self.all_out_check = QCheckBox("All-out defense")
        self.all_out_check.setObjectName("allOutCheck")
        self.all_out_check.setToolTip("The defender is in an all-out defense this turn")

        # --- from the battlefield: terrain and postures, filled in, each can be unticked ----------
        self.battlefield_list = QListWidget()
        self.battlefield_list.setObjectName("battlefieldList")
        self.battlefield_list.setToolTip(
            "Modifiers from where the fighters stand (terrain, postures), filled in "
            "automatically; untick one to leave it out"
        )
        self.battlefield_list.setMaximumHeight(64)
        self.battlefield_list.hide()
        self._situation: Situation | None = None
        self._auto_conditions: tuple[SelectedCondition, ...] = ()

        # --- more options: conditions, striking at a weapon, subduing, chinks --------------------
        self.conditions = ConditionsPicker()
        self.conditions.setObjectName("conditionsPicker")
        self.target_weapon_combo = _combo(
            "targetWeaponCombo", "Strike at the defender's weapon instead of the body"
        )
        self.weapon_attack_combo = _combo(
            "weaponAttackCombo", "What the strike at the weapon is for: break it or disarm"
        )
        self.subdue_combo = _combo("subdueCombo", "Fight to subdue, not to kill")
        self.pulled_st_spin = QSpinBox()
        self.pulled_st_spin.setObjectName("pulledStSpin")
        self.pulled_st_spin.setRange(1, 30)
        self.pulled_st_spin.setPrefix("ST ")
        self.pulled_st_spin.setToolTip("The ST the blow is pulled to")
        # 001 Subduing a Foe: a long weapon is turned end for end with a Ready.
        self.turn_weapon_button = QPushButton("Turn it around")
        self.turn_weapon_button.setObjectName("turnWeaponButton")
        self.turn_weapon_button.setToolTip(
            "A Ready: turn the long weapon end for end, to strike with its blunt end "
            "(Subdue: blunt end) or, turned back, with its point"
        )
        self.obscured_combo = _combo(
            "obscuredCombo",
            "A combatant partly in the way of the aimed location "
            "(000 MISSING A SPECIFIC HIT LOCATION)",
        )
        self.chink_check = QCheckBox("Chin&k in armor")
        self.chink_check.setObjectName("chinkCheck")
        self.chink_check.setToolTip(CHINK_TIP)
        # why a chink is not offered (001 Targeting Chinks in Armor), beside the box
        self.chink_hint = muted_label("chinkHint")
        self.knock_away_check = QCheckBox("Knock it away")
        self.knock_away_check.setObjectName("knockAwayCheck")
        self.knock_away_check.setToolTip(KNOCK_AWAY_TIP)
        self.off_hand_check = QCheckBox("Off-hand attack")
        self.off_hand_check.setObjectName("offHandCheck")
        self.off_hand_check.setToolTip(
            f"The attacker strikes with the off hand: -4, none if ambidextrous "
            f"({SITUATIONAL_CITATION})"
        )
        self.off_hand_training_spin = QSpinBox()
        self.off_hand_training_spin.setObjectName("offHandTrainingSpin")
        self.off_hand_training_spin.setRange(0, 4)
        self.off_hand_training_spin.setPrefix("training ")
        self.off_hand_training_spin.setToolTip(
            "Points of Off-Hand Weapons Training: each lowers the -4 by one (the seed "
            f"gives no figure; the GM enters it) ({SITUATIONAL_CITATION})"
        )
        self.hit_locations_combo = _combo(
            "hitLocationsCombo", "Which seed's hit locations this battle uses (ruleset option)"
        )
        # Two boxes share a row of "More options": narrower, so that the pane fits beside
        # the map on a 1366-pixel screen, its scroll bar showing, without cutting them off.
        for combo in (self.target_weapon_combo, self.weapon_attack_combo, self.subdue_combo):
            combo.setMinimumContentsLength(PAIRED_COMBO_CHARS)

        # --- preview, refusal, roll ------------------------------------------------------------
        # The attacker's maneuver: attacks left, and what would need the GM's override.
        self.turn_label = QLabel()
        self.turn_label.setObjectName("attackTurnLabel")
        self.turn_label.setWordWrap(True)
        self.turn_label.setTextFormat(Qt.TextFormat.RichText)
        self.turn_label.hide()
        self.arc_label = QLabel()
        self.arc_label.setObjectName("arcLabel")
        self.arc_label.setWordWrap(True)
        self.arc_label.setTextFormat(Qt.TextFormat.RichText)
        self.preview_label = QLabel()
        self.preview_label.setObjectName("previewLabel")
        self.preview_label.setWordWrap(True)
        self.preview_label.setTextFormat(Qt.TextFormat.RichText)
        self.preview_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.preview_label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.error_label = QLabel()
        self.error_label.setObjectName("attackError")
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet(
            f"color:{BAD_TEXT.name()}; background:{WARN_BACK.name()};"
            "border:1px solid #e6a8a2; border-radius:3px; padding:3px"
        )
        self.error_label.hide()
        self.notice_label = notice_label("attackNotice")
        self.roll_button = QPushButton("&Roll")
        self.roll_button.setObjectName("rollButton")
        self.roll_button.setToolTip("Roll the attack (Enter)")
        self.roll_button.setDefault(True)
        self.roll_button.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.roll_button.clicked.connect(self.roll)
        self.last_label = muted_label("lastRollLabel", word_wrap=True)
        self.odds_panel = OddsPanel()
        self.odds_panel.setToolTip("Exact odds of this attack, before the roll")
        self._odds: AttackOdds | None = None
        self._odds_work: LatestResult[AttackOdds] = LatestResult(self)

        # --- layout ----------------------------------------------------------------------------
        # Attacker and target head the pane, outside the scrolling choices: always
        # in view, whatever the GM scrolled to before the roll.
        who = QGridLayout()
        who.setContentsMargins(6, 6, 6, 3)
        form = QGridLayout()
        form.setContentsMargins(0, 0, 0, 0)
        captions: list[QLabel] = []
        for grid, rows in (
            (who, (("&Attacker", self.attacker_combo), ("&Target", self.target_combo))),
            (form, (("&Weapon", self.weapon_combo), ("Mod&e", self.mode_combo),
                    ("A&im at", self.location_combo))),
        ):  # fmt: skip
            grid.setHorizontalSpacing(6)
            grid.setVerticalSpacing(3)
            grid.setColumnStretch(1, 1)
            for row, (caption, widget) in enumerate(rows):
                label = buddy_label(caption, widget)
                captions.append(label)
                grid.addWidget(label, row, 0)
                if widget is self.location_combo:
                    grid.addWidget(widget, row, 1, 1, 2)
                    grid.addWidget(self.random_check, row, 3)
                else:
                    grid.addWidget(widget, row, 1, 1, 3)
        # the two grids' boxes line up under each other
        caption_width = max(label.sizeHint().width() for label in captions)
        for grid in (who, form):
            grid.setColumnMinimumWidth(0, caption_width)

        defenses = QGridLayout()
        defenses.setContentsMargins(0, 0, 0, 0)
        defenses.setHorizontalSpacing(4)
        defenses.setVerticalSpacing(1)
        self._value_labels: dict[DefenseKind, QLabel] = {}
        for kind in DefenseKind:
            value = QLabel("")
            value.setObjectName(f"{kind.value}Value")
            # left-aligned: the score sits next to its own defense, not against the
            # next checkbox ("Dodge 1st 4   Block", not "Dodge 1st   4 Block")
            value.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
            value.setMinimumWidth(20)
            value.setToolTip("The final score of this defense (see the preview below)")
            self._value_labels[kind] = value
        # Dodge and Block on one line, Parry and its weapon on the next.
        for col, kind in ((0, DefenseKind.DODGE), (3, DefenseKind.BLOCK)):
            defenses.addWidget(self._checks[kind], 0, col)
            defenses.addWidget(self._order_labels[kind], 0, col + 1)
            defenses.addWidget(self._value_labels[kind], 0, col + 2)
        defenses.addWidget(self.parry_check, 1, 0)
        defenses.addWidget(self._order_labels[DefenseKind.PARRY], 1, 1)
        defenses.addWidget(self.parry_weapon_combo, 1, 2, 1, 3)
        defenses.addWidget(self._value_labels[DefenseKind.PARRY], 1, 5)
        extras = QHBoxLayout()
        extras.setContentsMargins(0, 0, 0, 0)
        extras.addWidget(self.acrobatic_check)
        extras.addWidget(self.all_out_check)
        extras.addStretch(1)
        defenses.addLayout(extras, 2, 0, 1, 6)
        defenses.setColumnStretch(2, 1)
        defenses.setColumnStretch(5, 1)
        defenses_head = QHBoxLayout()
        defenses_head.setContentsMargins(0, 0, 0, 0)
        defenses_head.addWidget(section_label("Defender announces"))
        defenses_head.addStretch(1)
        order_hint = QLabel("rolled in tick order")
        order_hint.setObjectName("defenseOrderHint")
        order_hint.setToolTip(
            "Defenses are announced before any roll and rolled in the order they were "
            "ticked (000 DEFENSES). Untick and tick again to move one to the end."
        )
        order_hint.setStyleSheet(f"color:{MUTED.name()}; font-size:small")
        order_hint.setContentsMargins(0, 6, 0, 0)
        defenses_head.addWidget(order_hint)

        situation_head = QHBoxLayout()
        situation_head.setContentsMargins(0, 0, 0, 0)
        situation_head.addWidget(section_label("Situation"))
        situation_head.addStretch(1)
        self.below_check.setContentsMargins(0, 6, 0, 0)
        situation_head.addWidget(self.below_check, 0, Qt.AlignmentFlag.AlignBottom)
        self.above_check.setContentsMargins(0, 6, 0, 0)
        situation_head.addWidget(self.above_check, 0, Qt.AlignmentFlag.AlignBottom)
        situational = QGridLayout()
        situational.setContentsMargins(0, 0, 0, 0)
        situational.setHorizontalSpacing(6)
        mod_label = buddy_label("&Modifier", self.extra_spin)
        reason_label = buddy_label("Rea&son", self.reason_edit)
        situational.addWidget(mod_label, 0, 0)
        situational.addWidget(self.extra_spin, 0, 1)
        situational.addWidget(reason_label, 0, 2)
        situational.addWidget(self.reason_edit, 0, 3)
        situational.setColumnStretch(3, 1)

        more_body = QWidget()
        more_body.setObjectName("moreOptionsBody")
        more = QGridLayout(more_body)
        more.setContentsMargins(0, 0, 0, 0)
        more.setHorizontalSpacing(6)
        more.setVerticalSpacing(3)
        conditions_label = buddy_label("&Conditions", self.conditions.search_edit)
        more.addWidget(conditions_label, 0, 0, 1, 3)
        more.addWidget(self.conditions, 1, 0, 1, 3)
        strike_label = buddy_label("Strike at", self.target_weapon_combo)
        more.addWidget(strike_label, 2, 0)
        more.addWidget(self.target_weapon_combo, 2, 1)
        more.addWidget(self.weapon_attack_combo, 2, 2)
        more.addWidget(self.knock_away_check, 3, 1, 1, 2)  # what a won disarm does
        subdue_label = buddy_label("Subdue", self.subdue_combo)
        more.addWidget(subdue_label, 4, 0)
        more.addWidget(self.subdue_combo, 4, 1)
        more.addWidget(self.pulled_st_spin, 4, 2)
        more.addWidget(self.turn_weapon_button, 5, 1, 1, 2)
        obscured_label = buddy_label("In the way", self.obscured_combo)
        more.addWidget(obscured_label, 6, 0)
        more.addWidget(self.obscured_combo, 6, 1, 1, 2)
        more.addWidget(self.chink_check, 7, 0, 1, 2)
        more.addWidget(self.chink_hint, 7, 2)
        more.addWidget(self.off_hand_check, 8, 0, 1, 2)
        more.addWidget(self.off_hand_training_spin, 8, 2)
        locations_label = buddy_label("Hit locations", self.hit_locations_combo)
        more.addWidget(locations_label, 9, 0)
        more.addWidget(self.hit_locations_combo, 9, 1, 1, 2)
        more.setColumnStretch(1, 2)
        more.setColumnStretch(2, 1)
        self.more = Collapsible("More optio&ns", more_body)
        self.more.setObjectName("moreOptions")
        self.more.button.setObjectName("moreOptionsButton")
        self.more.button.setToolTip(
            "Adverse conditions, striking at a weapon (knocking it away), subduing, "
            "chinks in armor, an off-hand attack, the hit location table"
        )

        body, layout = pane_body("attackBody", 6)
        layout.setContentsMargins(6, 0, 6, 3)
        layout.addLayout(form)
        layout.addLayout(defenses_head)
        layout.addLayout(defenses)
        layout.addLayout(situation_head)
        layout.addLayout(situational)
        layout.addWidget(self.battlefield_list)
        layout.addWidget(self.more)
        layout.addStretch(1)
        # The choices and the preview scroll each on its own: opening "More options"
        # scrolls the choices, and the modifiers below stay in view.
        self.scroll_area = FittedScrollArea(body, self._choices_least)
        self.scroll_area.setSizePolicy(
            QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred
        )
        shown, preview_layout = pane_body("attackPreviewBody", 6)
        preview_layout.setContentsMargins(6, 0, 6, 3)
        preview_layout.addWidget(hline())
        preview_layout.addWidget(self.turn_label)
        preview_layout.addWidget(self.arc_label)
        preview_layout.addWidget(self.preview_label)
        preview_layout.addStretch(1)
        self.preview_area = FittedScrollArea(shown, self._preview_least)

        footer = QVBoxLayout()
        footer.setContentsMargins(6, 2, 6, 6)
        footer.setSpacing(3)
        # Roll last, at the pane's bottom edge: what shows above it (a refusal, the
        # odds, the last roll's line) takes its room from the scrolling part, so the
        # button never moves under the GM's pointer.
        footer.addWidget(self.error_label)
        footer.addWidget(self.notice_label)
        footer.addWidget(self.odds_panel)
        footer.addWidget(self.last_label)
        roll_row = QHBoxLayout()
        roll_row.addWidget(self.roll_button)
        footer.addLayout(roll_row)

        outer = QWidget()
        outer_layout = QVBoxLayout(outer)
        outer_layout.setContentsMargins(0, 0, 0, 0)
        outer_layout.setSpacing(0)
        outer_layout.addLayout(who)
        outer_layout.addWidget(self.scroll_area)
        outer_layout.addWidget(self.preview_area, 1)
        outer_layout.addLayout(footer)
        self.setWidget(outer)

        self.tab_order: tuple[QWidget, ...] = (
            self.attacker_combo,
            self.target_combo,
            self.weapon_combo,
            self.mode_combo,
            self.location_combo,
            self.random_check,
            self.dodge_check,
            self.block_check,
            self.parry_check,
            self.parry_weapon_combo,
            self.acrobatic_check,
            self.all_out_check,
            self.below_check,
            self.above_check,
            self.extra_spin,
            self.reason_edit,
            self.battlefield_list,
            self.more.button,
            self.conditions.search_edit,
            self.conditions.tree,
            self.conditions.value_spin,
            self.target_weapon_combo,
            self.weapon_attack_combo,
            self.knock_away_check,
            self.subdue_combo,
            self.pulled_st_spin,
            self.obscured_combo,
            self.chink_check,
            self.off_hand_check,
            self.off_hand_training_spin,
            self.hit_locations_combo,
            self.roll_button,
        )
        for first, second in zip(self.tab_order, self.tab_order[1:], strict=False):
            QWidget.setTabOrder(first, second)

        # Enter anywhere in the pane rolls: see eventFilter. Ctrl+Return is not a
        # Roll key, so it reaches the window's End Turn here as everywhere.
        for w in outer.findChildren(QWidget):
            w.installEventFilter(self)

        self.attacker_combo.activated.connect(self._attacker_chosen)
        self.target_combo.activated.connect(self._target_chosen)
        self.weapon_combo.currentIndexChanged.connect(self._weapon_changed)
        self.mode_combo.currentIndexChanged.connect(self._mode_changed)
        for w in (self.location_combo, self.parry_weapon_combo):
            w.currentIndexChanged.connect(self.update_preview)
        self.below_check.toggled.connect(self.update_preview)
        for check in (
            self.above_check,
            self.acrobatic_check,
            self.all_out_check,
            self.chink_check,
            self.knock_away_check,
            self.off_hand_check,
        ):
            check.toggled.connect(self.update_preview)
        self.off_hand_check.toggled.connect(self.off_hand_training_spin.setEnabled)
        self.off_hand_training_spin.setEnabled(False)
        self.off_hand_training_spin.valueChanged.connect(self.update_preview)
        self.random_check.toggled.connect(self._random_toggled)
        self.conditions.changed.connect(self.update_preview)
        self.battlefield_list.itemChanged.connect(lambda _item: self.update_preview())
        self.target_weapon_combo.currentIndexChanged.connect(self._target_weapon_changed)
        self.weapon_attack_combo.currentIndexChanged.connect(self._target_weapon_changed)
        self.subdue_combo.currentIndexChanged.connect(self._subdue_changed)
        self.pulled_st_spin.valueChanged.connect(self.update_preview)
        self.turn_weapon_button.clicked.connect(self._turn_weapon)
        self.obscured_combo.currentIndexChanged.connect(self.update_preview)
        self.hit_locations_combo.activated.connect(self._hit_locations_chosen)
        self.extra_spin.valueChanged.connect(self.update_preview)
        self.reason_edit.textChanged.connect(self.update_preview)

        # Bound methods, not lambdas: the connections go with the pane when a battle
        # of another ruleset replaces it (MainWindow.replace_battle).
        controller.selection_changed.connect(self._on_pick_changed)
        controller.target_changed.connect(self._on_pick_changed)
        controller.battle_reset.connect(self.refresh)
        controller.battle_changed.connect(self._on_battle_changed)
        self.refresh()

    def _on_pick_changed(self, _combatant_id: object) -> None:
        self.refresh()

    def _choices_least(self) -> int:
        """The choices' part that never scrolls away for the preview: all of it down
        to "More options" (what "More options" opens may scroll)."""
        return self.more.y() + self.more.button.geometry().bottom() + 6

    def _preview_least(self) -> int:
        """The preview keeps room for this many lines of modifiers however much the
        choices above it ask for."""
        return PREVIEW_LEAST_LINES * self.fontMetrics().lineSpacing()

    # --- public ----------------------------------------------------------------------------
    @property
    def plan(self) -> AttackPlan | None:
        """The plan now shown (None when the attack is refused or incomplete)."""
        return self._plan

    @property
    def error(self) -> str | None:
        return self._error

    @property
    def attacker_id(self) -> str | None:
        return self._controller.selected_id

    @property
    def defender_id(self) -> str | None:
        target = self._controller.target_id
        return target if target != self._controller.selected_id else None

    def announced_defenses(self) -> tuple[DefenseChoice, ...]:
        """The defenses ticked, in rolling order."""
        choices = []
        for kind in self._announced:
            if kind is DefenseKind.PARRY:
                choices.append(DefenseChoice(kind, self.parry_weapon_combo.currentData()))
            else:
                choices.append(DefenseChoice(kind))
        return tuple(choices)

    def options(self) -> AttackOptions | None:
        """The options the widgets describe, or None when no weapon/mode is chosen."""
        weapon_key = self.weapon_combo.currentData()
        mode = self.mode_combo.currentData()
        if weapon_key is None or mode is None:
            return None
        extra: tuple[Modifier, ...] = self.battlefield_modifiers()
        if self.extra_spin.value():
            reason = self.reason_edit.text().strip() or SITUATIONAL_REASON
            extra += (Modifier(self.extra_spin.value(), reason, SITUATIONAL_CITATION),)
        random_location = self.random_check.isChecked() and self.random_check.isEnabled()
        target_weapon = self.target_weapon_combo.currentData()
        subdue = self.subdue_combo.currentData()
        aimed = None if random_location else self.location_combo.currentData()
        at_parrying_limb = aimed == PARRYING_LIMB
        return AttackOptions(
            weapon_key=weapon_key,
            mode=mode,
            location=None if at_parrying_limb else aimed,
            defenses=self.announced_defenses(),
            from_below=self.below_check.isChecked(),
            extra_modifiers=extra,
            conditions=self.conditions.selected(),
            random_location=random_location,
            from_above=self.above_check.isChecked(),
            target_weapon_key=target_weapon,
            weapon_attack=(
                self.weapon_attack_combo.currentData() if target_weapon is not None else None
            ),
            subdue=subdue,
            pulled_st=self.pulled_st_spin.value() if subdue is SubdueMode.PULLED else None,
            chink=self.chink_check.isChecked() and self.chink_check.isEnabled(),
            obscured_by=self.obscured_combo.currentData(),
            acrobatic_dodge=self.acrobatic_check.isChecked(),
            all_out_defense=self.all_out_check.isChecked(),
            at_parrying_limb=at_parrying_limb,
            off_hand=self.off_hand_check.isChecked(),
            off_hand_training=(
                self.off_hand_training_spin.value() if self.off_hand_check.isChecked() else 0
            ),
            knock_away=self.knock_away_check.isChecked() and self.knock_away_check.isEnabled(),
        )

    # Kept for the tests and the wording.
    current_options = options

    def battlefield_modifiers(self) -> tuple[Modifier, ...]:
        """The ticked modifiers of the "from the battlefield" list."""
        picked: list[Modifier] = []
        for i in range(self.battlefield_list.count()):
            item = self.battlefield_list.item(i)
            if item.checkState() == Qt.CheckState.Checked:
                picked.append(item.data(Qt.ItemDataRole.UserRole))
        return tuple(picked)

    def _fill_situation(self, attacker: Combatant | None, defender: Combatant | None) -> None:
        """Fill in what the battlefield says (``rules.battle.situation.situation_modifiers``):
        its catalog conditions are ticked in the picker, the posture modifiers
        listed ticked, the height sets from above/below. Only a change of the
        situation refills them, so the GM's unticking stays."""
        situation = None
        if attacker is not None and defender is not None:
            mode = self._chosen_mode(attacker)  # a thrown or missile mode: the ranged column
            melee = mode is None or not mode.is_ranged
            state = self._controller.state
            situation = battlefield_situation(state, attacker.id, defender.id, melee=melee)
        if situation == self._situation:
            return
        self._situation = situation
        # Conditions: drop the old automatic picks, add the new ones.
        auto = situation.conditions if situation is not None else ()
        old_keys = {c.key for c in self._auto_conditions}
        kept = [c for c in self.conditions.selected() if c.key not in old_keys]
        keys = {c.key for c in auto}
        self.conditions.set_selected((*[c for c in kept if c.key not in keys], *auto))
        self._auto_conditions = auto
        self.battlefield_list.blockSignals(True)
        self.battlefield_list.clear()
        for m in situation.posture_modifiers if situation is not None else ():
            item = QListWidgetItem(f"{m.value:+d}  {m.reason}")
            item.setData(Qt.ItemDataRole.UserRole, m)
            item.setToolTip(str(m.citation))
            item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable
                          | Qt.ItemFlag.ItemIsSelectable)
            item.setCheckState(Qt.CheckState.Checked)
            self.battlefield_list.addItem(item)
        self.battlefield_list.blockSignals(False)
        self.battlefield_list.setVisible(self.battlefield_list.count() > 0)
        if situation is not None:
            self.above_check.setChecked(situation.from_above)
            self.below_check.setChecked(situation.from_below)

    def command(self) -> Attack | None:
        options = self.options()
        attacker, defender = self.attacker_id, self.defender_id
        if options is None or attacker is None or defender is None:
            return None
        command = attack_command(attacker, defender, options)  # the defender's answer apart
        computer = self.computer_answer(command)
        return command if computer is None else replace(command, answer=computer.answer)

    def computer_answer(self, command: Attack) -> DefenseAnswer | None:
        """The answer a computer defender gives to ``command`` (app.defense_answers);
        None when the GM plays the defender, whose answer is the ticked defenses."""
        return computer_answer(self._controller, command)

    def roll(self) -> None:
        """Execute the attack shown (nothing when Roll is disabled)."""
        self.update_preview()
        command = self.command()
        if command is None or self._plan is None:
            return
        computer = self.computer_answer(command)
        if computer is not None:
            note_answer(self._controller, command, computer)
        events = self._controller.execute(command)
        if events:
            self._show_last(events)

    # --- refresh ---------------------------------------------------------------------------
    def _on_battle_changed(self, change: BattleChange, redraw: Redraw) -> None:
        self.refresh()
        last_roll_follows_history(change, self.attacker_id, self.last_label, self._show_last)

    def refresh(self) -> None:
        """Rebuild the combos from the controller's state, keeping the user's choices."""
        self._updating += 1
        try:
            state = self._controller.state
            attacker = self._controller.combatant_or_none(self.attacker_id)
            defender = self._controller.combatant_or_none(self.defender_id)
            self._fill_combatants(
                self.attacker_combo, state.combatants, attacker, "(select a fighter)"
            )
            others = [c for c in state.combatants if attacker is None or c.id != attacker.id]
            self._fill_combatants(
                self.target_combo, others, defender, "(choose a target)", attacker
            )
            pair = (
                attacker.id if attacker is not None else None,
                defender.id if defender is not None else None,
            )
            default = None
            if pair != self._pair:
                self._pair = pair
                default = self._start_afresh(attacker, defender)
            self._fill_weapons(attacker)
            if default is not None:
                _choose(self.weapon_combo, default.weapon_key)
            self._fill_modes(attacker)
            if default is not None:
                _choose(self.mode_combo, default.mode)
            self._fill_locations(attacker, defender)
            self._fill_defenses(defender)
            if default is not None and attacker is not None and defender is not None:
                likely = likely_defense(
                    defender, attacker.fighter.weapon(default.weapon_key).mode(default.mode)
                )
                if likely.kind is DefenseKind.PARRY and likely.weapon_key is not None:
                    _choose(self.parry_weapon_combo, likely.weapon_key)
            self._fill_more(attacker, defender)
            self._fill_situation(attacker, defender)
            self._reset_for_new_exchange(attacker, defender, state.turn)
        finally:
            self._updating -= 1
        self.update_preview()

    def _start_afresh(
        self, attacker: Combatant | None, defender: Combatant | None
    ) -> AttackOptions | None:
        """A new attacker or target: no choice of the last exchange stays. The
        boxes are emptied so that each fill takes its first entry, the checks
        unticked and the GM's conditions cleared; the defender announces its
        default defense. Returns the ruleset's default attack for the pair (None
        when nothing reaches), whose weapon and mode the fills then take."""
        for combo in (
            self.weapon_combo,
            self.mode_combo,
            self.location_combo,
            self.parry_weapon_combo,
            self.target_weapon_combo,
            self.weapon_attack_combo,
            self.subdue_combo,
            self.obscured_combo,
        ):
            combo.blockSignals(True)
            combo.clear()
            combo.blockSignals(False)
        for check in (
            self.random_check,
            self.above_check,
            self.below_check,
            self.acrobatic_check,
            self.all_out_check,
            self.chink_check,
            self.knock_away_check,
            self.off_hand_check,
        ):
            check.setChecked(False)
        self.off_hand_training_spin.setValue(0)
        self.scroll_area.verticalScrollBar().setValue(0)  # weapon, mode and defense in view
        self._situation = None
        self._auto_conditions = ()
        self.conditions.set_selected(())
        if attacker is None or defender is None:
            self._announced = []
            return None
        state = self._controller.state
        default = self._controller.ruleset.attacks.default_attack(state, attacker.id, defender.id)
        if not isinstance(default, AttackOptions):
            default = None
        mode = None
        if default is not None:
            mode = attacker.fighter.weapon(default.weapon_key).mode(default.mode)
        self._announced = [likely_defense(defender, mode).kind]
        return default

    def _reset_for_new_exchange(
        self, attacker: Combatant | None, defender: Combatant | None, turn: int
    ) -> None:
        """The GM's situational modifier and its reason belong to one attacker, one
        target and one turn: another of them starts at ±0 with no reason. The
        "Last roll" line belongs to its attacker."""
        attacker_id = attacker.id if attacker is not None else None
        key = (attacker_id, defender.id if defender is not None else None, turn)
        if key != self._situational_for:
            self._situational_for = key
            self.extra_spin.setValue(0)
            self.reason_edit.clear()
        if attacker_id != self._last_roll_by:
            self._last_roll_by = attacker_id
            self.last_label.clear()

    def _fill_combatants(
        self,
        combo: QComboBox,
        combatants: Sequence[Combatant],
        current: Combatant | None,
        placeholder: str,
        attacker: Combatant | None = None,
    ) -> None:
        """The combatants as a box's entries; with ``attacker`` (the Target box)
        its allies are marked."""
        items: list[tuple[str, object]] = [(placeholder, None)]
        for c in combatants:
            items.append(
                (fighter_choice(c, self._controller.state.sides) + ally_mark(c, attacker), c.id)
            )
        _set_items(combo, items, current.id if current is not None else None)

    def _fill_weapons(self, attacker: Combatant | None) -> None:
        items: list[tuple[str, object]] = []
        if attacker is not None:
            for w in wielded_weapons(attacker):  # what the hands hold strikes
                note = " (unready)" if w.key in attacker.unready else ""
                skill = sheet_of(attacker).skill(w.skill)
                items.append((f"{w.name} – {w.skill} {skill}{note}", w.key))
        _set_items(self.weapon_combo, items, self.weapon_combo.currentData())

    def _fill_modes(self, attacker: Combatant | None) -> None:
        items: list[tuple[str, object]] = []
        if attacker is not None and self.weapon_combo.currentData() is not None:
            try:
                weapon = attacker.fighter.weapon(self.weapon_combo.currentData())
            except KeyError:
                weapon = None
            if weapon is not None:
                for m in weapon.modes:
                    mod = f", {m.skill_modifier:+d}" if m.skill_modifier else ""
                    # 000 MISSILE AND THROWN WEAPONS: thrown and missile modes strike at range
                    items.append((f"{m.name} – {m.damage}, {m.reach_text}{mod}", m.name))
        _set_items(self.mode_combo, items, self.mode_combo.currentData())

    def _chosen_mode(self, attacker: Combatant | None) -> WeaponMode | None:
        if attacker is None:
            return None
        try:
            weapon = attacker.fighter.weapon(self.weapon_combo.currentData())
            return weapon.mode(self.mode_combo.currentData())
        except KeyError:
            return None

    def _fill_locations(self, attacker: Combatant | None, defender: Combatant | None) -> None:
        """"Aim at": every location of the battle's hit location system (000's table,
        or 001's with the option) under the seed's name, with its penalty for this
        attack; a location this attack may not aim at is listed disabled, its
        tooltip the rule's reason. After a bare-handed parry, the parrying arm."""
        tables = seed000_tables(self._controller.state)
        system = tables.hit_locations
        mode = self._chosen_mode(attacker)
        if attacker is None or defender is None or mode is None:
            choices = tuple(
                AimChoice(key, system.locations[key].label, system.locations[key].penalty)
                for key in system.aim_keys(shielded=False)
            )
            choices = (AimChoice(None, "Torso", 0), *choices)
        else:
            choices = aim_choices(
                system,
                defender,
                from_front=attack_arc(attacker, defender).is_front,
                melee=not mode.is_ranged,
                damage_type=mode.damage.type,
                swung=mode.is_swing,
            )
        # (text, key, tooltip, allowed) of each entry
        entries: list[tuple[str, str | None, str | None, bool]] = [
            (c.text, c.key, c.refusal and f"Not allowed: {c.refusal}", c.refusal is None)
            for c in choices
        ]
        if defender is not None and parried_bare_handed(defender):
            limb_tip = f"The arm {defender.name} parried with bare-handed ({UNARMED_PARRIES})"
            entries.append(
                (f"Parrying arm (+{PARRYING_LIMB_BONUS})", PARRYING_LIMB, limb_tip, True)
            )
        keep = self.location_combo.currentData()
        if not any(key == keep and allowed for _t, key, _tip, allowed in entries):
            keep = None
        _set_items(self.location_combo, [(text, key) for text, key, _tip, _a in entries], keep)
        model = self.location_combo.model()
        for index, (_text, _key, tip, allowed) in enumerate(entries):
            item = model.item(index) if isinstance(model, QStandardItemModel) else None
            if item is not None:
                item.setEnabled(allowed)
            self.location_combo.setItemData(index, tip, Qt.ItemDataRole.ToolTipRole)

    def _fill_defenses(self, defender: Combatant | None) -> None:
        # Ticked by the GM again (a computer defender's choice greyed them).
        self.acrobatic_check.setEnabled(True)
        for check, tip in self._tips_before_computer.items():
            check.setToolTip(tip)
        self._tips_before_computer = {}
        available = possible_defenses(defender) if defender is not None else ()
        held = terms_of(self._controller.ruleset, defender) if defender is not None else None
        if held is not None and not held.active_defenses:
            available = ()  # its maneuver (an all-out attack) leaves it none
        kinds = {c.kind for c in available}
        # A defense that became impossible (a weapon went unready, the defender
        # fell) is no longer announced.
        self._announced = [k for k in self._announced if k in kinds]
        for kind, check in self._checks.items():
            check.setEnabled(kind in kinds)
            check.blockSignals(True)
            check.setChecked(kind in self._announced)
            check.blockSignals(False)
        parry_items: list[tuple[str, object]] = []
        if defender is not None:
            for choice in available:
                if choice.kind is DefenseKind.PARRY and choice.weapon_key is not None:
                    weapon = defender.fighter.weapon(choice.weapon_key)
                    parry_items.append((f"{weapon.name} ({weapon.parry.value})", weapon.key))
        _set_items(self.parry_weapon_combo, parry_items, self.parry_weapon_combo.currentData())
        self.parry_weapon_combo.setEnabled(bool(parry_items))
        if defender is not None:
            f = defender.fighter
            if f.shield is None:
                self.block_check.setToolTip(f"{defender.name} has no shield")
            elif DefenseKind.BLOCK not in kinds:
                self.block_check.setToolTip(f"{defender.name}'s {f.shield.name} is not ready")
            if not kinds:
                why = defender.status.value if held is None or held.active_defenses else (
                    f"in {maneuver_phrase(self._controller.ruleset, defender)}"
                )
                self.dodge_check.setToolTip(f"{defender.name} is {why}: no active defense")
        # The defender's all-out defense is its maneuver's once it chose one.
        by_maneuver = held is not None and bool(held.defense_bonus)
        if by_maneuver or self._all_out_by_maneuver:
            self.all_out_check.blockSignals(True)
            self.all_out_check.setChecked(by_maneuver)
            self.all_out_check.blockSignals(False)
        self.all_out_check.setEnabled(not by_maneuver)
        self._all_out_by_maneuver = by_maneuver
        self._update_order_badges()

    def _fill_more(self, attacker: Combatant | None, defender: Combatant | None) -> None:
        """The "More options" widgets, each one an ``AttackOptions`` field."""
        state = self._controller.state
        self.conditions.set_catalog(seed000_tables(state).adverse_conditions)
        # Striking at the defender's weapon: which one, and what for.
        targets = self._fill_weapon_targets(attacker, defender)
        purposes = _enum_items(WeaponAttack, _WEAPON_ATTACK_LABELS)
        _set_items(self.weapon_attack_combo, purposes, self.weapon_attack_combo.currentData())
        self.target_weapon_combo.setEnabled(defender is not None and len(targets) > 1)
        self.weapon_attack_combo.setEnabled(
            bool(purposes) and self.target_weapon_combo.currentData() is not None
        )
        others: list[tuple[str, object]] = [("(nobody)", None)]
        others += [
            (c.name, c.id)
            for c in state.combatants
            if c.id not in {attacker.id if attacker else None, defender.id if defender else None}
        ]
        _set_items(self.obscured_combo, others, self.obscured_combo.currentData())
        modes: list[tuple[str, object]] = [("no (a lethal blow)", None)]
        modes += _enum_items(SubdueMode, _SUBDUE_LABELS)
        _set_items(self.subdue_combo, modes, self.subdue_combo.currentData())
        self.subdue_combo.setEnabled(len(modes) > 1)
        if attacker is not None:
            st = sheet_of(attacker).attributes.st
            self.pulled_st_spin.blockSignals(True)
            keep = self.pulled_st_spin.value() if self._pulled_for == attacker.id else st
            self.pulled_st_spin.setRange(1, max(1, st))
            self.pulled_st_spin.setValue(min(keep, st))
            self.pulled_st_spin.blockSignals(False)
            self._pulled_for = attacker.id
        self._update_pulled_enabled()
        self.location_combo.setEnabled(not self.random_check.isChecked())
        self._fill_chink(attacker)
        self._fill_more_knock_away()
        # The battle's hit location table, changed only by a command.
        items = _hit_location_choices(seed000_tables(state))
        _set_items(self.hit_locations_combo, items, state.ruleset_options)
        self.hit_locations_combo.setEnabled(len(items) > 1)

    def _fill_weapon_targets(
        self, attacker: Combatant | None, defender: Combatant | None
    ) -> list[tuple[str, object]]:
        """The "Strike at" entries: the body, then each of the defender's weapons,
        enabled only where ``weapon_targets.can_strike_at_weapon`` allows it with
        the chosen weapon; a disabled entry's tooltip gives the rules' reason."""
        found = weapon_targets(
            self._controller.state,
            attacker.id if attacker is not None else None,
            defender,
            self.weapon_combo.currentData(),
            self.mode_combo.currentData(),
        )
        targets: list[tuple[str, object]] = [("(the body)", None)]
        targets += [(t.label, t.key) for t in found]
        combo = self.target_weapon_combo
        keep = combo.currentData()
        if not any(t.key == keep and t.allowed for t in found):
            keep = None
        _set_items(combo, targets, keep)
        model = combo.model()
        for index, t in enumerate(found, start=1):
            item = model.item(index) if isinstance(model, QStandardItemModel) else None
            if item is not None:
                item.setEnabled(t.allowed)
            tip = t.reason if t.allowed else f"Not allowed: {t.reason}"
            combo.setItemData(index, tip, Qt.ItemDataRole.ToolTipRole)
        return targets

    def _update_pulled_enabled(self) -> None:
        subdue = self.subdue_combo.currentData()
        self.pulled_st_spin.setEnabled(subdue is SubdueMode.PULLED)
        attacker = self._controller.combatant_or_none(self.attacker_id)
        held = attacker.fighter.weapons if attacker is not None else ()
        weapon = next((w for w in held if w.key == self.weapon_combo.currentData()), None)
        self.turn_weapon_button.setEnabled(weapon is not None and turns_end_for_end(weapon))

    # --- reactions to the widgets ----------------------------------------------------------
    def _random_toggled(self, on: bool) -> None:
        self.location_combo.setEnabled(not on)
        self.update_preview()

    def _fill_chink(self, attacker: Combatant | None) -> None:
        """001 Targeting Chinks in Armor: offered only where the system has the
        rule and the chosen mode pierces, impales or burns in a tight beam."""
        mode = self._chosen_mode(attacker)
        system = seed000_tables(self._controller.state).hit_locations
        problem = None if mode is None else system.chink_problem(mode.damage.type)
        self.chink_check.setEnabled(mode is not None and problem is None)
        self.chink_check.setToolTip(CHINK_TIP if problem is None else f"Not offered: {problem}")
        if problem is None:
            self.chink_hint.clear()
        elif LOCATIONS_001 not in seed000_tables(self._controller.state).options:
            self.chink_hint.setText("001 locations only")
        else:
            self.chink_hint.setText("pierce or impale")
        self.chink_hint.setToolTip(problem or "")

    def _target_weapon_changed(self) -> None:
        self.weapon_attack_combo.setEnabled(
            self.weapon_attack_combo.count() > 0
            and self.target_weapon_combo.currentData() is not None
        )
        self._fill_more_knock_away()
        self.update_preview()

    def _fill_more_knock_away(self) -> None:
        """000 DROPPED WEAPONS: the GM may have a 000 disarm knock the weapon away
        (001 always sends it one yard)."""
        tables = seed000_tables(self._controller.state)
        self.knock_away_check.setEnabled(
            tables.weapon_strikes is WEAPON_STRIKES_000
            and self.weapon_attack_combo.currentData() is WeaponAttack.DISARM
            and self.target_weapon_combo.currentData() is not None
        )

    def _mode_changed(self) -> None:
        if self._updating:
            return
        self._updating += 1
        try:
            attacker = self._controller.combatant_or_none(self.attacker_id)
            defender = self._controller.combatant_or_none(self.defender_id)
            self._fill_locations(attacker, defender)
            self._fill_chink(attacker)
            self._fill_weapon_targets(attacker, defender)  # a missile strikes by range
            self._fill_situation(attacker, defender)  # melee or ranged column
        finally:
            self._updating -= 1
        self.update_preview()

    def _subdue_changed(self) -> None:
        self._update_pulled_enabled()
        self.update_preview()

    def _turn_weapon(self) -> None:
        """Turn the chosen long weapon end for end (``ReverseWeapon``, a Ready)."""
        weapon_key = self.weapon_combo.currentData()
        if self.attacker_id is None or weapon_key is None:
            return
        self._controller.execute(ReverseWeapon(self.attacker_id, weapon_key))

    def _hit_locations_chosen(self, _index: int) -> None:
        wanted = self.hit_locations_combo.currentData()
        if wanted is None or self._controller.state.ruleset_options == tuple(wanted):
            return
        self._controller.execute(SetRulesetOptions(tuple(wanted)))
        self.refresh()

    def _attacker_chosen(self, _index: int) -> None:
        self._controller.select(self.attacker_combo.currentData())

    def _target_chosen(self, _index: int) -> None:
        self._controller.set_target(self.target_combo.currentData())

    def _weapon_changed(self) -> None:
        if self._updating:
            return
        self._updating += 1
        try:
            attacker = self._controller.combatant_or_none(self.attacker_id)
            self._fill_modes(attacker)
            # the reach changed with the weapon: which of the defender's weapons it can strike
            defender = self._controller.combatant_or_none(self.defender_id)
            self._fill_weapon_targets(attacker, defender)
            self.weapon_attack_combo.setEnabled(self.target_weapon_combo.currentData() is not None)
            # the damage type and melee or not changed: what may be aimed at, chinks
            self._fill_locations(attacker, defender)
            self._fill_chink(attacker)
            self._fill_situation(attacker, defender)
            self._fill_more_knock_away()
            self._update_pulled_enabled()  # a long weapon can be turned around
        finally:
            self._updating -= 1
        self.update_preview()

    def _defense_toggled(self, kind: DefenseKind, on: bool) -> None:
        if on and kind not in self._announced:
            self._announced.append(kind)
        elif not on and kind in self._announced:
            self._announced.remove(kind)
        self._update_order_badges()
        self.update_preview()

    def _update_order_badges(self) -> None:
        for kind, badge in self._order_labels.items():
            if kind in self._announced:
                badge.setText(_ORDINALS[self._announced.index(kind)])
            else:
                badge.setText("")

    # --- the preview -----------------------------------------------------------------------
    def update_preview(self) -> None:
        if self._updating:
            return
        attacker = self._controller.combatant_or_none(self.attacker_id)
        defender = self._controller.combatant_or_none(self.defender_id)
        options = self.options()
        self._plan, self._error = None, None
        for label in self._value_labels.values():
            label.clear()
        show_notices(self.notice_label, ())
        if attacker is None:
            self._show_hint("Select the attacker on the map or in the combatants list.")
            return
        if defender is None:
            self._show_hint(no_target_hint(attacker, self._controller.target_cleared))
            return
        if options is None:
            self._show_hint(f"{attacker.name} has no weapon to attack with.")
            return
        show_notices(self.notice_label, (ally_notice(attacker, defender),))
        self._show_turn(attacker, defender)
        # The roll's own plan (``planned``, which the roll then reuses): the two
        # fighters' maneuvers change the attack as the roll will (all-out attack:
        # +4, no active defense; all-out defense: its bonus), the cover in the
        # defender's hex hides areas, and the defenses are the defender's answer.
        choices, answer = split_answer(options)
        # A computer fighter answers for itself: its defenses shown, not the GM's to tick.
        computer = self.computer_answer(Attack(attacker.id, defender.id, choices))
        if computer is not None and isinstance(computer.answer, Seed000Answer):
            answer = computer.answer
            self._show_computer_answer(answer, computer.reason)
        try:
            state = self._controller.state
            planned_attack = planned(seed000_steps(state), state, attacker.id, defender.id, choices)
            plan = defended_plan(planned_attack, answer)
        except RulesError as refusal:
            self._show_refusal(str(refusal), attacker, defender)
            return
        self._plan = plan
        self._show_odds(planned_attack, answer)
        for d in plan.defenses:
            self._value_labels[d.kind].setText(f"<b>{d.value}</b>")
        self.error_label.hide()
        self.arc_label.setText(arc_html(plan, defender))
        self.preview_label.setText(plan_html(plan, defender))
        show_notices(
            self.notice_label,
            (
                ally_notice(attacker, defender),
                self._no_defense_notice(plan, defender),
                computer.reason if computer is not None else "",
            ),
        )
        self.roll_button.setEnabled(True)

    def _show_computer_answer(self, answer: Seed000Answer, reason: str) -> None:
        """The defenses a computer defender announces, ticked and greyed: its own."""
        kinds = [d.kind for d in answer.defenses]
        self._announced = kinds
        tip = f"The computer's choice: {reason}"
        for kind, check in self._checks.items():
            self._tips_before_computer.setdefault(check, check.toolTip())
            check.blockSignals(True)
            check.setChecked(kind in kinds)
            check.setEnabled(False)
            check.setToolTip(tip)
            check.blockSignals(False)
        parry = next((d.weapon_key for d in answer.defenses if d.weapon_key is not None), None)
        if parry is not None:
            self.parry_weapon_combo.blockSignals(True)
            _choose(self.parry_weapon_combo, parry)
            self.parry_weapon_combo.blockSignals(False)
        self.parry_weapon_combo.setEnabled(False)
        self.acrobatic_check.blockSignals(True)
        self.acrobatic_check.setChecked(answer.acrobatic_dodge)
        self.acrobatic_check.blockSignals(False)
        self.acrobatic_check.setEnabled(False)
        self._update_order_badges()

    def _no_defense_notice(self, plan: AttackPlan, defender: Combatant) -> str:
        """"No defense: ..." when the blow meets no active defense, and why (a
        disarm contest has none to meet)."""
        if plan.defenses or plan.contest is not None:
            return ""
        if any(check.isEnabled() for check in self._checks.values()):
            return (
                f"No defense: {defender.name} takes this blow without a dodge, block or "
                "parry (none is ticked)."
            )
        # no defense is possible: the Dodge box's tooltip says why (_fill_defenses)
        return f"No defense: {self.dodge_check.toolTip()}."

    @property
    def odds(self) -> AttackOdds | None:
        """The odds of the attack shown (None when there is no plan, or none can be
        worked out); if they are still being worked out, once they are."""
        self._odds_work.wait()
        return self._odds

    def _show_odds(self, plan: Plan000, answer: Seed000Answer) -> None:
        """The exact odds of the plan, worked out off the GUI thread (a random
        location or a parry's mishaps take hundreds of milliseconds and more):
        "Working out the odds..." until they come, unless they are known."""
        known = known_odds(plan, answer)
        if known is not None:
            self._odds_work.cancel()
            self._odds = known
            self.odds_panel.show_rows(odds_rows(known))
            return
        self._odds = None
        self.odds_panel.show_rows((), "Working out the odds\N{HORIZONTAL ELLIPSIS}")
        self._odds_work.request(lambda: preview_odds(plan, answer), self._odds_came)

    def _odds_came(self, future: Future[AttackOdds]) -> None:
        refusal = future.exception()
        if refusal is not None:
            if not isinstance(refusal, RulesError):
                raise refusal
            self._odds = None
            self.odds_panel.show_rows((), f"No odds: {refusal}")
            return
        odds = future.result()
        self._odds = odds
        self.odds_panel.show_rows(odds_rows(odds))

    def _clear_odds(self) -> None:
        self._odds_work.cancel()
        self._odds = None
        self.odds_panel.clear()

    def _show_turn(self, attacker: Combatant, defender: Combatant) -> None:
        """The attacker's maneuver and attacks left once the turns run; what the
        rules refuse (out of turn, a second attack, a dead foe) before the roll."""
        state = self._controller.state
        if not state.turns_running:
            self.turn_label.hide()
            return
        ruleset = self._controller.ruleset
        problems, _implied = attack_problems(state, ruleset, attacker, defender)
        if problems:
            self.turn_label.setText(
                f'<span style="color:{BAD_TEXT.name()}">Needs the GM\'s override: '
                f"{escape(problems[0], quote=False)}</span>"
            )
        else:
            left = attacks_left(ruleset, attacker)
            self.turn_label.setText(
                f'<span style="color:{MUTED.name()}">{escape(attacker.name, quote=False)}: '
                f"{escape(maneuver_phrase(ruleset, attacker), quote=False)} · {left} "
                f"attack{'' if left == 1 else 's'} left</span>"
            )
        self.turn_label.show()

    def _show_hint(self, text: str) -> None:
        self.turn_label.hide()
        self._clear_odds()
        self.error_label.hide()
        self.arc_label.setText(f'<span style="color:{MUTED.name()}">{escape(text)}</span>')
        self.preview_label.clear()
        self.roll_button.setEnabled(False)

    def _show_refusal(self, message: str, attacker: Combatant, defender: Combatant) -> None:
        self._clear_odds()
        self._error = message
        self.error_label.setText(f"Cannot roll: {message}")
        self.error_label.show()
        self.arc_label.setText(
            f"<b>{escape(attacker.name)}</b> → <b>{escape(defender.name)}</b>"
        )
        self.preview_label.clear()
        self.roll_button.setEnabled(False)

    def _show_last(self, events: Sequence[Event]) -> None:
        """One line over Roll: what the attack came to, and the HP it cost."""
        parts = [e.describe() for e in events if isinstance(e, AttackResolved)]
        for e in events:
            if isinstance(e, DamageDealt):
                d = e.damage
                parts.append(f"{e.defender_name} HP {d.hp_before} → {d.hp_after}")
            elif isinstance(e, StatusChanged):
                parts.append(f"{e.name} {e.after.value}")
        if parts:
            self.last_label.setText("Last roll: " + "; ".join(parts))

    # --- keyboard --------------------------------------------------------------------------
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if (
            kind in (QEvent.Type.ShortcutOverride, QEvent.Type.KeyPress)
            and isinstance(event, QKeyEvent)
            and _is_roll_key(event)
            # Enter in an open combo list picks an entry (the list is a popup window).
            and isinstance(watched, QWidget)
            and watched.window() is self.window()
            and QApplication.activePopupWidget() is None
        ):
            if kind is QEvent.Type.ShortcutOverride:
                event.accept()  # deliver it to us as a key press, not as a shortcut
            else:
                self.roll()
            return True
        return super().eventFilter(watched, event)


def _is_roll_key(event: QKeyEvent) -> bool:
    """Is this one of the Roll keys that ``app.help.SHORTCUTS`` lists ("roll_attack")?
    The keypad's Enter counts as Enter."""
    modifiers = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
    pressed = QKeySequence(QKeyCombination(modifiers, Qt.Key(event.key())))
    return pressed in _roll_keys()


@functools.cache
def _roll_keys() -> tuple[QKeySequence, ...]:
    return tuple(key_sequences("roll_attack"))


# --- what the rules offer ----------------------------------------------------------------

_WEAPON_ATTACK_LABELS = {"BREAK": "to break it", "DISARM": "to disarm"}
_SUBDUE_LABELS = {
    "PULLED": "pulled blow",
    "FLAT": "flat of the blade",
    "BLUNT_END": "blunt end",
}


def _enum_items(enum: type[Enum], labels: dict[str, str]) -> list[tuple[str, object]]:
    return [(labels.get(m.name, m.name.lower().replace("_", " ")), m) for m in enum]


def maneuver_phrase(ruleset: BattleRuleset, c: Combatant) -> str:
    """The combatant's maneuver ("all-out attack (+4 to hit)"), or "no maneuver
    chosen" (an attack then takes the Attack maneuver)."""
    if c.maneuver is None:
        return "no maneuver chosen"
    try:
        return ruleset.turns.maneuver(c.maneuver.key).describe_choice(c.maneuver.option).lower()
    except RulesError:
        return c.maneuver.key


def battlefield_situation(
    state: BattleState, attacker_id: str, defender_id: str, *, melee: bool = True
) -> Situation | None:
    """``rules.battle.situation.situation_modifiers`` for the pair, in the melee or
    the ranged column; None when the rules refuse it."""
    try:
        tables = seed000_tables(state)
        return situation_modifiers(state, attacker_id, defender_id, tables=tables, melee=melee)
    except RulesError:
        return None


def _hit_location_choices(ruleset: Tables) -> list[tuple[str, tuple[str, ...]]]:
    """The "Hit locations" entries: seed 000's table, then each location option."""
    choices: list[tuple[str, tuple[str, ...]]] = [("Seed 000 table", ())]
    for key in ruleset.available_options:
        name = LOCATION_OPTION_NAMES.get(key)
        if name is not None:
            choices.append((name, (key,)))
    return choices


# --- the odds ---------------------------------------------------------------------------


def odds_rows(odds: AttackOdds) -> tuple[OddsRow, ...]:
    """The odds panel's rows, each number formatted by ``percent``."""
    rows = [
        OddsRow("critical_hit", "Critical hit", percent(odds.p_critical_hit),
                "A critical hit (3-4; 5 at skill 15+, 6 at 16+) allows no active defense "
                "and does normal damage: the base rules' critical hit table is not rolled "
                "(docs/gm-rules.md)"),
        OddsRow("hit", "Hit", percent(odds.p_hit), "Hits and no announced defense stops it"),
    ]
    for i, d in enumerate(odds.defenses):
        # one parry and one block per attack: the caption needs no weapon name (a
        # long one would crowd the two-column grid); the tooltip names it
        item = f" with the {d.plan.item_name}" if d.plan.item_name and d.plan.kind is not (
            DefenseKind.DODGE
        ) else ""
        rows.append(
            OddsRow(
                f"stopped_{i}",
                f"{d.plan.kind.label} stops",
                percent(d.p_stopped),
                f"{d.plan.kind.label}{item}: rolled {percent(d.p_rolled)} of the time, "
                f"at {d.plan.value} "
                f"({d.plan.citation}); fails critically {percent(d.p_critical_failure)}",
            )
        )
    rows += [
        OddsRow("miss", "Miss", percent(odds.p_miss)),
        OddsRow("critical_miss", "Critical miss", percent(odds.p_critical_miss)),
        OddsRow(
            "injury",
            "Injury (mean)",
            injury_text(odds.expected_injury),
            f"Mean injury over every outcome; {injury_text(odds.expected_injury_given_hit)} "
            "when the blow lands",
        ),
        OddsRow(
            "down",
            "Down",
            percent(p_down(odds)),
            "Unconscious or dead after this attack; "
            f"0 HP or less {percent(odds.p_zero_hp)}",
        ),
    ]
    if odds.p_stray_blow:
        rows.append(OddsRow("stray", "Strikes the one in the way", percent(odds.p_stray_blow),
                            "000 MISSING A SPECIFIC HIT LOCATION: the miss hits him"))
    if odds.approximate:
        rows.append(OddsRow("approximate", "Approximate", "yes", odds.approximate_reason))
    return tuple(rows)


def p_down(odds: AttackOdds) -> Fraction:
    """The chance the defender is unconscious or dead after the attack."""
    return sum((odds.p_status(s) for s in DOWN_STATUSES), Fraction(0))


# --- rich text of a plan ---------------------------------------------------------------


def _mod_row(value: str, reason: str, citation: str, strong: bool = False) -> str:
    v = f"<b>{escape(value)}</b>" if strong else escape(value)
    cite_html = (
        f' <span style="color:{MUTED.name()};font-size:small">· {escape(citation)}</span>'
        if citation
        else ""
    )
    return (
        f'<tr><td align="right" style="padding-right:6px">{v}</td>'
        f"<td>{escape(reason)}{cite_html}</td></tr>"
    )


def arc_html(plan: AttackPlan, defender: Combatant) -> str:
    colour = ARC_COLOURS[plan.arc].name()
    below = ", from below" if plan.below else ""
    hexes = "hex" if plan.distance == 1 else "hexes"
    return (
        f'<span style="color:{colour}">■</span> Attack comes from <b>{escape(defender.name)}'
        f"'s {escape(plan.arc.value)}</b>{below} · {plan.distance} {hexes}"
    )


def plan_html(plan: AttackPlan, defender: Combatant) -> str:
    """The effective skill and each announced defense, every modifier with its
    reason and citation, exactly as ``plan_attack`` gives them (a 000 disarm: the
    Quick Contest's two levels instead)."""
    if plan.contest is not None:
        return contest_html(plan.contest, defender)
    rows = [
        '<table cellspacing=0 cellpadding=1 width="100%">',
        _mod_row(str(plan.base_skill), f"{plan.skill_name} skill", ""),
    ]
    for m in plan.modifiers:
        rows.append(_mod_row(_signed(m), m.reason, str(m.citation)))
    rows.append(
        f'<tr><td align="right" style="padding-right:6px;border-top:1px solid #999">'
        f"<b>{plan.effective_skill}</b></td><td><b>effective skill</b> · "
        f"damage {escape(str(plan.damage_dice))} {escape(plan.damage_spec.type.value)}"
        f"</td></tr>"
    )
    rows.append("</table>")
    rows.append('<p style="margin-top:6px;margin-bottom:2px"><b>Defenses, in rolling order</b></p>')
    if not plan.defenses:
        rows.append(
            f'<p style="color:{BAD_TEXT.name()};margin:0">{escape(defender.name)} '
            "announces no active defense.</p>"
        )
    else:
        rows.append('<table cellspacing=0 cellpadding=1 width="100%">')
        for i, d in enumerate(plan.defenses, start=1):
            rows.append(_defense_rows(i, d))
        rows.append("</table>")
    return "".join(rows)


def contest_html(contest: DisarmContest, defender: Combatant) -> str:
    """000 DISARMING AN OPPONENT: "Disarm contest: A vs D", each side's base and
    modifiers, exactly the levels ``resolve_attack`` rolls against."""
    a, d = contest.attacker, contest.defender
    rows = [
        f'<p style="margin-top:0;margin-bottom:2px"><b>Disarm contest: {a.level} vs '
        f"{d.level}</b> (Quick Contest instead of attack and defenses)</p>",
        '<table cellspacing=0 cellpadding=1 width="100%">',
        _mod_row(str(a.base), f"attacker: {a.basis}", ""),
    ]
    rows += [_mod_row(_signed(m), m.reason, str(m.citation)) for m in a.modifiers]
    rows.append(_mod_row(str(a.level), "attacker's contest level", "", strong=True))
    rows.append(_mod_row(str(d.base), f"{defender.name}: {d.basis}", ""))
    rows += [_mod_row(_signed(m), m.reason, str(m.citation)) for m in d.modifiers]
    rows.append(_mod_row(str(d.level), f"{defender.name}'s contest level", "", strong=True))
    rows.append("</table>")
    return "".join(rows)


def _defense_rows(number: int, d: DefensePlan) -> str:
    item = f" ({d.item_name})" if d.item_name and d.kind is not DefenseKind.DODGE else ""
    head = (
        f'<tr><td align="right" style="padding-right:6px"><b>{d.value}</b></td>'
        f"<td><b>{number}. {escape(d.kind.label)}{escape(item)}</b></td></tr>"
    )
    rows = [head, _mod_row(str(d.base), d.base_reason, str(d.citation))]
    rows += [_mod_row(_signed(m), m.reason, str(m.citation)) for m in d.modifiers]
    return "".join(rows)


def _signed(m: Modifier) -> str:
    return f"{m.value:+d}" if m.value else "±0"


# --- combo helpers ---------------------------------------------------------------------


def _combo(name: str, tip: str) -> QComboBox:
    combo = QComboBox()
    combo.setObjectName(name)
    combo.setToolTip(tip)
    combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    combo.setMinimumContentsLength(8)
    combo.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
    return combo


def _choose(combo: QComboBox, data: object) -> None:
    """Take the entry whose data is ``data``, if the box has one; emits no signals."""
    index = next((i for i in range(combo.count()) if combo.itemData(i) == data), -1)
    if index >= 0:
        combo.blockSignals(True)
        combo.setCurrentIndex(index)
        combo.blockSignals(False)


def _set_items(combo: QComboBox, items: Sequence[tuple[str, object]], keep: object) -> None:
    """Replace a combo's items, keeping the entry whose data is ``keep`` if present
    (else the first); emits no signals."""
    combo.blockSignals(True)
    try:
        current = [(combo.itemText(i), combo.itemData(i)) for i in range(combo.count())]
        if current != list(items):
            combo.clear()
            for text, data in items:
                combo.addItem(text, data)
        index = next((i for i, (_t, data) in enumerate(items) if data == keep), 0)
        if items:
            combo.setCurrentIndex(index)
    finally:
        combo.blockSignals(False)
