"""The situational modifiers of an attack, from both of the seed's tables.

* **Close combat** (melee modes; the seed's first table): every row that holds
  applies and they add up. The map supplies the target prone or the attacker in
  its rear arc, either side's height, posture, footing and deep water, and the
  light of both hexes (the darker counts for both rolls); the GM's form supplies
  a helpless target (an automatic critical) and mounts. A target unconscious or
  paralysed below the neck is helpless without the GM's flag (in both tables).
* **Ranged** (thrown and missile modes; the second table): a starred section
  applies only its strongest row (largest size; a tie goes to the penalty), the
  sections add up, and the attacker's conditions all add up. The map supplies the
  target's darkness (its visibility), its SIZ above 20 (its sheet), it lying
  down, and the attacker lying down, in deep water or on unstable ground; the GM
  supplies wind, the target's movement, smoke, mist or fog, a helpless target and
  a blinded attacker. A bow or sling shot from deep water misses (note ‡).
* **The defense** (a dodge or parry against either kind of attack) takes the
  first table's rows about the defender: its own height or mount, posture,
  footing, deep water and the light, and the attacker's higher ground or mount.
* A fighter's broken ribs (major wound 5) cost every one of its rolls -50%.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from hexmap import Arc, arc_of
from rules.battle.model import Combatant, Delivery, Posture, Status, WeaponMode
from rules.battle.state import BattleState
from rules.battle.terrain import Footing, Light, Terrain, WaterDepth
from rules.core.citation import cite
from rules.core.errors import DataError
from rules.core.modifiers import Modifier
from rules.sets.seed002.sheet import sheet_of
from rules.sets.seed002.tables import (
    KEY,
    Automatic,
    ModifierRow,
    Roll,
    Section,
    close_combat_rows,
    ranged_section,
)
from rules.sets.seed002.tracks import tracks_of

NOTE_STAR = cite(KEY, "Note star")
NOTE_DAGGER = cite(KEY, "Note †")
NOTE_DOUBLE_DAGGER = cite(KEY, "Note ‡")
BROKEN_RIBS = cite(KEY, "Major wound 5")
LYING = frozenset({Posture.PRONE, Posture.CRAWLING})
PARTIAL_DARKNESS_FROM = 2  # dim light (darkness 2-8) is partial darkness
DARKNESS_FROM = Light.NEARLY_DARK.darkness  # nearly dark and total darkness
LARGE_TARGET_SIZ = 20


@dataclass(frozen=True, slots=True)
class GMSituation:
    """The situation the GM sets in the attack form (what the map does not know)."""

    wind: str = ""  # a row key of the wind section, "" for calm
    movement: str = ""  # a row key of the target movement section
    obscured: str = ""  # "obscured" (smoke, mist) or "thickly-obscured" (thick smoke, fog)
    helpless: bool = False
    blinded: bool = False
    attacker_mounted: bool = False
    defender_mounted: bool = False


@dataclass(frozen=True, slots=True)
class Situation:
    attack: tuple[Modifier, ...]
    defense: tuple[Modifier, ...]
    automatic: Automatic | None = None  # the attack's automatic result
    automatic_reason: str = ""


def _modifier(row: ModifierRow, note: str = "") -> Modifier:
    reason = row.label + (f" ({note})" if note else "")
    if row.automatic is not None:
        reason = f"{reason}: automatic {row.automatic.value}"
    return Modifier(row.modifier, reason, row.citation)


def light_row(terrain_a: Terrain, terrain_b: Terrain) -> str:
    """ "darkness", "partial-darkness" or "": the darker hex of the two."""
    darkness = max(terrain_a.light.darkness, terrain_b.light.darkness)
    if darkness >= DARKNESS_FROM:
        return "darkness"
    if darkness >= PARTIAL_DARKNESS_FROM:
        return "partial-darkness"
    return ""


def strongest(rows: list[ModifierRow]) -> ModifierRow | None:
    """Note *: one row of a starred section counts, the strongest: an automatic
    result, else the largest size, a penalty before a bonus of the same size."""
    if not rows:
        return None
    automatic = [r for r in rows if r.automatic is not None]
    if automatic:
        return automatic[0]
    return max(rows, key=lambda r: (abs(r.modifier), -r.modifier))


def _unstable(t: Terrain) -> bool:
    return t.footing is not Footing.GOOD


def _underwater(t: Terrain) -> bool:
    return t.water is WaterDepth.DEEP


def wound_modifiers(who: Combatant) -> list[Modifier]:
    """The fighter's wounds on every roll it makes: broken ribs (major wound 5)."""
    penalty = tracks_of(who).skill_penalty
    return [Modifier(penalty, "broken ribs", BROKEN_RIBS)] if penalty else []


