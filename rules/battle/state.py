"""The battle's state, the base of its commands, and what the battle asks of its
ruleset (``BattleRuleset``).

The state is immutable data: a command returns a new one. It names its ruleset
by key and options; the ``Battle`` finds the ruleset object through the finder it
is given (``rules.sets.registry.get_ruleset``) and hands it to every command, so
a battle can be read, drawn and saved before any ruleset is loaded. The battle
calls the ruleset for everything in which game systems differ (an attack, the
end of a turn, a flying piece that hits somebody) and never asks which ruleset
it is. It asks by role (``BattleRuleset.sheets``, ``.attacks``, ``.turns``,
``.conditions``, ``.battlefield``); ``rules.sets.protocol.Ruleset`` widens each
role with what the panes and computer-controlled sides need.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

from hexmap import Hex, HexGrid
from rules.battle.attack_choices import AttackChoices, DefenderAnswer
from rules.battle.citations import CoreCitations
from rules.battle.condition import FighterCondition
from rules.battle.controllers import PolicyChoice
from rules.battle.items import GroundItem, item_id
from rules.battle.maneuvers import Maneuver
from rules.battle.model import Combatant, Fighter, Posture, RulesetSheet, Side, Status, Weapon
from rules.battle.movement import PostureMove
from rules.battle.outcome import BattleOutcome
from rules.battle.pieces import Piece
from rules.battle.policy_settings import policy_problem
from rules.battle.scatter import StrayHitRules
from rules.battle.sides import SideSetup
from rules.battle.terrain import TerrainFact, TerrainMap
from rules.core.dice import DiceSource
from rules.core.errors import IllegalCommandError
from rules.core.events import Event
from rules.core.formats import DEFAULT_RULESET_KEY
from rules.core.quick_init import quick_init


@dataclass(frozen=True, slots=True)
class LaunchedPiece:
    """A weapon, shield or piece that an attack sent out of a hand: from whose
    hand, and the hex it starts from (None: its holder's hex; a thrown weapon
    starts from its target's)."""

    piece: Piece
    origin_id: str
    start: Hex | None = None


@quick_init
@dataclass(frozen=True, slots=True)
class AttackResult:
    """What a ruleset's attack did: every combatant it changed, as they are after
    it, the events in order, and the pieces that left a hand (the battle puts
    them on the map with the same dice, after the attack's own rolls). ``after``:
    the state after the attack when the ruleset made it (its ``apply`` step,
    ``rules.battle.attack_steps``), else None (the battle puts ``combatants`` in)."""

    combatants: tuple[Combatant, ...]
    events: tuple[Event, ...]
    pieces: tuple[LaunchedPiece, ...] = ()
    after: BattleState | None = None


class SheetRules(Protocol):
    """The ruleset's character sheet as the battle asks it (``BattleRuleset.sheets``):
    whose sheets it takes, which of its types a battle file holds."""

    @property
    def sheet_type(self) -> type[RulesetSheet]:
        """The class of this ruleset's statistics in ``Fighter.stats``: a fighter
        whose sheet is another ruleset's cannot join its battles (a sheet not yet
        read, ``rules.battle.catalog.RawSheet``, is read by the ruleset first)."""
        ...

    @property
    def saved_types(self) -> tuple[type, ...]:
        """The frozen dataclasses and enums of this ruleset that a battle holds
        (its commands, attack choices, sheet, tracks): a battle file
        (``rules.battle.savefile``) writes and reads them, and only them, by name."""
        ...

    def refusal(self, fighter: Fighter) -> str | None:
        """Why ``fighter`` cannot fight in this ruleset's battles: its sheet is
        another ruleset's (the reason names the fighter and both rulesets); None
        when it may. ``AddCombatant``, ``EditFighter`` and a battle file's initial
        state refuse such a fighter. Every ruleset answers with
        ``rules.sets.sheet_refusal``, which asks the registry whose a sheet is."""
        ...


class AttackRules(Protocol):
    """The ruleset's attack as the battle asks it (``BattleRuleset.attacks``)."""

    def attack(
        self,
        state: BattleState,
        attacker_id: str,
        defender_id: str,
        choices: AttackChoices,
        answer: DefenderAnswer | None,
        dice: DiceSource,
    ) -> AttackResult:
        """Plan and resolve one attack with the attacker's ``choices`` and the
        defender's ``answer`` (each the ruleset's own type,
        ``rules.battle.attack_choices``; no answer: the default answer to the
        planned attack); ``IllegalAttackError`` if it cannot be made. A ruleset in
        four steps answers with ``rules.battle.attack_steps.run_attack``."""
        ...


class TurnRules(Protocol):
    """The ruleset's turns in order as the battle asks them (``rules.battle.turns``,
    ``BattleRuleset.turns``)."""

    def initiative(
        self, state: BattleState, dice: DiceSource
    ) -> tuple[tuple[str, ...], tuple[Event, ...]]:
        """The turn order of every combatant who takes turns (ids, first to act
        first), with the events that explain it; ties are settled with ``dice``."""
        ...

    def maneuvers(self, state: BattleState, combatant_id: str) -> tuple[Maneuver, ...]:
        """The maneuvers ``combatant_id`` may choose now, in the order a pane lists
        them (none for a fighter who cannot act)."""
        ...

    def maneuver(self, key: str) -> Maneuver:
        """Any maneuver of the ruleset by its key; ``RulesError`` for an unknown one."""
        ...

    def posture_move(self, posture: Posture) -> PostureMove:
        """How far a fighter in ``posture`` moves in a turn (``rules.battle.movement.
        PostureMove``; ``basic_posture_moves`` is the 3d6 family's table): while
        the turns run, the battle checks it with the maneuver's allowance."""
        ...

    def new_turn(self, combatant: Combatant) -> Combatant:
        """The combatant as a new turn finds it, after the battle's own reset of
        movement and this turn's record: the ruleset's per-turn counts start over."""
        ...

    def turn_begins(
        self, state: BattleState, combatant_id: str, dice: DiceSource
    ) -> tuple[BattleState, tuple[Event, ...]]:
        """What the start of ``combatant_id``'s own turn brings (after the battle
        reset its movement and this turn's record): the conditions that tick then.
        Before the order is rolled, the whole-round ``EndTurn`` calls it for every
        combatant once their new turn has begun."""
        ...

    def turn_ends(
        self, state: BattleState, combatant_id: str, dice: DiceSource
    ) -> tuple[BattleState, tuple[Event, ...]]:
        """What the end of ``combatant_id``'s own turn brings (recovery rolls,
        bleeding ...); before the order is rolled, the whole-round ``EndTurn``
        calls it for every combatant first."""
        ...


class ConditionRules(Protocol):
    """The fighters' condition by the ruleset's wounds (``BattleRuleset.conditions``)."""

    def fighter_condition(self, combatant: Combatant, *, details: bool = True) -> FighterCondition:
        """Whether the combatant can still take part in the fight, and whether it
        is down and how (rules.battle.condition), by this ruleset's wounds; how
        hurt it is, its useless limbs and the penalties in force. The battle makes
        one who goes down fall and let go (rules.battle.falls) and decides the
        battle when one side or none is left able to act (rules.battle.decision):
        it asks after every command with ``details`` False, and the ruleset then
        leaves ``hurt``, ``useless_limbs`` and ``penalties`` at their defaults."""
        ...


class BattlefieldRules(Protocol):
    """The map under the ruleset's rules (``BattleRuleset.battlefield``): what its
    terrain is called and does, and what a flying piece does to whoever stands in
    its way."""

    @property
    def stray_hits(self) -> StrayHitRules:
        """Whether a flying piece hits somebody in its way (rules.battle.scatter)."""
        ...

    def piece_hit(
        self,
        state: BattleState,
        piece: Piece,
        source_weapon: Weapon | None,
        holder: Combatant,
        victim_id: str,
        where: Hex,
        dice: DiceSource,
    ) -> tuple[BattleState, tuple[Event, ...]]:
        """What a flying ``piece`` from ``holder``'s hand does to ``victim_id``,
        who stood in its way at ``where``."""
        ...

    def terrain_label(self, fact: TerrainFact) -> str:
        """A terrain fact as this ruleset names it: with what it does under its
        rules (seed 000: "bad light (-4)"), else the fact's own ``label``. The
        terrain brush's event, the map's tooltip and the hex pane read it."""
        ...


class BattleRuleset(Protocol):
    """The questions the ruleset-neutral battle asks of its ruleset, by role: the
    sheet, the attack, the turns, the fighters' condition and the battlefield.
    Every die goes through ``dice``; every answer is a new state or frozen
    records."""

    @property
    def key(self) -> str:
        """The registry key, e.g. ``"000"``."""
        ...

    @property
    def options(self) -> frozenset[str]:
        """The options this battle plays with, e.g. ``{"locations-001"}``."""
        ...

    def with_options(self, options: Iterable[str]) -> BattleRuleset:
        """The same ruleset with other options; ``RulesError`` for unknown ones."""
        ...

    @property
    def core_citations(self) -> CoreCitations:
        """What the battle's shared mechanics (turn sequence, movement, readying,
        dropping, postures) cite in this ruleset's log (rules.battle.citations)."""
        ...

    @property
    def sheets(self) -> SheetRules: ...

    @property
    def attacks(self) -> AttackRules: ...

    @property
    def turns(self) -> TurnRules: ...

    @property
    def conditions(self) -> ConditionRules: ...

    @property
    def battlefield(self) -> BattlefieldRules: ...


@dataclass(frozen=True)
class BattleState:
    grid: HexGrid
    combatants: tuple[Combatant, ...]
    turn: int = 1
    # The battle's ruleset by registry key, with its options (e.g. ("locations-001",)).
    ruleset_key: str = DEFAULT_RULESET_KEY
    ruleset_options: tuple[str, ...] = ()
    # The battlefield (docs/battlefield.md): items lying on the map, the painted
    # terrain (sparse: open ground elsewhere) and the number of the next item id.
    items: tuple[GroundItem, ...] = ()
    terrain: TerrainMap = field(default_factory=TerrainMap)
    next_item: int = 1
    # The turn order (rules.battle.turns): combatant ids in initiative order and
    # whose turn it is. ``turn`` above is then the round: every fighter's turn once.
    # Empty until the order is rolled (``StartTurns``): the GM sets up freely, no
    # turn rule is checked, and ``EndTurn`` ends everybody's turn at once.
    initiative: tuple[str, ...] = ()
    active_id: str | None = None
    # The sides as the New Battle dialog named and coloured them (rules.battle.sides);
    # empty: each side by its own name, in the GM's preferred colours.
    sides: tuple[SideSetup, ...] = ()
    # How the battle ended, once every side but one (or every side) has no fighter
    # able to act (rules.battle.decision); None while it goes on.
    outcome: BattleOutcome | None = None
    # Who plays each fighter the computer plays (rules.battle.controllers): its id
    # and policy, in the order of ``combatants``. A fighter not named is the GM's,
    # as every fighter of a battle from before computer control.
    controllers: tuple[tuple[str, PolicyChoice], ...] = ()
    # Who plays each side the computer plays as a side (rules.battle.side_control):
    # a fighter who joins it later (``AddCombatant``) is played so. A side not
    # named is the GM's, as every side of a battle from before.
    side_controllers: tuple[tuple[Side, PolicyChoice], ...] = ()

    def __post_init__(self) -> None:
        ids = [c.id for c in self.combatants]
        if len(set(ids)) != len(ids):
            raise IllegalCommandError(f"duplicate combatant ids in {ids}")
        if self.initiative or self.active_id is not None:
            if len(set(self.initiative)) != len(self.initiative):
                raise IllegalCommandError(f"duplicate ids in the turn order {self.initiative}")
            unknown = [i for i in self.initiative if i not in ids]
            if unknown:
                raise IllegalCommandError(f"the turn order names no combatant {unknown}")
            if self.active_id not in self.initiative:
                raise IllegalCommandError(
                    f"the fighter whose turn it is ({self.active_id!r}) is not in the turn order"
                )
        named = [s.side for s in self.sides]
        if len(set(named)) != len(named):
            raise IllegalCommandError("a side is named twice")
        item_ids = [i.id for i in self.items]
        if len(set(item_ids)) != len(item_ids):
            raise IllegalCommandError(f"duplicate item ids in {item_ids}")
        if self.controllers:
            _check_controllers(self.controllers, ids)
        if self.side_controllers:
            _check_side_controllers(self.side_controllers)

    @property
    def round(self) -> int:
        """The round: each fighter in the order has one turn in it (``turn``)."""
        return self.turn

    @property
    def turns_running(self) -> bool:
        """Whether the turn order has begun (and the turn rules are checked)."""
        return self.active_id is not None

    def side_controller(self, side: Side) -> PolicyChoice | None:
        """The policy a fighter joining ``side`` is played with; None: the GM's."""
        for controlled, choice in self.side_controllers:
            if controlled is side:
                return choice
        return None

    def controller(self, combatant_id: str) -> PolicyChoice | None:
        """The policy the computer plays ``combatant_id`` with; None: the GM plays it."""
        for controlled, choice in self.controllers:
            if controlled == combatant_id:
                return choice
        return None

    def combatant(self, combatant_id: str) -> Combatant:
        for c in self.combatants:
            if c.id == combatant_id:
                return c
        raise IllegalCommandError(f"no combatant with id {combatant_id!r}")

    def occupant(self, where: Hex) -> Combatant | None:
        """The standing combatant in a hex; the fallen don't block it."""
        for c in self.combatants:
            if c.hex == where and c.status is not Status.DEAD:
                return c
        return None

    def with_combatants(self, *updated: Combatant) -> BattleState:
        """The state with each combatant of ``updated`` in place of the one with
        its id (ids this state lacks are ignored)."""
        by_id = {c.id: c for c in updated}
        combatants = tuple([by_id.get(c.id, c) for c in self.combatants])
        # Every command does this, so it copies the fields at once instead of going
        # through ``replace``: the ids stay as they were, so ``__post_init__``'s
        # checks would find nothing new. The copy is filled before anyone holds it.
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__, combatants=combatants)
        return new

    def item(self, item_id: str) -> GroundItem:
        for i in self.items:
            if i.id == item_id:
                return i
        raise IllegalCommandError(f"no item with id {item_id!r} on the map")

    def items_at(self, where: Hex) -> tuple[GroundItem, ...]:
        return tuple(i for i in self.items if i.hex == where)

    def with_new_item(self, item: GroundItem) -> BattleState:
        """Add ``item``; its id must be ``item_id(self.next_item)``, which is used up."""
        if item.id != item_id(self.next_item):
            raise IllegalCommandError(f"the next item id is {item_id(self.next_item)!r}")
        return replace(self, items=(*self.items, item), next_item=self.next_item + 1)

    def with_item(self, item: GroundItem) -> BattleState:
        """Replace the item with ``item.id``."""
        self.item(item.id)
        return replace(self, items=tuple(item if i.id == item.id else i for i in self.items))

    def without_item(self, item_id: str) -> BattleState:
        self.item(item_id)
        return replace(self, items=tuple(i for i in self.items if i.id != item_id))


