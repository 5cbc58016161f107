"""The ``Ruleset`` protocol: everything in which game systems differ.

The battle core (``rules.battle``) hands a ruleset map facts and dice and takes
back a new state and events (``BattleRuleset``). A ruleset answers through a few
roles, each asked by whoever needs it: ``sheets``, ``attacks``, ``turns``,
``conditions`` and ``battlefield``. This protocol widens each role with what the
panes, the files and computer-controlled sides ask: the character sheet, the
attack as choices, answers and odds, the situation the map implies, the legal
actions, the conditions in words and the gear a GM may place.
It is written for the four systems of the seeds: 3d6 roll-under with passive
defense and directional defenses (000/001), d100 percentiles with success levels
and a result matrix (002), the FUDGE ladder with opposed 4dF and a wound track per
body part (003), and 2d6 against a difficulty with hit zones (004). Nothing in it
names a stat, a die or a defense: those are the sheet's rows and the choices'
fields, described as data that a generic form can show.

A ruleset's own variants are components it chooses once from its options (seed
000's ``locations-001`` picks seed 001's hit locations and weapon strikes), never
branches that shared code tests.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol, TypeVar

from rules.battle.attack_choices import AttackChoices, DefenderAnswer
from rules.battle.catalog import Catalog
from rules.battle.commands import Attack
from rules.battle.edits import SheetProblem
from rules.battle.model import Combatant, Fighter, Shield, Weapon
from rules.battle.state import (
    AttackRules,
    BattlefieldRules,
    BattleRuleset,
    BattleState,
    Command,
    ConditionRules,
    SheetRules,
    TurnRules,
)
from rules.core.errors import RulesError
from rules.core.modifiers import Modifier
from rules.sets.sheet_fields import SheetDescription, SheetEntries


@dataclass(frozen=True, slots=True)
class SheetRow:
    """One line of a character sheet as a pane shows it: ``label`` and ``value``
    ("ST", "12"; "Broadsword", "14"; "Left arm", "2/5 hurt"), with a tooltip that
    says what it means and where the rule comes from."""

    label: str
    value: str
    tooltip: str = ""


@dataclass(frozen=True, slots=True)
class SheetSection:
    """A titled group of sheet rows ("Attributes", "Skills", "Wounds")."""

    title: str
    rows: tuple[SheetRow, ...]


@dataclass(frozen=True, slots=True)
class OptionChoice:
    """Options of which a battle takes one at most, offered as one choice (seed
    000's hit location systems, each replacing its table): the choice's name, what
    taking none of them means, and the options in the order offered."""

    label: str
    none_label: str
    options: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Health:
    """A combatant's health as the Combatants list shows it, in the ruleset's own
    terms: the cell's short text ("8/11" hit points, "Very Hurt" on a wound track),
    how full its bar is (1 unhurt, 0 down) and a tooltip that says what the text
    means."""

    text: str
    fraction: Fraction
    tooltip: str = ""

    def __post_init__(self) -> None:
        if not 0 <= self.fraction <= 1:
            raise ValueError(f"a health bar is 0 to 1 full, got {self.fraction}")


@dataclass(frozen=True, slots=True)
class OddsLine:
    """One outcome of a planned action and its exact probability."""

    label: str
    probability: Fraction


@dataclass(frozen=True, slots=True)
class AttackPreview:
    """An attack as planned, before any die: the final number the roll is made
    against (its meaning is the ruleset's: a 3d6 target, a percentage, a ladder
    level ...), the itemised and cited modifiers that made it, and the exact odds
    of each outcome, which sum to 1."""

    summary: str
    modifiers: tuple[Modifier, ...]
    odds: tuple[OddsLine, ...]


@dataclass(frozen=True, slots=True)
class LegalAction:
    """Something a combatant may do now, as the commands that do it, run in order:
    ``command``, then ``then`` (a move that ends in another facing: the
    ``MoveCombatant``, then its ``TurnCombatant``). ``ends_turn``: doing it ends
    the fighter's turn (``EndTurn``)."""

    label: str
    command: Command
    ends_turn: bool = False
    then: tuple[Command, ...] = ()

    @property
    def commands(self) -> tuple[Command, ...]:
        """Every command of the action, in the order they run."""
        return (self.command, *self.then)


@dataclass(frozen=True, slots=True)
class ImportedCharacter:
    """A fighter read from another program's character file, for the GM to check
    before it joins the battle: ``hit_points_now`` is the file's current HP (its
    wounds), ``imported`` says in a line each what was taken over, ``skipped``
    what the ruleset cannot represent and left out."""

    fighter: Fighter
    hit_points_now: int
    imported: tuple[str, ...]
    skipped: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CharacterFileKind:
    """A kind of character file the ruleset imports ("GURPS Character Sheet",
    ``.gcs``): ``read`` turns the file's bytes into a fighter, or raises
    ``DataError`` with a message naming the part of the file that is wrong.
    ``max_bytes``: the largest file of the kind; nothing larger is read."""

    label: str
    suffixes: tuple[str, ...]
    read: Callable[[bytes], ImportedCharacter]
    max_bytes: int = 16 * 1024 * 1024


ChoicesT_co = TypeVar("ChoicesT_co", bound=AttackChoices, covariant=True)
AnswerT_co = TypeVar("AnswerT_co", bound=DefenderAnswer, covariant=True)


class Sheets(SheetRules, Protocol):
    """The character sheet and the gear (``Ruleset.sheets``): what the character
    editor, the inspector, the files and an import ask."""

    def catalog(self) -> Catalog:
        """The ruleset's weapons, shields and armor (its tables under
        ``assets/rulesets/<key>/``, or the shared 3d6 catalog for seed 000): what the
        character editor picks gear from."""
        ...

    def character_file_kinds(self) -> tuple[CharacterFileKind, ...]:
        """The character files of other programs this ruleset imports as fighters
        (File > Import Character...); () when it imports none."""
        ...

    def sections(self, combatant: Combatant) -> tuple[SheetSection, ...]:
        """The combatant's sheet and its ruleset state (wounds, tracks) as rows."""
        ...

    def encode(self, fighter: Fighter) -> dict[str, object]:
        """The whole sheet as JSON-ready data, tagged with its format and version."""
        ...

    def decode(self, data: object) -> Fighter:
        """A sheet that ``encode`` wrote (this version or an older one);
        ``DataError`` names the first field that is wrong."""
        ...

    def description(self) -> SheetDescription:
        """The sheet's fields, kinds and ranges, for the character editor."""
        ...

    def entries(self, fighter: Fighter) -> SheetEntries:
        """The fighter's values in the fields of ``description``."""
        ...

    def with_entries(self, fighter: Fighter, entries: SheetEntries) -> Fighter:
        """The fighter with ``entries`` (``DataError`` if one is out of range)."""
        ...

    def problems(self, fighter: Fighter) -> tuple[SheetProblem, ...]:
        """What the ruleset refuses in a sheet beyond the fields' ranges (seed 000:
        a weapon whose skill the sheet lacks), each at its field."""
        ...


class Attacks(AttackRules, Protocol[ChoicesT_co, AnswerT_co]):
    """The attack (``Ruleset.attacks``), over the ruleset's own choices and answer
    types: what the attack pane, scripted play and computer-controlled sides ask.
    A ruleset's choices and answers come back as its own types; those it is given
    (the base types of an ``Attack`` command) it takes back as its own or refuses
    (``rules.battle.attack_steps.own_choices``)."""

    def default_attack(
        self, state: BattleState, attacker_id: str, defender_id: str
    ) -> ChoicesT_co | None:
        """The attack choices of a plain attack: the first weapon and mode that
        reach; None when nothing reaches. The defender's answer to it is the
        first of ``answers`` (``plain_attack``: both as a command)."""
        ...

    def attack_variants(
        self, state: BattleState, attacker_id: str, defender_id: str
    ) -> tuple[ChoicesT_co, ...]:
        """Every distinct set of attack choices the ruleset's attack form offers
        between the two as they stand (each weapon mode that reaches, each
        option in turn; the attacker's choices only): what scripted play,
        benchmarks and computer-controlled sides choose among."""
        ...

    def answers(
        self, state: BattleState, attacker_id: str, defender_id: str, choices: AttackChoices
    ) -> tuple[AnswerT_co, ...]:
        """Every answer the defender may give to the attack planned with
        ``choices``, the likeliest first (its steps' ``answers``)."""
        ...

    def preview_attack(
        self,
        state: BattleState,
        attacker_id: str,
        defender_id: str,
        choices: AttackChoices,
        answer: DefenderAnswer | None = None,
    ) -> AttackPreview:
        """The plan of an attack with the attacker's ``choices`` against the
        defender's ``answer`` (None: its default answer), and its exact odds;
        ``IllegalAttackError`` if it cannot be made."""
        ...

    def situation(
        self, state: BattleState, attacker_id: str, defender_id: str
    ) -> tuple[Modifier, ...]:
        """The modifiers the map implies for this attack (terrain, postures,
        height, light), itemised and cited."""
        ...


class Turns(TurnRules, Protocol):
    """The turns and what a combatant may do in them (``Ruleset.turns``)."""

    def legal_actions(self, state: BattleState, combatant_id: str) -> tuple[LegalAction, ...]:
        """The actions ``combatant_id`` may take now, as commands: what a
        computer-controlled side chooses among. While the turns run
        (rules.battle.turns) they follow its turn and maneuver: the maneuvers it
        may choose (``ChooseManeuver``), every distinct attack on each foe in
        reach that its maneuver still allows (the attacker's choices only: the
        defender answers for itself), the moves it still allows as destinations
        with the facings it may end in, and ``EndTurn`` on its own turn
        (rules.sets.components.legal_actions). The battle accepts each of them."""
        ...


class Conditions(ConditionRules, Protocol):
    """The fighters' condition as the panes show it (``Ruleset.conditions``)."""

    def labels(self, combatant: Combatant) -> tuple[str, ...]:
        """The combatant's conditions in a few words each, most telling first
        ("stunned", "prone", "severe bleeding", "crippled leg"): what the turn
        tracker and the token show beside its maneuver."""
        ...

    @property
    def health_heading(self) -> str:
        """The heading of the Combatants list's health column ("HP", "Wound")."""
        ...

    def health(self, combatant: Combatant) -> Health:
        """The combatant's health in the ruleset's terms, for that column."""
        ...


class Battlefield(BattlefieldRules, Protocol):
    """The map under the ruleset's rules (``Ruleset.battlefield``), with the items
    a GM may put on it."""

    def placeable_items(self) -> tuple[Weapon | Shield, ...]:
        """The weapons and shields of the ruleset's catalog that a GM may put on
        the map."""
        ...


class Ruleset(BattleRuleset, Protocol):
    """A ruleset as the whole program sees it: its name and options, and its roles,
    each asked by whoever needs it (docs/architecture.md, "The ruleset's roles")."""

    @property
    def name(self) -> str:
        """The name the New Battle dialog and the title bar show."""
        ...

    @property
    def description(self) -> str: ...

    @property
    def available_options(self) -> Mapping[str, str]:
        """Each option this ruleset accepts, with one line that explains it."""
        ...

    @property
    def option_choices(self) -> tuple[OptionChoice, ...]:
        """The options that exclude each other, each group offered as one choice;
        an option in none stands alone."""
        ...

    @property
    def sheets(self) -> Sheets: ...

    @property
    def attacks(self) -> Attacks[AttackChoices, DefenderAnswer]: ...

    @property
    def turns(self) -> Turns: ...

    @property
    def conditions(self) -> Conditions: ...

    @property
    def battlefield(self) -> Battlefield: ...


class RulesetFactory(Protocol):
    """Builds a package's ruleset with a set of options (``rules.sets.registry``)."""

    def __call__(self, options: Iterable[str] = ..., /) -> Ruleset: ...


def likeliest_answer(
    ruleset: Ruleset, state: BattleState, attacker_id: str, defender_id: str, choices: AttackChoices
) -> DefenderAnswer | None:
    """The answer the defender would most likely give to an attack with
    ``choices``: the first of ``Attacks.answers``; None (the ruleset's default
    answer) when the attack cannot be planned as things stand, which the battle
    then refuses."""
    try:
        answers = ruleset.attacks.answers(state, attacker_id, defender_id, choices)
    except RulesError:
        return None
    return answers[0] if answers else None


def plain_attack(
    ruleset: Ruleset, state: BattleState, attacker_id: str, defender_id: str
) -> Attack | None:
    """The ruleset's plain attack as a command: its default choices
    (``Attacks.default_attack``) with the defender's likeliest answer
    (``likeliest_answer``); None when nothing reaches."""
    choices = ruleset.attacks.default_attack(state, attacker_id, defender_id)
    if choices is None:
        return None
    answer = likeliest_answer(ruleset, state, attacker_id, defender_id, choices)
    return Attack(attacker_id, defender_id, choices, answer)
