"""Seed 000's tables and the look-ups its rules make in them.

``Tables`` answers the questions the seed 000 attack code asks - directional
penalties, where shield PD counts, PD caps, hit location penalties, damage by
ST, wounding multipliers, success-roll criticals - from the tables under
``assets/rulesets/000/`` (and seed 001's hit locations under
``assets/rulesets/001/``). Every table is read here, once per ruleset object, and
the rules modules take the table they need from it: none of them picks a seed's
asset folder. Its options choose components once: with ``locations-001`` the hit
locations and the striking-at-weapons rules are seed 001's; with ``locations-2d6``
the hit locations are seed 004's 2d6 zones, with ``locations-fudge`` seed 003's
FUDGE body parts and their wound tracks (one hit location option at most).
``rules.sets.seed000.ruleset.Seed000`` is the battle's ruleset built on it.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from fractions import Fraction
from types import MappingProxyType
from typing import ClassVar

from hexmap import Arc
from rules.battle.model import DamageSpec, DamageType, Fighter
from rules.core.assets import read_json
from rules.core.citation import Citation
from rules.core.dice import Dice
from rules.core.errors import RulesError
from rules.core.modifiers import Modifier
from rules.sets.protocol import OptionChoice
from rules.sets.seed000.breakage import BrokenWeaponTable, load_broken_weapon_table
from rules.sets.seed000.checks import Outcome, RollKind, judge
from rules.sets.seed000.conditions import (
    CONDITIONS_FILE,
    POSTURES_FILE,
    ConditionCatalog,
    PostureTable,
    parse_condition_catalog,
    parse_posture_table,
)
from rules.sets.seed000.critical_misses import CriticalMissTable, load_critical_miss_table
from rules.sets.seed000.damage import (
    DamageTable,
    WoundingTable,
    parse_damage_table,
    parse_wounding_table,
    weapon_damage,
)
from rules.sets.seed000.defense import (
    DEFAULT_ARMOR_PD_CAP,
    DEFAULT_SCORE_CAP,
    DEFAULT_SCORE_PLUS_PD_CAP,
    DEFAULT_TOTAL_PD_CAP,
    DirectionalTable,
    PassiveDefense,
    parse_directional_table,
    passive_defense,
)
from rules.sets.seed000.defense_kinds import DefenseKind
from rules.sets.seed000.hit_location import (
    HIT_LOCATIONS_FILE,
    HitLocationTable,
    parse_hit_location_table,
)
from rules.sets.seed000.location_rules import LocationRules
from rules.sets.seed000.locations_001 import Locations001, parse_locations_001
from rules.sets.seed000.locations_2d6 import zones_2d6
from rules.sets.seed000.locations_fudge import fudge_locations
from rules.sets.seed000.weapon_strikes import (
    WEAPON_STRIKES_000,
    WEAPON_STRIKES_001,
    BladeTable,
    IntegrityTable,
    WeaponStrikeRules,
    load_blade_table,
    load_integrity_table,
)

LOCATIONS_001 = "locations-001"
LOCATIONS_2D6 = "locations-2d6"
LOCATIONS_FUDGE = "locations-fudge"
HIT_LOCATION_OPTIONS: Mapping[str, str] = MappingProxyType(
    {
        "": "hit locations: 000 table",
        LOCATIONS_001: "hit locations: 001 4th-edition-style",
        LOCATIONS_FUDGE: "hit locations: 003 FUDGE body parts",
        LOCATIONS_2D6: "hit locations: 004 2d6 zones",
    }
)
# The hit location options, of which a battle takes one at most (each replaces the
# 000 table), with the name the attack pane's "Hit locations" box gives each.
LOCATION_OPTION_NAMES: Mapping[str, str] = MappingProxyType(
    {
        LOCATIONS_001: "Seed 001 locations",
        LOCATIONS_FUDGE: "Seed 003 FUDGE parts",
        LOCATIONS_2D6: "Seed 004 2d6 zones",
    }
)
# The same as one choice of the New Battle dialog.
HIT_LOCATION_CHOICE = OptionChoice("Hit locations", "Seed 000 table", tuple(LOCATION_OPTION_NAMES))


# How many answers each of the tables' look-ups by identity keeps (it starts afresh
# when full).
_KNOWN_KEPT = 1024


class Tables:
    """Seed 000's tables, loaded on first use from ``assets/rulesets/<asset_dir>``,
    with the options of the battle."""

    key: ClassVar[str] = "000"
    name: ClassVar[str] = "Seed 000: melee house rules (3d6, 3rd-edition family)"
    seed: ClassVar[str] = "000"
    description: ClassVar[str] = (
        "Passive defense subtracted from the attack, dodge/block/parry with directional "
        "penalties and parry classes, cumulative defenses; 3rd-edition basics for the "
        "success roll, damage and injury."
    )
    asset_dir: ClassVar[str] = "000"
    # Seed 001's tables, for the ``locations-001`` option.
    asset_dir_001: ClassVar[str] = "001"
    # Options this ruleset accepts: key -> one line of explanation.
    available_options: ClassVar[Mapping[str, str]] = MappingProxyType(
        {
            LOCATIONS_001: (
                "seed 001 hit locations: its 4th-edition-style locations instead of the "
                "000 table (also 001's striking at weapons by reach and knocking away)"
            ),
            LOCATIONS_FUDGE: (
                "seed 003 hit locations: FUDGE body parts instead of the 000 table (the 1d6 "
                "random location, aiming by size, a wound track per part: useless and "
                "crippled limbs)"
            ),
            LOCATIONS_2D6: (
                "seed 004 hit zones: the 2d6 zones instead of the 000 table (their "
                "multipliers and the vital-organ rules, aiming by size steps)"
            ),
        }
    )
    option_choices: ClassVar[tuple[OptionChoice, ...]] = (HIT_LOCATION_CHOICE,)

    # Caps of seed 000 (000 ACTIVE DEFENSES, 000 BLOCK, 000 PARRY, 000 PASSIVE DEFENSE).
    defense_cap: ClassVar[int] = DEFAULT_SCORE_CAP
    defense_plus_pd_cap: ClassVar[int] = DEFAULT_SCORE_PLUS_PD_CAP
    armor_pd_cap: ClassVar[int] = DEFAULT_ARMOR_PD_CAP
    total_pd_cap: ClassVar[int] = DEFAULT_TOTAL_PD_CAP

    def __init__(self, options: Iterable[str] = ()) -> None:
        chosen = frozenset(options)
        unknown = sorted(chosen - set(self.available_options))
        if unknown:
            raise RulesError(f"ruleset {self.key!r} has no option(s) {', '.join(unknown)}")
        systems = [key for key in LOCATION_OPTION_NAMES if key in chosen]
        if len(systems) > 1:
            names = " and ".join(LOCATION_OPTION_NAMES[key] for key in systems)
            raise RulesError(
                f"{names} each replace the 000 hit locations: a battle takes one of them "
                "at most"
            )
        self.options: frozenset[str] = chosen
        # 000 STRIKING AT WEAPONS, or with the option 001 Striking at Weapons in
        # Tactical Combat: chosen once, asked by the attack and the odds.
        self._weapon_strikes: WeaponStrikeRules = (
            WEAPON_STRIKES_001 if LOCATIONS_001 in chosen else WEAPON_STRIKES_000
        )

    def __repr__(self) -> str:
        opts = f", options={sorted(self.options)}" if self.options else ""
        return f"{type(self).__name__}(key={self.key!r}{opts})"

    # --- tables ---------------------------------------------------------------
    def _read(self, name: str) -> object:
        return read_json("rulesets", self.asset_dir, name)

    @functools.cached_property
    def directional(self) -> DirectionalTable:
        return parse_directional_table(self._read("directional.json"))

    @functools.cached_property
    def damage_table(self) -> DamageTable:
        return parse_damage_table(self._read("damage_by_st.json"))

    @functools.cached_property
    def wounding(self) -> WoundingTable:
        return parse_wounding_table(self._read("wounding.json"))

    @functools.cached_property
    def hit_location_table(self) -> HitLocationTable:
        """000 RANDOM BODY HIT and the aimed locations (``hit_locations.json``), its
        wounds multiplied by this ruleset's wounding table."""
        return parse_hit_location_table(self._read(HIT_LOCATIONS_FILE), self.wounding.multipliers)

    @functools.cached_property
    def locations_001(self) -> Locations001:
        """001 Hit Location (seed 001's ``hit_locations.json``)."""
        return parse_locations_001(read_json("rulesets", self.asset_dir_001, HIT_LOCATIONS_FILE))

    @functools.cached_property
    def blade_breaking(self) -> BladeTable:
        """000 BREAKING A BLADE (``blade_breaking.json``)."""
        return load_blade_table(self._read("blade_breaking.json"))

    @functools.cached_property
    def weapon_integrity(self) -> IntegrityTable:
        """001 Breaking a Weapon: DR by material, HP by weight (``weapon_integrity.json``)."""
        return load_integrity_table(self._read("weapon_integrity.json"))

    @functools.cached_property
    def broken_weapons(self) -> BrokenWeaponTable:
        """000 BROKEN WEAPONS (``broken_weapons.json``)."""
        return load_broken_weapon_table(self._read("broken_weapons.json"))

    @functools.cached_property
    def critical_misses(self) -> CriticalMissTable:
        """The critical miss table (``critical_miss_table.json``)."""
        return load_critical_miss_table(self._read("critical_miss_table.json"))

    @functools.cached_property
    def adverse_conditions(self) -> ConditionCatalog:
        """000 ADVERSE COMBAT CONDITIONS (``adverse_conditions.json``)."""
        return parse_condition_catalog(self._read(CONDITIONS_FILE))

    @functools.cached_property
    def postures(self) -> PostureTable:
        """Postures under 000 ADVERSE COMBAT CONDITIONS (``postures.json``)."""
        return parse_posture_table(self._read(POSTURES_FILE))

    def read_every_table(self) -> None:
        """Read and check every table now (they are otherwise read on first use): a
        battle's ruleset is made ready, and a damaged table refused, before the
        first attack or preview needs it."""
        _ = (  # each property reads its table once and keeps it
            self.directional,
            self.damage_table,
            self.wounding,
            self.hit_locations,
            self.blade_breaking,
            self.weapon_integrity,
            self.broken_weapons,
            self.critical_misses,
            self.adverse_conditions,
            self.postures,
        )

    # --- questions the attack code asks -----------------------------------------
    def directional_modifiers(
        self, kind: DefenseKind, arc: Arc, below: bool, two_handed: bool
    ) -> tuple[Modifier, ...]:
        return self.directional.modifiers(kind, arc, below, two_handed)

    def shield_pd_counts(self, arc: Arc) -> bool:
        return self.directional.shield_pd_counts(arc)

    def passive_defense(
        self, fighter: Fighter, arc: Arc, shield_factor: tuple[int, str, Citation] | None = None
    ) -> PassiveDefense:
        # Every attack asks; the answer is the sheet's (its armor and shield), found
        # again by the sheet's identity (each entry holds it, so the id is not reused).
        known = self._known_passive_defenses
        key = (id(fighter), arc, shield_factor)
        found = known.get(key)
        if found is not None and found[0] is fighter:
            return found[1]
        pd = passive_defense(
            fighter, arc, self.directional, self.armor_pd_cap, self.total_pd_cap, shield_factor
        )
        if len(known) >= _KNOWN_KEPT:
            known.clear()
        known[key] = (fighter, pd)
        return pd

    @functools.cached_property
    def _known_passive_defenses(
        self,
    ) -> dict[tuple[int, Arc, tuple[int, str, Citation] | None], tuple[Fighter, PassiveDefense]]:
        return {}

    @functools.cached_property
    def hit_locations(self) -> LocationRules:
        """The hit location system of this battle: seed 000's table (000 HIT
        LOCATIONS, 000 RANDOM HIT LOCATION) unless an option selects another:
        ``locations-001`` seed 001's 4th-edition-style locations (001 Hit
        Location), ``locations-fudge`` seed 003's FUDGE body parts with a wound
        track each (003 5.871, 5.872), ``locations-2d6`` seed 004's 2d6 zones (004
        Zones)."""
        if LOCATIONS_001 in self.options:
            return self.locations_001
        if LOCATIONS_FUDGE in self.options:
            return fudge_locations(self.wounding.multipliers)
        if LOCATIONS_2D6 in self.options:
            return zones_2d6(self.wounding.multipliers)
        return self.hit_location_table

    @property
    def weapon_strikes(self) -> WeaponStrikeRules:
        """The striking-at-weapons rules of this battle: seed 000's (a penalty by size,
        000 DISARMING AN OPPONENT by a Quick Contest instead of the attack, shafts and
        blades) or, with ``locations-001``, seed 001's (a penalty by reach, knocking a
        weapon away after a hit, weapons with DR and HP)."""
        return self._weapon_strikes

    def weapon_damage(self, spec: DamageSpec, st: int) -> Dice:
        # Every attack plan asks, for the same few weapon modes: found again by the
        # spec's identity (each entry holds it) and the ST.
        known = self._known_weapon_damage
        key = (id(spec), st)
        found = known.get(key)
        if found is not None and found[0] is spec:
            return found[1]
        dice = weapon_damage(spec, st, self.damage_table)
        if len(known) >= _KNOWN_KEPT:
            known.clear()
        known[key] = (spec, dice)
        return dice

    @functools.cached_property
    def _known_weapon_damage(self) -> dict[tuple[int, int], tuple[DamageSpec, Dice]]:
        return {}

    def wounding_multiplier(self, damage_type: DamageType) -> Fraction:
        return self.wounding.multiplier(damage_type)

    def judge(self, total: int, target: int, kind: RollKind = RollKind.STANDARD) -> Outcome:
        return judge(total, target, kind)
