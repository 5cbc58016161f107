"""The GM's edits of a fighter's sheet and of the battle's sides, as commands, so
that they are undone, saved and replayed like a move.

``EditFighter`` carries the whole edited sheet (the character editor's result),
so a saved battle replays the same fighter whatever the catalog holds later. The
combatant keeps what the battle did to it: the hit points it lost (its current HP
moves with its maximum), its place, facing, wounds and turn; weapons it no longer
carries drop out of its unready and damaged lists.

The side commands change ``BattleState.sides`` (``rules.battle.sides``): a side
set up with a name and colour, renamed or recoloured, and a fighter moved to
another side. Every command checks what it is given, so a hand-edited battle file
cannot bring in a fighter the editor would refuse (``fighter_problems``).
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass, replace

from hexmap import Hex, HexGrid
from rules.battle.limits import MAX_MODES, MAX_WEAPONS
from rules.battle.model import Combatant, DamageBase, Fighter, Side, Weapon
from rules.battle.sides import SideSetup, side_name
from rules.battle.state import BattleRuleset, BattleState, Command, CommandResult
from rules.core.citation import Citation
from rules.core.dice import DiceSource
from rules.core.errors import IllegalCommandError
from rules.core.events import CombatantEvent, Event

GM_EDIT = Citation("hexfray", "the GM edits a fighter's sheet and the battle's sides")
# Past every ruleset's own range (at most 200 in each sheet description): a bound
# for the sheets whose hit points no editor field shows (seed 003 derives them),
# so that no file brings in a number the panes' number boxes cannot hold.
MAX_HIT_POINTS = 1000


@dataclass(frozen=True, slots=True)
class SheetProblem:
    """Why a sheet cannot be saved, and where: ``place`` names the field
    ("name", "st", "weapons/0/skill", "weapons/1/modes/0/reach") so that the
    editor puts ``message`` beside it."""

    place: str
    message: str


def weapon_place(index: int, part: str) -> str:
    """The place of a weapon's field: ``weapon_place(0, "skill")`` is "weapons/0/skill"."""
    return f"weapons/{index}/{part}"


def mode_place(weapon_index: int, mode_index: int, part: str) -> str:
    """The place of a weapon mode's field: "weapons/0/modes/1/reach"."""
    return f"weapons/{weapon_index}/modes/{mode_index}/{part}"


@functools.cache
def map_span(grid: HexGrid) -> int:
    """The longest distance in hexes between two hexes of the map: the farthest a
    reach can be drawn on it. On a rectangle of offset columns and rows the
    farthest pair has a corner at one end, and the other at the top or the bottom
    of a column: the hexes of a column lie on a line between those two, and a
    distance is largest at a line's ends. So only the corners are measured from,
    to twice the map's width (the largest map at once, not its 90,000 hexes)."""
    last_col, last_row = grid.width - 1, grid.height - 1
    corners = [Hex.from_offset(col, row) for col in (0, last_col) for row in (0, last_row)]
    ends = [Hex.from_offset(col, row) for col in range(grid.width) for row in (0, last_row)]
    return max(c.distance(h) for c in corners for h in ends)


def weapon_problems(weapon: Weapon, index: int, grid: HexGrid) -> list[SheetProblem]:
    problems: list[SheetProblem] = []
    if not weapon.name.strip():
        problems.append(SheetProblem(weapon_place(index, "name"), "A weapon needs a name."))
    if not weapon.skill.strip():
        problems.append(
            SheetProblem(
                weapon_place(index, "skill"),
                f"{weapon.name or 'This weapon'} needs the skill it is used with.",
            )
        )
    if len(weapon.modes) > MAX_MODES:
        problems.append(
            SheetProblem(
                weapon_place(index, "modes"),
                f"{weapon.name or 'This weapon'} has {len(weapon.modes)} modes; a weapon "
                f"has at most {MAX_MODES}.",
            )
        )
    span = map_span(grid)
    mode_names = Counter(m.name for m in weapon.modes)
    for m_index, mode in enumerate(weapon.modes):
        if not mode.name.strip() or mode_names[mode.name] > 1:
            problems.append(
                SheetProblem(
                    mode_place(index, m_index, "name"),
                    "Each mode needs a name of its own (swing, thrust, throw ...).",
                )
            )
        if not mode.is_ranged and mode.reach.max > span:
            problems.append(
                SheetProblem(
                    mode_place(index, m_index, "reach"),
                    f"Reach {mode.reach} is longer than this map can show "
                    f"(at most {span} hexes from one edge to the other).",
                )
            )
        # The editor offers "fixed" beside sw and thr but has no box for the dice;
        # without them the mode cannot be rolled, and its battle file not read back.
        if mode.damage.base is DamageBase.FIXED and mode.damage.fixed is None:
            problems.append(
                SheetProblem(
                    mode_place(index, m_index, "damage"),
                    "Fixed damage needs the mode's own dice, which only a weapon from "
                    "the catalog brings: choose sw or thr.",
                )
            )
    return problems


