"""Which hand holds what: the neutral hand model that the battle's pick-up, ready,
put-away and drop commands keep, and that every ruleset's attacks, parries and
blocks read. No seed counts hands, so this is our reading of the 3d6 family's
basics, shared by every ruleset (docs/battlefield.md, "Hands"):

* A fighter has two hands: the main hand (the right for a right-handed fighter,
  ``Fighter.handedness``) and the off hand.
* A shield occupies its arm, the off hand's (a buckler is held in that hand):
  while the shield is on the sheet, nothing else goes in that hand. It comes off
  only when it is dropped.
* A two-handed weapon takes both hands, any other weapon one. Bare hands and feet
  (an unarmed weapon) take none: a fighter can always punch, kick or elbow.
* What is in hand is the sheet's gear that is not carried (``Combatant.carried``),
  in the sheet's order: the shield on its arm first, then each weapon into the
  main hand if it is free, else the off hand; a two-handed weapon needs both
  free. Whatever does not fit is carried as well (the dagger at the belt of a
  fighter with sword and shield).
* Only what is in hand strikes, parries or blocks (``hand_problem``,
  ``wielded_weapons``): a carried weapon is drawn first, into a free hand.
* Picking something up needs a free hand, two for a two-handed weapon
  (``pick_up_problem``). Putting a weapon away or dropping it frees its hand.
* No change of gear puts a carried weapon into a hand by itself: whatever was
  carried before a change stays carried (``keep_carried``), so the dagger does not
  leap into the hand that a dropped sword left empty.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import Enum

from hexmap import Handedness
from rules.battle.model import Combatant, Fighter, Shield, Weapon, WeaponKind


class Hand(Enum):
    MAIN = "main"
    OFF = "off"


@dataclass(frozen=True, slots=True)
class Hands:
    """What a combatant holds in which hand, by key (a two-handed weapon's in
    both; the shield's in the off hand), and what it carries without holding, in
    the sheet's order. ``main_side`` is the side of the main hand."""

    main: str | None
    off: str | None
    carried: tuple[str, ...]
    main_side: Handedness = Handedness.RIGHT

    @property
    def held(self) -> tuple[str, ...]:
        """The keys in hand, main hand first (a two-handed weapon once)."""
        return tuple(dict.fromkeys(k for k in (self.main, self.off) if k is not None))

    @property
    def free(self) -> int:
        """How many hands hold nothing."""
        return sum(1 for k in (self.main, self.off) if k is None)

    def holds(self, key: str) -> bool:
        return key in (self.main, self.off)

    def on_side(self, side: Handedness) -> str | None:
        """The key held in the right or the left hand."""
        return self.main if side is self.main_side else self.off


def is_unarmed(weapon: Weapon) -> bool:
    """Bare hands and feet: no hand holds them."""
    return weapon.kind is WeaponKind.UNARMED


def hands_needed(item: Weapon | Shield) -> int:
    """Hands an item takes: a shield or a one-handed weapon one, a two-handed
    weapon two, bare hands none."""
    if isinstance(item, Shield):
        return 1
    if is_unarmed(item):
        return 0
    return 2 if item.two_handed else 1


# ``hands_of`` by the identity of the sheet and the carried keys: the attack path
# asks several times a command, and a fighter's sheet stays the same object from
# state to state. Each entry holds its fighter, so that its id is not reused.
_KNOWN_HANDS: dict[tuple[int, frozenset[str]], tuple[Fighter, Hands]] = {}
_KNOWN_HANDS_KEPT = 512


def hands_of(combatant: Combatant) -> Hands:
    """What ``combatant`` holds in which hand, and what it carries (see the module)."""
    fighter = combatant.fighter
    key = (id(fighter), combatant.carried)
    known = _KNOWN_HANDS.get(key)
    if known is not None and known[0] is fighter:
        return known[1]
    hands = _fill_hands(fighter, combatant.carried)
    if len(_KNOWN_HANDS) >= _KNOWN_HANDS_KEPT:
        _KNOWN_HANDS.clear()
    _KNOWN_HANDS[key] = (fighter, hands)
    return hands


def _fill_hands(fighter: Fighter, carried_keys: frozenset[str]) -> Hands:
    """The hands filled in the sheet's order: the shield's arm first, then each
    weapon into the main hand if it is free, else the off hand (both for a
    two-handed weapon)."""
    main: str | None = None
    off = fighter.shield.key if fighter.shield is not None else None
    carried: list[str] = []
    for weapon in fighter.weapons:
        if weapon.kind is WeaponKind.UNARMED:
            continue
        needed = 2 if weapon.two_handed else 1
        free = (main is None) + (off is None)
        if weapon.key in carried_keys or free < needed:
            carried.append(weapon.key)
        elif needed == 2:
            main = off = weapon.key
        elif main is None:
            main = weapon.key
        else:
            off = weapon.key
    return Hands(main, off, tuple(carried), fighter.handedness)


def wielded_weapons(combatant: Combatant) -> tuple[Weapon, ...]:
    """The weapons that may strike or parry now, in the sheet's order: those in
    hand and bare hands."""
    fighter = combatant.fighter
    key = (id(fighter), combatant.carried)
    known = _KNOWN_WIELDED.get(key)  # as ``hands_of``: the policies ask it per place
    if known is not None and known[0] is fighter:
        return known[1]
    held = hands_of(combatant)
    wielded = tuple(w for w in fighter.weapons if is_unarmed(w) or held.holds(w.key))
    if len(_KNOWN_WIELDED) >= _KNOWN_HANDS_KEPT:
        _KNOWN_WIELDED.clear()
    _KNOWN_WIELDED[key] = (fighter, wielded)
    return wielded


_KNOWN_WIELDED: dict[tuple[int, frozenset[str]], tuple[Fighter, tuple[Weapon, ...]]] = {}


def hand_problem(combatant: Combatant, key: str) -> str | None:
    """Why ``combatant`` cannot strike or parry with the weapon ``key`` now (it is
    carried, not in hand), or None (in hand, bare hands, or no such weapon: the
    caller names a missing weapon in its own terms)."""
    weapon = next((w for w in combatant.fighter.weapons if w.key == key), None)
    if weapon is None or is_unarmed(weapon) or hands_of(combatant).holds(key):
        return None
    return f"{combatant.name}'s {weapon.name} is carried, not in hand: draw it first (Ready)"


def _item_names(fighter: Fighter, keys: Iterable[str]) -> list[str]:
    names = {w.key: w.name for w in fighter.weapons}
    if fighter.shield is not None:
        names.setdefault(fighter.shield.key, fighter.shield.name)
    return [names.get(k, k) for k in keys]


def hands_text(combatant: Combatant) -> str:
    """What the hands hold, as the panes and refusals say it: "broadsword (right
    hand), medium shield (left arm)"; "both hands free"."""
    held = hands_of(combatant)
    fighter = combatant.fighter
    shield_key = fighter.shield.key if fighter.shield is not None else None
    parts: list[str] = []
    for key in held.held:
        (name,) = _item_names(fighter, (key,))
        if held.main == key and held.off == key:
            parts.append(f"{name} (both hands)")
        elif key == shield_key:
            parts.append(f"{name} ({held.main_side.mirrored.value} arm)")
        else:
            side = held.main_side if held.main == key else held.main_side.mirrored
            parts.append(f"{name} ({side.value} hand)")
    if not parts:
        return "both hands free"
    return ", ".join(parts)


def carried_text(combatant: Combatant) -> str:
    """What the fighter carries without holding it ("" for nothing)."""
    return ", ".join(_item_names(combatant.fighter, hands_of(combatant).carried))


def pick_up_problem(combatant: Combatant, item: Weapon | Shield) -> str | None:
    """Why ``combatant`` has no hand free for ``item`` (to pick it up or draw it),
    or None."""
    needed = hands_needed(item)
    free = hands_of(combatant).free
    if free >= needed:
        return None
    wanted = "both hands" if needed == 2 else "a free hand"
    return (
        f"{combatant.name} needs {wanted} for the {item.name} but holds "
        f"{hands_text(combatant)}: drop or put something away first"
    )


def settled(combatant: Combatant) -> Combatant:
    """``combatant`` with everything it now carries named in ``carried``, so that
    a later change of gear moves nothing into a hand by itself."""
    carried = frozenset(hands_of(combatant).carried)
    return combatant if carried == combatant.carried else replace(combatant, carried=carried)


def keep_carried(before: Combatant, after: Combatant) -> Combatant:
    """``after`` (the same combatant with its gear changed: a weapon lost, broken
    or replaced, the shield gone) with whatever ``before`` carried still carried;
    keys no longer on the sheet are forgotten."""
    keys = {w.key for w in after.fighter.weapons}
    carried = frozenset(k for k in (*after.carried, *hands_of(before).carried) if k in keys)
    return after if carried == after.carried else replace(after, carried=carried)


def put_away(combatant: Combatant, key: str) -> Combatant:
    """``combatant`` with the weapon ``key`` carried instead of held."""
    fixed = settled(combatant)
    return replace(fixed, carried=fixed.carried | {key}, unready=fixed.unready - {key})


def draw(combatant: Combatant, key: str) -> Combatant:
    """``combatant`` with the carried weapon ``key`` in a free hand, ready."""
    fixed = settled(combatant)
    return replace(fixed, carried=fixed.carried - {key}, unready=fixed.unready - {key})
