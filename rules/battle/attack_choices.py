"""The bases of what an ``Attack`` command carries for its ruleset: the attacker's
choices and the defender's answer, each the ruleset's own frozen dataclass.

The battle carries them (``rules.battle.commands.Attack``) and a battle file saves
them by their class's name, but neither looks inside; the ruleset's attack steps
take them back as their own types (``rules.battle.attack_steps``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

__all__ = ["AnswerInChoices", "AttackChoices", "DefenderAnswer"]


@dataclass(frozen=True, slots=True)
class AttackChoices:
    """Base of a ruleset's attack choices: what the attacker chooses (weapon,
    mode, aim, options). Each ruleset subclasses it with a frozen dataclass; the
    battle carries it in ``Attack.choices`` and never looks inside."""


@dataclass(frozen=True, slots=True)
class AnswerInChoices:
    """Where battle files kept a defender's answer before it had a type of its
    own: in the attacker's choices of the type named ``choices_type``, as its
    ``fields``, in every file of a schema version below ``before_schema`` (the
    version that moved it out). Reading such a file moves those fields into the
    answer (``rules.battle.savefile.lift_attack``)."""

    choices_type: str
    fields: tuple[str, ...]
    before_schema: int


@dataclass(frozen=True, slots=True)
class DefenderAnswer:
    """Base of a ruleset's defender answer: what the defender chooses against one
    planned attack (its defense, a retreat, a defended area ...). Each ruleset
    subclasses it with a frozen dataclass whose fields all have defaults; the
    battle carries it in ``Attack.answer``, None there meaning the ruleset's
    default answer to the planned attack."""

    # Set by a ruleset whose answer older battle files kept in the attacker's
    # choices (``AnswerInChoices``); None for an answer that always had its type.
    was_in_choices: ClassVar[AnswerInChoices | None] = None