def fighter_problems(fighter: Fighter, grid: HexGrid) -> tuple[SheetProblem, ...]:
    """What the battle itself refuses in a sheet: a fighter without a name, hit
    points or a Move below the least the battle handles, hit points beyond
    ``MAX_HIT_POINTS``, weapons sharing a key,
    a weapon without a skill, a mode without a name of its own, a melee reach
    longer than the map (``map_span``) and fixed damage without its dice. A
    ruleset adds its own checks (``rules.sets.protocol.Ruleset.sheet_problems``).
    More weapons, or modes of one weapon, than a battle holds are problems too
    (``rules.battle.limits``: no file could hold them)."""
    problems: list[SheetProblem] = []
    if not fighter.name.strip():
        problems.append(SheetProblem("name", "A fighter needs a name."))
    if fighter.hit_points < 1:
        problems.append(SheetProblem("hit_points", "Hit points must be at least 1."))
    elif fighter.hit_points > MAX_HIT_POINTS:
        problems.append(
            SheetProblem("hit_points", f"Hit points must be at most {MAX_HIT_POINTS:,}.")
        )
    if fighter.move < 0:
        problems.append(SheetProblem("move", "Move cannot be below 0."))
    if len(fighter.weapons) > MAX_WEAPONS:
        problems.append(
            SheetProblem(
                "weapons",
                f"{len(fighter.weapons)} weapons; a fighter carries at most {MAX_WEAPONS}.",
            )
        )
    keys = Counter(w.key for w in fighter.weapons)
    for index, weapon in enumerate(fighter.weapons):
        if not weapon.key.strip() or keys[weapon.key] > 1:
            problems.append(
                SheetProblem(
                    weapon_place(index, "key"),
                    f"{weapon.name or 'This weapon'} needs a key no other weapon of the "
                    "fighter has.",
                )
            )
        problems.extend(weapon_problems(weapon, index, grid))
    return tuple(problems)


def check_fighter(fighter: Fighter, grid: HexGrid, ruleset: BattleRuleset) -> None:
    """``IllegalCommandError`` for a sheet the battle refuses, the same for every
    command that brings one in (``EditFighter``, ``rules.battle.roster.AddCombatant``):
    the first of its ``fighter_problems`` on this map, or a sheet of another
    ruleset (``SheetRules.refusal``)."""
    problems = fighter_problems(fighter, grid)
    if problems:
        raise IllegalCommandError(f"the sheet of {fighter.name!r}: {problems[0].message}")
    refusal = ruleset.sheets.refusal(fighter)
    if refusal is not None:
        raise IllegalCommandError(refusal)


def sheet_changes(before: Fighter, after: Fighter) -> tuple[str, ...]:
    """What an edit changed, in a few words each ("hit points 11 → 13", "weapons")."""
    changes: list[str] = []
    if before.name != after.name:
        changes.append(f"name {before.name} → {after.name}")
    if before.hit_points != after.hit_points:
        changes.append(f"hit points {before.hit_points} → {after.hit_points}")
    if before.move != after.move:
        changes.append(f"Move {before.move} → {after.move}")
    if before.handedness is not after.handedness:
        changes.append(f"{after.handedness.value}-handed")
    if before.weapons != after.weapons:
        names = ", ".join(w.name for w in after.weapons) or "none"
        changes.append(f"weapons: {names}")
    if before.shield != after.shield:
        changes.append(f"shield: {after.shield.name if after.shield else 'none'}")
    if before.armor != after.armor:
        changes.append(f"armor: {after.armor.name if after.armor else 'none'}")
    if before.stats != after.stats:
        changes.append("statistics and skills")
    return tuple(changes)


@dataclass(frozen=True, kw_only=True)
class FighterEdited(CombatantEvent):
    changes: tuple[str, ...]

    def describe(self) -> str:
        return f"The GM edits {self.name}'s sheet: " + "; ".join(self.changes)


@dataclass(frozen=True, kw_only=True)
class SideChanged(CombatantEvent):
    side_name: str

    def describe(self) -> str:
        return f"{self.name} now fights for {self.side_name}"


@dataclass(frozen=True, kw_only=True)
class SideEdited(Event):
    setup: SideSetup  # the side as it is now
    # The side's name before a rename ("" otherwise), and whether it was just set up.
    old_name: str = ""
    added: bool = False

    def describe(self) -> str:
        if self.added:
            return f"The GM sets up the side {self.setup.name} ({self.setup.colour})"
        if self.old_name:
            return f"Side {self.old_name} is renamed {self.setup.name}"
        return f"Side {self.setup.name} is now coloured {self.setup.colour}"


