"""A decision's reason as the note kept with its first command (rules.battle.notes):
the line the log shows and, for its tooltip, the best choices not taken. The
window's auto-play and the headless ``autobattle`` keep the same note, so a battle
saved by either shows its reasons when reopened."""

from __future__ import annotations

from rules.battle.notes import CommandNote
from rules.play.defense import DefendedDecision
from rules.play.policies import Decision


def alternatives_text(decision: Decision) -> str:
    """The three best choices not taken, with their scores, one a line."""
    if not decision.alternatives:
        return "No other choice"
    return "\n".join(f"{a.label}: {a.score:g}" for a in decision.alternatives)


def decision_note(decision: Decision) -> CommandNote:
    """The note of ``decision``; the reasons of its computer defenders' answers
    follow its own, a line each (rules.play.defense)."""
    answers = decision.answers if isinstance(decision, DefendedDecision) else ()
    detail = f"{decision.reason}\nBest choices not taken:\n{alternatives_text(decision)}"
    return CommandNote(
        decision.combatant_id,
        "\n".join((decision.reason, *(a.reason for a in answers))),
        "\n\n".join((detail, *(a.reason for a in answers))),
    )
