"""Turns in initiative order, maneuvers and the GM's override, for every ruleset.

The API (what the turn-tracker pane and the other panes use):

State (``rules.battle.state.BattleState``):
  ``state.initiative``: combatant ids in turn order; ``state.active_id``: whose
  turn it is (None until the order is rolled); ``state.round`` (= ``state.turn``):
  the round; ``state.turns_running``: whether the turn rules are checked.
  ``upcoming(state, ruleset)``: who comes next, in order (the dead skipped, and
  with the ruleset those it offers no maneuver, ``can_act``: their turns pass).
  On a combatant: ``Combatant.maneuver`` (a ``ManeuverChoice``: key, option,
  implied; None until chosen), ``Combatant.attacks_made`` this turn and
  ``Combatant.maneuver_last_turn`` (the previous turn's, once a new one began).

The ruleset (``BattleRuleset``, and so ``rules.sets.protocol.Ruleset``):
  ``ruleset.turns.maneuvers(state, id)``: the maneuvers a combatant may choose now
  (``rules.battle.maneuvers.Maneuver``: key, label, citation, description,
  attacks, movement, active_defenses, out_of_turn, permits (``ManeuverAction``:
  readying, a posture change), options with their bonuses and ``same_foe``);
  ``ruleset.maneuver(key)``; ``ruleset.turns.initiative(state, dice)``;
  ``ruleset.turns.turn_begins`` / ``turn_ends`` (the conditions that tick);
  ``Turns.legal_actions(state, id)`` (commands, the maneuvers among them) and
  ``Conditions.labels(combatant)`` (stunned, bleeding ... for the tracker).
  ``ruleset.turns.posture_move(posture)`` (how far a fighter in that posture moves a
  turn: a prone one crawls one hex).
  ``terms_of(ruleset, combatant)``, ``movement_left(state, ruleset, combatant)``
  and ``attacks_left(ruleset, combatant)`` read a combatant's maneuver here;
  ``move_limit(state, ruleset, combatant, maneuver, option)`` is how far it may
  move under a maneuver in its posture (a fighter without one: as far as the
  widest maneuver still open to it, ``widest_open_maneuver``, allows; a stunned
  one's Do nothing, not at all);
  ``maneuver_problems(state, ruleset, combatant, maneuver, option)`` says why a
  maneuver no longer fits what it did this turn (empty: it may still take it);
  ``action_problems(state, ruleset, combatant, action)`` why it may not ready or
  change posture now, and the maneuver that action takes when it chose none.

Commands (all frozen dataclasses of plain data):
  ``StartTurns()``: roll the order (ruleset's initiative), begin the first turn
  (``start_turns(state, ruleset, dice)`` does the same to a state: the window's
  demo battle starts with its order, ``app.main_window.load_demo_battle``);
  ``EndTurn()`` (``rules.battle.commands``, Ctrl+Return, the tracker's "Next"): the
  active fighter's turn ends and the next one's begins, after the last a new
  round; a fighter who cannot act when its turn begins (unconscious) is passed
  over at once, its end-of-turn effects included (``begin_turn_or_pass``);
  ``ChooseManeuver(combatant_id, maneuver, option="", gm_override=False)``.
  ``Attack``, ``MoveCombatant``, ``TurnCombatant``, ``ReadyWeapon``,
  ``ReadyShield``, ``PickUpItem``, ``PutAwayItem`` and ``SetPosture`` take
  ``gm_override=False`` too.

Refusals and overrides: while the turns run, an action out of turn, beyond the
maneuver (a second attack, an all-out attack's second attack on another foe, a
move or turn past the movement points or, without a maneuver, past what the
maneuvers still open to it allow, a move further than its posture lets it (a
prone fighter crawls), a ready under a maneuver other than Ready, a posture
change under one other than Change posture) or on a dead foe raises
``OverridableError`` (an ``IllegalCommandError``) with the reason for the status
bar; other refusals cannot be overridden. A fighter without a maneuver who
attacks, readies or changes posture takes the maneuver that allows it (logged as
an implied ``ManeuverChosen``), if what it did this turn fits it. With
``gm_override=True`` it is done, and each rule so set aside is a
``RuleOverridden`` event in the log. Before the order is rolled no turn rule is
checked (the GM sets the battle up; one Ready a turn still holds) and ``EndTurn``
ends everybody's turn at once: the ruleset's end-of-turn effects for all, then its
start-of-turn effects for each combatant in the battle's order.

Events: ``TurnOrderSet``, ``TurnBegan``, ``ManeuverChosen``, ``RuleOverridden``
(and ``TurnEnded``, the separator of a new round).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from rules.battle.command_events import TurnEnded
from rules.battle.falls import turn_step_with_falls
from rules.battle.maneuvers import (
    Maneuver,
    ManeuverAction,
    ManeuverChoice,
    ManeuverTerms,
    MoveAllowance,
)
from rules.battle.model import ActionKind, Combatant, Status
from rules.battle.movement import PostureMove, new_turn
from rules.battle.state import BattleRuleset, BattleState, Command, CommandResult
from rules.core.dice import DiceSource
from rules.core.errors import IllegalCommandError, RulesError
from rules.core.events import CombatantEvent, Event


class OverridableError(IllegalCommandError):
    """A refusal that the same command with ``gm_override=True`` would set aside
    (a turn rule); other ``IllegalCommandError``s (off the map, out of reach ...)
    stand whatever the GM says."""


# --- events ----------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class TurnOrderSet(Event):
    """The turn order of the round that begins (its first fighter comes first)."""

    round: int
    order: tuple[str, ...]
    names: tuple[str, ...]

    def describe(self) -> str:
        return f"Turn order for round {self.round}: {', '.join(self.names)}"

    def involved_combatants(self) -> tuple[str, ...]:
        return self.order


@dataclass(frozen=True, kw_only=True)
class TurnBegan(CombatantEvent):
    round: int

    def describe(self) -> str:
        return f"Round {self.round}: {self.name}'s turn"


@dataclass(frozen=True, kw_only=True)
class ManeuverChosen(CombatantEvent):
    maneuver: str  # the ruleset's key
    option: str
    label: str  # "All-out attack (+4 to hit)"
    implied: bool = False  # taken by an action without a maneuver chosen
    implied_by: str = "attacks"  # that action, as the log says it ("readies")

    def describe(self) -> str:
        if self.implied:
            return f"{self.name} {self.implied_by} without choosing a maneuver: {self.label}"
        return f"{self.name} chooses {self.label}"


@dataclass(frozen=True, kw_only=True)
class RuleOverridden(CombatantEvent):
    """The GM forced an action that a rule forbade; ``reason`` is that rule."""

    action: str  # "attack", "move" ...
    reason: str

    def describe(self) -> str:
        return f"GM override ({self.action}): {self.reason}"


def maneuver_chosen(
    who: Combatant,
    maneuver: Maneuver,
    option: str = "",
    *,
    implied: bool = False,
    implied_by: str = "attacks",
) -> ManeuverChosen:
    """The log's event for ``who`` taking ``maneuver`` with ``option`` (``implied``:
    taken by an action, ``implied_by``, without a maneuver chosen)."""
    return ManeuverChosen(
        citation=maneuver.citation,
        combatant_id=who.id,
        name=who.name,
        maneuver=maneuver.key,
        option=option,
        label=maneuver.describe_choice(option),
        implied=implied,
        implied_by=implied_by,
    )


# --- reading a combatant's maneuver -----------------------------------------------------


def terms_of(ruleset: BattleRuleset, who: Combatant) -> ManeuverTerms | None:
    """The terms of the combatant's maneuver; None while it has chosen none."""
    if who.maneuver is None:
        return None
    return ruleset.turns.maneuver(who.maneuver.key).terms(who.maneuver.option)


