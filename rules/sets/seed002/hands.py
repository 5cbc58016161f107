"""Which hand holds what, for the useless arms of major wounds 9 and 10 (our
reading): the weapons in hand are the battle's (``rules.battle.hands``: what is
not carried, two at most, a two-handed weapon counting twice); a right-handed
fighter holds the first of them in the right hand and the second in the left (a
left-handed one the other way round), a useless arm's hand holding nothing, so
that the other hand takes the first over; a two-handed weapon is in both."""

from __future__ import annotations

from rules.battle.hands import hand_problem, hands_of, is_unarmed
from rules.battle.model import Combatant, Weapon, WeaponKind
from rules.sets.seed002.tracks import tracks_of

RIGHT, LEFT = "right", "left"


def held(combatant: Combatant) -> dict[str, tuple[Weapon, ...]]:
    """The weapons in each hand ("right", "left"); a useless arm's hand holds none."""
    in_hand = hands_of(combatant)
    weapons = [
        w for w in combatant.fighter.weapons if not is_unarmed(w) and in_hand.holds(w.key)
    ]
    main, off = (RIGHT, LEFT) if combatant.handedness.value == "right" else (LEFT, RIGHT)
    useless = tracks_of(combatant).useless_arms
    hands: dict[str, list[Weapon]] = {RIGHT: [], LEFT: []}
    order = [h for h in (main, off) if h not in useless]
    for w in weapons:
        if not order:
            break
        if w.two_handed:
            if len(order) < 2:
                break
            hands[RIGHT].append(w)
            hands[LEFT].append(w)
            order = []
        else:
            hands[order.pop(0)].append(w)
    return {k: tuple(v) for k, v in hands.items()}


def wielding_problem(combatant: Combatant, weapon: Weapon) -> str | None:
    """Why ``weapon`` cannot strike or parry now: carried, not in hand; a useless
    arm, a paralysis."""
    tracks = tracks_of(combatant)
    if tracks.paralysis == "neck":
        return "paralysed below the neck"
    if weapon.kind is WeaponKind.UNARMED:
        return "both arms are useless" if len(tracks.useless_arms) == 2 else None
    not_in_hand = hand_problem(combatant, weapon.key)
    if not_in_hand is not None:
        return not_in_hand
    if weapon.two_handed and tracks.useless_arms:
        return f"the {sorted(tracks.useless_arms)[0]} arm is useless"
    if len(tracks.useless_arms) == 2:
        return "both arms are useless"
    return None
