"""Seed 003 as the battle's ruleset: FUDGE optional rule 5.87 (hit location in
combat, wounds by body part) on the FUDGE SRD's base rules (docs/ruleset-003.md).
``Seed003`` answers every question of ``rules.sets.protocol.Ruleset`` and of
``rules.sets.attack_form.FormAttacks``."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from collections.abc import Mapping as _Mapping
from dataclasses import dataclass
from fractions import Fraction

from hexmap import Hex
from rules.battle.attack_choices import AttackChoices, DefenderAnswer
from rules.battle.catalog import Catalog, parse_catalog
from rules.battle.citations import HEXFRAY_CORE, CoreCitations
from rules.battle.model import (
    Combatant,
    DamageBase,
    Posture,
    Status,
    Weapon,
    WeaponMode,
)
from rules.battle.pieces import Piece
from rules.battle.scatter import Occupant, StrayAttempt, StrayHitRules, StrayRule
from rules.battle.state import BattleState
from rules.battle.terrain import Footing, Light, TerrainFact, WaterDepth
from rules.core.assets import read_json
from rules.core.citation import Citation
from rules.core.dice import DiceSource
from rules.core.errors import RulesError
from rules.core.events import CombatantEvent, Event
from rules.core.modifiers import Modifier
from rules.sets.attack_form import AttackForm, FormAttacks
from rules.sets.components.attacks import StepAttacks
from rules.sets.components.fudge_locations import (
    BODY_PARTS,
    BodyPart,
    PartKind,
    PartState,
    PartTrack,
    WoundLevel,
    ladder_label,
)
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
    Health,
    LegalAction,
    OddsLine,
    OptionChoice,
    Ruleset,
    SheetRow,
    SheetSection,
)
from rules.sets.seed003 import turn
from rules.sets.seed003.attack_form import attack_form, offered_attacks
from rules.sets.seed003.attack_steps import NO_HIT, STEPS, Seed003Rolls, worst_wound_odds
from rules.sets.seed003.combat import (
    PAST_THE_TRACK,
    Choices003,
    Plan003,
    Seed003Answer,
    attack_situation,
    defense_situation,
    defensive_factor,
    footing_penalty,
    light_penalty,
    water_penalty,
    wound_effects,
)
from rules.sets.seed003.condition_view import condition_003
from rules.sets.seed003.fudge_dice import FudgeRoll, fudge_distribution, roll_fudge
from rules.sets.seed003.saved_types import seed003_saved_types
from rules.sets.seed003.sheet import (
    ATTRIBUTE_LABELS,
    ATTRIBUTES,
    SHEET_DESCRIPTION,
    Sheet003,
    sheet_entries,
    sheet_of,
    sheet_problems,
    with_sheet_entries,
)
from rules.sets.seed003.sheet_codec import decode_fighter, encode_fighter
from rules.sets.seed003.tracks import body_of, fighter_condition, with_body, worst_wound_health

KEY = "003"
BASE_STRAY = Citation("base-003", "a flying piece in the way: Agility against Fair (our rule)")


@dataclass(frozen=True, kw_only=True)
class StrayChecked(CombatantEvent):
    piece_name: str
    roll: FudgeRoll
    hit: bool

    def describe(self) -> str:
        verdict = "is hit" if self.hit else "gets out of the way"
        return (
            f"{self.name} dodges the {self.piece_name}: Agility {self.roll} "
            f"against Fair - {verdict}"
        )


class Seed003StrayHits(StrayHitRules):
    """Somebody in a flying piece's way rolls Agility + 4dF and is hit below Fair."""

    def roll_hit(self, attempt: StrayAttempt, dice: DiceSource) -> tuple[bool, Event]:
        c = attempt.occupant.combatant
        rolled = roll_fudge(sheet_of(c).agility, dice, f"{c.name}'s Agility")
        hit = rolled.result < 0
        event = StrayChecked(
            citation=BASE_STRAY,
            combatant_id=c.id,
            name=c.name,
            piece_name=attempt.piece_name,
            roll=rolled,
            hit=hit,
        )
        return hit, event

    def hit_chance(self, occupant: Occupant, rule: StrayRule) -> Fraction:
        level = sheet_of(occupant.combatant).agility
        return sum((p for d, p in fudge_distribution().items() if level + d < 0), Fraction(0))


