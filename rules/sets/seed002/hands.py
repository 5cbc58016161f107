"""Which hand holds what (our reading, for the useless arms of major wounds 9
and 10): a right-handed fighter holds the first weapon of its sheet that is not
bare hands in the right hand and the second in the left (a left-handed one the
other way round); a two-handed weapon is in both hands. Any further weapons are
carried, not held."""

from __future__ import annotations

from rules.battle.model import Combatant, Weapon, WeaponKind
from rules.sets.seed002.tracks import tracks_of

RIGHT, LEFT = "right", "left"


def held(combatant: Combatant) -> dict[str, tuple[Weapon, ...]]:
    """The weapons in each hand ("right", "left"); a useless arm's hand holds none."""
    weapons = [w for w in combatant.fighter.weapons if w.kind is not WeaponKind.UNARMED]
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
    """Why ``weapon`` cannot strike or parry now: a useless arm, a paralysis."""
    tracks = tracks_of(combatant)
    if tracks.paralysis == "neck":
        return "paralysed below the neck"
    if weapon.kind is WeaponKind.UNARMED:
        return "both arms are useless" if len(tracks.useless_arms) == 2 else None
    if weapon.two_handed and tracks.useless_arms:
        return f"the {sorted(tracks.useless_arms)[0]} arm is useless"
    if len(tracks.useless_arms) == 2:
        return "both arms are useless"
    return None
