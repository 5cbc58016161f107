"""Seed 002 as the battle's ruleset: ``Seed002`` answers the whole
``rules.sets.protocol.Ruleset`` protocol and ``FormAttacks`` (the generic attack
pane) from seed 002's tables and the OpenQuest base rules (docs/ruleset-002.md)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from fractions import Fraction

from hexmap import Hex
from rules.battle.attack_choices import AttackChoices, DefenderAnswer
from rules.battle.citations import HEXFRAY_CORE, CoreCitations
from rules.battle.edits import SheetProblem, weapon_place
from rules.battle.model import (
    Combatant,
    Fighter,
    Posture,
    Status,
    Weapon,
)
from rules.battle.pieces import Piece
from rules.battle.state import BattleState
from rules.battle.terrain import Footing, Light, TerrainFact, WaterDepth
from rules.core.dice import DiceSource
from rules.core.errors import RulesError
from rules.core.events import Event
from rules.core.modifiers import Modifier
from rules.sets.attack_form import AttackForm, FormAttacks
from rules.sets.components.attacks import StepAttacks
from rules.sets.components.hit_points import HIT_POINTS_HEADING, fighter_hit_points
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
    LegalAction,
    OddsLine,
    OptionChoice,
    Ruleset,
    SheetRow,
    SheetSection,
)
from rules.sets.seed002 import maneuvers, turn
from rules.sets.seed002.attack import Attack002, DefenseKind, Plan, Seed002Answer, defense_made
from rules.sets.seed002.attack_steps import Seed002Rolls, contest_odds, harm_odds, steps_for
from rules.sets.seed002.condition_view import condition_002, down_002
from rules.sets.seed002.form import attack_form, offered_attacks, reaching_modes
from rules.sets.seed002.saved_types import seed002_saved_types
from rules.sets.seed002.sheet import (
    SHEET_DESCRIPTION,
    SKILL_BASES,
    Sheet002,
    sheet_entries,
    sheet_of,
    with_sheet_entries,
)
from rules.sets.seed002.sheet_codec import decode_fighter, encode_fighter
from rules.sets.seed002.situation import (
    DARKNESS_FROM,
    PARTIAL_DARKNESS_FROM,
    GMSituation,
    check_close_tests,
    situation,
)
from rules.sets.seed002.stray_hits import seed002_stray_hits
from rules.sets.seed002.tables import (
    CHARACTERISTICS,
    KEY,
    catalog_002,
    dice_text,
    major_wounds,
    read_every_table,
)
from rules.sets.seed002.tracks import tracks_of
from rules.sets.seed002.wounds import major_wound_level

LYING = frozenset({Posture.PRONE, Posture.CRAWLING})

LOCATIONS_D20 = "locations-d20"
OPTIONS = {
    LOCATIONS_D20: (
        "hit locations: a blow that armour can stop rolls a d20 location (RuneQuest SRD "
        "table) and meets that location's armour points (the sheet's Armour by location)"
    )
}


class Seed002Attacks(StepAttacks[Attack002, Seed002Answer, Plan, Seed002Rolls]):
    """Seed 002's attack in four steps (``rules.sets.seed002.attack_steps``, with or
    without hit locations), and its form for the generic attack pane
    (``FormAttacks``)."""

    def attack_form(
        self, state: BattleState, attacker_id: str, defender_id: str, entries: Mapping[str, str]
    ) -> AttackForm:
        return attack_form(state, attacker_id, defender_id, entries)

    def default_attack(
        self, state: BattleState, attacker_id: str, defender_id: str
    ) -> Attack002 | None:
        attacker, defender = state.combatant(attacker_id), state.combatant(defender_id)
        for weapon, mode in reaching_modes(attacker, defender):
            return Attack002(weapon.key, mode.name)
        return None

    def attack_variants(
        self, state: BattleState, attacker_id: str, defender_id: str
    ) -> tuple[Attack002, ...]:
        """Each reaching weapon mode, plain and with each GM's situation (the
        defender's defense is its answer: ``steps_for(...).answers``)."""
        attacker, defender = state.combatant(attacker_id), state.combatant(defender_id)
        out: list[Attack002] = []
        for weapon, mode in reaching_modes(attacker, defender):
            plain = Attack002(weapon.key, mode.name)
            out.append(plain)
            out.append(replace(plain, gm=GMSituation(helpless=True)))
            out.append(replace(plain, gm=GMSituation(attacker_mounted=True)))
            if mode.is_ranged:
                out.append(replace(plain, gm=GMSituation(wind="high-wind")))
                out.append(replace(plain, gm=GMSituation(movement="moved-10m")))
                out.append(replace(plain, gm=GMSituation(obscured="obscured")))
                out.append(replace(plain, gm=GMSituation(blinded=True)))
        return tuple(out)

    def preview_attack(
        self,
        state: BattleState,
        attacker_id: str,
        defender_id: str,
        choices: AttackChoices,
        answer: DefenderAnswer | None = None,
    ) -> AttackPreview:
        plan, taken = self.planned_with(state, attacker_id, defender_id, choices, answer)
        made = defense_made(plan, taken)
        odds = contest_odds(plan, taken)
        kill, major = harm_odds(plan, taken)
        if plan.automatic is not None:
            attack = f"automatic {plan.automatic.value} ({plan.automatic_reason})"
        else:
            attack = f"{plan.weapon.skill} {plan.attack_skill}%"
        defense = made.label
        if made.kind is not DefenseKind.NONE:
            defense += f" {made.skill}%"
        summary = (
            f"{attack} ({plan.weapon.name}, {plan.mode.name}, {dice_text(plan.damage)}"
            f"{'' if plan.damage_modifier.dice is None else plan.damage_modifier}); "
            f"{plan.defender.name}: {defense}; {_armour_text(plan)}; "
            f"kills {_percent(kill)}, major wound {_percent(major)}"
        )
        defense_mods = tuple(
            Modifier(m.value, f"defense: {m.reason}", m.citation) for m in made.modifiers
        )
        return AttackPreview(
            summary,
            (*plan.attack_modifiers, *defense_mods),
            tuple(OddsLine(label, p) for label, p in odds.items()),
        )

    def situation(
        self, state: BattleState, attacker_id: str, defender_id: str
    ) -> tuple[Modifier, ...]:
        attacker, defender = state.combatant(attacker_id), state.combatant(defender_id)
        modes = [m for _, m in reaching_modes(attacker, defender)]
        modes = modes or [m for w in attacker.fighter.weapons for m in w.modes]
        if not modes:
            return ()
        sit = situation(state, attacker, defender, modes[0], GMSituation())
        defense = tuple(Modifier(m.value, f"defense: {m.reason}", m.citation) for m in sit.defense)
        return (*sit.attack, *defense)