def lying(who: Combatant) -> bool:
    """Whether the fighter is down on the ground: "prone" in both tables."""
    return who.posture in LYING


def lying_modifiers(who: Combatant) -> tuple[Modifier, Modifier] | None:
    """A fighter lying down: the close combat table's "prone" row (on its own
    close combat attacks and its defenses) and the ranged table's "attacker
    prone" (on its shots and throws); None on its feet."""
    if not lying(who):
        return None
    close = next(r.row for r in close_combat_rows() if r.row.key == "prone")
    return _modifier(close), _modifier(ranged_section("attacker").row("prone"))


@dataclass(frozen=True, slots=True)
class _Sides:
    """The two fighters of a close combat row's test: ``me`` is the side whose
    roll the row changes (for a row of the attack or of both, the attacker)."""

    me: Combatant
    foe: Combatant
    mine: Terrain
    theirs: Terrain
    my_mount: bool
    their_mount: bool
    helpless_target: bool = False


def _behind_or_prone(s: _Sides) -> bool:
    behind = arc_of(s.me.hex, s.foe.hex, s.foe.facing, s.foe.handedness) is Arc.REAR
    return s.foe.posture in LYING or behind


def _light(key: str) -> Callable[[_Sides], bool]:
    return lambda s: light_row(s.mine, s.theirs) == key


# Each close combat row's test, by its key; the table's "roll" says whose roll
# it changes: "attack" (tested for the attacker), "defense" (for the defender),
# "own" (each side for its own roll) or "both" (tested once, both rolls).
CLOSE_TESTS: dict[str, Callable[[_Sides], bool]] = {
    "helpless": lambda s: s.helpless_target,
    "prone-or-behind": _behind_or_prone,
    "higher-ground": lambda s: s.mine.height > s.theirs.height or s.my_mount,
    "prone": lambda s: lying(s.me),
    "unstable": lambda s: _unstable(s.mine),
    "underwater": lambda s: _underwater(s.mine),
    "lower-ground": lambda s: s.mine.height < s.theirs.height or s.their_mount,
    "partial-darkness": _light("partial-darkness"),
    "darkness": _light("darkness"),
}


def check_close_tests() -> None:
    """Every row of the close combat table has its test (``DataError`` if not)."""
    missing = [r.row.key for r in close_combat_rows() if r.row.key not in CLOSE_TESTS]
    if missing:
        raise DataError(f"close_combat_modifiers.json: rows without a test: {missing}")


def _close_rows(
    state: BattleState, attacker: Combatant, defender: Combatant, gm: GMSituation, rolls: Roll
) -> list[ModifierRow]:
    """The close combat rows that hold for the attack's (``Roll.ATTACK``) or the
    defense's (``Roll.DEFENSE``) roll, in the table's order."""
    ta, td = state.terrain.at(attacker.hex), state.terrain.at(defender.hex)
    attacking = _Sides(
        attacker, defender, ta, td, gm.attacker_mounted, gm.defender_mounted, gm.helpless
    )
    defending = _Sides(defender, attacker, td, ta, gm.defender_mounted, gm.attacker_mounted)
    wanted = {
        Roll.ATTACK: (Roll.ATTACK, Roll.OWN, Roll.BOTH),
        Roll.DEFENSE: (Roll.DEFENSE, Roll.OWN, Roll.BOTH),
    }[rolls]
    out = []
    for r in close_combat_rows():
        if r.roll not in wanted:
            continue
        sides = attacking if rolls is Roll.ATTACK or r.roll is Roll.BOTH else defending
        if CLOSE_TESTS[r.row.key](sides):
            out.append(r.row)
    return out