def hexes_moved(who: Combatant) -> int:
    """Hexes entered this turn."""
    return max(0, len(who.path_this_turn) - 1)


_ALLOWANCE_ORDER = (
    MoveAllowance.NONE,
    MoveAllowance.STEP,
    MoveAllowance.HALF,
    MoveAllowance.FULL,
)


@dataclass(frozen=True, slots=True)
class MoveLimit:
    """How far a combatant may move this turn: its maneuver's allowance (for one
    without a maneuver, the widest of those still open to it, ``maneuver``), as
    movement points (``points``; None for a step or none) and hexes (``hexes``;
    None: as far as the points go), its posture (``posture``) applied."""

    allowance: MoveAllowance
    maneuver: Maneuver | None
    option: str
    chosen: bool  # the fighter chose (or an action took) its maneuver
    points: int | None
    hexes: int | None
    posture: PostureMove

    def allows(self, used: int, hexes: int) -> bool:
        """Whether ``used`` movement points and ``hexes`` hexes this turn stay
        within the limit (what ``allowance_problem`` checks)."""
        if self.maneuver is None or self.allowance is MoveAllowance.NONE:
            return hexes <= 0
        if self.allowance is MoveAllowance.STEP and hexes > 1:
            return False
        if self.hexes is not None and hexes > self.hexes:
            return False
        return self.points is None or used <= self.points