class Seed002:
    """The seed 002 ruleset with its options (fixed at creation)."""

    def __init__(self, options: frozenset[str] = frozenset()) -> None:
        self._options = options
        self.sheets = SheetsRole(
            key=KEY,
            sheet_type=Sheet002,
            saved_types_of=seed002_saved_types,
            catalog=catalog_002,
            sections=_sections,
            encode=encode_fighter,
            decode=decode_fighter,
            sheet_description=SHEET_DESCRIPTION,
            entries=sheet_entries,
            with_entries=with_sheet_entries,
            problems=_sheet_problems,
        )
        # with the option locations-d20, blows roll a d20 hit location
        self.attacks = Seed002Attacks(steps_for(LOCATIONS_D20 in options))
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
        # Out of the fight: the dead (0 HP or less), the unconscious (a stopped
        # heart, 002 Major wound 7, or the GM's edit) and one paralysed below the
        # neck (002 Major wound 8); how hurt by the hit points lost; useless and
        # paralysed limbs; broken ribs and lying down as penalties
        # (rules.sets.seed002.condition_view).
        self.conditions = ConditionsRole(
            condition=condition_002,
            down=down_002,
            labels=_condition_labels,
            health=fighter_hit_points,
            health_heading=HIT_POINTS_HEADING,
        )
        self.battlefield = BattlefieldRole(
            stray_hits=seed002_stray_hits(),
            piece_hit=_piece_hit,
            placeable_items=placeable_from(catalog_002, shields=False),
            terrain_label=_terrain_label,
        )

    @property
    def key(self) -> str:
        return KEY

    @property
    def options(self) -> frozenset[str]:
        return self._options

    def with_options(self, options: Iterable[str]) -> Seed002:
        return seed002_ruleset(options)

    @property
    def name(self) -> str:
        return "Seed 002: d100 percentile (OpenQuest)"

    @property
    def description(self) -> str:
        return (
            "OpenQuest's combat tables: d100 skills with criticals and fumbles, "
            "situational modifiers, the attacker/defender result matrix with parry by "
            "weapon size, and the d10 major wound table."
        )

    @property
    def available_options(self) -> Mapping[str, str]:
        return OPTIONS

    @property
    def option_choices(self) -> tuple[OptionChoice, ...]:
        return ()  # its options stand alone

    @property
    def core_citations(self) -> CoreCitations:
        """Hexfray's own shared mechanics: the system's rules say nothing of the hex map."""
        return HEXFRAY_CORE


