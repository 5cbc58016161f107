"""The battle's commands: moving and turning, the end of a turn, the attack, the
GM's edits, items, terrain, posture and the ruleset's options. Once the turn order
runs (rules.battle.turns) the move, turn, attack, Ready (``ReadyWeapon``,
``ReadyShield``, ``PickUpItem``) and posture commands check whose turn it is and
what its maneuver allows; ``gm_override`` forces them, and the log marks each rule
so set aside (``RuleOverridden``)."""

from __future__ import annotations

from dataclasses import dataclass, replace

import rules.battle.control  # (SetControllers: saved with these)
import rules.battle.edits  # (EditFighter and the side commands: saved with these)
import rules.battle.roster  # (AddCombatant, RemoveCombatant: saved with these)
import rules.battle.side_control  # (SetSideControllers: saved with these)
import rules.battle.together  # noqa: F401  (Together: saved with these)
from hexmap import Facing, Hex
from rules.battle.attack_choices import AttackChoices, DefenderAnswer
from rules.battle.battle import apply_map_effects, place_launched_pieces
from rules.battle.command_events import (
    Edited,
    Moved,
    RulesetOptionsSet,
    TerrainPainted,
    Turned,
    TurnEnded,
)
from rules.battle.falls import turn_step_with_falls
from rules.battle.hands import draw, hands_of, pick_up_problem, put_away
from rules.battle.items import (
    GroundItem,
    ItemDropped,
    ItemKind,
    ItemPickedUp,
    ItemPlaced,
    MapEffect,
    PutAway,
    Readied,
    drop_candidates,
    icon_key,
    item_from_piece,
    item_from_shield,
    item_id,
    put_in_hand,
    take_from_hand,
    weapon_of,
    within_reach,
)
from rules.battle.maneuvers import ManeuverAction
from rules.battle.model import Combatant, Posture, Shield, Status, Weapon
from rules.battle.movement import (
    check_path,
    default_path,
    face,
    set_posture,
    walk,
)
from rules.battle.pieces import AT_FEET, Piece
from rules.battle.state import BattleRuleset, BattleState, Command, CommandResult
from rules.battle.terrain import TerrainChange
from rules.battle.turns import (
    action_problems,
    allowance_problem,
    attack_problems,
    end_active_turn,
    maneuver_chosen,
    overrule,
    start_afresh,
    turn_problem,
)
from rules.battle.values import hex_name
from rules.core.dice import DiceSource, roll
from rules.core.errors import IllegalCommandError, RulesError
from rules.core.events import Event


def _movement_check(
    state: BattleState,
    ruleset: BattleRuleset,
    before: Combatant,
    after: Combatant,
    action: str,
    gm_override: bool,
) -> tuple[Event, ...]:
    """The rules of a move or turn while the turns run (``before`` on its own turn,
    ``after`` within its maneuver's movement, or without one within the widest
    maneuver still open to it, in its posture: ``rules.battle.turns.move_limit``);
    the override's events."""
    if not state.turns_running:
        return ()
    problems = [turn_problem(state, before, action)]
    chosen = before.maneuver
    maneuver = None if chosen is None else ruleset.turns.maneuver(chosen.key)
    option = "" if chosen is None else chosen.option
    problems.append(allowance_problem(state, ruleset, after, maneuver, option))
    found = [p for p in problems if p is not None]
    return overrule(found, gm_override, before, action)


