"""Seed 004's attack as a form (``rules.sets.attack_form``) for the generic
attack pane: the weapon and mode (with its damage type), the zone aimed at
(greyed where aiming is impossible, with the reason), the defender's defense
(its answer, ``Seed004Answer``; greyed when it can make none: surprised, fallen,
or shot at), and the GM's
situational fields: a difficulty adjustment, the vital organs exposed, a
surprise attack."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from hexmap import in_reach
from rules.battle.hands import hand_problem
from rules.battle.model import Combatant, Delivery, Weapon, WeaponMode
from rules.battle.state import BattleState
from rules.sets.attack_form import FLAG_OFF, FLAG_ON, AttackForm, FormChoice, FormField
from rules.sets.components.legal_actions import OfferedAttack
from rules.sets.components.zones_2d6 import Zone, aim_problem
from rules.sets.seed004.attack import (
    Defense,
    Seed004Answer,
    Seed004Attack,
    damage_label,
    defense_block,
    shot_range,
    target_size,
)

ADJUSTMENTS = tuple(range(-6, 7))
RANDOM = "random"


def mode_key(weapon: Weapon, mode: WeaponMode) -> str:
    return f"{weapon.key}/{mode.name}"


def mode_problem(attacker: Combatant, defender: Combatant, weapon: Weapon, mode: WeaponMode) -> str:
    if weapon.key in attacker.unready:
        return f"{weapon.name} is not ready"
    not_in_hand = hand_problem(attacker, weapon.key)
    if not_in_hand is not None:
        return not_in_hand
    if mode.damage.fixed is None or mode.delivery is Delivery.THROWN:
        return "seed 004 plays weapons with their own damage dice, and throws none"
    if mode.is_ranged:
        if shot_range(attacker, defender, mode) is None:
            return f"{defender.name} is out of range"
        return ""
    if not in_reach(attacker.hex, attacker.facing, mode.reach, defender.hex):
        return f"{defender.name} is out of reach"
    return ""


def reaching_modes(attacker: Combatant, defender: Combatant) -> Iterator[tuple[Weapon, WeaponMode]]:
    for weapon in attacker.fighter.weapons:
        for mode in weapon.modes:
            if not mode_problem(attacker, defender, weapon, mode):
                yield weapon, mode


def offered_attacks(
    state: BattleState, attacker: Combatant, defender: Combatant
) -> Iterator[OfferedAttack[Seed004Attack]]:
    """Each reaching weapon mode, at a random zone and at each zone that can be
    aimed at (004 Zones), with none of the GM's situational fields: the attacks
    a fighter chooses among (the defender's defense is its answer)."""
    size = target_size(defender)
    zones: tuple[Zone | None, ...] = (None, *(z for z in Zone if not aim_problem(size, z)))
    for weapon, mode in reaching_modes(attacker, defender):
        for zone in zones:
            aim = "a random zone" if zone is None else f"at the {zone.label}"
            yield OfferedAttack(
                Seed004Attack(weapon.key, mode.name, zone), f"{weapon.name}, {mode.name}, {aim}"
            )


def _taken(field_choices: tuple[FormChoice, ...], wanted: str | None, default: str) -> str:
    allowed = {c.key for c in field_choices if not c.problem}
    if wanted in allowed:
        assert wanted is not None
        return wanted
    return default


def attack_form(
    state: BattleState, attacker_id: str, defender_id: str, entries: Mapping[str, str]
) -> AttackForm:
    attacker = state.combatant(attacker_id)
    defender = state.combatant(defender_id)
    weapon_choices = tuple(
        FormChoice(
            mode_key(w, m),
            f"{w.name}: {m.name} ({m.damage.fixed or m.damage.base.value} {damage_label(m)})",
            mode_problem(attacker, defender, w, m),
        )
        for w in attacker.fighter.weapons
        for m in w.modes
    )
    first = next((c.key for c in weapon_choices if not c.problem), "")
    weapon_value = _taken(weapon_choices, entries.get("weapon"), first)
    size = target_size(defender)
    aim_choices = (
        FormChoice(RANDOM, "random zone (2d6)", tooltip="Roll 2d6 on the zone table (004 Zones)"),
        *(
            FormChoice(
                z.value,
                f"{z.label} (x{z.multiplier})",
                aim_problem(size, z),
                tooltip=f"Aiming: the {size.label} target is made "
                f"{2 if z.is_vital else 1} size step(s) smaller (004 Zones)",
            )
            for z in Zone
        ),
    )
    aim_value = _taken(aim_choices, entries.get("aim"), RANDOM)
    surprise = entries.get("surprise", FLAG_OFF) == FLAG_ON
    wk, _, mn = weapon_value.partition("/")
    chosen = attacker.fighter.weapon(wk).mode(mn) if weapon_value else None
    blocked = defense_block(state, attacker, defender, surprise, chosen)
    undefended = blocked or f"{defender.name} takes the blow without a dodge or block"
    defense_choices = tuple(
        FormChoice(d.value, d.value, notice=f"No defense: {undefended}.")
        if d is Defense.NONE
        else FormChoice(d.value, d.value, blocked)
        for d in Defense
    )
    defense_value = _taken(
        defense_choices, entries.get("defense"), Defense.NONE.value if blocked else "dodge"
    )
    adjust_choices = tuple(FormChoice(str(a), f"{a:+d}" if a else "0") for a in ADJUSTMENTS)
    adjust_value = _taken(adjust_choices, entries.get("adjustment"), "0")
    exposed = entries.get("exposed", FLAG_OFF) == FLAG_ON
    fields = (
        FormField(
            "weapon", "Weapon", weapon_choices, weapon_value, "The weapon and how it is used"
        ),
        FormField("aim", "Aim", aim_choices, aim_value, "A zone aimed at, or a random zone"),
        FormField("defense", "Defense", defense_choices, defense_value, "The defender's reaction"),
        FormField(
            "adjustment",
            "GM difficulty",
            adjust_choices,
            adjust_value,
            "The GM's adjustment to the difficulty (base rules)",
        ),
        FormField(
            "exposed",
            "Vital organs exposed",
            (),
            FLAG_ON if exposed else FLAG_OFF,
            "Heart and brain lie open, no skull or rib cage before them: no bone rule "
            "applies and any blow on them does x6 (004 Humans)",
            flag=True,
        ),
        FormField(
            "surprise",
            "Surprise attack",
            (),
            FLAG_ON if surprise else FLAG_OFF,
            "The defender is unaware: no dodge or block (base rules)",
            flag=True,
        ),
    )
    if not weapon_value:
        return AttackForm(
            fields, None, f"none of {attacker.name}'s weapons reaches {defender.name}"
        )
    weapon_key, _, mode_name = weapon_value.partition("/")
    choices = Seed004Attack(
        weapon_key=weapon_key,
        mode=mode_name,
        zone=None if aim_value == RANDOM else Zone(aim_value),
        adjustment=int(adjust_value),
        exposed=exposed,
        surprise=surprise,
    )
    return AttackForm(fields, choices, answer=Seed004Answer(Defense(defense_value)))
