"""Computer policies: each chooses one fighter's next action from the ruleset's
legal actions (``Turns.legal_actions``) and says why, in the GM's words.

Every candidate gets a score. An attack's comes from its exact odds
(``rules.battle.attack_odds``: ``decide`` run on every way the dice fall) against
the defender's likeliest answer: the chance to hit, the expected injury and the
chance of taking the foe out. A move's comes from the map alone (no odds per
move: a decision weighs some hundred of them): how near the chosen foe it ends,
whether it faces the foe, and how exposed the arcs it shows to every foe are;
where a blow may still follow this turn (a step at most, with no maneuver
chosen), also the arc of the foe it stands in, the rear most. Where no blow
follows, that arc counts little: the foe turns before any blow lands. The policy
takes the best candidate; the three next best go with the decision as its
alternatives. When a candidate comes before any blow whatever the odds (arming,
going all out, a step to the foe's side before the blow), the attacks' odds are
left to the next decision.

Aggressive closes in and attacks, all out when no foe can strike back; Careful
keeps its front to the foes, stands on guard while it cannot strike or strikes
poorly, and retreats once hurt past its threshold; Skirmisher keeps its distance
while it has a weapon that strikes from afar, and closes in only when it has
none. Nothing here names a ruleset: only the protocol, the maneuvers' terms and
the shared vocabulary of the attack's outcome.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, cast

from hexmap import Arc, Hex, arc_of, in_front_arc, in_reach
from rules.battle.attack_odds import AttackOdds, attack_odds
from rules.battle.attack_steps import AttackSteps, planned
from rules.battle.commands import (
    Attack,
    MoveCombatant,
    PickUpItem,
    ReadyWeapon,
    SetPosture,
    TurnCombatant,
)
from rules.battle.controllers import PolicyChoice
from rules.battle.hands import is_unarmed, wielded_weapons
from rules.battle.model import Combatant, Delivery, Posture, Status
from rules.battle.state import BattleState, Command
from rules.battle.turns import ChooseManeuver, attacks_left, hexes_moved
from rules.core.errors import RulesError
from rules.sets.protocol import LegalAction, Ruleset

__all__ = [
    "AGGRESSIVE",
    "CAREFUL",
    "POLICY_KEYS",
    "SKIRMISHER",
    "TARGETS",
    "Alternative",
    "Decision",
    "OddsCache",
    "decide",
]

AGGRESSIVE = PolicyChoice("aggressive")
CAREFUL = PolicyChoice("careful")
SKIRMISHER = PolicyChoice("skirmisher")
POLICY_KEYS = ("aggressive", "careful", "skirmisher")
TARGETS = ("nearest", "weakest", "most-dangerous")

# How many of the attacks on one foe are scored: the ruleset's plain attack, else
# the first the legal actions list (the plain attack of each weapon and mode comes
# before its variants). Aimed and random-location variants are left out: their
# exact odds take seed 000 up to seconds each.
ATTACKS_SCORED_PER_FOE = 1
# An attack that may hit always outranks a move (the move only prepares one).
ATTACK_BASE = 100.0
# Readying or picking up a weapon when the fighter holds none outranks all.
ARM_SCORE = 300.0
# A weapon is thrown (and lost for the fight) only on at least this chance to hit.
THROW_AT_LEAST = Fraction(1, 3)
# Careful would rather stand on guard than strike with less chance to hit than this.
CAREFUL_POOR_BLOW = Fraction(1, 5)
# Getting up off the ground comes before a blow from it, but not before arming.
STAND_UP_SCORE = ATTACK_BASE + 60
# Going all out comes before the blow it is for.
ALL_OUT_SCORE = ATTACK_BASE + 50
# A move is taken only when it leaves the fighter better placed by this much:
# less, and two fighters would circle each other for a point or two each turn.
MOVE_GAIN = 2.0
# What a blow from a place is guessed to be worth when no blow from where the
# fighter stands was weighed by its odds (no exact odds per move: they cost too much).
STRIKE_GUESS = 5.0
# How much the side or rear of the foe is worth from a place where no blow follows
# this turn: little, since the foe turns on its own turn before any blow lands.
LATER_ARC_SHARE = 0.25


@dataclass(frozen=True, slots=True)
class Alternative:
    """A candidate the policy did not take, with its score."""

    label: str
    score: float


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of a computer fighter: the commands to run in order, whether
    they end its turn, the line the log shows ("Spearman (aggressive) attacks
    Fencer from the weapon side: 54% to hit, 3.2 injury expected"), the score and
    the three best alternatives."""

    combatant_id: str
    label: str
    commands: tuple[Command, ...]
    ends_turn: bool
    reason: str
    score: float
    alternatives: tuple[Alternative, ...] = ()


