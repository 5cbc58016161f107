"""Seed 002's attack form as data (``rules.sets.attack_form``): the weapon and
mode, the defender's defense (its answer, ``Seed002Answer``), and the GM's
situational fields (what the map cannot know). The fields of the ranged table
offer their rows only to a ranged mode; a choice that cannot be taken now is
greyed with its reason. Each defense names its skill and, when the situation
changes it, the skill it is rolled at."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from rules.battle.model import Combatant, Weapon, WeaponMode
from rules.battle.state import BattleState
from rules.core.modifiers import total
from rules.sets.attack_form import FLAG_OFF, FLAG_ON, AttackForm, FormChoice, FormField
from rules.sets.components.legal_actions import OfferedAttack
from rules.sets.seed002.attack import (
    Attack002,
    DefenseKind,
    Seed002Answer,
    attack_problem,
    no_defense_reason,
    parry_problem,
    reaches,
)
from rules.sets.seed002.sheet import DODGE, sheet_of
from rules.sets.seed002.situation import GMSituation, situation
from rules.sets.seed002.tables import dice_text, ranged_section

RANGED_ONLY = "only for ranged attacks (the seed's second table)"


def mode_key(weapon: Weapon, mode: WeaponMode) -> str:
    return f"{weapon.key}/{mode.name}"


def mode_label(weapon: Weapon, mode: WeaponMode) -> str:
    dice = dice_text(mode.damage.fixed) if mode.damage.fixed is not None else "?"
    return f"{weapon.name} ({mode.name}, {dice}, {weapon.size.value}, {mode.reach_text})"


def mode_problem(attacker: Combatant, defender: Combatant, weapon: Weapon, mode: WeaponMode) -> str:
    problem = attack_problem(attacker, weapon, mode)
    if problem is not None:
        return problem
    if not reaches(attacker, mode, defender):
        return "out of range" if mode.is_ranged else "out of reach"
    return ""


def reaching_modes(attacker: Combatant, defender: Combatant) -> Iterator[tuple[Weapon, WeaponMode]]:
    for weapon in attacker.fighter.weapons:
        for mode in weapon.modes:
            if not mode_problem(attacker, defender, weapon, mode):
                yield weapon, mode


def offered_attacks(
    state: BattleState, attacker: Combatant, defender: Combatant
) -> Iterator[OfferedAttack[Attack002]]:
    """Each reaching weapon mode, with none of the GM's situation: the attacks a
    fighter chooses among (the seed aims at no location; the defense is the
    defender's answer)."""
    for weapon, mode in reaching_modes(attacker, defender):
        yield OfferedAttack(Attack002(weapon.key, mode.name), f"{weapon.name}, {mode.name}")


def parry_weapons(defender: Combatant) -> Iterator[Weapon]:
    for w in defender.fighter.weapons:
        if parry_problem(defender, w) is None:
            yield w


def likely_defense(defender: Combatant, mode: WeaponMode) -> tuple[DefenseKind, str]:
    """Against a close combat attack, a parry with the defender's largest weapon
    that can parry (the first of the largest) when its skill is at least its
    Dodge; else a dodge."""
    if not mode.is_ranged:
        sheet = sheet_of(defender)
        able = [w for w in parry_weapons(defender) if sheet.skill(w.skill) >= sheet.skill(DODGE)]
        if able:
            largest = max(able, key=lambda w: w.size.rank)
            return DefenseKind.PARRY, largest.key
    return DefenseKind.DODGE, ""


def _pick(field_choices: tuple[FormChoice, ...], wanted: str | None, default: str) -> str:
    allowed = {c.key for c in field_choices if not c.problem}
    if wanted is not None and wanted in allowed:
        return wanted
    return default if default in allowed or not allowed else sorted(allowed)[0]


def _section_field(
    key: str, label: str, section_key: str, ranged: bool, entries: Mapping[str, str], tooltip: str
) -> FormField:
    section = ranged_section(section_key)
    problem = "" if ranged else RANGED_ONLY
    choices = (
        FormChoice("", "none"),
        *(FormChoice(r.key, r.label, problem, tooltip=str(r.citation)) for r in section.rows),
    )
    return FormField(key, label, choices, _pick(choices, entries.get(key), ""), tooltip)


def _flag(
    key: str, label: str, entries: Mapping[str, str], tooltip: str, problem: str = ""
) -> FormField:
    on = entries.get(key) == FLAG_ON and not problem
    return FormField(key, label, (), FLAG_ON if on else FLAG_OFF, tooltip or problem, flag=True)


def _defense_shift(
    state: BattleState,
    attacker: Combatant,
    defender: Combatant,
    chosen: tuple[Weapon, WeaponMode] | None,
    entries: Mapping[str, str],
) -> int:
    """The situational modifiers' total on any defense against the chosen mode
    (the map's, the mounts' and the defender's wounds), 0 with no mode."""
    if chosen is None:
        return 0
    gm = GMSituation(
        attacker_mounted=entries.get("attacker_mounted") == FLAG_ON,
        defender_mounted=entries.get("defender_mounted") == FLAG_ON,
    )
    return total(situation(state, attacker, defender, chosen[1], gm).defense)


def _skill_text(base: int, shift: int) -> str:
    """ "40%", or with the situation "40%, now 15%"."""
    return f"{base}%" if not shift else f"{base}%, now {base + shift}%"


def attack_form(
    state: BattleState, attacker_id: str, defender_id: str, entries: Mapping[str, str]
) -> AttackForm:
    attacker, defender = state.combatant(attacker_id), state.combatant(defender_id)
    weapon_choices = tuple(
        FormChoice(mode_key(w, m), mode_label(w, m), mode_problem(attacker, defender, w, m))
        for w in attacker.fighter.weapons
        for m in w.modes
    )
    first = next((c.key for c in weapon_choices if not c.problem), "")
    chosen_key = _pick(weapon_choices, entries.get("weapon"), first)
    chosen = next(
        ((w, m) for w in attacker.fighter.weapons for m in w.modes if mode_key(w, m) == chosen_key),
        None,
    )
    ranged = chosen is not None and chosen[1].is_ranged
    helpless = entries.get("helpless") == FLAG_ON
    no_defense = no_defense_reason(defender, GMSituation(helpless=helpless))
    shift = _defense_shift(state, attacker, defender, chosen, entries)
    defense_choices: list[FormChoice] = [
        FormChoice(
            "dodge", f"dodge ({_skill_text(sheet_of(defender).skill(DODGE), shift)})", no_defense
        )
    ]
    for w in defender.fighter.weapons:
        problem = no_defense or (parry_problem(defender, w) or "")
        if not problem and ranged:
            problem = "a ranged attack can be dodged, not parried"
        skill = _skill_text(sheet_of(defender).skill(w.skill), shift)
        defense_choices.append(
            FormChoice(
                f"parry:{w.key}", f"parry with the {w.name} ({skill}, {w.size.value})", problem
            )
        )
    undefended = (
        f"{defender.name} is {no_defense}"
        if no_defense
        else f"{defender.name} takes the blow without a dodge or parry"
    )
    defense_choices.append(FormChoice("none", "no defense", notice=f"No defense: {undefended}."))
    likely = "none"
    if chosen is not None and not no_defense:
        kind, key = likely_defense(defender, chosen[1])
        likely = f"parry:{key}" if kind is DefenseKind.PARRY else "dodge"
    defense_key = _pick(tuple(defense_choices), entries.get("defense"), likely)
    fields = (
        FormField(
            "weapon",
            "Weapon",
            weapon_choices,
            chosen_key,
            "The weapon and mode; its skill is rolled on d100",
        ),
        FormField(
            "defense",
            "Defense",
            tuple(defense_choices),
            defense_key,
            "The defender's reaction (OpenQuest SRD): dodge, parry or none",
        ),
        _section_field("wind", "Wind", "wind", ranged, entries, "002 Ranged: Wind"),
        _section_field(
            "movement",
            "Target movement",
            "movement",
            ranged,
            entries,
            "002 Ranged: Target Movement",
        ),
        _section_field(
            "obscured",
            "Smoke, mist, fog",
            "visibility",
            ranged,
            entries,
            "002 Ranged: Target Visibility (the map adds its darkness)",
        ),
        _flag(
            "helpless",
            "Target helpless",
            entries,
            "Close combat: an automatic critical; ranged: +25%; no defense",
        ),
        _flag(
            "blinded",
            "Attacker blinded",
            entries,
            "002 Ranged: Attacker is blinded (-50%)",
            "" if ranged else RANGED_ONLY,
        ),
        _flag(
            "attacker_mounted",
            "Attacker mounted",
            entries,
            "002 Close: +25% to the attacker, -25% to the defense",
        ),
        _flag(
            "defender_mounted",
            "Defender mounted",
            entries,
            "002 Close: +25% to the defender's defense",
        ),
    )
    if (
        chosen is None
        or not chosen_key
        or next(c for c in weapon_choices if c.key == chosen_key).problem
    ):
        return AttackForm(
            fields, None, f"{defender.name} is beyond every weapon of {attacker.name}"
        )
    values = {f.key: f.value for f in fields}
    if values["defense"] == "dodge":
        defense, parry = DefenseKind.DODGE, ""
    elif values["defense"].startswith("parry:"):
        defense, parry = DefenseKind.PARRY, values["defense"].removeprefix("parry:")
    else:
        defense, parry = DefenseKind.NONE, ""
    gm = GMSituation(
        wind=values["wind"] if ranged else "",
        movement=values["movement"] if ranged else "",
        obscured=values["obscured"] if ranged else "",
        helpless=values["helpless"] == FLAG_ON,
        blinded=values["blinded"] == FLAG_ON,
        attacker_mounted=values["attacker_mounted"] == FLAG_ON,
        defender_mounted=values["defender_mounted"] == FLAG_ON,
    )
    weapon, mode = chosen
    answer = Seed002Answer(defense, parry)
    return AttackForm(fields, Attack002(weapon.key, mode.name, gm), answer=answer)