# The choices found playable so far (a battle has a handful): every new state
# checks its controllers, and this spares it the checks of each choice again.
_PLAYABLE: set[PolicyChoice] = set()
_MAX_PLAYABLE = 1000


def _check_side_controllers(side_controllers: tuple[tuple[Side, PolicyChoice], ...]) -> None:
    """Each side named once, with settings a policy takes."""
    named = [side for side, _ in side_controllers]
    if len(set(named)) != len(named):
        raise IllegalCommandError("a side is given two controllers")
    for side, choice in side_controllers:
        problem = policy_problem(choice)
        if problem is not None:
            raise IllegalCommandError(f"the controller of side {side.value}: {problem}")


def _check_controllers(
    controllers: tuple[tuple[str, PolicyChoice], ...], combatant_ids: Sequence[str]
) -> None:
    """Each computer-played fighter named once, on the map, with settings a policy
    takes (a hand-edited file cannot bring in others)."""
    named = {combatant_id for combatant_id, _ in controllers}
    if len(named) != len(controllers):
        raise IllegalCommandError(
            f"a fighter is given two controllers in {[i for i, _ in controllers]}"
        )
    if not named.issubset(combatant_ids):
        unknown = sorted(named - set(combatant_ids))
        raise IllegalCommandError(f"controllers name no combatant {unknown}")
    for combatant_id, choice in controllers:
        # True equals 1.0: a threshold given as a bool is checked (and refused) anew.
        if choice in _PLAYABLE and type(choice.retreat_below) is not bool:
            continue
        problem = policy_problem(choice)
        if problem is not None:
            raise IllegalCommandError(f"the controller of {combatant_id!r}: {problem}")
        if len(_PLAYABLE) < _MAX_PLAYABLE:
            _PLAYABLE.add(choice)


@quick_init
@dataclass(frozen=True)
class CommandResult:
    state: BattleState
    events: tuple[Event, ...]


@dataclass(frozen=True)
class Command:
    """Base of battle commands. ``apply`` is pure: state and dice in, state and
    events out."""

    def apply(self, state: BattleState, rng: DiceSource, ruleset: BattleRuleset) -> CommandResult:
        """``ruleset`` is the battle's (the one ``state`` names)."""
        raise NotImplementedError


# How a battle finds the ruleset a state names: key and options in, the ruleset
# out (``rules.sets.registry.get_ruleset``); ``RulesError`` for an unknown one.
RulesetFinder = Callable[[str, Sequence[str]], BattleRuleset]