class OddsCache:
    """The exact odds of attacks already scored, by plan and answer: the same
    attack is weighed again on every step of a turn."""

    def __init__(self, size: int = 512) -> None:
        self._size = size
        self._odds: OrderedDict[tuple[object, object], AttackOdds] = OrderedDict()

    def odds(
        self, steps: AttackSteps[Any, Any, Any, Any], plan: object, answer: object
    ) -> AttackOdds:
        key = (plan, answer)
        try:
            found = self._odds.get(key)
        except TypeError:  # a plan that does not hash: worked out each time
            return attack_odds(steps, plan, answer)
        if found is not None:
            self._odds.move_to_end(key)
            return found
        odds = attack_odds(steps, plan, answer)
        self._odds[key] = odds
        if len(self._odds) > self._size:
            self._odds.popitem(last=False)
        return odds


@dataclass(frozen=True, slots=True)
class _Scored:
    action: LegalAction
    score: float
    why: str
    hit: Fraction = Fraction(0)  # an attack's chance to hit


@dataclass(frozen=True, slots=True)
class _View:
    """What one decision reads of the battle, worked out once."""

    ruleset: Ruleset
    state: BattleState
    me: Combatant
    choice: PolicyChoice
    foes: tuple[Combatant, ...]
    target: Combatant | None
    hurt: Fraction
    armed: bool
    far_reaching: bool  # it holds a weapon that strikes beyond the next hex
    attacks_left: int  # attacks its maneuver (or none yet) still allows this turn
    defenseless: bool  # its maneuver leaves it no active defense (all-out attack)
    retreating: bool  # careful, hurt past its threshold, with a foe near enough to close in

    @property
    def throws(self) -> bool:
        """Whether it goes where it may throw a weapon: only a skirmisher does
        (the others keep their weapons in hand and close in)."""
        return self.choice.key == "skirmisher"


def _hurt(ruleset: Ruleset, c: Combatant) -> Fraction:
    return ruleset.conditions.fighter_condition(c).hurt


def _able(ruleset: Ruleset, c: Combatant) -> bool:
    return (
        c.status is not Status.DEAD
        and ruleset.conditions.fighter_condition(c, details=False).able_to_act
    )


def _real_weapons(c: Combatant) -> tuple[Any, ...]:
    return tuple(w for w in wielded_weapons(c) if not is_unarmed(w))


def _striking_weapons(c: Combatant) -> tuple[Any, ...]:
    """The weapons ``c`` may strike with now: in hand and ready, and bare hands."""
    return tuple(w for w in wielded_weapons(c) if w.key not in c.unready)


def _reaches(
    c: Combatant,
    target: Hex,
    where: Hex | None = None,
    facing: Any = None,
    *,
    throws: bool = True,
) -> bool:
    """Whether ``c`` strikes ``target`` with a weapon in hand, standing at
    ``where`` facing ``facing`` (its own hex and facing by default): a melee mode
    within its reach, or a missile or (``throws``) thrown mode within its range
    beyond the next hex (a bow is not drawn at a foe alongside)."""
    origin = c.hex if where is None else where
    facing = c.facing if facing is None else facing
    distance = origin.distance(target)
    for w in _striking_weapons(c):
        for mode in w.modes:
            if mode.range_hexes:
                if not throws and mode.delivery is Delivery.THROWN:
                    continue
                if 1 < distance <= mode.range_hexes and in_front_arc(origin, facing, target):
                    return True
            elif in_reach(origin, facing, mode.reach, target):
                return True
    return False