class Seed003Attacks(StepAttacks[Choices003, Seed003Answer, Plan003, Seed003Rolls]):
    """Seed 003's attack in four steps (``rules.sets.seed003.attack_steps``), and its
    form for the generic attack pane (``FormAttacks``)."""

    def attack_form(
        self, state: BattleState, attacker_id: str, defender_id: str, entries: _Mapping[str, str]
    ) -> AttackForm:
        return attack_form(state, attacker_id, defender_id, entries)

    def default_attack(
        self, state: BattleState, attacker_id: str, defender_id: str
    ) -> Choices003 | None:
        choices = attack_form(state, attacker_id, defender_id, {}).choices
        return choices if isinstance(choices, Choices003) else None

    def attack_variants(
        self, state: BattleState, attacker_id: str, defender_id: str
    ) -> tuple[Choices003, ...]:
        """Each usable weapon mode, at each part that can be aimed at."""
        attacker, defender = state.combatant(attacker_id), state.combatant(defender_id)
        return tuple(offered.choices for offered in offered_attacks(state, attacker, defender))

    def preview_attack(
        self,
        state: BattleState,
        attacker_id: str,
        defender_id: str,
        choices: AttackChoices,
        answer: DefenderAnswer | None = None,
    ) -> AttackPreview:
        plan, taken = self.planned_with(state, attacker_id, defender_id, choices, answer)
        made = plan.defense_made(taken)
        odds = worst_wound_odds(plan, taken)
        kind = (
            PartKind.LIMB
            if plan.aim is not None and plan.aim.part.kind is PartKind.LIMB
            else PartKind.BODY
        )
        aimed = plan.aim is not None and not plan.widespread
        past = "dead" if kind is PartKind.BODY else "limb lost"
        lines = []
        for outcome, p in odds.items():
            if outcome == NO_HIT:
                label = "no hit"
            elif outcome == 0:
                label = "hit, no wound"
            elif outcome == PAST_THE_TRACK:
                label = f"hit: {past}" if aimed else "hit: past a track (dead or a limb lost)"
            elif aimed:
                label = f"hit: {WoundLevel(outcome).label(kind)}"
            else:
                label = f"hit: worst wound {WoundLevel(outcome).label()}"
            lines.append(OddsLine(label, p))
        where = (
            "whole body"
            if plan.widespread
            else ("random location" if plan.aim is None else plan.aim.label.lower())
        )
        defense = (
            "helpless (Terrible)"
            if made is None
            else f"{made.kind.value} {ladder_label(made.level)} ({made.level:+d})"
        )
        summary = (
            f"{plan.weapon.name} at the {where}: {ladder_label(plan.attack_level)} "
            f"({plan.attack_level:+d}) against {defense}; ODF {plan.offensive:+d}"
        )
        # The defense's modifiers with their own signs, as the defender has them
        # (seed 002 does the same): "-2 defense: Dodge" is a Poor dodge.
        modifiers = (
            *plan.attack_modifiers,
            *(
                Modifier(m.value, f"defense: {m.reason}", m.citation)
                for m in plan.defense_modifiers(taken)
            ),
        )
        return AttackPreview(summary, modifiers, tuple(lines))

    def situation(
        self, state: BattleState, attacker_id: str, defender_id: str
    ) -> tuple[Modifier, ...]:
        attacker = state.combatant(attacker_id)
        defender = state.combatant(defender_id)
        choices = self.default_attack(state, attacker_id, defender_id)
        if choices is None:
            return ()
        mode = attacker.fighter.weapon(choices.weapon_key).mode(choices.mode)
        return (
            *attack_situation(state, attacker, defender, mode),
            *(
                Modifier(m.value, f"defense: {m.reason}", m.citation)
                for m in defense_situation(state, attacker, defender, mode)
            ),
        )


