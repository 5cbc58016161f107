"""A fighter who goes down falls where it stands and lets go of what it holds.

Every ruleset says when a fighter is down (``ConditionRules.fighter_condition``:
knocked out, killed, incapacitated, paralysed from the neck); what follows is the
same in every system, so the battle does it (``fall_and_let_go``): at once
after the step of the turn that put the fighter down (the end or the start of a
fighter's turn, ``rules.battle.turns``), else after the command that did
(``rules.battle.aftermath``), with ``falls_since``:

* it lies prone in its hex (the rulesets' lying-target modifiers then apply);
* what its hands held drops in that hex, as ground items anyone can pick up
  (``rules.battle.items``). No die is rolled: a hand that goes limp lets go
  straight down.

What it lets go of (``let_go_of``): everything in its hands, as the hands model
reads them (``rules.battle.hands``), but a strapped shield (medium, large), a force
shield and a worn cloak stay on the fighter; a hand-held shield (a buckler, or a
small shield, as 000 CRITICAL MISSES ON DEFENSE ROLLS reads "small hand-held
shields") drops. What it carries without holding stays carried.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from hexmap import Hex
from rules.battle.condition import FighterCondition
from rules.battle.hands import hands_of
from rules.battle.items import (
    GroundItem,
    item_from_shield,
    item_from_weapon,
    item_id,
    take_from_hand,
)
from rules.battle.model import Combatant, Posture, ShieldSize
from rules.battle.movement import apply_fall
from rules.battle.state import BattleRuleset, BattleState
from rules.battle.values import hex_name
from rules.core.dice import DiceSource
from rules.core.events import CombatantEvent, Event

# A ruleset's step of one fighter's turn (``TurnRules.turn_begins``, ``turn_ends``).
TurnStep = Callable[[BattleState, str, DiceSource], tuple[BattleState, tuple[Event, ...]]]

# Shields held in the hand rather than strapped to the arm: they drop with the hand.
HAND_HELD_SHIELDS = frozenset({ShieldSize.BUCKLER, ShieldSize.SMALL})


def let_go_of(combatant: Combatant) -> tuple[str, ...]:
    """The keys of what ``combatant`` lets go of as it goes down (the module docstring)."""
    shield = combatant.fighter.shield
    strapped = shield.key if shield is not None and shield.size not in HAND_HELD_SHIELDS else None
    return tuple(key for key in hands_of(combatant).held if key != strapped)


@dataclass(frozen=True, kw_only=True)
class LetGo(CombatantEvent):
    """A fighter who went down let go: what its hands held lies in its hex."""

    how: str  # "unconscious", "dead" ... (``rules.battle.condition.Down``)
    item_ids: tuple[str, ...]
    item_names: tuple[str, ...]
    hex: Hex

    def describe(self) -> str:
        names = [f"the {n}" for n in self.item_names]
        listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
        verb = "lies" if len(names) == 1 else "lie"
        return f"{self.name} ({self.how}) lets go: {listed} {verb} at {hex_name(self.hex)}"

    def involved_hexes(self) -> tuple[Hex, ...]:
        return (self.hex,)


def fall_and_let_go(
    state: BattleState, combatant_id: str, condition: FighterCondition
) -> tuple[BattleState, tuple[Event, ...]]:
    """``combatant_id``, down as ``condition`` says, falls prone in its hex (unless
    it lies there already) and what its hands held drops there. Nothing changes for
    a fighter who is not down."""
    if condition.down is None or condition.citation is None:
        return state, ()
    who = state.combatant(combatant_id)
    events: list[Event] = []
    fallen, fell = apply_fall(who, Posture.PRONE, citation=condition.citation)
    if fell is not None:
        events.append(fell)
    items: list[GroundItem] = []
    for key in let_go_of(fallen):
        fallen, held = take_from_hand(fallen, key)
        new_id = item_id(state.next_item + len(items))
        if held.shield is not None:
            items.append(item_from_shield(held.shield, new_id, fallen.hex, fallen.id))
        elif held.weapon is not None:
            items.append(
                item_from_weapon(held.weapon, new_id, fallen.hex, fallen.id, held.weapon_state)
            )
    state = state.with_combatants(fallen)
    for item in items:
        state = state.with_new_item(item)
    if items:
        events.append(
            LetGo(
                citation=condition.citation,
                combatant_id=who.id,
                name=who.name,
                how=condition.down.value,
                item_ids=tuple(i.id for i in items),
                item_names=tuple(i.name for i in items),
                hex=fallen.hex,
            )
        )
    return state, tuple(events)


def falls_since(
    before: BattleState, after: BattleState, ruleset: BattleRuleset
) -> tuple[BattleState, tuple[Event, ...]]:
    """``after`` with every fighter that it finds down, and ``before`` did not
    (``ruleset.conditions.fighter_condition``), fallen and let go, and the events. A fighter
    new in ``after`` comes as the GM made it; one left alone is not asked again."""
    if after.combatants is before.combatants:
        return after, ()
    earlier = {c.id: c for c in before.combatants}
    state = after
    events: list[Event] = []
    for c in after.combatants:
        was = earlier.get(c.id)
        if was is None or was is c:
            continue
        now = ruleset.conditions.fighter_condition(c, details=False)
        if (
            now.down is None
            or ruleset.conditions.fighter_condition(was, details=False).down is not None
        ):
            continue
        state, fell = fall_and_let_go(state, c.id, now)
        events.extend(fell)
    return state, tuple(events)


def turn_step_with_falls(
    step: TurnStep,
    state: BattleState,
    combatant_id: str,
    dice: DiceSource,
    ruleset: BattleRuleset,
) -> tuple[BattleState, tuple[Event, ...]]:
    """The ruleset's ``step`` of ``combatant_id``'s turn, and at once the falls of
    whom it put down (a failed roll to stay conscious, bleeding to death), so that
    the log tells them before the next turn begins."""
    after, events = step(state, combatant_id, dice)
    after, fell = falls_since(state, after, ruleset)
    return after, (*events, *fell)