@dataclass(frozen=True)
class MoveCombatant(Command):
    """Move a combatant to ``destination`` along ``path`` (adjacent hexes, from its
    own hex - which may be left out - to the destination), or by default along
    the straight line (``hexmap.hex_line``). Records the path of the turn and the
    movement points spent (rules.battle.movement); only the destination must be free.
    While the turns run: only on its own turn and within its maneuver's movement
    (rules.battle.turns), unless ``gm_override``."""

    combatant_id: str
    destination: Hex
    path: tuple[Hex, ...] | None = None
    gm_override: bool = False

    def apply(
        self, state: BattleState, rng: DiceSource, ruleset: BattleRuleset
    ) -> CommandResult:
        mover = state.combatant(self.combatant_id)
        if self.destination not in state.grid:
            raise IllegalCommandError(f"{hex_name(self.destination)} is off the map")
        blocker = state.occupant(self.destination)
        if blocker is not None and blocker.id != mover.id:
            raise IllegalCommandError(f"{blocker.name} stands in that hex")
        if self.path is None:
            path = default_path(mover.hex, self.destination)
        elif self.path and self.path[0] == mover.hex:
            path = self.path
        else:
            path = (mover.hex, *self.path)
        if path[-1] != self.destination:
            raise IllegalCommandError("the path must end at the destination")
        walked = walk(mover, check_path(path, state.grid))
        moved = walked.combatant
        overridden = _movement_check(state, ruleset, mover, moved, "move", self.gm_override)
        event = Moved(
            citation=ruleset.core_citations.movement,
            combatant_id=mover.id,
            name=mover.name,
            path=walked.path,
            cost=walked.cost,
            move_used=moved.move_used,
            move=mover.fighter.move,
            verb=ruleset.turns.posture_move(mover.posture).verb,
        )
        return CommandResult(state.with_combatants(moved), (*overridden, event))


@dataclass(frozen=True)
class TurnCombatant(Command):
    """Face another way: 1 MP per hex side, one side free after a step
    (rules.battle.movement). While the turns run, on its own turn only and within
    its maneuver's movement points (a step or none: turning is free), unless
    ``gm_override``."""

    combatant_id: str
    facing: Facing
    gm_override: bool = False

    def apply(
        self, state: BattleState, rng: DiceSource, ruleset: BattleRuleset
    ) -> CommandResult:
        who = state.combatant(self.combatant_id)
        turned, cost, free = face(who, self.facing)
        overridden = _movement_check(state, ruleset, who, turned, "turn", self.gm_override)
        event = Turned(
            citation=ruleset.core_citations.movement,
            combatant_id=who.id,
            name=who.name,
            before=who.facing,
            after=self.facing,
            cost=cost,
            free_side=free,
        )
        return CommandResult(state.with_combatants(turned), (*overridden, event))


@dataclass(frozen=True)
class EndTurn(Command):
    """Ends the turn (Ctrl+Return, the tracker's "Next"). While the turn order runs
    (rules.battle.turns): the active fighter's turn ends with the ruleset's
    end-of-turn effects for it, and the next fighter's begins (its record starts
    afresh, then its start-of-turn effects; one who cannot act is passed over);
    after the last of the order a new round begins. Before the order is rolled it
    ends everybody's turn and begins everybody's next at once, as the order does
    one fighter at a time: with this command's dice, each combatant's end-of-turn
    effects (``TurnRules.turn_ends``: recovery, bleeding ...) in the battle's
    order; then every combatant's movement, Ready and record of the turn start
    afresh with the ruleset's own new turn (defenses counted anew ...); then each
    combatant's start-of-turn effects (``TurnRules.turn_begins``: staying
    conscious, a knockdown's fall ...)."""

    def apply(
        self, state: BattleState, rng: DiceSource, ruleset: BattleRuleset
    ) -> CommandResult:
        if state.turns_running:
            after, in_order = end_active_turn(state, ruleset, rng)
            return CommandResult(after, in_order)
        events: list[Event] = []
        for c in state.combatants:
            state, ended = turn_step_with_falls(ruleset.turns.turn_ends, state, c.id, rng, ruleset)
            events.extend(ended)
        fresh = tuple(ruleset.turns.new_turn(start_afresh(c)) for c in state.combatants)
        state = replace(state, combatants=fresh, turn=state.turn + 1)
        events.append(TurnEnded(turn=state.turn))
        for c in state.combatants:
            begins = ruleset.turns.turn_begins
            state, began = turn_step_with_falls(begins, state, c.id, rng, ruleset)
            events.extend(began)
        return CommandResult(state, tuple(events))


@dataclass(frozen=True)
class EditCombatant(Command):
    """The GM's direct edit of a combatant's current values."""

    combatant_id: str
    hp: int | None = None
    status: Status | None = None

    def apply(
        self, state: BattleState, rng: DiceSource, ruleset: BattleRuleset
    ) -> CommandResult:
        who = state.combatant(self.combatant_id)
        changes: list[tuple[str, str, str]] = []
        edited = who
        if self.hp is not None and self.hp != who.hp:
            changes.append(("HP", str(who.hp), str(self.hp)))
            edited = replace(edited, hp=self.hp)
        if self.status is not None and self.status is not who.status:
            changes.append(("status", who.status.value, self.status.value))
            edited = replace(edited, status=self.status)
        if not changes:
            return CommandResult(state, ())
        event = Edited(combatant_id=who.id, name=who.name, changes=tuple(changes))
        return CommandResult(state.with_combatants(edited), (event,))


