"""Striking at a weapon on the map (000 STRIKING AT WEAPONS, 001 Striking at
Weapons in Tactical Combat): may this attacker strike at that weapon from where
both stand, and the record of whom each new turn action was aimed at."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from hexmap import Hex, in_front_arc, reaches_any
from rules.battle.battle import weapon_positions
from rules.battle.model import Combatant, WeaponMode
from rules.battle.state import BattleState
from rules.core.errors import IllegalCommandError
from rules.sets.seed000.weapon_strikes import WeaponStrikeRules


def _reaches(
    attacker: Combatant, weapon_key: str | None, hexes: Iterable[Hex], mode: str | None = None
) -> bool:
    """Does one of the attacker's weapons (``weapon_key``, or any) reach a hex of
    ``hexes`` with one of its modes (``mode``, or any)? A melee mode by its reach
    (``hexmap.in_reach``), a thrown or missile mode within its range in front: any
    weapon may be shot or thrown at (001 Breaking a Weapon)."""
    weapons = attacker.fighter.weapons
    if weapon_key is not None:
        weapons = tuple(w for w in weapons if w.key == weapon_key)
        if not weapons:
            raise IllegalCommandError(f"{attacker.name} has no weapon {weapon_key!r}")
    targets = tuple(hexes)
    return any(
        _mode_reaches(attacker, m, targets)
        for w in weapons
        for m in w.modes
        if mode is None or m.name == mode
    )


def _mode_reaches(attacker: Combatant, mode: WeaponMode, targets: tuple[Hex, ...]) -> bool:
    if not mode.is_ranged:
        return reaches_any(attacker.hex, attacker.facing, mode.reach, targets)
    limit = mode.range_hexes or 0
    return any(
        0 < attacker.hex.distance(h) <= limit and in_front_arc(attacker.hex, attacker.facing, h)
        for h in targets
    )


def can_strike_at_weapon(
    state: BattleState,
    attacker_id: str,
    target_id: str,
    weapon_key: str,
    *,
    used_against_attacker_this_turn: bool | None = None,
    attacker_weapon_key: str | None = None,
    attacker_mode: str | None = None,
    strikes: WeaponStrikeRules,
) -> tuple[bool, str]:
    """May ``attacker_id`` strike at ``target_id``'s weapon ``weapon_key``?
    Returns (allowed, reason with its citation).

    Allowed when a hex of the weapon (``weapon_positions``) lies within the
    attacker's reach or range (with ``attacker_weapon_key`` and ``attacker_mode``,
    or any weapon and mode), and always -
    000 STRIKING AT WEAPONS - when the weapon attacked, parried or feinted
    against the attacker this turn (``used_against_attacker_this_turn``; None:
    read from the target's turn record), or - 001 Striking at Weapons in Tactical
    Combat - for a reach 2+ weapon that attacked or feinted against the attacker
    this turn or last turn (the attacker's first turn after it). ``strikes`` is the
    battle's weapon-strike rules (``Tables.weapon_strikes``)."""
    attacker = state.combatant(attacker_id)
    target = state.combatant(target_id)
    positions = weapon_positions(target)
    if weapon_key not in positions:
        if any(w.key == weapon_key for w in target.fighter.weapons):
            return False, "bare hands are struck as a hit location, not as a weapon"
        raise IllegalCommandError(f"{target.name} holds no weapon {weapon_key!r}")
    weapon = target.fighter.weapon(weapon_key)
    in_reach = _reaches(attacker, attacker_weapon_key, positions[weapon_key], attacker_mode)
    used = (
        used_against_attacker_this_turn
        if used_against_attacker_this_turn is not None
        else weapon_key in target.weapons_used_against(attacker.id)
    )
    recent = weapon_key in (
        target.weapons_attacked_or_feinted_with(attacker.id)
        | target.weapons_attacked_or_feinted_with(attacker.id, last_turn=True)
    )
    verdict = strikes.targetable(
        weapon,
        weapon_in_reach=in_reach,
        used_against_attacker_this_turn=used,
        attacked_or_feinted_last_turn=recent,
    )
    return verdict.allowed, f"{verdict.reason} ({verdict.citation})"


def tag_targets(before: Combatant, after: Combatant, other_id: str) -> Combatant:
    """Mark the actions an attack added to ``after`` with whom they were aimed at
    (the defender for the attacker's attack, the attacker for the defenses)."""
    old = before.actions_this_turn
    new = after.actions_this_turn
    if new[: len(old)] != old or len(new) == len(old):
        return after
    if all(a.target_id is not None for a in new[len(old) :]):
        return after  # resolve_attack tagged its own: no copy
    tagged = tuple(
        a if a.target_id is not None else replace(a, target_id=other_id) for a in new[len(old) :]
    )
    return after.evolve(actions_this_turn=old + tagged)