def edited_combatant(who: Combatant, fighter: Fighter) -> Combatant:
    """``who`` with the sheet ``fighter``: the hit points it lost stay lost, and
    the weapons it no longer carries leave its unready and damage lists."""
    keys = {w.key for w in fighter.weapons}
    return who.evolve(
        fighter=fighter,
        hp=who.hp + fighter.hit_points - who.fighter.hit_points,
        unready=frozenset(k for k in who.unready if k in keys),
        weapon_states=tuple((k, s) for k, s in who.weapon_states if k in keys),
        shield_ready=who.shield_ready or fighter.shield != who.fighter.shield,
    )


@dataclass(frozen=True)
class EditFighter(Command):
    """Give ``combatant_id`` the sheet ``fighter`` (and, with ``side``, that side)."""

    combatant_id: str
    fighter: Fighter
    side: Side | None = None

    def apply(self, state: BattleState, rng: DiceSource, ruleset: BattleRuleset) -> CommandResult:
        who = state.combatant(self.combatant_id)
        check_fighter(self.fighter, state.grid, ruleset)
        changes = list(sheet_changes(who.fighter, self.fighter))
        edited = edited_combatant(who, self.fighter)
        if self.side is not None and self.side is not who.side:
            changes.append(f"side: {side_name(state.sides, self.side)}")
            edited = edited.evolve(side=self.side)
        if not changes:
            return CommandResult(state, ())
        event = FighterEdited(
            citation=GM_EDIT, combatant_id=who.id, name=who.name, changes=tuple(changes)
        )
        return CommandResult(state.with_combatants(edited), (event,))


@dataclass(frozen=True)
class ChangeSide(Command):
    """Move ``combatant_id`` to ``side``."""

    combatant_id: str
    side: Side

    def apply(self, state: BattleState, rng: DiceSource, ruleset: BattleRuleset) -> CommandResult:
        who = state.combatant(self.combatant_id)
        if who.side is self.side:
            raise IllegalCommandError(f"{who.name} already fights for that side")
        event = SideChanged(
            citation=GM_EDIT,
            combatant_id=who.id,
            name=who.name,
            side_name=side_name(state.sides, self.side),
        )
        return CommandResult(state.with_combatants(who.evolve(side=self.side)), (event,))


def _setup_of(state: BattleState, side: Side) -> SideSetup:
    for setup in state.sides:
        if setup.side is side:
            return setup
    raise IllegalCommandError(f"the {side.value} side is not set up in this battle")


def _check_name_free(state: BattleState, side: Side, name: str) -> None:
    for setup in state.sides:
        if setup.side is not side and setup.name.strip().lower() == name.strip().lower():
            raise IllegalCommandError(f"another side is already named {name!r}")


def _with_setup(state: BattleState, new: SideSetup) -> BattleState:
    """The state with ``new`` in place of its side's setup (or added last)."""
    kept = tuple(s for s in state.sides if s.side is not new.side)
    if len(kept) == len(state.sides):
        return _replace_sides(state, (*state.sides, new))
    return _replace_sides(state, tuple(new if s.side is new.side else s for s in state.sides))


def _replace_sides(state: BattleState, sides: tuple[SideSetup, ...]) -> BattleState:
    # ``replace`` goes through the constructor: the state checks no side is set up twice.
    return replace(state, sides=sides)


@dataclass(frozen=True)
class AddSide(Command):
    """Set up ``side`` (one not set up yet) with its name and colour ("#rrggbb")."""

    side: Side
    name: str
    colour: str

    def apply(self, state: BattleState, rng: DiceSource, ruleset: BattleRuleset) -> CommandResult:
        if any(s.side is self.side for s in state.sides):
            raise IllegalCommandError(f"the {self.side.value} side is already set up")
        setup = SideSetup(self.side, self.name, self.colour)
        _check_name_free(state, self.side, self.name)
        return CommandResult(
            _with_setup(state, setup), (SideEdited(citation=GM_EDIT, setup=setup, added=True),)
        )


@dataclass(frozen=True)
class RenameSide(Command):
    """Give a side set up in this battle a new name."""

    side: Side
    name: str

    def apply(self, state: BattleState, rng: DiceSource, ruleset: BattleRuleset) -> CommandResult:
        old = _setup_of(state, self.side)
        if old.name == self.name:
            raise IllegalCommandError(f"the side is already named {self.name!r}")
        _check_name_free(state, self.side, self.name)
        new = SideSetup(self.side, self.name, old.colour)
        event = SideEdited(citation=GM_EDIT, setup=new, old_name=old.name)
        return CommandResult(_with_setup(state, new), (event,))


@dataclass(frozen=True)
class RecolourSide(Command):
    """Give a side set up in this battle a new colour ("#rrggbb")."""

    side: Side
    colour: str

    def apply(self, state: BattleState, rng: DiceSource, ruleset: BattleRuleset) -> CommandResult:
        old = _setup_of(state, self.side)
        if old.colour.lower() == self.colour.lower():
            raise IllegalCommandError(f"the side already has the colour {self.colour}")
        new = SideSetup(self.side, old.name, self.colour)
        return CommandResult(_with_setup(state, new), (SideEdited(citation=GM_EDIT, setup=new),))