@dataclass(frozen=True)
class Attack(Command):
    """One attack of ``attacker_id`` on ``defender_id``. ``choices`` are the
    attacker's, ``answer`` the defender's, each in the ruleset's own type
    (``rules.battle.attack_choices``; seed 004: ``Seed004Attack`` and
    ``Seed004Answer``); no answer means the ruleset's default answer to the
    planned attack. The ruleset plans and resolves the attack, and the battle
    puts whatever left a hand on the map with the same dice, after the attack's
    own rolls (docs/battlefield.md).

    While the turns run (rules.battle.turns): on the attacker's turn (or while it
    waits), within its maneuver's attacks, and never on a dead defender, unless
    ``gm_override``; an attacker without a maneuver takes the ruleset's attack
    maneuver, and the attack counts against its maneuver."""

    attacker_id: str
    defender_id: str
    choices: AttackChoices
    answer: DefenderAnswer | None = None
    gm_override: bool = False

    def apply(
        self, state: BattleState, rng: DiceSource, ruleset: BattleRuleset
    ) -> CommandResult:
        if self.attacker_id == self.defender_id:
            raise IllegalCommandError("a combatant cannot attack itself")
        first: list[Event] = []
        if state.turns_running:
            attacker = state.combatant(self.attacker_id)
            defender = state.combatant(self.defender_id)
            problems, implied = attack_problems(state, ruleset, attacker, defender)
            first.extend(overrule(problems, self.gm_override, attacker, "attack"))
            if implied is not None:
                maneuver = ruleset.turns.maneuver(implied.key)
                state = state.with_combatants(replace(attacker, maneuver=implied))
                first.append(maneuver_chosen(attacker, maneuver, implied=True))
        result = ruleset.attacks.attack(
            state, self.attacker_id, self.defender_id, self.choices, self.answer, rng
        )
        after = result.after
        if after is None:
            after = state.with_combatants(*result.combatants)
        if state.turns_running:
            counted = after.combatant(self.attacker_id)
            after = after.with_combatants(counted.evolve(attacks_made=counted.attacks_made + 1))
        after, placed = place_launched_pieces(state, after, result.pieces, rng, ruleset)
        return CommandResult(after, (*first, *result.events, *placed))


def _maneuver_check(
    state: BattleState,
    ruleset: BattleRuleset,
    who: Combatant,
    action: ManeuverAction,
    gm_override: bool,
    problems: list[str],
) -> tuple[Combatant, tuple[Event, ...]]:
    """The turn rules of a ready or posture change (``action``), with ``problems``
    found already: while the turns run, on its own turn and under a maneuver that
    permits it; a fighter without a maneuver takes the one that does (its
    ``ManeuverChosen`` is logged). Returns the combatant with that maneuver and the
    override's and the maneuver's events."""
    implied = None
    if state.turns_running:
        found, implied = action_problems(state, ruleset, who, action)
        problems = [*found, *problems]
    events = overrule(problems, gm_override, who, action.value)
    if implied is None:
        return who, events
    maneuver = ruleset.turns.maneuver(implied.key)
    chosen = maneuver_chosen(who, maneuver, implied=True, implied_by=action.verb)
    return replace(who, maneuver=implied), (*events, chosen)


def ready_check(
    state: BattleState, ruleset: BattleRuleset, who: Combatant, gm_override: bool
) -> tuple[Combatant, tuple[Event, ...]]:
    """The Ready maneuver's rules: one a turn, only for the active; while the turns
    run, on its own turn and under the Ready maneuver (taken by a fighter without
    one). The combatant under its maneuver and the override's events."""
    problems: list[str] = []
    if who.status is not Status.ACTIVE:
        problems.append(f"{who.name} is {who.status.value} and cannot take a Ready")
    if who.ready_used:
        problems.append(f"{who.name} has already taken a Ready maneuver this turn")
    return _maneuver_check(state, ruleset, who, ManeuverAction.READY, gm_override, problems)


