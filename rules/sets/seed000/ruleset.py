"""Seed 000 as the battle's ruleset: ``Seed000`` answers every question of the
``rules.sets.protocol.Ruleset`` protocol from seed 000's rules, with seed 001's
hit locations and striking at weapons as its ``locations-001`` option.

After python-chess's variants: the class overrides the algorithms (the attack,
the turn, a flying piece) rather than setting flags that shared code tests.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace

from rules.battle.attack_choices import AttackChoices, DefenderAnswer
from rules.battle.attack_steps import AttackSteps, own_answer, own_choices, planned
from rules.battle.catalog import load_catalog
from rules.battle.citations import CoreCitations
from rules.battle.model import (
    Combatant,
    Status,
)
from rules.battle.state import BattleState
from rules.core.dice import DiceSource
from rules.core.errors import RulesError
from rules.core.modifiers import Modifier
from rules.sets.components.attacks import StepAttacks
from rules.sets.components.hit_points import HIT_POINTS_HEADING, fighter_hit_points
from rules.sets.components.legal_actions import OfferedAttack, attack_allowed
from rules.sets.components.legal_actions import legal_actions as shared_legal_actions
from rules.sets.components.roles import (
    BattlefieldRole,
    ConditionsRole,
    SheetsRole,
    TurnsRole,
    placeable_from,
)
from rules.sets.protocol import (
    AttackPreview,
    CharacterFileKind,
    LegalAction,
    OddsLine,
    Ruleset,
    SheetRow,
    SheetSection,
)
from rules.sets.seed000 import maneuvers, stray_hits, terrain_penalties, turn
from rules.sets.seed000.attack import (
    AttackOptions,
    AttackResolution,
    Seed000Answer,
)
from rules.sets.seed000.attack_form import attack_form_options
from rules.sets.seed000.attack_steps import (
    Plan000,
    Seed000Payload,
    Seed000Steps,
    defended_plan,
    preview_odds,
    split_answer,
)
from rules.sets.seed000.balance import off_balance_problem
from rules.sets.seed000.condition_view import condition_000
from rules.sets.seed000.core_citations import SEED000_CORE
from rules.sets.seed000.gcs_import import gcs_file_kind
from rules.sets.seed000.legal_attacks import offered_attacks, reaching_modes
from rules.sets.seed000.saved_types import seed000_saved_types
from rules.sets.seed000.sheet import (
    SHEET_DESCRIPTION,
    Sheet000,
    sheet_entries,
    sheet_of,
    sheet_problems,
    with_sheet_entries,
)
from rules.sets.seed000.sheet_codec import decode_fighter, encode_fighter
from rules.sets.seed000.situation import situation_modifiers
from rules.sets.seed000.tables import Tables
from rules.sets.seed000.tracks import tracks_of, wound_conditions, wounds_of
from rules.sets.seed000.wounded import fighter_condition


class Seed000Attacks(StepAttacks[AttackOptions, Seed000Answer, Plan000, Seed000Payload]):
    """Seed 000's attack in four steps under its tables
    (``rules.sets.seed000.attack_steps``)."""

    def __init__(
        self,
        tables: Tables,
        steps: AttackSteps[AttackOptions, Seed000Answer, Plan000, Seed000Payload],
    ) -> None:
        super().__init__(steps)
        self.tables = tables

    def default_attack(
        self, state: BattleState, attacker_id: str, defender_id: str
    ) -> AttackOptions | None:
        attacker = state.combatant(attacker_id)
        defender = state.combatant(defender_id)
        for weapon, mode in reaching_modes(attacker, defender.hex):
            return AttackOptions(weapon_key=weapon.key, mode=mode.name)
        return None

    def attack_variants(
        self, state: BattleState, attacker_id: str, defender_id: str
    ) -> tuple[AttackOptions, ...]:
        attacker = state.combatant(attacker_id)
        defender = state.combatant(defender_id)
        # The attacker's choices only: the form's defenses are the defender's answer.
        variants = (
            replace(options, defenses=(), acrobatic_dodge=False)
            for weapon, mode in reaching_modes(attacker, defender.hex)
            for options in attack_form_options(weapon, mode, attacker, defender, self.tables)
        )
        return tuple(dict.fromkeys(variants))

    def preview_attack(
        self,
        state: BattleState,
        attacker_id: str,
        defender_id: str,
        choices: AttackChoices,
        answer: DefenderAnswer | None = None,
    ) -> AttackPreview:
        # The roll's own plan (``planned``): the preview and the roll share it.
        steps = self.steps
        plan000 = planned(steps, state, attacker_id, defender_id, own_choices(steps, choices))
        taken = own_answer(steps, plan000, answer)
        plan = defended_plan(plan000, taken)
        odds = preview_odds(plan000, taken)
        lines = [
            OddsLine("critical hit", odds.p_critical_hit),
            OddsLine("hit", odds.p_hit),
            *(
                OddsLine(f"stopped by {d.plan.kind.value}", p)
                for d, p in zip(odds.defenses, odds.p_stopped_by, strict=True)
            ),
            OddsLine("miss", odds.p_miss),
            OddsLine("critical miss", odds.p_critical_miss),
        ]
        summary = f"{plan.skill_name} {plan.effective_skill} ({plan.weapon.name}, {plan.mode.name})"
        return AttackPreview(summary, plan.modifiers, tuple(lines))

    def situation(
        self, state: BattleState, attacker_id: str, defender_id: str
    ) -> tuple[Modifier, ...]:
        """The situation read in the column of the attacker's default attack on the
        defender: the ranged one for a thrown or missile attack (000 ADVERSE COMBAT
        CONDITIONS: a prone target -4 ...), the melee one otherwise."""
        default = self.default_attack(state, attacker_id, defender_id)
        melee = True
        if default is not None:
            weapon = state.combatant(attacker_id).fighter.weapon(default.weapon_key)
            melee = not weapon.mode(default.mode).is_ranged
        return situation_modifiers(
            state, attacker_id, defender_id, tables=self.tables, melee=melee
        ).modifiers

    def offered_attacks(
        self, state: BattleState, attacker: Combatant, defender: Combatant
    ) -> Iterator[OfferedAttack[AttackOptions]]:
        """The attacks ``attacker`` may choose on ``defender``
        (rules.sets.seed000.legal_attacks), each option the map or the gear may
        refuse checked by planning it as the battle would."""

        def accepted(options: AttackOptions) -> bool:
            try:
                self.steps.plan(state, attacker.id, defender.id, options)
            except RulesError:
                return False
            return True

        return offered_attacks(self.tables, attacker, defender, accepted)


class Seed000(Tables):
    """The seed 000 ruleset of one battle (its options fixed at creation)."""

    def __init__(self, options: Iterable[str] = ()) -> None:
        super().__init__(options)
        self.sheets = SheetsRole(
            key=self.key,
            sheet_type=Sheet000,
            saved_types_of=seed000_saved_types,
            catalog=load_catalog,  # the shared 3d6 catalog of assets/weapons.json ...
            sections=_sections,
            encode=encode_fighter,
            decode=decode_fighter,
            sheet_description=SHEET_DESCRIPTION,
            entries=sheet_entries,
            with_entries=with_sheet_entries,
            problems=sheet_problems,
            character_file_kinds=_gcs_files,
        )
        self.attacks = Seed000Attacks(self, self.steps)
        self.turns = TurnsRole(
            initiative=maneuvers.initiative,
            maneuvers_for=maneuvers.maneuvers_for,
            maneuver=maneuvers.maneuver,
            posture_move=maneuvers.posture_move,
            new_turn=turn.new_turn,
            turn_begins=turn.turn_begins,
            turn_ends=turn.turn_ends,
            legal_actions=functools.partial(_legal_actions, self),
        )
        # The dead, the unconscious and the paralysed from the neck down are out of
        # the fight; how hurt by the HP lost against 0 HP and -5x HP; crippled
        # limbs; shock, a crippled hand, a stun, lasting wound modifiers, posture
        # and off-balance as penalties (rules.sets.seed000.condition_view).
        self.conditions = ConditionsRole(
            condition=functools.partial(condition_000, tables=self),
            down=fighter_condition,
            labels=_condition_labels,
            health=fighter_hit_points,
            health_heading=HIT_POINTS_HEADING,
        )
        self.battlefield = BattlefieldRole(
            stray_hits=stray_hits.Seed000StrayHits(),
            piece_hit=lambda state, piece, weapon, holder, victim_id, where, dice: (
                stray_hits.piece_hit(state, self, piece, weapon, holder, victim_id, where, dice)
            ),
            # every catalog weapon (not bare hands), then every shield, by name
            placeable_items=placeable_from(load_catalog, shields=True),
            # a fact with its 000 ADVERSE COMBAT CONDITIONS penalty
            terrain_label=terrain_penalties.terrain_label,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Seed000):
            return NotImplemented
        return self.options == other.options

    def __hash__(self) -> int:
        return hash((self.key, self.options))

    def with_options(self, options: Iterable[str]) -> Seed000:
        return seed000_ruleset(options)

    @functools.cached_property
    def steps(self) -> AttackSteps[AttackOptions, Seed000Answer, Plan000, Seed000Payload]:
        """The attack in four steps under these tables (``rules.sets.seed000.attack_steps``)."""
        return Seed000Steps(self)

    def resolution(
        self,
        state: BattleState,
        attacker_id: str,
        defender_id: str,
        options: AttackOptions,
        dice: DiceSource,
    ) -> AttackResolution:
        """The full seed 000 resolution of one attack whose ``options`` hold the
        defender's answer too (the engine's whole request), through the four steps:
        its events the log's, its fighters as the attack leaves them."""
        choices, answer = split_answer(options)
        steps = self.steps
        plan = steps.plan(state, attacker_id, defender_id, choices)
        outcome = steps.decide(plan, answer, dice)
        done = outcome.payload
        return replace(
            done.resolution,
            events=steps.describe(plan, answer, outcome),
            attacker_after=done.attacker,
            defender_after=done.defender,
        )

    @property
    def core_citations(self) -> CoreCitations:
        """The 3d6 basics and seed 000's headings (rules.sets.seed000.core_citations)."""
        return SEED000_CORE