def widest_open_maneuver(
    state: BattleState, ruleset: BattleRuleset, who: Combatant
) -> Maneuver | None:
    """Of the maneuvers the ruleset offers ``who`` now, the one that moves it
    furthest (the first of those that move as far); None when it offers none."""
    offered = ruleset.turns.maneuvers(state, who.id)
    if not offered:
        return None
    return max(offered, key=lambda m: _ALLOWANCE_ORDER.index(m.movement))


def move_limit(
    state: BattleState,
    ruleset: BattleRuleset,
    who: Combatant,
    maneuver: Maneuver | None,
    option: str = "",
) -> MoveLimit:
    """How far ``who`` may move this turn under ``maneuver`` (None: it chose none
    yet, and may move only as far as the maneuvers still open to it allow, a
    stunned fighter's Do nothing none), in its posture (``BattleRuleset.
    posture_move``: a prone fighter crawls one hex)."""
    chosen = maneuver is not None
    if maneuver is None:
        maneuver = widest_open_maneuver(state, ruleset, who)
        option = ""
    allowance = MoveAllowance.NONE if maneuver is None else maneuver.terms(option).movement
    posture = ruleset.turns.posture_move(who.posture)
    move = posture.move_points(who.fighter.move)
    points: int | None = None
    hexes = posture.hexes
    if allowance is MoveAllowance.FULL:
        points = move
    elif allowance is MoveAllowance.HALF:
        points = move // 2
    elif allowance is MoveAllowance.STEP:
        hexes = 1 if hexes is None else min(1, hexes)
    else:
        hexes = 0
    return MoveLimit(allowance, maneuver, option, chosen, points, hexes, posture)


def movement_left(
    state: BattleState, ruleset: BattleRuleset, who: Combatant
) -> tuple[MoveAllowance, int]:
    """How far the combatant may still move this turn (``move_limit`` of its
    maneuver, or of the widest still open to it): movement points for a full or
    half Move; hexes for a step, none, or a posture that counts hexes (a prone
    fighter's crawl: ``TurnRules.posture_move(posture).hexes`` is then set),
    0 or less once the movement points are spent."""
    chosen = None if who.maneuver is None else ruleset.turns.maneuver(who.maneuver.key)
    option = "" if who.maneuver is None else who.maneuver.option
    limit = move_limit(state, ruleset, who, chosen, option)
    points_left = None if limit.points is None else limit.points - who.move_used
    if limit.hexes is None:
        assert points_left is not None  # a full or half Move counts points
        return limit.allowance, points_left
    hexes_left = limit.hexes - hexes_moved(who)
    if points_left is not None and points_left <= 0:
        return limit.allowance, min(hexes_left, points_left)
    return limit.allowance, hexes_left


def attacks_left(ruleset: BattleRuleset, who: Combatant) -> int:
    """Attacks the combatant's maneuver still allows this turn (a fighter without
    a maneuver may still take the ruleset's attack maneuver: 1)."""
    terms = terms_of(ruleset, who)
    allowed = 1 if terms is None else terms.attacks
    return allowed - who.attacks_made