@dataclass(frozen=True)
class DropItem(Command):
    """Drop a weapon or the shield (by key) deliberately (000 DROPPED WEAPONS): into
    ``to_hex`` if given, else - with ``random_hex`` - a candidate picked by the
    dice, else the combatant's own hex. The hex must be one of
    ``rules.battle.items.drop_candidates``. Dropping costs no maneuver."""

    combatant_id: str
    key: str
    to_hex: Hex | None = None
    random_hex: bool = False

    def apply(
        self, state: BattleState, rng: DiceSource, ruleset: BattleRuleset
    ) -> CommandResult:
        who = state.combatant(self.combatant_id)
        candidates = drop_candidates(who, state.grid)
        by_dice = False
        if self.to_hex is not None:
            if self.to_hex not in candidates:
                raise IllegalCommandError(
                    f"{who.name} can drop it only in a hex passed through this turn or next to one"
                )
            where = self.to_hex
        elif self.random_hex:
            what = f"which of {len(candidates)} hexes {who.name} drops it in (1: its own hex)"
            where = candidates[roll(1, rng, len(candidates), what=what)[0] - 1]
            by_dice = True
        else:
            where = who.hex
        emptied, held = take_from_hand(who, self.key)
        state = state.with_combatants(emptied)
        new_id = item_id(state.next_item)
        if held.shield is not None:
            item = item_from_shield(held.shield, new_id, where, who.id)
        else:
            assert held.weapon is not None
            item = item_from_piece(
                Piece(held.weapon.name, held.weapon, AT_FEET),
                new_id,
                where,
                who.id,
                held.weapon_state,
            )
        event = ItemDropped(
            citation=ruleset.core_citations.dropped_weapon,
            combatant_id=who.id,
            name=who.name,
            item_id=new_id,
            item_name=held.name,
            hex=where,
            picked_by_dice=by_dice,
        )
        return CommandResult(state.with_new_item(item), (event,))


@dataclass(frozen=True)
class PickUpItem(Command):
    """Pick up a weapon, usable piece or shield in the own or an adjacent hex; it
    comes to hand ready. This is the turn's Ready maneuver (one per turn; while
    the turns run under the Ready maneuver, unless ``gm_override``)."""

    combatant_id: str
    item_id: str
    gm_override: bool = False

    def apply(
        self, state: BattleState, rng: DiceSource, ruleset: BattleRuleset
    ) -> CommandResult:
        who = state.combatant(self.combatant_id)
        item = state.item(self.item_id)
        if not within_reach(who, item):
            raise IllegalCommandError(f"{item.name} is out of {who.name}'s reach")
        who, overridden = ready_check(state, ruleset, who, self.gm_override)
        holding, key = put_in_hand(who, item)
        holding = replace(holding, ready_used=True)
        event = ItemPickedUp(
            citation=ruleset.core_citations.ready,
            combatant_id=who.id,
            name=who.name,
            item_id=item.id,
            item_name=item.name,
            hex=item.hex,
            key=key,
        )
        after = state.with_combatants(holding).without_item(item.id)
        return CommandResult(after, (*overridden, event))