def _weapon_key(choices: object) -> str | None:
    """The weapon an attack's choices name: every ruleset's choices carry its
    ``weapon_key`` and ``mode`` (the mode's name)."""
    key = getattr(choices, "weapon_key", None)
    return key if isinstance(key, str) else None


def _thrown(c: Combatant, choices: object) -> bool:
    """Whether the attack with ``choices`` throws the weapon from ``c``'s hand."""
    key, mode_name = _weapon_key(choices), getattr(choices, "mode", None)
    for w in c.fighter.weapons:
        if w.key == key:
            return any(m.name == mode_name and m.delivery is Delivery.THROWN for m in w.modes)
    return False


def _furthest_strike(c: Combatant) -> int:
    """The furthest ``c`` strikes with what it holds ready: its longest reach or range."""
    return max(
        (
            mode.range_hexes or max(mode.reach.distances, default=1)
            for w in _striking_weapons(c)
            for mode in w.modes
        ),
        default=0,
    )


def _may_strike_back(ruleset: Ruleset, foe: Combatant, at: Hex) -> bool:
    """Whether ``foe`` may strike a fighter standing at ``at`` on its next turn:
    it is active (not stunned), and a ready weapon or its bare hands reach ``at``
    after a step, or a missile or thrown weapon in hand has it in range (it may
    turn on its turn)."""
    if foe.status is not Status.ACTIVE or not _able(ruleset, foe):
        return False
    distance = foe.hex.distance(at)
    for w in _striking_weapons(foe):
        for mode in w.modes:
            if mode.range_hexes:
                if distance <= mode.range_hexes:  # some rulesets shoot point-blank
                    return True
            elif distance <= max(mode.reach.distances, default=1) + 1:
                return True
    return False


def _menaces(foe: Combatant, at: Hex) -> bool:
    """Whether ``foe`` may close in on ``at`` and strike it with a weapon in hand
    on its next turn: a hurt careful fighter falls back from such a foe, not from
    one who only shoots or has bare hands (running from an archer helps nothing)."""
    if not foe.status.can_defend:
        return False
    reach = max(
        (
            max(mode.reach.distances, default=1)
            for w in _striking_weapons(foe)
            if not is_unarmed(w)
            for mode in w.modes
            if not mode.range_hexes
        ),
        default=0,
    )
    return reach > 0 and foe.hex.distance(at) <= foe.fighter.move + reach + 1


def _unanswered(view: _View, where: Hex) -> bool:
    """Whether no foe may strike back at a fighter standing at ``where``."""
    return not any(_may_strike_back(view.ruleset, f, where) for f in view.foes)


def _strikes_from_afar(c: Combatant) -> bool:
    """Whether ``c`` holds a weapon that strikes beyond the next hex (a missile or
    thrown mode, or a long reach)."""
    return any(
        mode.range_hexes or max(mode.reach.distances, default=1) > 1
        for w in _real_weapons(c)
        for mode in w.modes
    )


def _pick_target(
    view_foes: tuple[Combatant, ...], me: Combatant, how: str, ruleset: Ruleset
) -> Combatant | None:
    if not view_foes:
        return None

    def nearest(c: Combatant) -> tuple[int, str]:
        return (me.hex.distance(c.hex), c.id)

    if how == "weakest":
        return min(view_foes, key=lambda c: (-_hurt(ruleset, c), *nearest(c)))
    if how == "most-dangerous":
        # The foe that reaches it now first, then the least hurt, then the nearest.
        return min(
            view_foes,
            key=lambda c: (not _reaches(c, me.hex), _hurt(ruleset, c), *nearest(c)),
        )
    return min(view_foes, key=nearest)


