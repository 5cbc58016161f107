"""What a combatant may do now, as commands: the ruleset-neutral part of
``Turns.legal_actions`` that every ruleset shares.

``legal_actions(ruleset, state, combatant_id, attacks=...)`` lists, in this
order: each maneuver (and maneuver option) it may still choose; every distinct
attack the ruleset offers (``attacks``: each ready weapon and mode, each aim,
each option of its attack form) on every foe its maneuver lets it attack, with
no defender's answer (the ``Attack`` command's answer is None: the defender
answers for itself); readying each unready weapon, drawing each carried weapon
and picking up each item in reach that a free hand can take (under Ready, or
with no maneuver yet; once a turn); standing up, for a fighter off its feet whose
maneuver (or none yet) permits a change of posture; each free hex within the
movement left with each facing it may end in there (``moves``); a turn in place
to each other facing within it; and the end of its own turn, the one action that ends it.
While the turns run only the fighter whose turn it is acts; one whose maneuver
acts out of turn (a waiting one) may still attack. A fallen fighter (not active,
or ``helpless``) may only end its own turn.

What differs between the rulesets is passed in: ``attacks`` (the attacks it
offers one attacker on one foe), ``helpless`` (a condition that leaves an active
fighter nothing but ending its turn), ``attackable`` (which foes may be attacked
at all), ``may_attack`` (whether its maneuver lets it attack now;
``attack_allowed`` is the common rule), ``pick_up`` (whether the ruleset lets it
pick items up) and ``maneuvers_before_turns`` (whether it may choose a maneuver
before the turn order is rolled)."""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

from hexmap import Facing, Hex
from rules.battle.attack_choices import AttackChoices
from rules.battle.commands import (
    Attack,
    EndTurn,
    MoveCombatant,
    PickUpItem,
    ReadyWeapon,
    SetPosture,
    TurnCombatant,
)
from rules.battle.hands import hands_of, pick_up_problem
from rules.battle.items import within_reach
from rules.battle.maneuvers import ManeuverAction
from rules.battle.model import Combatant, Posture, Status
from rules.battle.movement import step_cost, turn_cost
from rules.battle.state import BattleState
from rules.battle.turns import (
    ChooseManeuver,
    MoveLimit,
    action_problems,
    attacks_left,
    hexes_moved,
    maneuver_problems,
    move_limit,
    other_foes_attacked,
    terms_of,
    turn_problem,
)
from rules.battle.values import hex_name
from rules.sets.protocol import LegalAction, Ruleset

ChoicesT_co = TypeVar("ChoicesT_co", bound=AttackChoices, covariant=True)


@dataclass(frozen=True, slots=True)
class OfferedAttack(Generic[ChoicesT_co]):
    """One attack a ruleset offers an attacker on one foe: the attacker's choices,
    in the ruleset's own type (never the defender's answer), and what they are in
    a few words ("Broadsword, swing, at the skull")."""

    choices: ChoicesT_co
    what: str


# The attacks a ruleset offers ``attacker`` on ``defender`` as they stand, each
# distinct one once, the plain attack of the first weapon and mode first.
AttacksOffered = Callable[
    [BattleState, Combatant, Combatant], Iterable[OfferedAttack[AttackChoices]]
]


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
    attacks: AttacksOffered,
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
        return (_END_TURN,) if own_turn else ()
    late = turn_problem(state, me, "act") is not None
    terms = terms_of(ruleset, me)
    if late and not (terms is not None and terms.out_of_turn):
        return ()
    actions: list[LegalAction] = []
    if not late and (maneuvers_before_turns or state.turns_running):
        chosen = None if me.maneuver is None else (me.maneuver.key, me.maneuver.option)
        for m in ruleset.turns.maneuvers(state, me.id):
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
            for offered in attacks(state, me, foe):
                actions.append(
                    LegalAction(
                        f"attack {foe.name}: {offered.what}",
                        Attack(me.id, foe.id, offered.choices),
                    )
                )
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
    # Standing up from the ground (a Change posture, or what permits one): the
    # one posture change a computer fighter makes.
    if me.posture is not Posture.STANDING and not (
        state.turns_running and action_problems(state, ruleset, me, ManeuverAction.POSTURE)[0]
    ):
        actions.append(LegalAction("stand up", SetPosture(me.id, Posture.STANDING)))
    actions.extend(moves(state, ruleset, me))
    if own_turn:
        actions.append(_END_TURN)
    return tuple(actions)


_END_TURN = LegalAction("end the turn", EndTurn(), ends_turn=True)


