"""The combat log written out as Markdown or HTML: plain text in, a file out, no Qt.

The rows are ``app.event_text`` rows as the log shows them: the short line of each
event with its citation, an attack's lines under its first one. Each turn
separator becomes a heading, and, once the turn order runs, each fighter's turn
(``TurnBegan``) a heading under it. The pane decides which rows (all, or the ones
its filter shows) and passes a note that says so; the file repeats that note under
its title.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from enum import Enum
from pathlib import Path

from app.event_text import LogLine, LogRow, RowKind, Tone
from hexmap import is_digits
from rules.battle.turns import TurnBegan


class ExportFormat(Enum):
    MARKDOWN = "md"
    HTML = "html"

    @property
    def suffix(self) -> str:
        return f".{self.value}"

    @property
    def label(self) -> str:
        return "Markdown" if self is ExportFormat.MARKDOWN else "HTML"


TITLE = "Combat log"

# Characters that Markdown reads as markup anywhere in a line (emphasis, code,
# links, raw HTML and entities, tables, strike-through).
_MARKDOWN_INLINE = re.compile(r"([\\`*_\[\]<>&|~])")
# What makes a list item's text a heading or a nested list when it leads.
_MARKDOWN_LEADING = re.compile(r"^(#|[-+](?= )|[0-9]+(?=[.)]))")


def markdown_text(text: str) -> str:
    """``text`` with everything Markdown would read as markup escaped."""
    escaped = _MARKDOWN_INLINE.sub(r"\\\1", text)
    leading = _MARKDOWN_LEADING.match(escaped)
    if leading is None:
        return escaped
    marker = leading.group(1)
    if is_digits(marker[0]):  # "12." -> "12\."
        end = leading.end()
        return escaped[:end] + "\\" + escaped[end:]
    return "\\" + escaped


def heading_level(row: LogRow) -> int | None:
    """2 for a turn separator, 3 for the start of one fighter's turn, None for an
    entry."""
    if row.kind is RowKind.TURN:
        return 2
    if len(row.lines) == 1 and isinstance(row.lines[0].event, TurnBegan):
        return 3
    return None


def _markdown_line(line: LogLine) -> str:
    text = markdown_text(line.text)
    if line.tone in (Tone.TITLE, Tone.OUTCOME, Tone.HARM, Tone.CRITICAL):
        text = f"**{text}**"
    elif line.tone is Tone.NOTE:
        text = f"*{text}*"
    if line.citation:
        text += f" · {markdown_text(line.citation)}"
    return text


def log_markdown(rows: Sequence[LogRow], note: str = "") -> str:
    """The rows as a Markdown document: a heading for each turn, a list item for
    each entry, an attack's further lines nested under its first one."""
    out = [f"# {TITLE}", ""]
    if note:
        out += [f"*{markdown_text(note)}*", ""]
    for row in rows:
        level = heading_level(row)
        if level is not None:
            if out[-1]:
                out.append("")
            out += [f"{'#' * level} {markdown_text(row.title)}", ""]
            continue
        for depth, line in enumerate(row.lines):
            out.append(("  " if depth else "") + "- " + _markdown_line(line))
    return "\n".join(out).rstrip("\n") + "\n"


_TONE_CLASS: dict[Tone, str] = {tone: tone.value for tone in Tone}

_HTML_STYLE = """
body { font-family: sans-serif; max-width: 46em; margin: 1em auto; line-height: 1.35; }
h2 { font-size: 1.05em; color: #666; border-bottom: 1px solid #ddd; margin-top: 1.4em; }
h3 { font-size: 0.95em; margin: 0.8em 0 0.2em; }
ul { padding-left: 1.2em; } li { margin: 0.2em 0; }
ul ul { padding-left: 1.2em; margin: 0.1em 0; }
.note-line { color: #666; font-style: italic; }
.cite { color: #777; font-size: small; }
.title, .outcome { font-weight: 600; }
.success { color: #2e7d32; } .failure { color: #b23a30; }
.critical { color: #7b1fa2; font-weight: 600; } .harm { color: #b71c1c; font-weight: 600; }
.note { color: #666; font-style: italic; }
""".strip()


def _html_line(line: LogLine) -> str:
    text = f'<span class="{_TONE_CLASS[line.tone]}">{html.escape(line.text)}</span>'
    if line.citation:
        text += f' <span class="cite">· {html.escape(line.citation)}</span>'
    return text


def row_html_items(row: LogRow) -> str:
    """One entry as an HTML list item, its further lines in a nested list."""
    first, *rest = row.lines
    nested = "".join(f"<li>{_html_line(line)}</li>" for line in rest)
    return f"<li>{_html_line(first)}" + (f"<ul>{nested}</ul>" if nested else "") + "</li>"


def log_html(rows: Sequence[LogRow], note: str = "") -> str:
    """The rows as a standalone HTML page (UTF-8, its own style sheet), every text
    escaped: a heading for each turn and a list of its entries."""
    body: list[str] = [f"<h1>{TITLE}</h1>"]
    if note:
        body.append(f'<p class="note-line">{html.escape(note)}</p>')
    open_list = False
    for row in rows:
        level = heading_level(row)
        if level is not None:
            if open_list:
                body.append("</ul>")
                open_list = False
            body.append(f"<h{level}>{html.escape(row.title)}</h{level}>")
            continue
        if not row.lines:
            continue
        if not open_list:
            body.append("<ul>")
            open_list = True
        body.append(row_html_items(row))
    if open_list:
        body.append("</ul>")
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{TITLE}</title>\n<style>\n{_HTML_STYLE}\n</style>\n</head>\n<body>\n"
        + "\n".join(body)
        + "\n</body>\n</html>\n"
    )


def export_log(path: Path, rows: Sequence[LogRow], fmt: ExportFormat, note: str = "") -> None:
    """Write ``rows`` to ``path`` in ``fmt`` (UTF-8)."""
    text = log_markdown(rows, note) if fmt is ExportFormat.MARKDOWN else log_html(rows, note)
    path.write_text(text, encoding="utf-8")