class Seed003:
    """The seed 003 ruleset (no options)."""

    key = KEY
    name = "Seed 003: FUDGE hit location"
    description = (
        "FUDGE (4dF on the seven-step ladder) with optional rule 5.87: aimed blows by "
        "part size, the 1d6 random location for distant shots, and a wound track per "
        "body part."
    )

    def __init__(self) -> None:
        self.sheets = SheetsRole(
            key=KEY,
            sheet_type=Sheet003,
            saved_types_of=seed003_saved_types,
            catalog=_catalog,
            sections=_sections,
            encode=encode_fighter,
            decode=decode_fighter,
            sheet_description=SHEET_DESCRIPTION,
            entries=sheet_entries,
            with_entries=with_sheet_entries,
            problems=sheet_problems,
        )
        self.attacks = Seed003Attacks(STEPS)
        self.turns = TurnsRole(
            initiative=turn.initiative,
            maneuvers_for=turn.maneuvers_for,
            maneuver=turn.maneuver,
            posture_move=turn.posture_move,
            new_turn=_as_it_is,
            turn_begins=turn.turn_begins,
            turn_ends=turn.turn_ends,
            legal_actions=functools.partial(_legal_actions, self),
        )
        # Out of the fight at Incapacitated or worse in the torso or the head; how
        # hurt by the worst wound level; Useless, Crippled and lost limbs; the wound
        # levels, off his feet and guard down as penalties
        # (rules.sets.seed003.condition_view). Health: the most severe wound on any
        # body part, by its level's name (003 5.874: only the most severe counts;
        # 003 5.872: a limb's last two levels are Useless and Crippled), the bar as
        # far down the five levels as that wound.
        self.conditions = ConditionsRole(
            condition=condition_003,
            down=fighter_condition,
            labels=_condition_labels,
            health=_worst_wound,
            health_heading="Wound",
        )
        self.battlefield = BattlefieldRole(
            stray_hits=Seed003StrayHits(),
            piece_hit=_piece_hit,
            placeable_items=placeable_from(_catalog, shields=True),
            terrain_label=_terrain_label,
        )

    @property
    def options(self) -> frozenset[str]:
        return frozenset()

    @property
    def available_options(self) -> Mapping[str, str]:
        return {}

    @property
    def option_choices(self) -> tuple[OptionChoice, ...]:
        return ()

    def with_options(self, options: Iterable[str]) -> Seed003:
        return seed003_ruleset(options)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Seed003)

    def __hash__(self) -> int:
        return hash(KEY)

    @property
    def core_citations(self) -> CoreCitations:
        """Hexfray's own shared mechanics: the system's rules say nothing of the hex map."""
        return HEXFRAY_CORE


def _sections(combatant: Combatant) -> tuple[SheetSection, ...]:
    f = combatant.fighter
    s = sheet_of(f)
    attributes = tuple(
        SheetRow(
            ATTRIBUTE_LABELS[k],
            f"{ladder_label(getattr(s, k))} ({getattr(s, k):+d})",
            "FUDGE SRD: the trait ladder",
        )
        for k in ATTRIBUTES
    )
    vitals = (
        *attributes,
        SheetRow(
            "Torso boxes",
            f"{body_of(combatant).track(BodyPart.TORSO).boxes_free} of {f.hit_points} free",
            "The overall wound track: the torso's (003 5.872)",
        ),
        SheetRow("Move", f"{combatant.movement_left} of {f.move} left"),
        SheetRow("Status", combatant.status.value),
    )
    skills = tuple(
        SheetRow(name, f"{ladder_label(level)} ({level:+d})") for name, level in s.skills
    )
    gear = tuple(
        SheetRow(
            w.name,
            "; ".join(_mode_text(m) for m in w.modes),
            f"skill {w.skill}; the offensive damage factor (ODF) of each mode, with "
            "the wielder's Strength where the weapon is muscle-powered",
        )
        for w in f.weapons
    )
    protection = []
    if f.armor is not None:
        protection.append(
            SheetRow("Armor", f"{f.armor.name} {f.armor.dr:+d} ({s.armor_cover.value})")
        )
    if s.helmet:
        protection.append(SheetRow("Helmet", f"{s.helmet:+d}"))
    if f.shield is not None:
        protection.append(SheetRow("Shield", f"{f.shield.name}, {f.shield.pd:+d} to defend"))
    body = body_of(combatant)
    wounds = tuple(
        SheetRow(
            t.part.label,
            track_boxes_text(t),
            f"Damage Capacity {ladder_label(t.capacity)}, DDF "
            f"{defensive_factor(combatant, t.part):+d}; boxes Scratch, Hurt, Very Hurt, "
            + (
                "Useless, Crippled" if t.part.kind is PartKind.LIMB else "Incapacitated, Near Death"
            ),
        )
        for t in body.parts
    )
    return (
        SheetSection("Attributes", vitals),
        SheetSection("Skills", skills),
        SheetSection("Weapons", gear),
        SheetSection("Protection", tuple(protection)),
        SheetSection("Wounds by body part", wounds),
    )


def _terrain_label(fact: TerrainFact) -> str:
    penalty = 0
    if isinstance(fact, Light):
        penalty = light_penalty(fact)
    elif isinstance(fact, Footing):
        penalty = footing_penalty(fact)
    elif isinstance(fact, WaterDepth):
        penalty = water_penalty(fact)
    return f"{fact.label} ({penalty:+d})" if penalty else fact.label