@dataclass(frozen=True)
class ReadyWeapon(Command):
    """Ready an unready weapon (000 PARRY: unready after use), re-grip the shield
    (after a fumbled block), or draw a carried weapon into a free hand (both for a
    two-handed one: ``rules.battle.hands``): the turn's Ready maneuver (one per
    turn; while the turns run under the Ready maneuver, unless ``gm_override``).
    No free hand for a weapon drawn is a refusal the override does not lift."""

    combatant_id: str
    weapon_key: str
    gm_override: bool = False

    def apply(
        self, state: BattleState, rng: DiceSource, ruleset: BattleRuleset
    ) -> CommandResult:
        who = state.combatant(self.combatant_id)
        shield = who.fighter.shield
        is_shield = shield is not None and shield.key == self.weapon_key
        weapon = None if is_shield else weapon_of(who, self.weapon_key)
        drawing = weapon is not None and self.weapon_key in hands_of(who).carried
        if drawing and weapon is not None:
            no_hand = pick_up_problem(who, weapon)
            if no_hand is not None:
                raise IllegalCommandError(no_hand)
        needs = (
            drawing
            or self.weapon_key in who.unready
            or (is_shield and (not who.shield_ready or who.heavy_shield_unready))
        )
        if not needs:
            raise IllegalCommandError(f"{who.name}'s {self.weapon_key} is already ready")
        who, overridden = ready_check(state, ruleset, who, self.gm_override)
        if drawing:
            who = draw(who, self.weapon_key)
        readied = replace(who, unready=who.unready - {self.weapon_key}, ready_used=True)
        if is_shield:
            readied = replace(readied, shield_ready=True, heavy_shield_unready=False)
        name = shield.name if is_shield and shield is not None else weapon.name if weapon else ""
        event = Readied(
            citation=ruleset.core_citations.ready,
            combatant_id=who.id,
            name=who.name,
            item_name=name,
            drawn=drawing,
        )
        return CommandResult(state.with_combatants(readied), (*overridden, event))


def _weapon_to_put_away(who: Combatant, key: str) -> Weapon:
    """The weapon ``key`` that ``who`` holds; ``IllegalCommandError`` for the shield
    (strapped to its arm: it is dropped) or a weapon not in hand."""
    shield = who.fighter.shield
    if shield is not None and shield.key == key:
        raise IllegalCommandError(
            f"{who.name}'s {shield.name} is strapped to its arm: drop it to free the hand"
        )
    weapon = weapon_of(who, key)
    if not hands_of(who).holds(key):
        raise IllegalCommandError(f"{who.name} does not hold the {weapon.name}")
    return weapon


@dataclass(frozen=True)
class PutAwayItem(Command):
    """Put a held weapon away (sheathe or sling it) to free its hand: it stays on
    the sheet, carried, and a ``ReadyWeapon`` draws it again (``rules.battle.
    hands``). The turn's Ready maneuver, as ``ReadyWeapon`` (a drop, ``DropItem``,
    costs nothing). A shield stays on its arm: it is dropped, not put away."""

    combatant_id: str
    key: str
    gm_override: bool = False

    def apply(self, state: BattleState, rng: DiceSource, ruleset: BattleRuleset) -> CommandResult:
        who = state.combatant(self.combatant_id)
        weapon = _weapon_to_put_away(who, self.key)
        who, overridden = ready_check(state, ruleset, who, self.gm_override)
        stowed = replace(put_away(who, self.key), ready_used=True)
        event = PutAway(
            citation=ruleset.core_citations.ready,
            combatant_id=who.id,
            name=who.name,
            item_name=weapon.name,
        )
        return CommandResult(state.with_combatants(stowed), (*overridden, event))


@dataclass(frozen=True)
class PlaceItem(Command):
    """GM edit: move an item to ``hex``, or take it off the map (``hex`` None)."""

    item_id: str
    hex: Hex | None

    def apply(
        self, state: BattleState, rng: DiceSource, ruleset: BattleRuleset
    ) -> CommandResult:
        item = state.item(self.item_id)
        if self.hex is not None and self.hex not in state.grid:
            raise IllegalCommandError(f"{hex_name(self.hex)} is off the map")
        if self.hex == item.hex:
            return CommandResult(state, ())
        event = ItemPlaced(item_id=item.id, item_name=item.name, before=item.hex, after=self.hex)
        if self.hex is None:
            return CommandResult(state.without_item(item.id), (event,))
        return CommandResult(state.with_item(replace(item, hex=self.hex)), (event,))


@dataclass(frozen=True)
class AddItem(Command):
    """GM edit: put a new weapon, shield or piece on the map."""

    hex: Hex
    name: str
    kind: ItemKind
    weapon: Weapon | None = None
    shield: Shield | None = None
    note: str = ""

    def apply(
        self, state: BattleState, rng: DiceSource, ruleset: BattleRuleset
    ) -> CommandResult:
        if self.hex not in state.grid:
            raise IllegalCommandError(f"{hex_name(self.hex)} is off the map")
        item = GroundItem(
            id=item_id(state.next_item),
            name=self.name,
            kind=self.kind,
            weapon=self.weapon,
            shield=self.shield,
            hex=self.hex,
            icon=icon_key(self.kind, self.weapon, self.shield),
            note=self.note,
        )
        event = ItemPlaced(item_id=item.id, item_name=item.name, before=None, after=self.hex)
        return CommandResult(state.with_new_item(item), (event,))


