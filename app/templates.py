"""The fighter template library: bundled templates and the GM's own.

A template is one versioned JSON file (docs/templates.md): the bundled ones in
``assets/templates/``, the GM's own in ``app.user_dirs.templates_dir()``. Each
names its format and version, the ruleset its sheet is for, its key (the file's
name without ``.json``), its name (from version 2; the fighter's name before), a
short description, and the fighter, either

* ``"fighter"``: the fighter in the catalog's template form (gear by catalog
  key, as ``assets/fighters.json``; ``rules.battle.catalog.parse_fighter``), or
* ``"sheet"``: the whole sheet as the ruleset writes it (``Sheets.encode``),
  the form a fighter saved from a battle takes, its gear written out in full.

Files are checked on load as strictly as battle files: size, strict JSON (no
NaN, no key twice, no deep nesting), exact keys, format and version, the gear
against the catalog and the sheet by the ruleset. A file that fails is named in
``TemplateLibrary.problems`` (the templates pane shows them) and skipped.

Placing a template, or a copy of a fighter on the map, is the caller's
``AddCombatant``; this module finds the hex (``nearest_free_hex``) and the name
("Fencer 2") and builds the combatant of a copy (``duplicate_of``).
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Container, Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from app.user_dirs import templates_dir
from hexmap import Hex, is_digits
from rules.battle.catalog import parse_fighter
from rules.battle.limits import check_counts
from rules.battle.model import Combatant, Fighter
from rules.battle.roster import next_combatant_id
from rules.battle.savefile import json_object
from rules.battle.state import BattleState
from rules.core.assets import asset_path
from rules.core.errors import DataError
from rules.core.file_reading import read_regular_file, size_text, too_large
from rules.core.strict_json import short_reason
from rules.sets.protocol import Ruleset
from rules.sets.registry import get_ruleset, ruleset_keys
from rules.sets.sheet_refusal import sheet_range_refusal

log = logging.getLogger(__name__)

FORMAT = "hexfray-template"
# Version 2 gives the template a name of its own ("name"): an imported character
# keeps its name in a template the GM named otherwise. Version 1 is still read.
VERSION = 2
NAMED_SINCE = 2
SUFFIX = ".json"
# A template is a few kilobytes; a far larger file is no template.
MAX_TEMPLATE_BYTES = 1024 * 1024
MAX_DEPTH = 32
MAX_DESCRIPTION = 400
MAX_NAME = 60
# No stat, weight or level of a fighter comes near this; a larger number is a damaged
# or hostile file (and would hang the rules that count up to it).
MAX_NUMBER = 1_000_000
_DOCUMENT_KEYS = frozenset({"format", "version", "ruleset", "key", "description"})
_NAME_KEY = "name"
_FIGHTER_FORMS = ("fighter", "sheet")
_KEY_PATTERN = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
# The GM's own templates are listed by this prefix on their key, so that a custom
# "archer" never hides the bundled one.
CUSTOM_PREFIX = "custom:"


class TemplateFileError(DataError):
    """A template file that cannot be used; the message names the problem in the
    file, the caller names the file."""


@dataclass(frozen=True)
class Template:
    key: str
    name: str  # as the lists show it; the fighter placed from it has its own
    fighter: Fighter
    names_its_hand: bool  # the template says which hand: the GM's default does not apply
    description: str = ""
    ruleset_key: str = "000"
    path: Path | None = None  # the file it came from
    custom: bool = False  # the GM's own (in the user data folder): may be renamed, deleted


@dataclass(frozen=True)
class TemplateLibrary:
    templates: tuple[Template, ...]
    # One line per file skipped: "<file name>: <why>".
    problems: tuple[str, ...] = ()

    def for_ruleset(self, ruleset_key: str) -> tuple[Template, ...]:
        return tuple(t for t in self.templates if t.ruleset_key == ruleset_key)

    def template(self, key: str) -> Template | None:
        return next((t for t in self.templates if t.key == key), None)


# --- reading --------------------------------------------------------------------------


def bundled_dir() -> Path:
    return asset_path("templates")


def parse_template(text: str | bytes, stem: str, *, custom: bool = False) -> Template:
    """The template a file's text holds (``stem``: the file's name without
    ``.json``, which is its key). ``TemplateFileError`` for any problem."""
    if len(text) > MAX_TEMPLATE_BYTES:
        raise TemplateFileError(too_large("the file", len(text), MAX_TEMPLATE_BYTES, "a template"))
    data = json_object(text, TemplateFileError, MAX_DEPTH, kind="a template", holding="template")
    check_counts(data, TemplateFileError)  # before a fighter is built from it
    _check_numbers(data)
    return _template_from(data, stem, custom)


def _check_numbers(data: object) -> None:
    pending = [data]
    while pending:
        value = pending.pop()
        if isinstance(value, dict):
            pending.extend(value.values())
        elif isinstance(value, list):
            pending.extend(value)
        elif (
            isinstance(value, int | float)
            and not isinstance(value, bool)
            and abs(value) > MAX_NUMBER
        ):
            raise TemplateFileError(
                f"the file holds a number too large for a fighter ({str(value)[:12]}…; "
                f"at most {MAX_NUMBER:,})"
            )


def _template_from(document: Mapping[str, object], stem: str, custom: bool) -> Template:
    if document.get("format") != FORMAT:
        raise TemplateFileError(f"this is not a Hexfray template (format is not {FORMAT!r})")
    version = document.get("version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise TemplateFileError("version: expected a whole number")
    if version > VERSION:
        raise TemplateFileError(
            f"the template was written by a newer Hexfray (version {version}; "
            f"this one reads up to {VERSION})"
        )
    if version < 1:
        raise TemplateFileError(f"version: {version} is no template version")
    forms = [form for form in _FIGHTER_FORMS if form in document]
    if len(forms) != 1:
        raise TemplateFileError("the template needs exactly one of 'fighter' and 'sheet'")
    keys = _DOCUMENT_KEYS | {_NAME_KEY} if version >= NAMED_SINCE else _DOCUMENT_KEYS
    unknown = sorted(set(document) - keys - set(forms))
    if unknown:
        raise TemplateFileError(f"the template holds parts Hexfray does not know: {unknown}")
    missing = sorted(keys - set(document))
    if missing:
        raise TemplateFileError(f"the template lacks {', '.join(missing)}")
    key, description = document["key"], document["description"]
    if not isinstance(key, str) or not _KEY_PATTERN.fullmatch(key):
        raise TemplateFileError("key: lower-case letters, digits and dashes, like 'town-guard'")
    if key != stem:
        raise TemplateFileError(f"key: {key!r:.40} is not the file's name {stem!r}")
    if not isinstance(description, str) or len(description) > MAX_DESCRIPTION:
        raise TemplateFileError(f"description: a text of at most {MAX_DESCRIPTION} characters")
    ruleset_key = document["ruleset"]
    if not isinstance(ruleset_key, str) or ruleset_key not in ruleset_keys():
        raise TemplateFileError(f"ruleset: no ruleset {ruleset_key!r:.40} in this Hexfray")
    ruleset = get_ruleset(ruleset_key)
    form = forms[0]
    fighter = _fighter(ruleset, form, document[form])
    # Within the ruleset's sheet, as a battle file's fighters: hit points of a
    # billion would join the battle and overflow the inspector's number box.
    refusal = sheet_range_refusal(fighter, ruleset.sheets)
    if refusal is not None:
        raise TemplateFileError(f"{form}: {refusal}")
    if not fighter.name.strip() or len(fighter.name) > MAX_NAME:
        raise TemplateFileError(f"{form}.name: a name of 1 to {MAX_NAME} characters")
    name = document.get(_NAME_KEY, fighter.name)
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
        raise TemplateFileError(f"name: a name of 1 to {MAX_NAME} characters")
    raw = document[form]
    names_its_hand = form == "sheet" or (isinstance(raw, dict) and "handedness" in raw)
    return Template(
        key=f"{CUSTOM_PREFIX}{key}" if custom else key,
        name=name,
        fighter=fighter,
        names_its_hand=names_its_hand,
        description=description,
        ruleset_key=ruleset_key,
        custom=custom,
    )


def _fighter(ruleset: Ruleset, form: str, data: object) -> Fighter:
    """The fighter of a template, its sheet checked by the ruleset."""
    try:
        if form == "sheet":
            return ruleset.sheets.decode(data)
        if isinstance(data, dict) and "key" in data:
            raise DataError("fighter.key: the template's key is the file's")
        obj = {**data, "key": "template"} if isinstance(data, dict) else data
        _key, fighter = parse_fighter(obj, ruleset.sheets.catalog(), "fighter")
        # The ruleset reads the sheet now, so that a bad stat is refused on load
        # and not when the fighter first acts.
        ruleset.sheets.encode(fighter)
        return fighter
    except DataError as exc:
        raise TemplateFileError(short_reason(exc)) from None
    except (ValueError, TypeError, KeyError) as exc:  # a ruleset's reader hit a case it misses
        raise TemplateFileError(f"{form}: {short_reason(exc)}") from None


def read_template_file(path: Path, *, custom: bool = False) -> Template:
    """The template in ``path``: a regular file of at most ``MAX_TEMPLATE_BYTES``
    (``rules.core.file_reading``); ``TemplateFileError`` for any problem."""
    try:
        text = read_regular_file(
            path, MAX_TEMPLATE_BYTES, TemplateFileError, name="the file", kind="a template"
        )
    except OSError as exc:
        raise TemplateFileError(f"cannot be read ({exc.strerror or exc})") from None
    return replace(parse_template(text, path.stem, custom=custom), path=path)


def _read_folder(folder: Path, custom: bool) -> tuple[list[Template], list[str]]:
    templates: list[Template] = []
    problems: list[str] = []
    try:
        paths = sorted(p for p in folder.iterdir() if p.suffix == SUFFIX)
    except OSError as exc:
        return [], [f"{folder}: cannot be read ({exc.strerror or exc})"]
    for path in paths:
        try:
            templates.append(read_template_file(path, custom=custom))
        except TemplateFileError as exc:
            log.warning("template %s skipped: %s", path, exc)
            problems.append(f"{path.name}: {exc}")
    return templates, problems


def load_library(user_folder: Path | None = None) -> TemplateLibrary:
    """The bundled templates, then the GM's own (``user_folder``, by default the
    user data folder's templates), each folder in file name order."""
    bundled, bundled_problems = _read_folder(bundled_dir(), custom=False)
    folder = templates_dir() if user_folder is None else user_folder
    custom, custom_problems = _read_folder(folder, custom=True)
    return TemplateLibrary(
        templates=(*bundled, *custom), problems=(*bundled_problems, *custom_problems)
    )