def defense_modifiers(
    state: BattleState, attacker: Combatant, defender: Combatant, gm: GMSituation
) -> tuple[Modifier, ...]:
    """The first table's rows about the defender, for any dodge or parry."""
    rows = _close_rows(state, attacker, defender, gm, Roll.DEFENSE)
    return (*(_modifier(r) for r in rows), *wound_modifiers(defender))


def close_attack_modifiers(
    state: BattleState, attacker: Combatant, defender: Combatant, gm: GMSituation
) -> tuple[tuple[Modifier, ...], Automatic | None]:
    rows = _close_rows(state, attacker, defender, gm, Roll.ATTACK)
    automatic = next((r.automatic for r in rows if r.automatic is not None), None)
    return tuple(_modifier(r) for r in rows), automatic


def _section_pick(section: Section, keys: list[str]) -> ModifierRow | None:
    return strongest([section.row(k) for k in keys if k])


def ranged_attack_modifiers(
    state: BattleState,
    attacker: Combatant,
    defender: Combatant,
    mode: WeaponMode,
    gm: GMSituation,
) -> tuple[tuple[Modifier, ...], Automatic | None, str]:
    """The second table's modifiers, the automatic result if any and its reason."""
    ta, td = state.terrain.at(attacker.hex), state.terrain.at(defender.hex)
    out: list[Modifier] = []
    automatic: Automatic | None = None
    reason = ""
    picked: list[ModifierRow | None] = [
        _section_pick(ranged_section("wind"), [gm.wind]),
        _section_pick(ranged_section("movement"), [gm.movement]),
    ]
    map_light = {"darkness": "thickly-obscured", "partial-darkness": "obscured"}.get(
        light_row(td, td), ""
    )
    picked.append(_section_pick(ranged_section("visibility"), [gm.obscured, map_light]))
    if sheet_of(defender).characteristics.size > LARGE_TARGET_SIZ:
        picked.append(ranged_section("size").row("large-target"))
    condition = ["helpless" if gm.helpless else "", "prone" if defender.posture in LYING else ""]
    picked.append(_section_pick(ranged_section("condition"), condition))
    for row in picked:
        if row is None:
            continue
        out.append(_modifier(row))
        if row.automatic is not None:
            automatic, reason = row.automatic, row.label
    own = ranged_section("attacker")
    prone = lying_modifiers(attacker)
    if prone is not None:
        out.append(prone[1])
    if _underwater(ta):
        if mode.delivery is Delivery.MISSILE:
            out.append(Modifier(0, "shot underwater: an automatic miss", NOTE_DOUBLE_DAGGER))
            automatic, reason = Automatic.FAILURE, "shot underwater"
        else:
            out.append(_modifier(own.row("underwater")))
    if _unstable(ta):
        out.append(_modifier(own.row("unstable")))
    if gm.blinded:
        out.append(_modifier(own.row("blinded")))
    return tuple(out), automatic, reason


def helpless_by_state(defender: Combatant) -> bool:
    """An unconscious defender, or one paralysed below the neck, is helpless
    whatever the GM's flag says (our reading)."""
    return defender.status is Status.UNCONSCIOUS or tracks_of(defender).paralysis == "neck"


def situation(
    state: BattleState,
    attacker: Combatant,
    defender: Combatant,
    mode: WeaponMode,
    gm: GMSituation,
) -> Situation:
    if not gm.helpless and helpless_by_state(defender):
        gm = replace(gm, helpless=True)
    defense = defense_modifiers(state, attacker, defender, gm)
    if mode.is_ranged:
        attack, automatic, reason = ranged_attack_modifiers(state, attacker, defender, mode, gm)
    else:
        attack, automatic = close_attack_modifiers(state, attacker, defender, gm)
        reason = "target helpless" if automatic is not None else ""
    attack = (*attack, *wound_modifiers(attacker))
    return Situation(attack, defense, automatic, reason)
