"""Seed 004 as the battle's ruleset: ``Seed004`` answers every question of the
``rules.sets.protocol.Ruleset`` protocol, and ``FormAttacks.attack_form`` for
the generic attack pane, from the Endless Horizons damage chapter (004) on its
base rules (docs/ruleset-004.md)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType

from hexmap import Hex
from rules.battle.attack_choices import AttackChoices, DefenderAnswer
from rules.battle.citations import HEXFRAY_CORE, CoreCitations
from rules.battle.model import (
    Combatant,
    Status,
    Weapon,
)
from rules.battle.pieces import Piece
from rules.battle.scatter import NoStrayHits, Occupant
from rules.battle.state import BattleState
from rules.battle.terrain import Light, TerrainFact, fact_label
from rules.battle.turns import (
    attacks_left,
    maneuver_problems,
)
from rules.core.dice import DiceSource
from rules.core.errors import RulesError
from rules.core.events import Event
from rules.core.modifiers import Modifier
from rules.sets.attack_form import AttackForm, FormAttacks
from rules.sets.components.attacks import StepAttacks
from rules.sets.components.hit_points import HIT_POINTS_HEADING, hit_points_health
from rules.sets.components.legal_actions import legal_actions as shared_legal_actions
from rules.sets.components.roles import (
    BattlefieldRole,
    ConditionsRole,
    SheetsRole,
    TurnsRole,
    placeable_from,
)
from rules.sets.components.zones_2d6 import ARMORED_ZONES
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
from rules.sets.seed004 import maneuvers
from rules.sets.seed004.attack import (
    AttackPlan,
    Defense,
    Seed004Answer,
    Seed004Attack,
    damage_label,
    new_turn_tracks,
    situation_modifiers,
    target_size,
)
from rules.sets.seed004.attack_form import attack_form, offered_attacks
from rules.sets.seed004.attack_steps import (
    STEPS,
    Outcome,
    Seed004Rolls,
    contest_odds,
)
from rules.sets.seed004.condition_view import condition_004, down_004
from rules.sets.seed004.events import NothingHit
from rules.sets.seed004.injury import consciousness_check, injury_events
from rules.sets.seed004.saved_types import SAVED_TYPES
from rules.sets.seed004.sheet import (
    ABILITIES,
    ABILITY_LABELS,
    SHEET_DESCRIPTION,
    Sheet004,
    base_hit_points,
    base_speed,
    sheet_entries,
    sheet_of,
    sheet_problems,
    with_sheet_entries,
)
from rules.sets.seed004.sheet_codec import decode_fighter, encode_fighter
from rules.sets.seed004.tables import KEY, catalog, difficulty_table
from rules.sets.seed004.tracks import maximum_hit_points, tracks_of

_OUTCOME_LABELS = {
    Outcome.HIT: "hit",
    Outcome.BLOCKED: "hit, blocked (half damage)",
    Outcome.DODGED: "dodged",
    Outcome.MISS: "miss",
}


def _passed(piece_name: str, occupant: Occupant) -> Event:
    """Seed 004 has no rule for a flying piece hitting somebody: it passes."""
    return NothingHit(combatant_id=occupant.combatant_id, name=occupant.name, piece=piece_name)


class Seed004Attacks(StepAttacks[Seed004Attack, Seed004Answer, AttackPlan, Seed004Rolls]):
    """Seed 004's attack in four steps (``rules.sets.seed004.attack_steps``), and its
    form for the generic attack pane (``FormAttacks``)."""

    def attack_form(
        self, state: BattleState, attacker_id: str, defender_id: str, entries: Mapping[str, str]
    ) -> AttackForm:
        return attack_form(state, attacker_id, defender_id, entries)

    def default_attack(
        self, state: BattleState, attacker_id: str, defender_id: str
    ) -> Seed004Attack | None:
        choices = attack_form(state, attacker_id, defender_id, {}).choices
        return choices if isinstance(choices, Seed004Attack) else None

    def attack_variants(
        self, state: BattleState, attacker_id: str, defender_id: str
    ) -> tuple[Seed004Attack, ...]:
        """Each reaching weapon mode, at a random zone and at each zone that can
        be aimed at (the defender's defense is its answer: ``STEPS.answers``)."""
        attacker = state.combatant(attacker_id)
        defender = state.combatant(defender_id)
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
        odds = contest_odds(plan, taken)
        lines = tuple(OddsLine(_OUTCOME_LABELS[o], odds[o]) for o in Outcome if odds.get(o, 0))
        aim = f", aimed at the {plan.zone.label}" if plan.zone is not None else ""
        defense = plan.defense_made(taken)
        defends = (
            f"{defense.value} 2d6{plan.defense_bonus(defense):+d}"
            if defense is not Defense.NONE
            else f"no defense ({plan.no_defense_note(defense)})"
        )
        summary = (
            f"{plan.skill} 2d6{plan.attack_bonus:+d} vs difficulty {plan.difficulty} "
            f"({plan.weapon.name}, {plan.mode.name}, {damage_label(plan.mode)}{aim}); {defends}"
        )
        return AttackPreview(summary, plan.modifiers, lines)

    def situation(
        self, state: BattleState, attacker_id: str, defender_id: str
    ) -> tuple[Modifier, ...]:
        return situation_modifiers(
            state, state.combatant(attacker_id), state.combatant(defender_id), difficulty_table()
        )


class Seed004:
    """The seed 004 ruleset (it has no options), composed of its roles."""

    def __init__(self) -> None:
        self.sheets = SheetsRole(
            key=KEY,
            sheet_type=Sheet004,
            saved_types_of=lambda: SAVED_TYPES,
            catalog=catalog,
            sections=_sections,
            encode=encode_fighter,
            decode=decode_fighter,
            sheet_description=SHEET_DESCRIPTION,
            entries=sheet_entries,
            with_entries=with_sheet_entries,
            problems=sheet_problems,
        )
        self.attacks = Seed004Attacks(STEPS)
        self.turns = TurnsRole(
            initiative=maneuvers.initiative,
            maneuvers_for=maneuvers.maneuvers_for,
            maneuver=maneuvers.maneuver,
            posture_move=maneuvers.posture_move,
            new_turn=new_turn_tracks,
            turn_begins=_turn_begins,
            turn_ends=_nothing_at_turn_end,
            legal_actions=functools.partial(_legal_actions, self),
        )
        # Out of the fight: the dead (at minus the maximum hit points) and the
        # unconscious (a failed consciousness check below 0), by the base rules'
        # injury and death; how hurt on the way to the death line; further defenses
        # and a prone shooter's stance as penalties (rules.sets.seed004.condition_view).
        self.conditions = ConditionsRole(
            condition=condition_004,
            down=down_004,
            labels=_condition_labels,
            health=_health,
            health_heading=HIT_POINTS_HEADING,
        )
        self.battlefield = BattlefieldRole(
            stray_hits=NoStrayHits(_passed),
            piece_hit=_piece_hit,
            placeable_items=placeable_from(catalog, shields=False),
            terrain_label=_terrain_label,
        )

    @property
    def key(self) -> str:
        return KEY

    @property
    def name(self) -> str:
        return "Seed 004: 2d6 hit zones (Endless Horizons)"

    @property
    def description(self) -> str:
        return (
            "2d6 plus bonuses against a difficulty; Melee Combat against Dodge or a "
            "block that halves damage; a 2d6 hit zone with its multiplier, armor by "
            "zone, aiming by size steps and the bone that guards heart and brain."
        )

    @property
    def options(self) -> frozenset[str]:
        return frozenset()

    @property
    def available_options(self) -> Mapping[str, str]:
        return MappingProxyType({})

    @property
    def option_choices(self) -> tuple[OptionChoice, ...]:
        return ()

    def with_options(self, options: Iterable[str]) -> Seed004:
        return seed004_ruleset(options)

    @property
    def core_citations(self) -> CoreCitations:
        """Hexfray's own shared mechanics: the system's rules say nothing of the hex map."""
        return HEXFRAY_CORE


def _sections(combatant: Combatant) -> tuple[SheetSection, ...]:
    f = combatant.fighter
    s = sheet_of(f)
    a = s.abilities
    abilities = tuple(
        SheetRow(
            ABILITY_LABELS[name],
            f"{a.rank(name)} ({a.modifier(name):+d})",
            "Rank, and the modifier a check adds",
        )
        for name in ABILITIES
    )
    t = tracks_of(combatant)
    vitals = (
        SheetRow(
            "HP",
            f"{combatant.hp} of {maximum_hit_points(combatant)}",
            f"Base rules: 25 + CON + STR = {base_hit_points(s)}; dead at -maximum",
        ),
        SheetRow(
            "Wounds",
            str(t.wounds) + (f" ({', '.join(t.effects)})" if t.effects else ""),
            "Each lowers the maximum HP by one; every fifth rolls a wounding effect",
        ),
        SheetRow(
            "Speed",
            f"{combatant.movement_left} of {f.move} left",
            f"Base rules: 5 + DEX and STR modifiers = {base_speed(s)}",
        ),
        SheetRow("Size", s.size.label, f"As it stands: {target_size(combatant).label}"),
        SheetRow("Status", combatant.status.value),
        SheetRow("Defenses this round", str(t.defenses), "Each further one at -2"),
    )
    skills = tuple(SheetRow(k, f"+{v}") for k, v in sorted(s.skills.items()))
    gear = tuple(
        SheetRow(
            w.name,
            ", ".join(f"{m.name} {m.damage.fixed} {damage_label(m)}" for m in w.modes),
        )
        for w in f.weapons
    )
    armor = tuple(
        SheetRow(z.label.capitalize(), f"DR {s.armor.reduction(z)}") for z in ARMORED_ZONES
    )
    return (
        SheetSection("Abilities", abilities),
        SheetSection("Condition", vitals),
        SheetSection("Skills", skills),
        SheetSection("Weapons", gear),
        SheetSection("Armor by zone", armor),
    )


def _terrain_label(fact: TerrainFact) -> str:
    """Darkness with the difficulty it adds; other facts by their own label
    (seed 004 gives footing, water and cover no rule)."""
    if isinstance(fact, Light):
        extra = difficulty_table().light_difficulty(fact.darkness)
        return f"{fact_label(fact)} (+{extra} difficulty)" if extra else fact_label(fact)
    return fact_label(fact)


def _condition_labels(combatant: Combatant) -> tuple[str, ...]:
    labels: list[str] = []
    if combatant.status is not Status.ACTIVE:
        labels.append(combatant.status.value)
    if combatant.posture.value != "standing":
        labels.append(combatant.posture.value.replace("_", " "))
    if combatant.hp < 0 and combatant.status is Status.ACTIVE:
        labels.append("below 0 HP")
    wounds = tracks_of(combatant).wounds
    if wounds:
        labels.append(f"{wounds} wound{'s' if wounds > 1 else ''}")
    return tuple(labels)


def _health(combatant: Combatant) -> Health:
    """Hit points of the maximum its wounds leave (each lowers it by one)."""
    wounds = tracks_of(combatant).wounds
    note = f"the maximum less {wounds} for wounds" if wounds else ""
    return hit_points_health(combatant.hp, maximum_hit_points(combatant), note)


def _turn_begins(
    state: BattleState, combatant_id: str, dice: DiceSource
) -> tuple[BattleState, tuple[Event, ...]]:
    """A conscious fighter below 0 HP checks again to stay conscious."""
    me = state.combatant(combatant_id)
    if me.status is not Status.ACTIVE or me.hp >= 0:
        return state, ()
    after, steps = consciousness_check(me, dice)
    return state.with_combatants(after), injury_events(me, steps)


def _piece_hit(
    state: BattleState,
    piece: Piece,
    source_weapon: Weapon | None,
    holder: Combatant,
    victim_id: str,
    where: Hex,
    dice: DiceSource,
) -> tuple[BattleState, tuple[Event, ...]]:
    victim = state.combatant(victim_id)
    return state, (NothingHit(combatant_id=victim.id, name=victim.name, piece=piece.name),)


def _legal_actions(
    ruleset: Ruleset, state: BattleState, combatant_id: str
) -> tuple[LegalAction, ...]:
    """The maneuvers it may choose (once the turns run), an attack with each
    reaching weapon mode at a random zone and at each zone it may aim at on
    each foe but the dead while its maneuver allows one, readying an unready
    weapon under Ready (no picking up), a move to each free hex with each
    facing it may end in and a turn to each facing while its movement
    allows, and the end of its own
    turn (rules.sets.components.legal_actions). The fallen only end their turn."""
    return shared_legal_actions(
        ruleset,
        state,
        combatant_id,
        attacks=offered_attacks,
        may_attack=_may_attack,
        pick_up=False,
        maneuvers_before_turns=False,
    )


def _nothing_at_turn_end(
    state: BattleState, combatant_id: str, dice: DiceSource
) -> tuple[BattleState, tuple[Event, ...]]:
    return state, ()


@functools.cache
def _instance() -> Seed004:
    return Seed004()


def seed004_ruleset(options: Iterable[str] = ()) -> Seed004:
    """The (shared) seed 004 ruleset; it has no options."""
    unknown = sorted(set(options))
    if unknown:
        raise RulesError(f"seed 004 has no options (got {', '.join(unknown)})")
    return _instance()


# The protocol checks: mypy proves that Seed004 is a whole Ruleset, and one whose
# attacks the generic attack pane plans (FormAttacks).
_FACTORY: Callable[[Iterable[str]], Ruleset] = seed004_ruleset


def _forms(ruleset: Seed004) -> FormAttacks:
    return ruleset.attacks


def _may_attack(ruleset: Ruleset, state: BattleState, me: Combatant) -> bool:
    """Before the turns run always; then while an attack is left and its maneuver
    has attacks, and with none chosen yet while the Attack maneuver still fits."""
    if not state.turns_running:
        return True
    held = None if me.maneuver is None else maneuvers.maneuver(me.maneuver.key)
    if attacks_left(ruleset, me) <= 0 or (held is not None and held.attacks <= 0):
        return False
    return held is not None or not maneuver_problems(state, ruleset, me, maneuvers.ATTACK, "")