def upcoming(state: BattleState, ruleset: BattleRuleset | None = None) -> tuple[str, ...]:
    """Who comes after the active fighter, in order, once round (the dead skipped;
    with ``ruleset``, also those it offers no maneuver now, whose turns pass over
    them: ``can_act``)."""
    if state.active_id is None:
        return ()
    order = state.initiative
    start = order.index(state.active_id)
    after = order[start + 1 :] + order[:start]
    alive = (i for i in after if state.combatant(i).status is not Status.DEAD)
    if ruleset is None:
        return tuple(alive)
    return tuple(i for i in alive if can_act(state, ruleset, i))


def can_act(state: BattleState, ruleset: BattleRuleset, combatant_id: str) -> bool:
    """Whether the ruleset offers the combatant any maneuver now (seed 000: not the
    unconscious or the dead): a turn that begins without one passes at once."""
    return bool(ruleset.turns.maneuvers(state, combatant_id))


# --- the checks ---------------------------------------------------------------------------


def overrule(
    problems: Sequence[str], gm_override: bool, who: Combatant, action: str
) -> tuple[RuleOverridden, ...]:
    """Nothing when nothing is wrong; the first problem as an
    ``IllegalCommandError`` without the override; with it, one ``RuleOverridden``
    event per problem."""
    if not problems:
        return ()
    if not gm_override:
        raise OverridableError(problems[0])
    return tuple(
        RuleOverridden(combatant_id=who.id, name=who.name, action=action, reason=p)
        for p in problems
    )


def turn_problem(state: BattleState, who: Combatant, doing: str) -> str | None:
    """Why ``who`` may not act now, or None: only on its own turn, once the turns run."""
    if state.active_id is None or who.id == state.active_id:
        return None
    if who.id not in state.initiative:
        return f"{who.name} has no place in the turn order and cannot {doing}"
    active = state.combatant(state.active_id)
    return f"it is {active.name}'s turn: {who.name} cannot {doing}"


def allowance_problem(
    state: BattleState,
    ruleset: BattleRuleset,
    who: Combatant,
    maneuver: Maneuver | None,
    option: str = "",
) -> str | None:
    """Why what ``who`` has moved this turn exceeds what ``maneuver`` allows in
    its posture (``move_limit``; None: the widest maneuver still open to it), or
    None."""
    limit = move_limit(state, ruleset, who, maneuver, option)
    used, hexes = who.move_used, hexes_moved(who)
    if limit.allows(used, hexes):
        return None
    if limit.maneuver is None:
        basis = f"{who.name} can take no maneuver now and"
        return f"{basis} may not move" if hexes > 0 else None
    label = limit.maneuver.describe_choice(limit.option)
    allows = (
        f"{label} allows"
        if limit.chosen
        else f"with no maneuver chosen, the most still open to it, {label}, allows"
    )
    if limit.allowance is MoveAllowance.NONE and hexes > 0:
        return f"{who.name} would move {hexes} hex(es) this turn; {allows} no movement"
    if limit.allowance is MoveAllowance.STEP and hexes > 1:
        return f"{who.name} would move {hexes} hexes this turn; {allows} one step"
    if limit.hexes is not None and hexes > limit.hexes:
        return f"{who.name} would move {hexes} hex(es) this turn; {limit.posture.rule}"
    if limit.points is None or used <= limit.points:
        return None
    spend = f"{who.name} would spend {used} movement points this turn"
    move = who.fighter.move
    crouched = limit.posture.move_points(move) != move
    if limit.allowance is MoveAllowance.HALF:
        return f"{spend}; {allows} half its Move, {limit.points}"
    if crouched:
        return f"{spend}; {limit.posture.rule}, {limit.points}"
    if not limit.chosen and limit.allowance is MoveAllowance.FULL:
        return f"{spend}; its Move is {move}"
    return f"{spend}; {allows} {move}"


def maneuver_problems(
    state: BattleState,
    ruleset: BattleRuleset,
    who: Combatant,
    maneuver: Maneuver,
    option: str = "",
) -> list[str]:
    """Why ``maneuver`` no longer fits what ``who`` did this turn: moved further or
    attacked more often than it allows."""
    problems: list[str] = []
    moved = allowance_problem(state, ruleset, who, maneuver, option)
    if moved is not None:
        problems.append(moved)
    terms = maneuver.terms(option)
    if who.attacks_made > terms.attacks:
        problems.append(
            f"{who.name} has attacked {who.attacks_made} time(s) this turn; "
            f"{maneuver.describe_choice(option)} allows {terms.attacks}"
        )
    return problems