def _condition_labels(combatant: Combatant) -> tuple[str, ...]:
    """Its body's state past Scratch, its status, its posture off its feet,
    each useless, crippled or lost limb."""
    body = body_of(combatant)
    labels: list[str] = []
    state = body.body_state
    if state.disabled:
        labels.append(state.label)
    elif combatant.status is not Status.ACTIVE:
        labels.append(combatant.status.value)
    if combatant.posture is not Posture.STANDING:
        labels.append(combatant.posture.value.replace("_", " "))
    for part in body.disabled_limbs:
        labels.append(f"{body.track(part).state.label} {part.value}")
    penalty, where = body.activity_penalty(BODY_PARTS)
    if penalty and where is not None and not state.disabled:
        labels.append(f"{body.track(where).state.label} {where.value} ({penalty:+d})")
    return tuple(dict.fromkeys(labels))


def _piece_hit(
    state: BattleState,
    piece: Piece,
    source_weapon: Weapon | None,
    holder: Combatant,
    victim_id: str,
    where: Hex,
    dice: DiceSource,
) -> tuple[BattleState, tuple[Event, ...]]:
    """A flying piece that hits somebody gives him a Scratch on the torso (our rule)."""
    victim = state.combatant(victim_id)
    before = body_of(victim)
    body, mark = before.with_wound(BodyPart.TORSO, WoundLevel.SCRATCH)
    hurt = with_body(victim, body)
    hurt, events, _ = wound_effects(hurt, before, body, dice)
    note = PieceStruck(
        citation=BASE_STRAY,
        combatant_id=victim.id,
        name=victim.name,
        piece_name=piece.name,
        mark=mark.describe(),
    )
    return state.with_combatants(hurt), (note, *events)


def _legal_actions(
    ruleset: Ruleset, state: BattleState, combatant_id: str
) -> tuple[LegalAction, ...]:
    """Each maneuver it may choose, an attack with each usable weapon mode at
    each part it may aim at on every foe but the dead while its maneuver
    allows one, readying and picking up (under Ready, or none yet), a move to
    each free hex within the movement left with each facing it may end in, a
    turn to each other facing, and the end of its own turn; the fallen may
    only end it
    (rules.sets.components.legal_actions)."""
    return shared_legal_actions(ruleset, state, combatant_id, attacks=offered_attacks)


def _as_it_is(combatant: Combatant) -> Combatant:
    """Seed 003 counts nothing per turn."""
    return combatant


def _worst_wound(combatant: Combatant) -> Health:
    return worst_wound_health(body_of(combatant))


def _mode_text(mode: WeaponMode) -> str:
    """A weapon mode as the sheet shows it: "swing ODF +3 + Strength, reach 1"."""
    strength = "" if mode.damage.base is DamageBase.FIXED else " + Strength"
    return f"{mode.name} ODF {mode.damage.adds:+d}{strength}, {mode.reach_text}"


NO_BREAK = "\u00a0"


def track_boxes_text(track: PartTrack) -> str:
    """A part's track as a sheet shows it: each level's boxes, checked ones
    filled, the levels a thin space apart, so the ten rows' boxes start in one
    column and fit the inspector; then, for a hurt part, its state with the
    modifier it gives while usable ("■■ ■□ □ □□ □□  hurt -1"); an unhurt part
    shows its boxes alone."""
    groups = "\u2009".join(
        "■" * checked + "□" * (boxes - checked)
        for checked, boxes in zip(track.checked, track.boxes, strict=True)
    )
    if track.state is PartState.UNHURT:
        return groups
    state = track.state.label
    if track.penalty and not track.state.disabled:
        state += f" {track.penalty:+d}"
    # The state's words never part: in a narrow inspector it wraps whole under
    # the boxes.
    return f"{groups}  {state.replace(' ', NO_BREAK)}"


@dataclass(frozen=True, kw_only=True)
class PieceStruck(CombatantEvent):
    piece_name: str
    mark: str

    def describe(self) -> str:
        return f"The {self.piece_name} strikes {self.name}: {self.mark}"


@functools.cache
def _catalog() -> Catalog:
    return parse_catalog(
        read_json(f"rulesets/{KEY}/weapons.json"),
        read_json(f"rulesets/{KEY}/shields.json"),
        read_json(f"rulesets/{KEY}/armor.json"),
    )


@functools.cache
def _instance() -> Seed003:
    return Seed003()


def seed003_ruleset(options: Iterable[str] = ()) -> Seed003:
    """The (shared) seed 003 ruleset; it has no options."""
    unknown = sorted(set(options))
    if unknown:
        raise RulesError(f"seed 003 has no options ({', '.join(unknown)})")
    return _instance()


# The protocol checks: mypy proves that Seed003 is a whole Ruleset and FormAttacks.
_FACTORY: Callable[[Iterable[str]], Ruleset] = seed003_ruleset


def _forms(ruleset: Seed003) -> FormAttacks:
    return ruleset.attacks