def _defenseless(ruleset: Ruleset, me: Combatant) -> bool:
    if me.maneuver is None:
        return False
    try:
        terms = ruleset.turns.maneuver(me.maneuver.key).terms(me.maneuver.option)
    except RulesError:
        return False
    return not terms.active_defenses


def _view(ruleset: Ruleset, state: BattleState, me: Combatant, choice: PolicyChoice) -> _View:
    foes = tuple(c for c in state.combatants if c.side is not me.side and _able(ruleset, c))
    weapons = _real_weapons(me)
    far = _strikes_from_afar(me)
    return _View(
        ruleset,
        state,
        me,
        choice,
        foes,
        _pick_target(foes, me, choice.target, ruleset),
        _hurt(ruleset, me),
        bool(weapons),
        far,
        attacks_left(ruleset, me) if state.turns_running else 1,
        _defenseless(ruleset, me),
        choice.key == "careful"
        and _hurt(ruleset, me) >= Fraction(choice.retreat_below)
        and any(_menaces(f, me.hex) for f in foes),
    )


_ARC_WORDS = {
    Arc.FRONT: "the front",
    Arc.SHIELD_FRONT: "the shield-side front",
    Arc.WEAPON_FRONT: "the weapon-side front",
    Arc.SHIELD_SIDE: "the shield side",
    Arc.WEAPON_SIDE: "the weapon side",
    Arc.REAR: "the rear",
}
# What standing in each arc of a foe is worth to an attacker (and costs a defender).
_ARC_WORTH = {
    Arc.FRONT: 0.0,
    Arc.SHIELD_FRONT: 1.0,
    Arc.WEAPON_FRONT: 1.0,
    Arc.SHIELD_SIDE: 5.0,
    Arc.WEAPON_SIDE: 6.0,
    Arc.REAR: 12.0,
}


def _arc_seen_by(foe: Combatant, where: Hex) -> Arc:
    """The arc of ``foe`` that a fighter standing at ``where`` is in."""
    return arc_of(where, foe.hex, foe.facing, foe.handedness)


def _steps_of(ruleset: Ruleset) -> AttackSteps[Any, Any, Any, Any] | None:
    """The ruleset's attack in four steps, when its attack role runs on them."""
    steps = getattr(ruleset.attacks, "steps", None)
    if steps is None or not hasattr(steps, "decide"):
        return None
    return cast("AttackSteps[Any, Any, Any, Any]", steps)


def _score_attack(view: _View, action: LegalAction, cache: OddsCache) -> _Scored | None:
    command = action.command
    assert isinstance(command, Attack)
    foe = view.state.combatant(command.defender_id)
    if foe.side is view.me.side:
        return None  # never an ally, whatever the list offers
    if all(f.id != foe.id for f in view.foes):
        return None  # out of the fight already: a blow there is a blow lost
    if view.me.hex.distance(foe.hex) > _furthest_strike(view.me):
        return None  # out of every weapon's reach and range: never a wasted blow
    steps = _steps_of(view.ruleset)
    if steps is None:
        return _Scored(action, ATTACK_BASE, f"attacks {foe.name}")
    try:
        plan = planned(steps, view.state, command.attacker_id, foe.id, command.choices)
        answers = steps.answers(plan)
        answer = answers[0] if answers else steps.default_answer(plan)
        odds = cache.odds(steps, plan, answer)
    except RulesError:
        return None  # it cannot be made as things stand
    hit = sum((p for kind, p in odds.kinds.items() if kind.landing.struck), Fraction(0))
    if hit == 0:
        return None  # never a wasted blow
    if _thrown(view.me, command.choices):
        if hit < THROW_AT_LEAST:
            return None  # a weapon thrown away on a poor chance
        others = [w for w in _real_weapons(view.me) if w.key != _weapon_key(command.choices)]
        if not view.throws and not others:
            return None  # it would be left bare-handed: it closes in instead
    hit_points = max(1, foe.fighter.hit_points)
    value = float(odds.expected_injury) / hit_points * 20 + float(odds.takes_out) * 30
    value += float(hit) * 5
    if view.target is not None and foe.id == view.target.id:
        value *= 1.5
    if view.me.hex.distance(foe.hex) > 1 and view.choice.key == "skirmisher":
        value += 10  # a blow from afar, out of the foe's reach
    if view.retreating:
        value -= ATTACK_BASE  # a hurt careful fighter would rather get away
    arc = _arc_seen_by(foe, view.me.hex)
    why = (
        f"attacks {foe.name} from {_ARC_WORDS[arc]}: {float(hit) * 100:.0f}% to hit, "
        f"{float(odds.expected_injury):.1f} injury expected"
    )
    if odds.takes_out >= Fraction(1, 200):  # what rounds to 0% goes unsaid
        why += f", {float(odds.takes_out) * 100:.0f}% to take {foe.name} out"
    return _Scored(action, ATTACK_BASE + value, why, hit)


