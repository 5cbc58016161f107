"""Seed 003's attack as a form (``rules.sets.attack_form``): the weapon and mode,
the part aimed at (each greyed with its reason where it cannot be aimed at), the
large-target and widespread flags, and the defender's answer (``Seed003Answer``:
its defense, the better one unless the GM picks)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from rules.battle.hands import hand_problem
from rules.battle.model import Combatant
from rules.battle.state import BattleState
from rules.sets.attack_form import FLAG_OFF, FLAG_ON, AttackForm, FormChoice, FormField
from rules.sets.components.fudge_locations import AIM_TARGETS, UNAIMED
from rules.sets.components.legal_actions import OfferedAttack
from rules.sets.seed003.combat import (
    Choices003,
    Defense,
    Seed003Answer,
    aim_problem,
    attack_side,
    best_defense,
    defense_options,
    hidden_parts,
    reach_problem,
)
from rules.sets.seed003.tracks import body_of

BEST = "best"


def weapon_choices(attacker: Combatant, defender: Combatant) -> tuple[FormChoice, ...]:
    body = body_of(attacker)
    choices = []
    for weapon in attacker.fighter.weapons:
        for mode in weapon.modes:
            problem = ""
            if weapon.key in attacker.unready:
                problem = f"the {weapon.name} is not ready"
            else:
                problem = (
                    hand_problem(attacker, weapon.key)
                    or reach_problem(attacker, defender, mode)
                    or ""
                )
                if not problem:
                    problem = attack_side(attacker, weapon, body)[1] or ""
            factor = mode.damage.adds
            label = f"{weapon.name}, {mode.name} ({factor:+d})"
            choices.append(FormChoice(f"{weapon.key}:{mode.name}", label, problem))
    return tuple(choices)


def offered_attacks(
    state: BattleState, attacker: Combatant, defender: Combatant
) -> Iterator[OfferedAttack[Choices003]]:
    """Each usable weapon mode at each part it can aim at (003 5.871), the
    unaimed blow at the torso first, with neither GM's flag (a large target, a
    widespread blast): the attacks a fighter chooses among. The defense is the
    defender's answer."""
    hidden = hidden_parts(state, defender)
    for weapon in weapon_choices(attacker, defender):
        if weapon.problem:
            continue
        weapon_key, _, mode_name = weapon.key.partition(":")
        mode = attacker.fighter.weapon(weapon_key).mode(mode_name)
        for target in AIM_TARGETS:
            if aim_problem(target.key, attacker, defender, mode, False, hidden):
                continue
            yield OfferedAttack(
                Choices003(weapon_key, mode_name, aim=target.key),
                f"{weapon.label}, at the {target.label.lower()}",
            )


def _pick(choices: tuple[FormChoice, ...], wanted: str | None) -> str:
    allowed = [c.key for c in choices if not c.problem]
    if wanted in allowed:
        return str(wanted)
    return allowed[0] if allowed else (choices[0].key if choices else "")


def attack_form(
    state: BattleState, attacker_id: str, defender_id: str, entries: Mapping[str, str]
) -> AttackForm:
    attacker = state.combatant(attacker_id)
    defender = state.combatant(defender_id)
    weapons = weapon_choices(attacker, defender)
    weapon_value = _pick(weapons, entries.get("weapon"))
    weapon_field = FormField(
        "weapon", "Weapon", weapons, weapon_value, tooltip="The weapon and its damage factor"
    )
    widespread = entries.get("widespread") == FLAG_ON
    large = entries.get("large") == FLAG_ON
    flags = (
        FormField(
            "large",
            "Large target (+1 to hit, -1 damage)",
            (),
            FLAG_ON if large else FLAG_OFF,
            tooltip="003 5.871",
            flag=True,
        ),
        FormField(
            "widespread",
            "Widespread (a blast: half damage to every part)",
            (),
            FLAG_ON if widespread else FLAG_OFF,
            tooltip="003 5.876",
            flag=True,
        ),
    )
    usable = [c for c in weapons if not c.problem]
    if not usable:
        problem = weapons[0].problem if weapons else f"{attacker.name} has no weapon"
        aim_field = FormField(
            "aim", "Aim at", (FormChoice(UNAIMED.key, UNAIMED.label),), UNAIMED.key
        )
        return AttackForm((weapon_field, aim_field, *flags), None, problem)
    weapon_key, _, mode_name = weapon_value.partition(":")
    mode = attacker.fighter.weapon(weapon_key).mode(mode_name)
    hidden = hidden_parts(state, defender)
    aims = tuple(
        FormChoice(
            t.key,
            f"{t.label} ({t.penalty:+d})" if t.penalty else t.label,
            aim_problem(t.key, attacker, defender, mode, widespread, hidden) or "",
        )
        for t in AIM_TARGETS
    )
    aim_value = _pick(aims, entries.get("aim"))
    aim_field = FormField(
        "aim",
        "Aim at",
        aims,
        aim_value,
        tooltip="003 5.871: the penalty by the part's size; none named: torso",
    )
    options = defense_options(attacker, defender, mode)
    defenses = (
        FormChoice(BEST, f"Best ({best_defense(attacker, defender, mode).value})"),
        *(FormChoice(k.value, k.value.capitalize(), p or "") for k, p in options.items()),
    )
    defense_value = _pick(defenses, entries.get("defense"))
    defense_field = FormField("defense", "Defense", defenses, defense_value)
    choices = Choices003(
        weapon_key,
        mode_name,
        aim=aim_value,
        large_target=large,
        widespread=widespread,
    )
    answer = Seed003Answer(None if defense_value == BEST else Defense(defense_value))
    return AttackForm((weapon_field, aim_field, defense_field, *flags), choices, answer=answer)
