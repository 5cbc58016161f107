"""Major wounds (the seed's d10 table) and what they leave on the fighter.

What triggers one is the base rules' (OpenQuest SRD): a single blow whose damage
taken (after armour and any halving) is at least the fighter's Major Wound Level,
half its hit points rounded up; a fighter the blow kills rolls none. Each row
then changes the fighter for good (``Tracks002`` and its sheet): characteristics
lost (never below 1), a useless leg drops it prone and it crawls at most 2 hexes
a round, a useless arm drops what that hand holds onto the map, broken ribs cost
-50% to every skill, a slashed stomach bleeds 1 HP at the end of each of its
turns, a stopped heart leaves it prone and unconscious for 1d10 of its turns, a
broken spine (a second d10: odd below the neck, even below the torso) drops it
and halves its DEX (rounded down)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.battle.model import Combatant, Posture, Status
from rules.battle.pieces import AT_FEET, Piece
from rules.battle.state import LaunchedPiece
from rules.core.citation import Citation, cite
from rules.core.dice import DiceSource, roll, roll_dice
from rules.sets.seed002.events import MajorWoundRolled
from rules.sets.seed002.hands import held
from rules.sets.seed002.sheet import sheet_of
from rules.sets.seed002.tables import BASE, KEY, WoundRow, wound_row
from rules.sets.seed002.tracks import tracks_of

BASE_MAJOR_WOUND = Citation(BASE, "Major wounds: one blow of at least the Major Wound Level")
SPINE = cite(KEY, "Major wound 8")
WOUND_DIE = 10


def major_wound_level(max_hp: int) -> int:
    """Half the hit points, rounded up."""
    return -(-max_hp // 2)


def is_major(taken: int, max_hp: int) -> bool:
    return taken > 0 and taken >= major_wound_level(max_hp)


@dataclass(frozen=True, slots=True)
class WoundRolled:
    """A major wound as rolled: its row, the spine's die (None: not rolled) and
    its effects in words, for the log (``wound_event``)."""

    row: WoundRow
    spine_face: int | None
    effects: str


def wound_event(c: Combatant, wound: WoundRolled) -> MajorWoundRolled:
    """The log's event of ``wound``, rolled on ``c``."""
    return MajorWoundRolled(
        citation=wound.row.citation,
        combatant_id=c.id,
        name=c.name,
        face=wound.row.roll,
        label=wound.row.label,
        spine_face=wound.spine_face,
        effects=wound.effects,
    )


def apply_wound_row(
    c: Combatant, row: WoundRow, dice: DiceSource
) -> tuple[Combatant, WoundRolled, tuple[LaunchedPiece, ...]]:
    """The combatant after ``row``'s wound (the spine's die and the unconscious
    rounds rolled with ``dice``), the wound as rolled and what its hands drop."""
    sheet = sheet_of(c)
    chars = sheet.characteristics
    tracks = tracks_of(c)
    effects: list[str] = []
    for key, lost in row.lose.items():
        chars = chars.with_value(key, max(1, chars.value(key) - lost))
        effects.append(f"-{lost} {key.upper()}")
    if row.halve is not None:
        chars = chars.with_value(row.halve, max(1, chars.value(row.halve) // 2))
        effects.append(f"{row.halve.upper()} halved")
    fighter = replace(c.fighter, stats=replace(sheet, characteristics=chars))
    spine_face = None
    paralysis = tracks.paralysis
    if row.key == "spine":
        (spine_face,) = roll(1, dice, WOUND_DIE, what=f"{c.name}'s spine: odd neck, even torso")
        paralysis = "neck" if spine_face % 2 or paralysis == "neck" else "torso"
        effects.append(f"paralysed below the {'neck' if spine_face % 2 else 'torso'}")
        fighter = replace(fighter, move=0)
    if row.crawl_hexes is not None:
        fighter = replace(fighter, move=min(fighter.move, row.crawl_hexes))
        effects.append(f"crawls {row.crawl_hexes} hexes a round at most")
    legs = tracks.useless_legs
    if row.key in ("right-leg", "left-leg"):
        legs = legs | {row.key.split("-")[0]}
    arms = tracks.useless_arms
    pieces: list[LaunchedPiece] = []
    if row.drops is not None:
        arms = arms | {row.drops}
        in_hand = held(c)[row.drops]
        for weapon in in_hand:
            pieces.append(LaunchedPiece(Piece(weapon.name, weapon, AT_FEET), c.id))
            effects.append(f"drops the {weapon.name}")
        if not in_hand:
            effects.append(f"nothing in the {row.drops} hand to drop")
    unconscious = tracks.unconscious_rounds
    status = c.status
    if row.unconscious is not None:
        rolled = roll_dice(row.unconscious, dice, what=f"{c.name}'s rounds unconscious")
        unconscious = max(unconscious, rolled.total)
        status = Status.UNCONSCIOUS
        effects.append(f"unconscious for {rolled.total} rounds ({rolled.faces[0]})")
    if row.all_skills:
        effects.append(f"{row.all_skills}% to every skill")
    if row.bleeding:
        effects.append(f"bleeds {row.bleeding} HP a round")
    posture = c.posture
    if row.falls and posture not in (Posture.PRONE, Posture.CRAWLING):
        posture = Posture.PRONE
        effects.append("falls prone")
    new_tracks = replace(
        tracks,
        wounds=(*tracks.wounds, row.key),
        useless_arms=arms,
        useless_legs=legs,
        paralysis=paralysis,
        unconscious_rounds=unconscious,
        bleeding=tracks.bleeding + row.bleeding,
        skill_penalty=tracks.skill_penalty + row.all_skills,
        perception_penalty=tracks.perception_penalty + row.perception,
        mental_penalty=tracks.mental_penalty + row.mental,
    )
    after = c.evolve(fighter=fighter, tracks=new_tracks, posture=posture, status=status)
    wound = WoundRolled(row, spine_face, ", ".join(effects) or "no lasting effect in a fight")
    return after, wound, tuple(pieces)


def major_wound(
    c: Combatant, dice: DiceSource
) -> tuple[Combatant, WoundRolled, tuple[LaunchedPiece, ...]]:
    """Roll the d10 and apply its row."""
    (face,) = roll(1, dice, WOUND_DIE, what=f"{c.name}'s major wound")
    return apply_wound_row(c, wound_row(face), dice)
