"""Seed 003's per-combatant state, carried by the battle in ``Combatant.tracks``:
the wound track of each body part (``rules.sets.components.fudge_locations``)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from hexmap import Handedness
from rules.battle.condition import ABLE, Down, FighterCondition, down_as
from rules.battle.model import Combatant, RulesetTracks, Status
from rules.core.citation import Citation
from rules.sets.components.fudge_locations import (
    LEVELS,
    BodyPart,
    BodyTracks,
    PartKind,
    PartState,
    PartTrack,
    Side,
)
from rules.sets.protocol import Health
from rules.sets.seed003.sheet import sheet_of


@dataclass(frozen=True, slots=True)
class Seed003Tracks(RulesetTracks):
    """``body`` is None until the first wound: the fresh tracks of the fighter's
    Damage Capacity (so a sheet edited before any wound keeps its boxes)."""

    body: BodyTracks | None = None


def body_of(combatant: Combatant) -> BodyTracks:
    """The combatant's wound tracks (fresh ones for its Damage Capacity). A sheet
    whose Damage Capacity was edited after the wounds keeps them on tracks of the
    new capacity, each level's checks cut to its boxes."""
    general = sheet_of(combatant).damage_capacity
    tracks = combatant.tracks
    if not isinstance(tracks, Seed003Tracks) or tracks.body is None:
        return BodyTracks.for_capacity(general)
    body = tracks.body
    if body.track(BodyPart.TORSO).capacity == general:
        return body
    fresh = BodyTracks.for_capacity(general)
    return BodyTracks(
        tuple(
            replace(
                new,
                checked=_cut(old.checked, new.boxes),
                past=old.past,
            )
            for old, new in zip(body.parts, fresh.parts, strict=True)
        )
    )


def wounded_body(combatant: Combatant) -> BodyTracks | None:
    """The combatant's wound tracks once it has taken a wound (``body_of``);
    None before, when every part is unhurt (and fresh tracks need not be made)."""
    tracks = combatant.tracks
    if not isinstance(tracks, Seed003Tracks) or tracks.body is None:
        return None
    return body_of(combatant)


def _cut(
    checked: tuple[int, int, int, int, int], boxes: tuple[int, int, int, int, int]
) -> tuple[int, int, int, int, int]:
    a, b, c, d, e = (min(n, m) for n, m in zip(checked, boxes, strict=True))
    return (a, b, c, d, e)


def with_body(combatant: Combatant, body: BodyTracks) -> Combatant:
    """The combatant with ``body`` as its tracks, its boxes left (``hp``) and its
    status to match: the torso's free boxes; Incapacitated or Near Death in the
    torso or head is unconscious (it can do nothing), past Near Death dead."""
    state = body.body_state
    status = combatant.status
    if state is PartState.DEAD:
        status = Status.DEAD
    elif state in (PartState.INCAPACITATED, PartState.NEAR_DEATH):
        status = Status.UNCONSCIOUS
    hp = body.track(BodyPart.TORSO).boxes_free
    return combatant.evolve(tracks=Seed003Tracks(body), hp=hp, status=status)


# FUDGE's wound levels (base rules): Incapacitated is "incapable of any action",
# Near Death unconscious and dying; past Near Death the fighter is dead.
BASE_WOUND_LEVELS = Citation("base-003", "wound levels: Incapacitated, Near Death")
BASE_UNCONSCIOUS = Citation("base-003", "wound levels: unconscious, no action (the GM's edit)")
_DOWN_BY_BODY = {
    PartState.DEAD: Down.DEAD,
    PartState.NEAR_DEATH: Down.UNCONSCIOUS,
    PartState.INCAPACITATED: Down.INCAPACITATED,
}


def fighter_condition(combatant: Combatant) -> FighterCondition:
    """Out of the fight by the torso's or the head's wound level (003 5.872: body
    and head wounds as the main text): dead past Near Death, unconscious at Near
    Death, incapable of any action at Incapacitated; or as the GM marked it."""
    if combatant.status is Status.DEAD:
        return down_as(Down.DEAD, BASE_WOUND_LEVELS)
    body = wounded_body(combatant)
    down = None if body is None else _DOWN_BY_BODY.get(body.body_state)
    if down is not None:
        return down_as(down, BASE_WOUND_LEVELS)
    if combatant.status is Status.UNCONSCIOUS:
        return down_as(Down.UNCONSCIOUS, BASE_UNCONSCIOUS)
    return ABLE


def weapon_side(combatant: Combatant) -> Side:
    return Side.RIGHT if combatant.handedness is Handedness.RIGHT else Side.LEFT


def worst_wound_health(body: BodyTracks) -> Health:
    """The Combatants list's health of a body: the most severe wound on any part by
    its level's name ("Hurt", a limb's "Useless"; "Dead" or "Lost" past the track;
    "Unhurt" without a wound), a body wound before a limb's of the same level; the
    bar empties a fifth per level, and the tooltip names every wounded part."""
    wounded = [t for t in body.parts if t.past or t.worst is not None]
    if not wounded:
        return Health("Unhurt", Fraction(1), "No wound on any body part")
    worst = max(wounded, key=lambda t: (_severity(t), t.part.kind is PartKind.BODY))
    level = worst.worst
    if worst.past or level is None:
        text = worst.state.label.capitalize()
    else:
        text = level.label(worst.part.kind)
    parts = "; ".join(f"{t.part.value} {t.state.label}" for t in wounded)
    return Health(
        text,
        Fraction(max(0, len(LEVELS) - _severity(worst)), len(LEVELS)),
        f"Most severe wound: {text} ({worst.part.value}); only it counts (003 5.874). "
        f"Wounds: {parts}",
    )


def _severity(track: PartTrack) -> int:
    """How far down its five levels a part's wound goes; past the track, one more."""
    if track.past:
        return len(LEVELS) + 1
    return 0 if track.worst is None else int(track.worst)