def attack_problems(
    state: BattleState, ruleset: BattleRuleset, attacker: Combatant, defender: Combatant
) -> tuple[list[str], ManeuverChoice | None]:
    """What forbids this attack while the turns run, and the maneuver it implies
    for an attacker who chose none (the ruleset's attack maneuver)."""
    problems: list[str] = []
    if defender.status is Status.DEAD:
        problems.append(f"{defender.name} is dead")
    maneuver = None if attacker.maneuver is None else ruleset.turns.maneuver(attacker.maneuver.key)
    option = "" if attacker.maneuver is None else attacker.maneuver.option
    implied: ManeuverChoice | None = None
    if maneuver is None:
        maneuver = next(
            (m for m in ruleset.turns.maneuvers(state, attacker.id) if m.implied_by_attack), None
        )
        if maneuver is None:
            problems.append(f"{attacker.name} has no maneuver that allows an attack now")
        else:
            implied = ManeuverChoice(maneuver.key, "", implied=True)
            moved = allowance_problem(state, ruleset, attacker, maneuver)
            if moved is not None:
                problems.append(moved)
    terms = None if maneuver is None else maneuver.terms(option)
    if terms is not None and maneuver is not None and terms.same_foe:
        others = other_foes_attacked(state, attacker, defender)
        if others:
            problems.append(
                f"{maneuver.describe_choice(option)} puts every attack on one foe: "
                f"{attacker.name} has attacked {', '.join(others)} this turn"
            )
    waiting = terms is not None and terms.out_of_turn
    if not waiting:
        late = turn_problem(state, attacker, "attack")
        if late is not None:
            problems.append(late)
    if terms is not None and maneuver is not None:
        label = maneuver.describe_choice(option)
        if terms.attacks == 0:
            problems.append(f"{attacker.name}'s maneuver, {label}, allows no attack")
        elif attacker.attacks_made >= terms.attacks:
            made = attacker.attacks_made
            problems.append(
                f"{attacker.name} has made {made} attack{'s' if made != 1 else ''} this turn; "
                f"{label} allows {terms.attacks}"
            )
    return problems, implied


def other_foes_attacked(
    state: BattleState, attacker: Combatant, defender: Combatant
) -> tuple[str, ...]:
    """The names of the foes other than ``defender`` that ``attacker`` attacked this
    turn (its record of the turn, ``Combatant.actions_this_turn``)."""
    ids = dict.fromkeys(
        a.target_id
        for a in attacker.actions_this_turn
        if a.kind is ActionKind.ATTACK and a.target_id not in (None, defender.id)
    )
    names = {c.id: c.name for c in state.combatants}
    return tuple(names.get(i, i) for i in ids if i is not None)


def action_problems(
    state: BattleState, ruleset: BattleRuleset, who: Combatant, action: ManeuverAction
) -> tuple[list[str], ManeuverChoice | None]:
    """What forbids ``who`` a ready or a posture change (``action``) while the turns
    run: not its turn, or a maneuver that does not permit it; and the maneuver the
    action takes for a fighter who chose none (the first on offer that permits it,
    provided what it did this turn fits that maneuver)."""
    problems: list[str] = []
    late = turn_problem(state, who, action.infinitive)
    if late is not None:
        problems.append(late)
    permitting = [m for m in ruleset.turns.maneuvers(state, who.id) if action in m.permits]
    implied: ManeuverChoice | None = None
    if who.maneuver is None:
        if not permitting:
            problems.append(f"{who.name} has no maneuver now that lets it {action.infinitive}")
        else:
            implied = ManeuverChoice(permitting[0].key, "", implied=True)
            problems.extend(maneuver_problems(state, ruleset, who, permitting[0]))
        return problems, implied
    held = ruleset.turns.maneuver(who.maneuver.key)
    if action not in held.permits:
        label = held.describe_choice(who.maneuver.option)
        choose = f" (choose {permitting[0].label})" if permitting else ""
        problems.append(f"{who.name}'s maneuver, {label}, allows no {action.noun}{choose}")
    return problems, implied