# --- the GM's own templates -------------------------------------------------------------


def key_for(name: str, taken: Iterable[str]) -> str:
    """A file name for a template called ``name``: lower case, dashes, not in
    ``taken`` ("archer", then "archer-2")."""
    base = "-".join(re.findall(r"[a-z0-9]+", name.lower()))[:40].strip("-") or "template"
    return first_untaken(base, set(taken), "-")


def first_untaken(base: str, taken: Container[str], separator: str) -> str:
    """``base`` if not in ``taken``, else the first of ``base`` numbered 2, 3 ...
    (after ``separator``) that is not: a new file's key, a new fighter's name, a weapon's key."""
    candidate, number = base, 1
    while candidate in taken:
        number += 1
        candidate = f"{base}{separator}{number}"
    return candidate


def gear_summary(fighter: Fighter) -> str:
    """ "Rapier, Main-Gauche; Leather": the weapons, then shield and armor."""
    parts = [", ".join(w.name for w in fighter.weapons) or "no weapons"]
    extras = [g.name for g in (fighter.shield, fighter.armor) if g is not None]
    return "; ".join(parts + extras)


def template_document(
    ruleset: Ruleset, ruleset_key: str, key: str, name: str, description: str, fighter: Fighter
) -> dict[str, object]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "ruleset": ruleset_key,
        "key": key,
        _NAME_KEY: name,
        "description": description[:MAX_DESCRIPTION],
        "sheet": ruleset.sheets.encode(fighter),
    }