def _where_after(me: Combatant, action: LegalAction) -> tuple[Hex, Any, int] | None:
    """Where and facing which a move or turn leaves the fighter, and the hexes it
    will have entered this turn; None for other actions."""
    where, facing, hexes = me.hex, me.facing, hexes_moved(me)
    moved = False
    for command in action.commands:
        if isinstance(command, MoveCombatant) and command.combatant_id == me.id:
            steps = len(command.path) - 1 if command.path else me.hex.distance(command.destination)
            where, hexes, moved = command.destination, hexes + steps, True
        elif isinstance(command, TurnCombatant) and command.combatant_id == me.id:
            facing, moved = command.facing, True
        else:
            return None
    return (where, facing, hexes) if moved else None


def _may_attack_after(view: _View, hexes: int) -> bool:
    """Whether the fighter may still attack this turn once it has entered ``hexes``
    hexes: an attack is left to it, and with no maneuver chosen it took a step at
    most (the implied attack maneuver's); a maneuver chosen limits the move itself."""
    if view.attacks_left <= 0:
        return False
    return view.me.maneuver is not None or hexes <= 1


def _keep_off_at(c: Combatant) -> int:
    """How far off its foe a fighter that keeps its distance stands: as far as its
    weapons strike, four hexes at most (a bow shoots further than that, but a foe
    far off is a foe the bow misses)."""
    furthest = 1
    for w in _real_weapons(c):
        for mode in w.modes:
            furthest = max(furthest, mode.range_hexes or max(mode.reach.distances, default=1))
    return min(4, furthest)


def _keeps_off(view: _View) -> bool:
    """Whether the fighter keeps its distance: a skirmisher with a weapon that
    strikes from afar, and any fighter whose only weapons in hand shoot or are
    thrown (a bow is no weapon alongside a foe)."""
    if not view.far_reaching:
        return False
    if view.choice.key == "skirmisher":
        return True
    return all(mode.range_hexes for w in _real_weapons(view.me) for mode in w.modes)


