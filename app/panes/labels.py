"""Display text shared by the panes and the main window's terrain brush (kept apart
from the pane modules so the toolbar can use it before the panes are imported)."""

from __future__ import annotations


def enum_label(value: object) -> str:
    label = getattr(value, "label", None)
    text = str(label if isinstance(label, str) else getattr(value, "value", value))
    return text[:1].upper() + text[1:]