# --- the turn sequence -------------------------------------------------------------------


def start_afresh(c: Combatant) -> Combatant:
    """A combatant's new turn: this turn's actions and maneuver become last turn's
    record, and this turn's start empty; path, movement points, free facing change,
    the Ready, the maneuver and the attacks made start afresh."""
    fresh = new_turn(c)
    if c.actions_this_turn:
        fresh = replace(fresh, actions_this_turn=())
    if c.actions_last_turn != c.actions_this_turn or c.ready_used:
        fresh = replace(fresh, actions_last_turn=c.actions_this_turn, ready_used=False)
    if c.maneuver is not None or c.attacks_made:
        fresh = replace(fresh, maneuver=None, attacks_made=0)
    if c.maneuver_last_turn != c.maneuver:
        fresh = replace(fresh, maneuver_last_turn=c.maneuver)
    return fresh


def begin_turn(
    state: BattleState, ruleset: BattleRuleset, combatant_id: str, dice: DiceSource
) -> tuple[BattleState, tuple[Event, ...]]:
    """``combatant_id``'s turn begins: its record starts afresh (the battle's and
    the ruleset's ``new_turn``), then the ruleset's start-of-turn effects."""
    who = state.combatant(combatant_id)
    fresh = ruleset.turns.new_turn(start_afresh(who))
    state = replace(state.with_combatants(fresh), active_id=combatant_id)
    began = TurnBegan(
        citation=ruleset.core_citations.turn_sequence,
        combatant_id=who.id,
        name=who.name,
        round=state.turn,
    )
    state, ticks = turn_step_with_falls(
        ruleset.turns.turn_begins, state, combatant_id, dice, ruleset
    )
    return state, (began, *ticks)


def begin_turn_or_pass(
    state: BattleState, ruleset: BattleRuleset, combatant_id: str, dice: DiceSource
) -> tuple[BattleState, tuple[Event, ...]]:
    """``combatant_id``'s turn begins (``begin_turn``). A fighter who cannot act once
    it has begun (``can_act``: unconscious, or fallen so at its start) is passed
    over: its turn ends at once, with the ruleset's end-of-turn effects (an
    unconscious fighter still bleeds), and the next one's begins, after the last of
    the order in a new round. When nobody else in the order can act, the turn stays
    with the fighter reached, for the GM to end."""
    events: list[Event] = []
    current = combatant_id
    passes_left = 2 * len(state.initiative)  # every fighter twice: more means a loop
    while True:
        state, began = begin_turn(state, ruleset, current, dice)
        events.extend(began)
        if can_act(state, ruleset, current) or passes_left <= 0:
            return state, tuple(events)
        others = [
            i
            for i in state.initiative
            if i != current
            and state.combatant(i).status is not Status.DEAD
            and can_act(state, ruleset, i)
        ]
        if not others:
            return state, tuple(events)
        passes_left -= 1
        state, ended = turn_step_with_falls(ruleset.turns.turn_ends, state, current, dice, ruleset)
        events.extend(ended)
        current, new_round = next_in_order(state, current)
        if new_round:
            state = replace(state, turn=state.turn + 1)
            events.append(TurnEnded(citation=ruleset.core_citations.turn_sequence, turn=state.turn))


def next_in_order(state: BattleState, after_id: str) -> tuple[str, bool]:
    """The next fighter after ``after_id`` who is not dead, and whether the round
    ended on the way."""
    order = state.initiative
    start = order.index(after_id)
    for step in range(1, len(order) + 1):
        candidate = order[(start + step) % len(order)]
        if state.combatant(candidate).status is not Status.DEAD:
            return candidate, start + step >= len(order)
    raise IllegalCommandError("nobody in the turn order can take a turn")


