"""Aimed hit locations: the penalty to hit each one (000 HIT LOCATIONS).

The table is data (``assets/rulesets/000/locations.json``) so the full random hit
location table with its sub-rolls and notes can extend it later. An unaimed blow
goes to the torso without penalty (base rules).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.core.citation import BASE_HIT_LOCATION, Citation
from rules.core.errors import DataError, IllegalAttackError
from rules.core.jsondata import as_list, as_object, check_keys, get_citation, get_int, get_str
from rules.core.modifiers import Modifier


@dataclass(frozen=True)
class HitLocation:
    key: str
    label: str
    penalty: int
    citation: Citation
    melee_penalty: int = 0  # further penalty for hand-weapon (melee) attacks
    melee_citation: Citation | None = None

    def modifiers(self, melee: bool = True) -> tuple[Modifier, ...]:
        """The penalties to hit this location (none for a zero penalty)."""
        mods: list[Modifier] = []
        if self.penalty:
            mods.append(Modifier(self.penalty, f"aimed at the {self.label.lower()}", self.citation))
        if melee and self.melee_penalty:
            mods.append(
                Modifier(
                    self.melee_penalty,
                    f"{self.label.lower()} moves in melee",
                    self.melee_citation or self.citation,
                )
            )
        return tuple(mods)


@dataclass(frozen=True)
class LocationTable:
    locations: tuple[HitLocation, ...]
    default_key: str

    def get(self, key: str | None) -> HitLocation:
        """The location for an aimed key; None is the unaimed default (torso)."""
        wanted = self.default_key if key is None else key
        for loc in self.locations:
            if loc.key == wanted:
                return loc
        known = ", ".join(loc.key for loc in self.locations)
        raise IllegalAttackError(f"unknown hit location {key!r} (known: {known})")

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(loc.key for loc in self.locations)


def parse_location_table(data: object) -> LocationTable:
    obj = as_object(data, "locations")
    check_keys(obj, "locations", ("default", "locations"), ("about",))
    locations: list[HitLocation] = []
    for i, raw in enumerate(as_list(obj["locations"], "locations.locations")):
        where = f"locations[{i}]"
        loc = as_object(raw, where)
        check_keys(
            loc,
            where,
            ("key", "label", "penalty"),
            ("citation", "melee_penalty", "melee_citation"),
        )
        penalty = get_int(loc, "penalty", where)
        melee = get_int(loc, "melee_penalty", where, 0)
        if penalty > 0 or melee > 0:
            raise DataError(f"{where}: hit location penalties must be 0 or negative")
        melee_citation = (
            get_citation(loc, "melee_citation", where) if "melee_citation" in loc else None
        )
        locations.append(
            HitLocation(
                key=get_str(loc, "key", where),
                label=get_str(loc, "label", where),
                penalty=penalty,
                citation=get_citation(loc, "citation", where, BASE_HIT_LOCATION),
                melee_penalty=melee,
                melee_citation=melee_citation,
            )
        )
    keys = [loc.key for loc in locations]
    if len(set(keys)) != len(keys):
        raise DataError(f"locations: duplicate keys in {keys}")
    default = get_str(obj, "default", "locations")
    if default not in keys:
        raise DataError(f"locations.default: {default!r} is not a listed location")
    return LocationTable(tuple(locations), default)