@dataclass(frozen=True)
class PaintTerrain(Command):
    """The terrain brush: apply ``change`` to every hex of ``hexes``."""

    hexes: tuple[Hex, ...]
    change: TerrainChange

    def apply(
        self, state: BattleState, rng: DiceSource, ruleset: BattleRuleset
    ) -> CommandResult:
        stroke = dict.fromkeys(self.hexes)  # each hex once, hashed once (a stroke of 90,000)
        for h in stroke:
            if h not in state.grid:
                raise IllegalCommandError(f"{hex_name(h)} is off the map")
        terrain = state.terrain.painted(stroke, self.change)
        if terrain == state.terrain:
            return CommandResult(state, ())
        event = TerrainPainted(
            hexes=tuple(stroke),
            change=self.change,
            change_text=self.change.describe(ruleset.battlefield.terrain_label),
        )
        return CommandResult(replace(state, terrain=terrain), (event,))


@dataclass(frozen=True)
class SetPosture(Command):
    """Stand, crouch, kneel, sit, lie ... (``rules.battle.model.Posture``). While the
    turns run: on its own turn and under the ruleset's Change posture maneuver
    (taken by a fighter without a maneuver who has not moved or attacked), unless
    ``gm_override``; before the order is rolled, whenever the GM likes."""

    combatant_id: str
    posture: Posture
    gm_override: bool = False

    def apply(
        self, state: BattleState, rng: DiceSource, ruleset: BattleRuleset
    ) -> CommandResult:
        who = state.combatant(self.combatant_id)
        if who.posture is self.posture:
            return CommandResult(state, ())
        who, checked = _maneuver_check(
            state, ruleset, who, ManeuverAction.POSTURE, self.gm_override, []
        )
        changed, event = set_posture(
            who, self.posture, citation=ruleset.core_citations.posture
        )
        assert event is not None  # the posture differs
        return CommandResult(state.with_combatants(changed), (*checked, event))


@dataclass(frozen=True)
class ApplyMapEffects(Command):
    """Resolve map effects (rules.battle.items) with this command's dice - for results
    computed outside an Attack, e.g. a fumbled block's dropped shield."""

    effects: tuple[MapEffect, ...]

    def apply(
        self, state: BattleState, rng: DiceSource, ruleset: BattleRuleset
    ) -> CommandResult:
        after, events = apply_map_effects(state, self.effects, rng, ruleset)
        return CommandResult(after, events)


@dataclass(frozen=True)
class ReadyShield(Command):
    """Ready the shield: re-grip it after a fumbled block lost the grip (000
    CRITICAL MISSES ON DEFENSE ROLLS, BLOCK), or ready a heavy shield after it
    blocked (000 BLOCK). The turn's Ready maneuver, as ``ReadyWeapon``."""

    combatant_id: str
    gm_override: bool = False

    def apply(
        self, state: BattleState, rng: DiceSource, ruleset: BattleRuleset
    ) -> CommandResult:
        who = state.combatant(self.combatant_id)
        shield = who.fighter.shield
        if shield is None:
            raise IllegalCommandError(f"{who.name} carries no shield")
        return ReadyWeapon(who.id, shield.key, self.gm_override).apply(state, rng, ruleset)


@dataclass(frozen=True)
class SetRulesetOptions(Command):
    """Switch the battle's ruleset options (e.g. ``("locations-001",)`` for seed
    001's hit locations), checked against the ruleset's available options."""

    options: tuple[str, ...]

    def apply(
        self, state: BattleState, rng: DiceSource, ruleset: BattleRuleset
    ) -> CommandResult:
        try:
            chosen = ruleset.with_options(self.options)
        except RulesError as e:
            raise IllegalCommandError(str(e)) from None
        wanted = tuple(sorted(chosen.options))
        if wanted == tuple(sorted(state.ruleset_options)):
            return CommandResult(state, ())
        event = RulesetOptionsSet(before=state.ruleset_options, after=wanted)
        return CommandResult(replace(state, ruleset_options=wanted), (event,))