def _place_score(view: _View, where: Hex, facing: Any, strike: bool) -> tuple[float, str]:
    """How good it is to stand at ``where`` facing ``facing``, and why in a few words.
    ``strike``: a blow at the chosen foe follows from there this turn, so the arc
    of the foe it stands in counts in full; else it counts little, since the foe
    turns before any blow lands."""
    me = view.me
    score = 0.0
    words: list[str] = []
    # Danger: every foe that reaches the place, by the arc it sees of the fighter
    # (a foe at its rear strikes with no defense against it).
    danger = 0.0
    for foe in view.foes:
        if where.distance(foe.hex) <= 2 or _reaches(foe, where):
            shown = arc_of(foe.hex, where, facing, me.handedness)
            danger += 1.0 + _ARC_WORTH[shown] / 2
    # Careful weighs it three times, and so does any fighter left with no defense.
    wary = view.choice.key == "careful" or view.defenseless
    score -= danger * (3.0 if wary else 1.0)
    if not view.armed:
        items = [i for i in view.state.items if i.weapon is not None]
        if items:
            nearest = min(where.distance(i.hex) for i in items)
            return score - nearest * 4, "towards a weapon on the ground"
    if view.retreating:
        away = min((where.distance(f.hex) for f in view.foes), default=0)
        facing_foe = view.target is not None and in_front_arc(where, facing, view.target.hex)
        return score + away * 4 + (3 if facing_foe else 0), "falls back, hurt"
    target = view.target
    if target is None:
        return score, "holds"
    distance = where.distance(target.hex)
    reaches = _reaches(me, target.hex, where, facing, throws=view.throws)
    if _keeps_off(view):
        # Within its own reach or range, out of the foe's.
        score -= abs(distance - _keep_off_at(me)) * 2
        if _reaches(target, where):
            score -= 10
    else:
        score -= distance * 3
    if reaches:
        score += 20
        words.append(f"{target.name} in reach")
    else:
        words.append(f"{distance} hexes from {target.name}")
    if in_front_arc(where, facing, target.hex):
        score += 6  # every move ends facing the chosen foe
        words.append(f"facing {target.name}")
    if distance <= 2:
        arc = _arc_seen_by(target, where)
        score += _ARC_WORTH[arc] * (1.0 if strike else LATER_ARC_SHARE)
        if strike and arc.frontality >= 2:
            words.append(f"at {_ARC_WORDS[arc].removeprefix('the ')} of {target.name}")
    return score, ", ".join(words)


def _as_deed(label: str) -> str:
    """A move's label as what the fighter does ("move to ..." -> "moves to ...")."""
    for verb, deed in (("move to ", "moves to "), ("face ", "turns to face ")):
        if label.startswith(verb):
            return deed + label.removeprefix(verb)
    return label


def _move_reason(view: _View, label: str, where: Hex, facing: Any, why: str, strike: bool) -> str:
    """A move's reason: "steps to column 6, row 3 to strike Riot guard from the
    weapon side", "falls back to column 9, row 8, facing Hrolf: hurt past 50%",
    "moves to column 4, row 2, facing Hrolf, 3 hexes off", "turns to face
    Hrolf, within reach"."""
    me, target = view.me, view.target
    moved = label.startswith("move to ")
    place = label.removeprefix("move to ").split(", facing ")[0] if moved else ""
    if target is None or (not view.armed and not view.retreating):
        return f"{_as_deed(label)}: {why}"  # towards a weapon, or no foe to face
    faces = in_front_arc(where, facing, target.hex)
    verb = ("steps" if where.distance(me.hex) == 1 else "moves") if moved else "turns"
    to = f" to {place}" if moved else ""
    if strike:
        arc = _ARC_WORDS[_arc_seen_by(target, where)]
        return f"{verb}{to} to strike {target.name} from {arc}"
    if faces:
        turned = f"{to}, facing {target.name}" if moved else f" to face {target.name}"
    else:
        turned = f"{to}, facing {facing.name}" if facing != me.facing or not moved else to
    if view.retreating:
        fell = "falls back" if moved else "turns"
        return f"{fell}{turned}: hurt past {view.choice.retreat_below:.0%}"
    distance = where.distance(target.hex)
    if _reaches(me, target.hex, where, facing, throws=view.throws):
        return f"{verb}{turned}, within reach"
    return f"{verb}{turned}, {distance} hexes off" if faces else f"{verb}{turned}: {why}"