def _sections(combatant: Combatant) -> tuple[SheetSection, ...]:
    f = combatant.fighter
    a = sheet_of(f).attributes
    attributes = SheetRow("ST / DX / IQ / HT", f"{a.st} / {a.dx} / {a.iq} / {a.ht}")
    vitals = (
        attributes,
        SheetRow("HP", f"{combatant.hp} of {f.hit_points}"),
        SheetRow("Move", f"{combatant.movement_left} of {f.move} left"),
        SheetRow("Status", combatant.status.value),
    )
    skills = tuple(SheetRow(k, str(level)) for k, level in sorted(sheet_of(f).skills.items()))
    gear = tuple(
        SheetRow(w.name, ", ".join(f"{m.name} {m.damage} {m.reach_text}" for m in w.modes))
        for w in f.weapons
    )
    protection = []
    if f.shield is not None:
        protection.append(SheetRow("Shield", f"{f.shield.name}, PD {f.shield.pd}"))
    if f.armor is not None:
        protection.append(SheetRow("Armor", f"{f.armor.name}, PD {f.armor.pd}, DR {f.armor.dr}"))
    wounds = tuple(
        SheetRow(w.label, f"{w.injury} HP" + (", crippled" if w.crippled else ""))
        for w in wounds_of(combatant)
    )
    sections = [
        SheetSection("Attributes", vitals),
        SheetSection("Skills", skills),
        SheetSection("Weapons", gear),
        SheetSection("Protection", tuple(protection)),
    ]
    if wounds:
        sections.append(SheetSection("Wounds", wounds))
    return tuple(sections)


