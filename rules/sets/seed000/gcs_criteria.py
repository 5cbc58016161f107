"""How a GURPS Character Sheet (GCS) file names a skill, and which of the
character's skills a name picks (docs/gcs-import.md).

GCS writes a skill default's name and specialization (on a weapon, a skill or a
technique) in one of two forms, and reads both:

* text, as files written before the criteria: ``"name": "Broadsword"``, which
  means "is Broadsword" (empty text: any skill);
* a criteria object, as current files: ``"name": {"compare": "is", "qualifier":
  "Broadsword"}``, or ``{"compare": "starts_with", "qualifier": "Brawl"}``; a
  missing name or an unknown comparison is "is anything".

A comparison ignores case, as GCS's (``model/criteria/string_comparison.go``).
An entry's name may hold placeholders ("Shield (@Type@)") that its own
``replacements`` fill (GCS's nameables). A default matches a skill as GCS's
``Entity.SkillMatching`` does: the name matches, and the specialization matches
the skill's specialization or its optional one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from rules.core.errors import DataError
from rules.core.jsondata import JSONObject, as_object

# GCS's StringComparison values, each a test of (qualifier, text), both case-folded.
_COMPARISONS: Mapping[str, Callable[[str, str], bool]] = MappingProxyType(
    {
        "": lambda _qualifier, _text: True,
        "is": lambda qualifier, text: text == qualifier,
        "is_not": lambda qualifier, text: text != qualifier,
        "contains": lambda qualifier, text: qualifier in text,
        "does_not_contain": lambda qualifier, text: qualifier not in text,
        "starts_with": lambda qualifier, text: text.startswith(qualifier),
        "does_not_start_with": lambda qualifier, text: not text.startswith(qualifier),
        "ends_with": lambda qualifier, text: text.endswith(qualifier),
        "does_not_end_with": lambda qualifier, text: not text.endswith(qualifier),
    }
)
_IS = "is"
_PLACEHOLDER = re.compile(r"@([^@]*)@")


@dataclass(frozen=True, slots=True)
class TextCriteria:
    """A test of a name: ``compare`` (one of GCS's comparisons, "" for any text)
    against ``qualifier``."""

    compare: str = ""
    qualifier: str = ""

    def matches(self, text: str) -> bool:
        return _COMPARISONS[self.compare](self.qualifier.casefold(), text.casefold())

    @property
    def exact(self) -> str | None:
        """The one text it matches ("is"), None when it matches any or several."""
        return self.qualifier if self.compare == _IS else None


ANY_TEXT = TextCriteria()


@dataclass(frozen=True, slots=True)
class GcsSkill:
    """A skill of the character as GCS names it, and its key on the seed 000
    sheet: "Name (Specialization)"."""

    name: str
    specialization: str = ""
    optional_specialization: str = ""

    @property
    def key(self) -> str:
        return f"{self.name} ({self.specialization})" if self.specialization else self.name


@dataclass(frozen=True, slots=True)
class SkillDefault:
    """A skill a weapon (or a shield) is used with, and the modifier to it."""

    name: TextCriteria
    specialization: TextCriteria
    modifier: int

    def matches(self, skill: GcsSkill) -> bool:
        """Whether this default names ``skill`` (GCS's ``SkillMatching``)."""
        if not self.name.matches(skill.name):
            return False
        if skill.specialization:
            return self.specialization.matches(skill.specialization) or (
                bool(skill.optional_specialization)
                and self.specialization.matches(skill.optional_specialization)
            )
        return self.specialization.matches(skill.optional_specialization)

    def named_skill(self) -> GcsSkill | None:
        """The one skill this default names exactly ("is Broadsword", any or "is"
        specialization), None when it names no single skill (a name that starts
        with "Brawl" names several)."""
        name = self.name.exact
        if not name:
            return None
        specialization = self.specialization.exact
        if specialization is None and self.specialization != ANY_TEXT:
            return None
        return GcsSkill(name, specialization or "")


def read_replacements(entry: JSONObject, where: str) -> Mapping[str, str]:
    """An entry's ``replacements``: the text each placeholder of its names stands for."""
    if "replacements" not in entry:
        return MappingProxyType({})
    found = as_object(entry["replacements"], f"{where}.replacements")
    for key, value in found.items():
        if not isinstance(value, str):
            raise DataError(f"{where}.replacements.{key[:40]}: expected text, got {value!r:.40}")
    return MappingProxyType({k: str(v) for k, v in found.items()})


def fill_placeholders(text: str, replacements: Mapping[str, str]) -> str:
    """``text`` with each "@key@" replaced by its text. One pass: a replacement's
    own placeholders stay as they are, so a file cannot make a name grow without end."""
    if not replacements or text.count("@") < 2:
        return text
    return _PLACEHOLDER.sub(lambda m: replacements.get(m.group(1), m.group(0)), text)


def read_text_criteria(value: object, where: str, replacements: Mapping[str, str]) -> TextCriteria:
    """A name or specialization that GCS writes as text or as a criteria object."""
    if value is None:
        return ANY_TEXT
    if isinstance(value, str):
        text = fill_placeholders(value, replacements).strip()
        return TextCriteria(_IS, text) if text else ANY_TEXT
    criteria = as_object(value, where)
    compare = criteria.get("compare", "")
    qualifier = criteria.get("qualifier", "")
    if not isinstance(compare, str):
        raise DataError(f"{where}.compare: expected text, got {compare!r:.40}")
    if not isinstance(qualifier, str):
        raise DataError(f"{where}.qualifier: expected text, got {qualifier!r:.40}")
    if compare not in _COMPARISONS:
        compare = ""  # as GCS reads a comparison it does not know: "is anything"
    return TextCriteria(compare, fill_placeholders(qualifier, replacements))