def _score_maneuver(
    view: _View, action: LegalAction, strike_ready: bool, unanswered: bool, *, poor: bool = False
) -> _Scored | None:
    """A maneuver worth choosing: all-out attack (Aggressive) when it may strike
    this turn from a place where no foe may strike back on its next
    (``unanswered``); a defensive maneuver (Careful) while it can strike no foe
    this turn and a foe alongside can strike it."""
    command = action.command
    assert isinstance(command, ChooseManeuver)
    if view.me.maneuver is not None:
        return None  # chosen already: the policy does not change its mind
    try:
        terms = view.ruleset.turns.maneuver(command.maneuver).terms(command.option)
    except RulesError:
        return None
    key = view.choice.key
    all_out = key == "aggressive" and terms.attacks > 0 and not terms.active_defenses
    if all_out and unanswered:
        return _Scored(action, ALL_OUT_SCORE, "goes all out: no foe can strike back")
    # Careful, and not falling back (a defensive maneuver would keep it where it
    # stands): on guard while it cannot strike and a foe alongside can.
    defensive = key == "careful" and terms.defense_bonus > 0 and terms.attacks == 0
    # Not while it has no weapon in hand: it goes for one first.
    if defensive and view.armed and not view.retreating and not strike_ready:
        me = view.me
        if any(f.hex.distance(me.hex) <= 2 and _reaches(f, me.hex) for f in view.foes):
            if poor:
                why = "takes a defensive maneuver: its blows would hardly land"
                return _Scored(action, ATTACK_BASE * 2, why)
            return _Scored(action, ATTACK_BASE / 2, "takes a defensive maneuver: it cannot strike")
    return None


def _defends(ruleset: Ruleset, key: str, option: str) -> bool:
    """Whether the maneuver ``key`` (``option``) is a defensive one: no attack, a
    bonus to defend."""
    try:
        terms = ruleset.turns.maneuver(key).terms(option)
    except RulesError:
        return False
    return terms.defense_bonus > 0 and terms.attacks == 0


def _score_arming(view: _View, action: LegalAction) -> _Scored | None:
    command = action.command
    if isinstance(command, ReadyWeapon):
        if not view.armed:
            return _Scored(
                action, ARM_SCORE, f"readies the {command.weapon_key}: no weapon in hand"
            )
        if command.weapon_key in view.me.unready:
            return _Scored(action, ATTACK_BASE - 10, f"readies the {command.weapon_key}")
        return None
    if isinstance(command, PickUpItem) and not view.armed:
        item = view.state.item(command.item_id)
        if item.weapon is not None:
            return _Scored(action, ARM_SCORE + 10, f"picks up the {item.name}: no weapon in hand")
    return None


def _attacks_to_score(
    ruleset: Ruleset, state: BattleState, me: Combatant, actions: tuple[LegalAction, ...]
) -> list[LegalAction]:
    """The attacks worth their exact odds: on each foe, the ruleset's plain attack
    when the legal actions hold it, else the first they list."""
    by_foe: dict[str, list[LegalAction]] = {}
    for action in actions:
        command = action.command
        if isinstance(command, Attack) and command.attacker_id == me.id:
            by_foe.setdefault(command.defender_id, []).append(action)
    chosen: list[LegalAction] = []
    for foe_id, offered in by_foe.items():
        plain = ruleset.attacks.default_attack(state, me.id, foe_id)
        first = [a for a in offered if cast(Attack, a.command).choices == plain]
        chosen.extend((first or offered)[:ATTACKS_SCORED_PER_FOE])
    return chosen