def _write(folder: Path, document: Mapping[str, object]) -> Template:
    """Write the GM's template ``document`` to ``folder``, once it is known to be
    what a later start loads: a template too large or refused when read back is
    never written (``TemplateFileError``), so no start lists it as a problem."""
    key = str(document["key"])
    text = json.dumps(document, indent=1, sort_keys=True, ensure_ascii=False, allow_nan=False)
    try:
        data = (text + "\n").encode("utf-8")
    except UnicodeEncodeError:
        raise TemplateFileError("the template holds text that no file can hold") from None
    if len(data) > MAX_TEMPLATE_BYTES:
        raise TemplateFileError(
            f"the template would take {size_text(len(data))}; a template takes at most "
            f"{size_text(MAX_TEMPLATE_BYTES)}"
        )
    template = parse_template(data, key, custom=True)
    path = folder / f"{key}{SUFFIX}"
    partial = path.with_suffix(".partial")
    partial.write_bytes(data)
    partial.replace(path)  # whole or not at all: a crash leaves no half a template
    return replace(template, path=path)


def _custom_keys(folder: Path) -> set[str]:
    return {p.stem for p in folder.glob(f"*{SUFFIX}")}


def check_name(name: str) -> str:
    """The name, stripped; ``DataError`` if empty or too long."""
    name = name.strip()
    if not name or len(name) > MAX_NAME:
        raise DataError(f"a template's name has 1 to {MAX_NAME} characters")
    return name


