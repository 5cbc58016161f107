"""Why a command was given, kept with it: a computer fighter's reason (issue 25).

A note rides beside a command in the battle's log (``Battle.execute(...,
note=...)``), as its dice do: an undo keeps it for the redo, the battle file and
the autosave journal hold it next to the command (``"note": {...}``), and a
reopened battle shows it again. The rules never read it: a replay runs the
commands alone, so a note changes nothing of the battle, and a file without notes
(every file from before) opens as it always did.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.core.errors import DataError

MAX_NOTE_TEXT = 2000  # a reason and its alternatives are a few lines


@dataclass(frozen=True, slots=True)
class CommandNote:
    """The fighter it is about, its reason in one line ("Spearman (aggressive)
    attacks Fencer ..."), and more for a tooltip (the best choices not taken)."""

    combatant_id: str
    reason: str
    detail: str = ""


def note_data(note: CommandNote) -> dict[str, str]:
    """The note as a battle file's entry holds it, each text cut to the length a
    file may hold (a file written must open)."""
    data = {"combatant_id": note.combatant_id, "reason": note.reason[:MAX_NOTE_TEXT]}
    if note.detail:
        data["detail"] = note.detail[:MAX_NOTE_TEXT]
    return data


def note_from(data: object, where: str) -> CommandNote:
    """A note read back from ``note_data``'s shape; ``DataError`` naming ``where``."""
    if not isinstance(data, dict) or not {"combatant_id", "reason"} <= set(data) <= {
        "combatant_id",
        "reason",
        "detail",
    }:
        raise DataError(f'{where}.note: expected {{"combatant_id": ..., "reason": ...}}')
    values = {key: data[key] for key in data}
    for key, value in values.items():
        if not isinstance(value, str) or len(value) > MAX_NOTE_TEXT:
            raise DataError(f"{where}.note.{key}: expected a text of at most {MAX_NOTE_TEXT}")
    return CommandNote(
        str(values["combatant_id"]), str(values["reason"]), str(values.get("detail", ""))
    )