def _condition_labels(combatant: Combatant) -> tuple[str, ...]:
    """Its status unless active, its posture off its feet, and its wounds'
    lasting conditions (stunned, severe bleeding, crippled leg ...)."""
    labels: list[str] = []
    if combatant.status is not Status.ACTIVE:
        labels.append(combatant.status.value)
    if combatant.posture not in turn.ON_THEIR_FEET:
        labels.append(combatant.posture.value.replace("_", " "))
    for condition in sorted(wound_conditions(combatant), key=lambda c: c.value):
        if condition.value not in labels and condition.value != "crippled":
            labels.append(condition.value)
    for wound in wounds_of(combatant):
        if wound.crippled is not None:
            labels.append(f"crippled {wound.crippled.value}")
    tracks = tracks_of(combatant)
    if tracks.off_balance:
        labels.append("off balance")
    if tracks.shock:  # rules.sets.seed000.wounded: this turn's, then the next's
        labels.append(f"shock {tracks.shock}")
    if tracks.shock_next:
        labels.append(f"shock {tracks.shock_next} next turn")
    return tuple(dict.fromkeys(labels))


def _legal_actions(
    ruleset: Seed000, state: BattleState, combatant_id: str
) -> tuple[LegalAction, ...]:
    """Each maneuver (and option) it may choose, every attack on every foe in
    reach that can defend while its maneuver allows one (an all-out attack's
    second on the first one's foe; rules.sets.seed000.legal_attacks),
    readying an unready weapon, picking up an item in reach (while the turns
    run, under the Ready maneuver or none yet), a move to each free hex within
    the movement left with each facing it may end in, a turn to each other
    facing, and the end of its turn (rules.sets.components.legal_actions).
    While the turns run, only the fighter whose turn it is acts (a waiting one
    may still attack); the fallen may do nothing, the off-balance not attack."""
    return shared_legal_actions(
        ruleset,
        state,
        combatant_id,
        attacks=ruleset.attacks.offered_attacks,
        attackable=_can_defend,
        may_attack=_may_attack,
    )


def _gcs_files() -> tuple[CharacterFileKind, ...]:
    """GURPS Character Sheet files (rules.sets.seed000.gcs_import)."""
    return (gcs_file_kind(),)


@functools.cache
def _instance(options: frozenset[str]) -> Seed000:
    ruleset = Seed000(options)
    ruleset.read_every_table()
    return ruleset


def seed000_ruleset(options: Iterable[str] = ()) -> Seed000:
    """The (shared, cached) seed 000 ruleset with ``options``, its tables read."""
    return _instance(frozenset(options))


# The protocol check: mypy proves that Seed000 is a whole Ruleset.
_FACTORY: Callable[[Iterable[str]], Ruleset] = seed000_ruleset


def _can_defend(foe: Combatant) -> bool:
    """Seed 000 attacks only a foe who can defend (not one unconscious or dead)."""
    return foe.status.can_defend


def _may_attack(ruleset: Ruleset, state: BattleState, me: Combatant) -> bool:
    """The common rule, and not while off-balance (000 CRITICAL MISSES ON DEFENSE ROLLS)."""
    return attack_allowed(ruleset, state, me) and off_balance_problem(me) is None