def _sections(combatant: Combatant) -> tuple[SheetSection, ...]:
    f = combatant.fighter
    sheet = sheet_of(f)
    c = sheet.characteristics
    tips = {k: SHEET_DESCRIPTION.field(k).tooltip for k in CHARACTERISTICS}
    chars = tuple(SheetRow(k.upper(), str(c.value(k)), tips[k]) for k in CHARACTERISTICS)
    armour = f.armor.dr if f.armor is not None else 0
    vitals = (
        *chars,
        SheetRow("HP", f"{combatant.hp} of {f.hit_points}"),
        SheetRow(
            "Major wound level",
            str(major_wound_level(f.hit_points)),
            "A blow of this much damage or more is a major wound",
        ),
        SheetRow("Damage modifier", str(sheet.damage_modifier), "By STR + SIZ"),
        SheetRow(
            "Armour points", f"{armour}" + (f" ({f.armor.name})" if f.armor is not None else "")
        ),
        *(
            SheetRow(f"AP {k.replace('-', ' ')}", str(v), "With the option locations-d20")
            for k, v in sheet.armour_by_location.items()
        ),
        SheetRow("Move", f"{combatant.movement_left} of {f.move} left"),
        SheetRow("Status", combatant.status.value),
    )
    names = sorted({*sheet.skills, *SKILL_BASES})
    skills = tuple(
        SheetRow(n, f"{sheet.skill(n)}%", "" if n in sheet.skills else "its base value")
        for n in names
    )
    gear = tuple(
        SheetRow(
            w.name,
            ", ".join(
                f"{m.name} {dice_text(m.damage.fixed) if m.damage.fixed else '?'} {m.reach_text}"
                for m in w.modes
            )
            + f"; {w.size.value}",
        )
        for w in f.weapons
    )
    sections = [
        SheetSection("Characteristics", vitals),
        SheetSection("Skills", skills),
        SheetSection("Weapons", gear),
    ]
    by_key = {r.key: r for r in major_wounds()}
    wounds = tuple(
        SheetRow(f"d10 {by_key[k].roll}", by_key[k].label, str(by_key[k].citation))
        for k in tracks_of(combatant).wounds
    )
    if wounds:
        conditions = ", ".join(_condition_labels(combatant)) or "none"
        sections.append(SheetSection("Major wounds", (*wounds, SheetRow("Conditions", conditions))))
    return tuple(sections)


def _sheet_problems(fighter: Fighter) -> tuple[SheetProblem, ...]:
    """A weapon whose skill is neither on the sheet nor a combat skill with a
    base value, or whose mode has no damage dice."""
    skills = sheet_of(fighter).skills
    out = []
    for i, w in enumerate(fighter.weapons):
        if w.skill not in skills and w.skill not in SKILL_BASES:
            out.append(
                SheetProblem(
                    weapon_place(i, "skill"),
                    f"{w.name} is used with {w.skill}, which is not among "
                    "the skills: add it under Skills.",
                )
            )
        if any(m.damage.fixed is None for m in w.modes):
            out.append(
                SheetProblem(
                    weapon_place(i, "damage"),
                    f"{w.name}: seed 002 weapons roll fixed dice (1d8)",
                )
            )
    return tuple(out)


