"""Maneuvers as data: what a ruleset says each of a fighter's choices for its turn
allows, in terms the neutral battle checks and the panes show (rules.battle.turns).

A ruleset lists its maneuvers (``TurnRules.maneuvers``); a combatant's choice is
a ``ManeuverChoice`` (the maneuver's key and, for one with options, the option's
key) recorded on ``Combatant.maneuver`` until its next turn begins. The battle reads
only ``ManeuverTerms``: how many attacks (and whether they must fall on one foe),
how far the fighter may move, whether it keeps its active defenses and whether it
may act on another fighter's turn; and a maneuver's ``permits``: the other actions
it allows (readying, a posture change), which the battle's commands refuse under
any other maneuver. The bonuses are the ruleset's to apply (seed 000:
rules.sets.seed000.maneuvers); they are here so that a pane can name them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from rules.core.citation import Citation


class MoveAllowance(Enum):
    """How far a maneuver lets the fighter move on its turn."""

    FULL = "full"  # its whole Move, in movement points
    HALF = "half"  # half its Move (rounded down), in movement points
    STEP = "step"  # one hex, in any direction
    NONE = "none"  # no hex at all (turning in place is not moving)

    @property
    def label(self) -> str:
        return _ALLOWANCE_LABELS[self]


_ALLOWANCE_LABELS = {
    MoveAllowance.FULL: "full Move",
    MoveAllowance.HALF: "half Move",
    MoveAllowance.STEP: "one step",
    MoveAllowance.NONE: "no movement",
}


class ManeuverAction(Enum):
    """An action besides attacking and moving that only some maneuvers allow: the
    battle's commands for it (``ReadyWeapon``, ``PickUpItem``, ``SetPosture``) are
    refused while the turns run unless the fighter's maneuver ``permits`` it."""

    READY = "ready"  # ready a weapon or shield, pick something up
    POSTURE = "posture"  # stand up, kneel, lie down ...

    @property
    def noun(self) -> str:
        """ "readying", "posture change": what a maneuver allows no more of."""
        return _ACTION_WORDS[self][0]

    @property
    def infinitive(self) -> str:
        """ "ready anything": what a fighter cannot do out of its turn."""
        return _ACTION_WORDS[self][1]

    @property
    def verb(self) -> str:
        """ "readies": what the log says a fighter did without choosing a maneuver."""
        return _ACTION_WORDS[self][2]

    @property
    def gerund(self) -> str:
        """ "readying", "changing posture": how a maneuver was taken ("by ...")."""
        return _ACTION_WORDS[self][3]


_ACTION_WORDS = {
    ManeuverAction.READY: ("readying", "ready anything", "readies", "readying"),
    ManeuverAction.POSTURE: (
        "posture change",
        "change posture",
        "changes posture",
        "changing posture",
    ),
}


@dataclass(frozen=True, slots=True)
class ManeuverChoice:
    """A combatant's maneuver: the maneuver's key and the option's key ("" for
    none). ``implied`` marks a maneuver the battle took for the fighter (an attack
    without a maneuver chosen is the ruleset's attack maneuver)."""

    key: str
    option: str = ""
    implied: bool = False


@dataclass(frozen=True, slots=True)
class ManeuverOption:
    """One way of taking a maneuver (all-out attack: +4 to hit, or two attacks).
    A field left None keeps the maneuver's own value."""

    key: str
    label: str
    description: str = ""
    attacks: int | None = None
    attack_bonus: int = 0  # to the attack roll
    defense_bonus: int = 0  # to one kind of active defense
    defense_kind: str | None = None  # the ruleset's name of that kind ("parry")
    same_foe: bool = False  # every attack of the turn on one foe (two attacks: the same)


@dataclass(frozen=True, slots=True)
class ManeuverTerms:
    """What one maneuver with one option allows: what the battle checks."""

    attacks: int
    movement: MoveAllowance
    active_defenses: bool
    out_of_turn: bool
    attack_bonus: int = 0
    defense_bonus: int = 0
    defense_kind: str | None = None
    same_foe: bool = False


@dataclass(frozen=True, slots=True)
class Maneuver:
    """One maneuver of a ruleset, with its options (choose one when there are any).

    ``attacks``: attacks allowed on the turn; ``movement``: how far it may move;
    ``active_defenses``: whether it keeps its active defenses until its next turn
    (all-out attack: none); ``out_of_turn``: it may take its attacks on another's
    turn (wait); ``implied_by_attack``: the maneuver an attack takes when the
    fighter chose none (one per ruleset); ``permits``: the other actions it allows
    (``ManeuverAction``), the first maneuver on offer that permits one being the
    maneuver that action takes when the fighter chose none."""

    key: str
    label: str
    citation: Citation
    description: str
    attacks: int = 0
    movement: MoveAllowance = MoveAllowance.NONE
    active_defenses: bool = True
    out_of_turn: bool = False
    implied_by_attack: bool = False
    options: tuple[ManeuverOption, ...] = ()
    permits: frozenset[ManeuverAction] = frozenset()

    def option(self, key: str) -> ManeuverOption | None:
        """The option with ``key``; None for "" or an unknown key."""
        for o in self.options:
            if o.key == key:
                return o
        return None

    def terms(self, option_key: str = "") -> ManeuverTerms:
        """The maneuver's terms with the option ``option_key`` (its first option
        when the key names none and it has options)."""
        option = self.option(option_key)
        if option is None and self.options:
            option = self.options[0]
        plain = ManeuverTerms(self.attacks, self.movement, self.active_defenses, self.out_of_turn)
        if option is None:
            return plain
        return replace(
            plain,
            attacks=self.attacks if option.attacks is None else option.attacks,
            attack_bonus=option.attack_bonus,
            defense_bonus=option.defense_bonus,
            defense_kind=option.defense_kind,
            same_foe=option.same_foe,
        )

    def describe_choice(self, option_key: str = "") -> str:
        """ "All-out attack (+4 to hit)"; the bare label without an option."""
        option = self.option(option_key)
        return self.label if option is None else f"{self.label} ({option.label})"
