"""A ruleset's attack choices described as data, for the generic attack pane.

A ruleset whose attack needs no widgets of its own (seeds 002, 003, 004) answers
``FormAttacks.attack_form``: the fields the GM chooses in (weapon, defense, aim,
the situation's starred choices ...), each with its choices and the one now
taken, and the attack choices and defender's answer those entries make. The
generic pane (``app.panes.attack_form``) draws one box per field, knows no field
by name, and hands ``AttackForm.choices`` and ``AttackForm.answer`` to
``Attacks.preview_attack`` for the odds and to the ``Attack`` command for the
roll. Fields may depend on earlier ones (the
aim list on the weapon): the pane asks again after every change.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from rules.battle.attack_choices import AttackChoices, DefenderAnswer
from rules.battle.state import BattleState

# A flag field's two values in the entries (``FormField.flag``).
FLAG_ON = "yes"
FLAG_OFF = ""


@dataclass(frozen=True, slots=True)
class FormChoice:
    """One choice of a field: ``key`` is its value in the entries, ``label`` what
    the box shows; a non-empty ``problem`` greys it out and says why ("the arm is
    useless"). A ``notice`` is what the GM must read before rolling while this
    choice is taken ("No defense: Hilda takes the blow undefended."); the pane
    shows it over Roll."""

    key: str
    label: str
    problem: str = ""
    tooltip: str = ""
    notice: str = ""


@dataclass(frozen=True, slots=True)
class FormField:
    """One box of the form: ``value`` is the key of the choice now taken (the
    entry the GM made, or the ruleset's default when the entry is missing or no
    longer allowed). A ``flag`` field is a check box, its value ``FLAG_ON`` or
    ``FLAG_OFF`` and its choices empty."""

    key: str
    label: str
    choices: tuple[FormChoice, ...]
    value: str
    tooltip: str = ""
    flag: bool = False


@dataclass(frozen=True, slots=True)
class AttackForm:
    """The form between one attacker and one defender as they stand: its fields in
    the order shown, and the attack choices and the defender's answer (the
    ruleset's frozen dataclasses, as ``Attack.choices`` and ``Attack.answer``)
    that the fields' values make; ``choices`` is None, with ``problem`` saying
    why, when no attack can be made (nothing reaches). ``answer`` is None for a
    ruleset that keeps the defender's answer in its choices."""

    fields: tuple[FormField, ...]
    choices: AttackChoices | None
    problem: str = ""
    answer: DefenderAnswer | None = None

    def field(self, key: str) -> FormField:
        for f in self.fields:
            if f.key == key:
                return f
        raise KeyError(key)

    @property
    def notices(self) -> tuple[str, ...]:
        """The notices of the choices taken, in the fields' order."""
        return tuple(
            c.notice for f in self.fields for c in f.choices if c.key == f.value and c.notice
        )

    @property
    def entries(self) -> dict[str, str]:
        """The values the form shows, as entries to ask with again."""
        return {f.key: f.value for f in self.fields}


class FormAttacks(Protocol):
    """A ruleset whose attacks the generic attack pane plans."""

    def attack_form(
        self,
        state: BattleState,
        attacker_id: str,
        defender_id: str,
        entries: Mapping[str, str],
    ) -> AttackForm:
        """The form with ``entries`` (field key -> choice key) taken where they are
        allowed and the defaults elsewhere; unknown keys are ignored."""
        ...