def end_active_turn(
    state: BattleState, ruleset: BattleRuleset, dice: DiceSource
) -> tuple[BattleState, tuple[Event, ...]]:
    """The active fighter's turn ends (the ruleset's end-of-turn effects), and the
    next one's begins (``begin_turn_or_pass``: passing over those who cannot act);
    after the last of the order, a new round."""
    if state.active_id is None:
        raise IllegalCommandError("the turn order has not been rolled")
    ending = state.active_id
    state, ended = turn_step_with_falls(ruleset.turns.turn_ends, state, ending, dice, ruleset)
    following, new_round = next_in_order(state, ending)
    events: list[Event] = list(ended)
    if new_round:
        state = replace(state, turn=state.turn + 1)
        events.append(TurnEnded(citation=ruleset.core_citations.turn_sequence, turn=state.turn))
    state, began = begin_turn_or_pass(state, ruleset, following, dice)
    return state, (*events, *began)


def _order_event(state: BattleState, ruleset: BattleRuleset) -> TurnOrderSet:
    return TurnOrderSet(
        citation=ruleset.core_citations.turn_sequence,
        round=state.turn,
        order=state.initiative,
        names=tuple(state.combatant(i).name for i in state.initiative),
    )


def start_turns(
    state: BattleState, ruleset: BattleRuleset, dice: DiceSource
) -> tuple[BattleState, tuple[Event, ...]]:
    """The state with its turn order rolled by the ruleset's initiative and the
    first fighter's turn begun (``StartTurns``; a battle that starts with its
    order, as the window's demo battle, is built with it). Rolled again while the
    turns run, it begins a new round."""
    order, rolled = ruleset.turns.initiative(state, dice)
    if not order:
        raise IllegalCommandError("nobody can take a turn")
    events: list[Event] = list(rolled)
    if state.turns_running:
        state = replace(state, turn=state.turn + 1)
        events.append(TurnEnded(citation=ruleset.core_citations.turn_sequence, turn=state.turn))
    state = replace(state, initiative=order, active_id=order[0])
    first, _ = next_in_order(state, order[-1])
    events.append(_order_event(state, ruleset))
    state, began = begin_turn_or_pass(state, ruleset, first, dice)
    return state, (*events, *began)


@dataclass(frozen=True)
class StartTurns(Command):
    """Roll the turn order by the ruleset's initiative and begin the first
    fighter's turn (``start_turns``). Rolled again while the turns run, it begins
    a new round."""

    def apply(self, state: BattleState, rng: DiceSource, ruleset: BattleRuleset) -> CommandResult:
        after, events = start_turns(state, ruleset, rng)
        return CommandResult(after, events)


@dataclass(frozen=True)
class ChooseManeuver(Command):
    """``combatant_id`` takes the ruleset's maneuver ``maneuver`` (its key), with
    ``option`` for one that has options ("" is its first). On its own turn, one the
    ruleset offers it now, and not less than it has done this turn already (moved,
    attacked), unless ``gm_override``. Choosing again replaces the choice."""

    combatant_id: str
    maneuver: str
    option: str = ""
    gm_override: bool = False

    def apply(self, state: BattleState, rng: DiceSource, ruleset: BattleRuleset) -> CommandResult:
        who = state.combatant(self.combatant_id)
        try:
            maneuver = ruleset.turns.maneuver(self.maneuver)
        except RulesError as e:
            raise IllegalCommandError(str(e)) from None
        option = self.option
        if maneuver.options and maneuver.option(option) is None:
            if option:
                known = ", ".join(o.key for o in maneuver.options)
                raise IllegalCommandError(
                    f"{maneuver.label} has no option {option!r} (it has {known})"
                )
            option = maneuver.options[0].key
        elif not maneuver.options and option:
            raise IllegalCommandError(f"{maneuver.label} has no options")
        choice = ManeuverChoice(maneuver.key, option)
        if who.maneuver == choice:
            return CommandResult(state, ())
        label = maneuver.describe_choice(option)
        problems: list[str] = []
        late = turn_problem(state, who, "choose a maneuver")
        if late is not None:
            problems.append(late)
        if maneuver.key not in {m.key for m in ruleset.turns.maneuvers(state, who.id)}:
            problems.append(f"{who.name} cannot take {label} now")
        problems.extend(maneuver_problems(state, ruleset, who, maneuver, option))
        overridden = overrule(problems, self.gm_override, who, "maneuver")
        after = state.with_combatants(replace(who, maneuver=choice))
        return CommandResult(after, (*overridden, maneuver_chosen(who, maneuver, option)))
