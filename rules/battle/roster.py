"""The GM adds and removes combatants: commands, so an addition is undone, saved
and replayed like a move.

``AddCombatant`` carries the whole combatant (its sheet as the template gave it,
side, hex and facing): a saved battle replays the same fighter even if the
template library changes later. While the turns run (``rules.battle.turns``) a
newcomer takes its place in the turn order by the ruleset's initiative; one who
leaves drops out of it, and if it was its turn, the next fighter's begins.

A newcomer's sheet passes the same checks as an edited one
(``rules.battle.edits.check_fighter``): what the battle refuses in any sheet (a
fighter without a name, weapons sharing a key, a reach longer than the map ...)
and a sheet of another ruleset (``SheetRules.refusal``). So neither a
battle file nor an import brings in a fighter that ``EditFighter`` would refuse.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from hexmap import Hex, parse_digits
from rules.battle.command_events import TurnEnded
from rules.battle.control import controller_set, with_controllers
from rules.battle.edits import check_fighter
from rules.battle.model import Combatant, Side
from rules.battle.state import BattleRuleset, BattleState, Command, CommandResult
from rules.battle.turns import begin_turn, next_in_order
from rules.battle.values import hex_name
from rules.core.citation import Citation
from rules.core.dice import DiceSource
from rules.core.errors import IllegalCommandError
from rules.core.events import CombatantEvent, Event

GM_ROSTER = Citation("hexfray", "the GM brings fighters into the battle and takes them out")


@dataclass(frozen=True, kw_only=True)
class CombatantAdded(CombatantEvent):
    at: Hex
    side: Side
    # The fighter it acts before in the running turn order ("" last, or no order yet).
    before_name: str = ""
    joined_order: bool = False

    def describe(self) -> str:
        text = f"{self.name} joins the battle at {hex_name(self.at)}"
        if self.joined_order:
            place = f"before {self.before_name}" if self.before_name else "last"
            text += f"; acts {place} in the turn order"
        return text

    def involved_hexes(self) -> tuple[Hex, ...]:
        return (self.at,)


@dataclass(frozen=True, kw_only=True)
class CombatantRemoved(CombatantEvent):
    at: Hex

    def describe(self) -> str:
        return f"{self.name} leaves the battle (from {hex_name(self.at)})"

    def involved_hexes(self) -> tuple[Hex, ...]:
        return (self.at,)


def next_combatant_id(state: BattleState) -> str:
    """A new id in the demo's style ("c7"): one more than the highest "c" number.
    Any other id a file may hold ("c²", "c" and thousands of digits) is passed over."""
    ids = {c.id for c in state.combatants}
    numbers = (parse_digits(c.id[1:]) for c in state.combatants if c.id[:1] == "c")
    number = max((n for n in numbers if n is not None), default=0) + 1
    while f"c{number}" in ids:  # passed over, yet spelt as a number: "c1000000000"
        number += 1
    return f"c{number}"


def place_in_order(
    state: BattleState, ruleset: BattleRuleset, newcomer_id: str, dice: DiceSource
) -> tuple[str, ...]:
    """The running turn order with ``newcomer_id`` at its place by the ruleset's
    initiative: before the first fighter of the order who ranks after it. The
    others keep their order (their ties were settled when it was rolled)."""
    ranked, _events = ruleset.turns.initiative(state, dice)
    if newcomer_id not in ranked:
        return (*state.initiative, newcomer_id)
    after_it = set(ranked[ranked.index(newcomer_id) + 1 :])
    order = list(state.initiative)
    for i, other in enumerate(order):
        if other in after_it:
            order.insert(i, newcomer_id)
            return tuple(order)
    return (*order, newcomer_id)


@dataclass(frozen=True)
class AddCombatant(Command):
    """Put ``combatant`` on the map (its id new, its hex on the map and free)."""

    combatant: Combatant

    def apply(self, state: BattleState, rng: DiceSource, ruleset: BattleRuleset) -> CommandResult:
        newcomer = self.combatant
        if any(c.id == newcomer.id for c in state.combatants):
            raise IllegalCommandError(f"a combatant with the id {newcomer.id!r} is on the map")
        if newcomer.hex not in state.grid:
            raise IllegalCommandError(f"{hex_name(newcomer.hex)} is off the map")
        occupant = state.occupant(newcomer.hex)
        if occupant is not None:
            raise IllegalCommandError(f"{occupant.name} stands at {hex_name(newcomer.hex)}")
        check_fighter(newcomer.fighter, state.grid, ruleset)
        after = replace(state, combatants=(*state.combatants, newcomer))
        before_name = ""
        if state.turns_running:
            order = place_in_order(after, ruleset, newcomer.id, rng)
            after = replace(after, initiative=order)
            following = order.index(newcomer.id) + 1
            if following < len(order):
                before_name = after.combatant(order[following]).name
        added = CombatantAdded(
            citation=GM_ROSTER,
            combatant_id=newcomer.id,
            name=newcomer.name,
            at=newcomer.hex,
            side=newcomer.side,
            before_name=before_name,
            joined_order=state.turns_running,
        )
        events: tuple[Event, ...] = (added,)
        joins_as = state.side_controller(newcomer.side)
        if joins_as is not None:  # its side is the computer's: so is the newcomer
            after = with_controllers(after, {newcomer.id: joins_as})
            events = (*events, controller_set(newcomer, joins_as))
        return CommandResult(after, events)


@dataclass(frozen=True)
class RemoveCombatant(Command):
    """Take ``combatant_id`` off the map (and out of the turn order; on its turn,
    the next fighter's turn begins)."""

    combatant_id: str

    def apply(self, state: BattleState, rng: DiceSource, ruleset: BattleRuleset) -> CommandResult:
        leaving = state.combatant(self.combatant_id)
        if state.controller(leaving.id) is not None:  # a newcomer given its id is the GM's
            kept = tuple(pair for pair in state.controllers if pair[0] != leaving.id)
            state = replace(state, controllers=kept)
        remaining = tuple(c for c in state.combatants if c.id != leaving.id)
        events: list[Event] = [
            CombatantRemoved(
                citation=GM_ROSTER, combatant_id=leaving.id, name=leaving.name, at=leaving.hex
            )
        ]
        if leaving.id not in state.initiative:
            return CommandResult(replace(state, combatants=remaining), tuple(events))
        order = tuple(i for i in state.initiative if i != leaving.id)
        if state.active_id != leaving.id:
            after = replace(state, combatants=remaining, initiative=order)
            return CommandResult(after, tuple(events))
        # Its turn: the next fighter after it in the order begins (found while it is
        # still in the order, so the round ends if it was the last).
        try:
            following, new_round = next_in_order(state, leaving.id)
        except IllegalCommandError:  # nobody in the order can take a turn
            following, new_round = leaving.id, False
        if following == leaving.id:  # nobody else can: the order is over
            after = replace(state, combatants=remaining, initiative=(), active_id=None)
            return CommandResult(after, tuple(events))
        after = replace(state, combatants=remaining, initiative=order, active_id=following)
        if new_round:
            after = replace(after, turn=after.turn + 1)
            events.append(TurnEnded(citation=ruleset.core_citations.turn_sequence, turn=after.turn))
        after, began = begin_turn(after, ruleset, following, rng)
        return CommandResult(after, (*events, *began))
