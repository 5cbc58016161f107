"""What a combatant may do now, as commands: the ruleset-neutral part of
``Ruleset.legal_actions`` that every ruleset shares.

``legal_actions(ruleset, state, combatant_id, ...)`` lists, in this order: each
maneuver (and maneuver option) it may still choose, an attack (the ruleset's
``default_attack``) on every foe its maneuver lets it attack, readying each
unready weapon, drawing each carried weapon and picking up each item in reach
that a free hand can take (under Ready, or with no maneuver yet; once a turn),
a step to each free neighbouring hex within the movement left, a turn to each
other facing within it, and the end of its own turn. While the turns run only
the fighter whose turn it is acts; one whose maneuver acts out of turn (a
waiting one) may still attack. A fallen fighter (not active, or ``helpless``)
may only end its own turn.

What differs between the rulesets is passed in: ``helpless`` (a condition that
leaves an active fighter nothing but ending its turn), ``attackable`` (which
foes may be attacked at all), ``may_attack`` (whether its maneuver lets it
attack now; ``attack_allowed`` is the common rule), ``pick_up`` (whether the
ruleset lets it pick items up) and ``maneuvers_before_turns`` (whether it may
choose a maneuver before the turn order is rolled)."""

from __future__ import annotations

from collections.abc import Callable

from hexmap import Facing
from rules.battle.commands import (
    EndTurn,
    MoveCombatant,
    PickUpItem,
    ReadyWeapon,
    TurnCombatant,
)
from rules.battle.hands import hands_of, pick_up_problem
from rules.battle.items import within_reach
from rules.battle.maneuvers import ManeuverAction
from rules.battle.model import Combatant, Status
from rules.battle.movement import face, walk
from rules.battle.state import BattleState
from rules.battle.turns import (
    ChooseManeuver,
    action_problems,
    allowance_problem,
    attacks_left,
    hexes_moved,
    maneuver_problems,
    movement_left,
    other_foes_attacked,
    terms_of,
    turn_problem,
)
from rules.battle.values import hex_name
from rules.sets.protocol import LegalAction, Ruleset, plain_attack


def attack_allowed(ruleset: Ruleset, state: BattleState, me: Combatant) -> bool:
    """The common rule: before the turns run always; then while its maneuver
    has an attack left, and with no maneuver yet only after one step at most
    (the implied attack maneuver allows a step)."""
    if state.turns_running and attacks_left(ruleset, me) <= 0:
        return False
    if state.turns_running and me.maneuver is None:
        return hexes_moved(me) <= 1
    return True


def not_dead(foe: Combatant) -> bool:
    """Any foe but the dead may be attacked."""
    return foe.status is not Status.DEAD


def never(me: Combatant) -> bool:
    return False


def legal_actions(
    ruleset: Ruleset,
    state: BattleState,
    combatant_id: str,
    *,
    helpless: Callable[[Combatant], bool] = never,
    attackable: Callable[[Combatant], bool] = not_dead,
    may_attack: Callable[[Ruleset, BattleState, Combatant], bool] = attack_allowed,
    pick_up: bool = True,
    maneuvers_before_turns: bool = True,
) -> tuple[LegalAction, ...]:
    """The combatant's legal actions in the shared order (see the module)."""
    me = state.combatant(combatant_id)
    own_turn = state.active_id == me.id
    if me.status is not Status.ACTIVE or helpless(me):
        return (LegalAction("end the turn", EndTurn()),) if own_turn else ()
    late = turn_problem(state, me, "act") is not None
    terms = terms_of(ruleset, me)
    if late and not (terms is not None and terms.out_of_turn):
        return ()
    actions: list[LegalAction] = []
    if not late and (maneuvers_before_turns or state.turns_running):
        chosen = None if me.maneuver is None else (me.maneuver.key, me.maneuver.option)
        for m in ruleset.maneuvers(state, me.id):
            for option in m.options or (None,):
                key = "" if option is None else option.key
                if chosen == (m.key, key):
                    continue
                if maneuver_problems(state, ruleset, me, m, key):
                    continue  # it moved or attacked more than this maneuver allows
                actions.append(
                    LegalAction(
                        f"maneuver: {m.describe_choice(key)}", ChooseManeuver(me.id, m.key, key)
                    )
                )
    if may_attack(ruleset, state, me):
        for foe in state.combatants:
            if foe.side is me.side or not attackable(foe):
                continue
            if terms is not None and terms.same_foe and other_foes_attacked(state, me, foe):
                continue  # the later attacks of a maneuver go to its first one's foe
            attack = plain_attack(ruleset, state, me.id, foe.id)
            if attack is not None:
                actions.append(LegalAction(f"attack {foe.name}", attack))
    if late:
        return tuple(actions)
    ready_blocked = state.turns_running and bool(
        action_problems(state, ruleset, me, ManeuverAction.READY)[0]
    )
    if not me.ready_used and not ready_blocked:  # under Ready, or none yet
        for weapon_key in sorted(me.unready):
            actions.append(LegalAction(f"ready {weapon_key}", ReadyWeapon(me.id, weapon_key)))
        for weapon in me.fighter.weapons:  # a carried weapon, into a free hand
            if weapon.key in hands_of(me).carried and pick_up_problem(me, weapon) is None:
                actions.append(LegalAction(f"draw {weapon.key}", ReadyWeapon(me.id, weapon.key)))
        for item in state.items if pick_up else ():
            gear = item.shield if item.shield is not None else item.weapon
            if within_reach(me, item) and gear is not None and pick_up_problem(me, gear) is None:
                actions.append(LegalAction(f"pick up {item.name}", PickUpItem(me.id, item.id)))
    held = None if me.maneuver is None else ruleset.maneuver(me.maneuver.key)
    held_option = "" if me.maneuver is None else me.maneuver.option
    moving = not state.turns_running or movement_left(state, ruleset, me)[1] > 0
    if me.movement_left > 0 and moving:
        for step in me.hex.neighbors():
            if step not in state.grid or state.occupant(step) is not None:
                continue
            stepped = walk(me, (me.hex, step)).combatant
            if state.turns_running and allowance_problem(
                state, ruleset, stepped, held, held_option
            ):
                continue  # a step to the side or back may cost more than is left
            actions.append(LegalAction(f"step to {hex_name(step)}", MoveCombatant(me.id, step)))
    for facing in Facing:
        if facing is me.facing:
            continue
        turned, _, _ = face(me, facing)
        if state.turns_running and allowance_problem(state, ruleset, turned, held, held_option):
            continue  # more hex sides than movement points left
        actions.append(LegalAction(f"face {facing.label}", TurnCombatant(me.id, facing)))
    if own_turn:
        actions.append(LegalAction("end the turn", EndTurn()))
    return tuple(actions)