def moves(state: BattleState, ruleset: Ruleset, me: Combatant) -> list[LegalAction]:
    """The moves the combatant's maneuver (or, with none yet, the widest still
    open to it) still allows in its posture (``rules.battle.turns.move_limit``):
    to each free hex it reaches within the movement points and hexes left, by
    the cheapest way round the other combatants, walked in its present facing
    (rules.battle.movement: 1 MP a step into the front arc, 2 else), then
    turned to each facing it can still pay for (the first hex side free after a
    step); then a turn in place to each other facing it can pay for. Before the
    turns run the same limits are kept, though nothing checks them then."""
    held = None if me.maneuver is None else ruleset.turns.maneuver(me.maneuver.key)
    option = "" if me.maneuver is None else me.maneuver.option
    limit = move_limit(state, ruleset, me, held, option)
    used, moved = me.move_used, hexes_moved(me)
    # What ending in each other facing costs after a step, the first side free.
    turns = [
        (f, turn_cost(me.facing, f, free_side=True), TurnCombatant(me.id, f))
        for f in Facing
        if f is not me.facing
    ]
    actions: list[LegalAction] = []
    for destination, (cost, path) in _reachable(state, me, limit).items():
        hexes = moved + len(path) - 1
        if not limit.allows(used + cost, hexes):
            continue
        stepped = MoveCombatant(me.id, destination, path)
        where = f"move to {hex_name(destination)}"
        actions.append(LegalAction(where, stepped))
        for facing, turning, turn in turns:
            if limit.allows(used + cost + turning, hexes):
                actions.append(LegalAction(f"{where}, facing {facing.name}", stepped, then=(turn,)))
    for facing in Facing:
        if facing is me.facing:
            continue
        turning = turn_cost(me.facing, facing, free_side=me.free_facing_change)
        if limit.allows(used + turning, moved):
            actions.append(LegalAction(f"face {facing.label}", TurnCombatant(me.id, facing)))
    return actions


def _reachable(
    state: BattleState, me: Combatant, limit: MoveLimit
) -> dict[Hex, tuple[int, tuple[Hex, ...]]]:
    """Each free hex ``me`` can walk to in its present facing within ``limit``,
    with the movement points of the cheapest way there that passes no other
    combatant, and that way (its own hex first); in the order found. The search
    runs on plain (q, r) pairs: building a ``Hex`` for every hex looked at
    would cost most of the time legal actions may take."""
    max_hexes = _hexes_left(limit, me)
    if max_hexes <= 0:
        return {}
    max_points = 1 << 16 if limit.points is None else limit.points - me.move_used
    # A step costs the same in a direction wherever it starts (it goes by facing).
    steps = [
        (d.vector.q, d.vector.r, step_cost(me.facing, me.hex, me.hex.neighbor(d))) for d in Facing
    ]
    width, height = state.grid.width, state.grid.height
    occupied = {(c.hex.q, c.hex.r) for c in state.combatants if c.id != me.id}
    start = (me.hex.q, me.hex.r)
    best: dict[tuple[int, int], tuple[int, int]] = {start: (0, 0)}
    came_from: dict[tuple[int, int], tuple[int, int]] = {}
    queue: list[tuple[int, int, tuple[int, int]]] = [(0, 0, start)]
    found: list[tuple[int, int]] = []
    while queue:
        cost, hexes, here = heapq.heappop(queue)
        if best[here] < (cost, hexes):
            continue  # a cheaper way here was found first
        if here != start:
            found.append(here)
        if hexes >= max_hexes:
            continue
        q, r = here
        for dq, dr, price in steps:
            total = cost + price
            if total > max_points:
                continue
            there = (q + dq, r + dr)
            col, row = there[0], there[1] + (there[0] - (there[0] & 1)) // 2  # Hex.to_offset
            if not (0 <= col < width and 0 <= row < height) or there in occupied:
                continue
            known = best.get(there)
            if known is not None and known <= (total, hexes + 1):
                continue
            best[there] = (total, hexes + 1)
            came_from[there] = here
            heapq.heappush(queue, (total, hexes + 1, there))
    paths: dict[tuple[int, int], tuple[Hex, ...]] = {start: (me.hex,)}
    reached: dict[Hex, tuple[int, tuple[Hex, ...]]] = {}
    for destination in found:  # cheapest first: the way to the hex before is known
        arrived = Hex(*destination)
        paths[destination] = (*paths[came_from[destination]], arrived)
        reached[arrived] = (best[destination][0], paths[destination])
    return reached


def _hexes_left(limit: MoveLimit, me: Combatant) -> int:
    """How many more hexes the limit lets ``me`` enter this turn (a large number
    when only its movement points count)."""
    if limit.maneuver is None:
        return 0
    if limit.hexes is None:  # a full or half Move: its points bound it
        return 1 << 16
    return limit.hexes - hexes_moved(me)