def _terrain_label(fact: TerrainFact) -> str:
    if isinstance(fact, Light):
        if fact.darkness >= DARKNESS_FROM:
            return f"{fact.label}: darkness (-50%)"
        if fact.darkness >= PARTIAL_DARKNESS_FROM:
            return f"{fact.label}: partial darkness (-25%)"
        return fact.label
    if isinstance(fact, Footing):
        return fact.label if fact is Footing.GOOD else f"{fact.label}: unstable ground (-25%)"
    if isinstance(fact, WaterDepth):
        if fact is WaterDepth.DEEP:
            return f"{fact.label}: underwater (-50% close, -25% thrown, shots miss)"
        return fact.label
    return fact.label


def _condition_labels(combatant: Combatant) -> tuple[str, ...]:
    """Its status unless active, lying down, and each major wound's effect."""
    labels: list[str] = []
    tracks = tracks_of(combatant)
    if combatant.status is Status.UNCONSCIOUS and tracks.unconscious_rounds:
        labels.append(f"unconscious {tracks.unconscious_rounds} more rounds")
    elif combatant.status is not Status.ACTIVE:
        labels.append(combatant.status.value)
    if tracks.paralysis:
        labels.append(f"paralysed below the {tracks.paralysis}")
    if combatant.posture in LYING:
        labels.append(combatant.posture.value)
    if tracks.bleeding:
        labels.append(f"bleeding {tracks.bleeding} HP a round")
    if tracks.skill_penalty:
        labels.append(f"broken ribs ({tracks.skill_penalty}%)")
    for side in sorted(tracks.useless_arms):
        labels.append(f"useless {side} arm")
    for side in sorted(tracks.useless_legs):
        labels.append(f"useless {side} leg")
    if "eye" in tracks.wounds:
        labels.append("lost an eye")
    if "skull" in tracks.wounds:
        labels.append("cracked skull")
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
    """No seed 002 piece hits anybody (``stray_hits``): nothing happens."""
    return state, ()


def _legal_actions(
    ruleset: Ruleset, state: BattleState, combatant_id: str
) -> tuple[LegalAction, ...]:
    """Each maneuver it may choose, an attack with each weapon mode that
    reaches on every foe but the dead while its maneuver allows one, readying
    and picking up under Ready (or none yet), a move to each free hex within
    its movement with each facing it may end in, a turn to each other facing,
    and the end of its own turn (rules.sets.components.legal_actions).
    The fallen, and one paralysed from the neck down, may only end their turn."""
    return shared_legal_actions(
        ruleset, state, combatant_id, attacks=offered_attacks, helpless=_paralysed
    )


def _armour_text(plan: Plan) -> str:
    """ "armour 2", or with hit locations the armour of each location that differs."""
    if not plan.locations or not plan.armour_by_location:
        return f"armour {plan.armour}"
    own = ", ".join(f"{k.replace('-', ' ')} {v}" for k, v in plan.armour_by_location.items())
    return f"armour {plan.armour} ({own})"


def _percent(p: Fraction) -> str:
    """An exact chance as the pane shows it: "12.3%", "<0.1%" for a tiny one."""
    if 0 < p < Fraction(1, 1000):
        return "<0.1%"
    return f"{float(p) * 100:.1f}%"


@functools.cache
def _instance(options: frozenset[str] = frozenset()) -> Seed002:
    read_every_table()
    check_close_tests()
    return Seed002(options)


def seed002_ruleset(options: Iterable[str] = ()) -> Seed002:
    """The (shared, cached) seed 002 ruleset with ``options``; ``RulesError`` for
    an unknown one."""
    chosen = frozenset(options)
    unknown = sorted(chosen - set(OPTIONS))
    if unknown:
        known = ", ".join(OPTIONS)
        raise RulesError(f"seed 002 has no option {', '.join(unknown)} (it has {known})")
    return _instance(chosen)


# The protocol checks: mypy proves that Seed002 is a whole Ruleset and FormAttacks.
_FACTORY: Callable[[Iterable[str]], Ruleset] = seed002_ruleset


def _forms(ruleset: Seed002) -> FormAttacks:
    return ruleset.attacks


def _paralysed(me: Combatant) -> bool:
    """Paralysed from the neck down: an active fighter who can only end his turn."""
    return tracks_of(me).paralysis == "neck"