def save_custom_template(
    fighter: Fighter,
    name: str,
    ruleset_key: str,
    user_folder: Path | None = None,
    *,
    keep_fighter_name: bool = False,
) -> Template:
    """Save ``fighter`` (its sheet as it is now) as the GM's template ``name``,
    the fighter named ``name`` too unless ``keep_fighter_name`` (an imported
    character keeps the name its file gives it). The file's text is read as a
    later start reads it before it is written, so what is listed is what a later
    start loads, and a template that start would refuse is never written
    (``TemplateFileError``)."""
    name = check_name(name)
    folder = templates_dir() if user_folder is None else user_folder
    ruleset = get_ruleset(ruleset_key)
    key = key_for(name, _custom_keys(folder))
    if not keep_fighter_name:
        fighter = replace(fighter, name=name)
    who = "" if fighter.name == name else f" {fighter.name} with"
    description = f"Your template:{who} {gear_summary(fighter)}."
    document = template_document(ruleset, ruleset_key, key, name, description, fighter)
    return _write(folder, document)


def rename_custom_template(template: Template, name: str) -> Template:
    """The GM's template under a new name (its file renamed to match); its
    fighter takes the new name too if it had the template's, and keeps its own
    otherwise (an imported character)."""
    if not template.custom or template.path is None:
        raise DataError("only your own templates can be renamed")
    name = check_name(name)
    folder = template.path.parent
    ruleset = get_ruleset(template.ruleset_key)
    key = key_for(name, _custom_keys(folder) - {template.path.stem})
    fighter = template.fighter
    if fighter.name == template.name:
        fighter = replace(fighter, name=name)
    document = template_document(
        ruleset, template.ruleset_key, key, name, template.description, fighter
    )
    renamed = _write(folder, document)
    if renamed.path != template.path:
        template.path.unlink(missing_ok=True)
    return renamed


def delete_custom_template(template: Template) -> None:
    if not template.custom or template.path is None:
        raise DataError("only your own templates can be deleted")
    template.path.unlink(missing_ok=True)


# --- placing --------------------------------------------------------------------------


def nearest_free_hex(state: BattleState, near: Hex) -> Hex | None:
    """``near`` if it is on the map and free, else the free hex closest to it
    (ties by row, then column); None when the map is full."""
    occupied = {c.hex for c in state.combatants}
    free = [h for h in state.grid.hexes() if h not in occupied]
    if not free:
        return None
    return min(free, key=lambda h: (h.distance(near), h.to_offset()[1], h.to_offset()[0]))


def numbered_name(state: BattleState, name: str) -> str:
    """``name``, or "Fencer 2", "Fencer 3"... if a fighter of that name is on the map."""
    return first_untaken(name, {c.name for c in state.combatants}, " ")


def base_name(name: str) -> str:
    """ "Fencer 2" -> "Fencer": the name a copy is numbered from."""
    stem, _space, number = name.rpartition(" ")
    return stem if stem and is_digits(number) else name


def duplicate_of(state: BattleState, original: Combatant) -> Combatant | None:
    """A fresh copy of ``original``'s fighter (its sheet and gear, unhurt), on its
    side and facing, in the free hex nearest it; None when the map is full."""
    at = nearest_free_hex(state, original.hex)
    if at is None:
        return None
    fighter = original.fighter
    fighter = replace(fighter, name=numbered_name(state, base_name(fighter.name)))
    return Combatant(
        id=next_combatant_id(state),
        fighter=fighter,
        side=original.side,
        hex=at,
        facing=original.facing,
        hp=fighter.hit_points,
    )