def decide(
    ruleset: Ruleset,
    state: BattleState,
    combatant_id: str,
    choice: PolicyChoice = AGGRESSIVE,
    cache: OddsCache | None = None,
    actions: tuple[LegalAction, ...] | None = None,
) -> Decision | None:
    """The fighter's next action by ``choice``; None when it has none (not its turn).

    The moves, turns, maneuvers and weapons are weighed first, from the map only.
    When one of them comes before any blow whatever the odds (readying a weapon
    with none in hand, going all out, a step to a better place at the chosen foe
    before striking), the attacks' exact odds are not worked out: the next
    decision, once there, weighs them."""
    if choice.key not in POLICY_KEYS:
        raise RulesError(f"no policy {choice.key!r} (there are {', '.join(POLICY_KEYS)})")
    cache = OddsCache() if cache is None else cache
    if actions is None:
        actions = ruleset.turns.legal_actions(state, combatant_id)
    if not actions:
        return None
    me = state.combatant(combatant_id)
    view = _view(ruleset, state, me, choice)
    target = view.target
    able = {f.id for f in view.foes}
    attacks = [
        a
        for a in _attacks_to_score(ruleset, state, me, actions)
        if cast(Attack, a.command).defender_id in able
    ]
    strike_here = target is not None and any(
        cast(Attack, a.command).defender_id == target.id for a in attacks
    )
    here, _ = _place_score(view, me.hex, me.facing, strike_here)
    may_strike = view.armed and not view.retreating and target is not None
    aggressive = choice.key == "aggressive"
    strike_ready = bool(attacks)
    # Whether it may strike from a place where no foe may strike back (worth an
    # all-out attack): looked for only until one is found.
    unanswered = strike_here and aggressive and _unanswered(view, me.hex)
    scored: list[_Scored] = []
    maneuvers: list[LegalAction] = []
    ending: LegalAction | None = None
    step_first = False  # a step to a better place at the chosen foe before the blow
    for action in actions:
        command = action.command
        found = None
        if action.ends_turn:
            ending = action
        elif isinstance(command, ChooseManeuver):
            maneuvers.append(action)
        elif isinstance(command, ReadyWeapon | PickUpItem):
            found = _score_arming(view, action)
        elif isinstance(command, SetPosture) and command.posture is Posture.STANDING:
            # On the ground it strikes and defends badly and hardly moves.
            found = _Scored(action, STAND_UP_SCORE, "gets up: it fights badly on the ground")
        elif (after := _where_after(me, action)) is not None:
            where, facing, hexes = after
            strike = (
                may_strike
                and target is not None
                and _may_attack_after(view, hexes)
                and _reaches(me, target.hex, where, facing, throws=view.throws)
            )
            score, why = _place_score(view, where, facing, strike)
            gain = score - here
            deed = _move_reason(view, action.label, where, facing, why, strike)
            if strike:
                strike_ready = True
                if aggressive and not unanswered:
                    unanswered = _unanswered(view, where)
                if not strike_here or gain > MOVE_GAIN:
                    step_first = step_first or strike_here
                    found = _Scored(action, ATTACK_BASE + STRIKE_GUESS + gain, deed)
            elif gain > MOVE_GAIN:
                found = _Scored(action, gain, deed)
        if found is not None:
            scored.append(found)
    for action in maneuvers:
        found = _score_maneuver(view, action, strike_ready, unanswered)
        if found is not None:
            scored.append(found)
    before_any_blow = step_first or any(
        s.score >= ALL_OUT_SCORE for s in scored if not isinstance(s.action.command, Attack)
    )
    if not before_any_blow:
        blows = [b for a in attacks if (b := _score_attack(view, a, cache)) is not None]
        scored.extend(blows)
        last = me.maneuver_last_turn
        on_guard_last_turn = last is not None and _defends(ruleset, last.key, last.option)
        poor = attacks and all(b.hit < CAREFUL_POOR_BLOW for b in blows)
        if choice.key == "careful" and poor and not on_guard_last_turn:
            # Only poor blows: on guard rather (a step is still allowed by it),
            # one turn in two, so that two careful fighters still come to blows.
            for action in maneuvers:
                found = _score_maneuver(view, action, False, False, poor=bool(blows))
                if found is not None:
                    scored.append(found)
    if ending is not None:
        scored.append(_Scored(ending, 0.0, "ends the turn"))
    if not scored:
        return None
    scored.sort(key=lambda s: -s.score)  # stable: the legal actions' order breaks ties
    best = scored[0]
    who = f"{me.name} ({choice.key})"
    return Decision(
        combatant_id,
        best.action.label,
        best.action.commands,
        best.action.ends_turn,
        f"{who} {best.why}",
        best.score,
        tuple(Alternative(s.action.label, round(s.score, 2)) for s in scored[1:4]),
    )


def describe_choice(choice: PolicyChoice) -> str:
    """The policy and its settings in a few words, for the log and the CLI."""
    extra = f", retreats past {choice.retreat_below:.0%} hurt" if choice.key == "careful" else ""
    return f"{choice.key}, targets the {choice.target}{extra}"
