"""Computer policies: each chooses one fighter's next action from the ruleset's
legal actions (``Turns.legal_actions``) and says why, in the GM's words.

Every candidate gets a score. An attack's comes from its exact odds
(``rules.battle.attack_odds``: ``decide`` run on every way the dice fall) against
the defender's likeliest answer: the chance to hit, the expected injury and the
chance of taking the foe out. A move's comes from where it ends: how near the
chosen foe, whether it faces the foe, whether it stands at the foe's weapon side
or rear, and how exposed the arcs it shows to every foe are. The policy takes the
best candidate; the three next best go with the decision as its alternatives.

Aggressive closes in and attacks; Careful keeps its front to the foes, prefers a
defensive maneuver and retreats once hurt past its threshold; Skirmisher keeps
its distance while it has a weapon that strikes from afar, and closes in only when
it has none. Nothing here names a ruleset: only the protocol and the shared
vocabulary of the attack's outcome.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, cast

from hexmap import Arc, Hex, arc_of, in_front_arc, in_reach
from rules.battle.attack_odds import AttackOdds, attack_odds
from rules.battle.attack_steps import AttackSteps, planned
from rules.battle.commands import Attack, MoveCombatant, PickUpItem, ReadyWeapon, TurnCombatant
from rules.battle.controllers import PolicyChoice
from rules.battle.hands import is_unarmed, wielded_weapons
from rules.battle.model import Combatant, Status
from rules.battle.state import BattleState, Command
from rules.battle.turns import ChooseManeuver
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
# A move is taken only when it leaves the fighter better placed by this much.
MOVE_GAIN = 0.5


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

    @property
    def retreating(self) -> bool:
        return self.choice.key == "careful" and self.hurt >= Fraction(self.choice.retreat_below)


def _hurt(ruleset: Ruleset, c: Combatant) -> Fraction:
    return ruleset.conditions.fighter_condition(c).hurt


def _able(ruleset: Ruleset, c: Combatant) -> bool:
    return (
        c.status is not Status.DEAD
        and ruleset.conditions.fighter_condition(c, details=False).able_to_act
    )


def _real_weapons(c: Combatant) -> tuple[Any, ...]:
    return tuple(w for w in wielded_weapons(c) if not is_unarmed(w))


def _reaches(c: Combatant, target: Hex, where: Hex | None = None, facing: Any = None) -> bool:
    """Whether ``c`` strikes ``target`` with a weapon in hand, standing at
    ``where`` facing ``facing`` (its own hex and facing by default): a melee mode
    within its reach, or a missile or thrown mode within its range beyond the next
    hex (a bow is not drawn at a foe alongside)."""
    origin = c.hex if where is None else where
    facing = c.facing if facing is None else facing
    distance = origin.distance(target)
    for w in wielded_weapons(c):
        for mode in w.modes:
            if mode.range_hexes:
                if 1 < distance <= mode.range_hexes and in_front_arc(origin, facing, target):
                    return True
            elif in_reach(origin, facing, mode.reach, target):
                return True
    return False


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
    return _Scored(action, ATTACK_BASE + value, why)


def _where_after(me: Combatant, action: LegalAction) -> tuple[Hex, Any] | None:
    """Where and facing which a move or turn leaves the fighter; None for others."""
    where, facing = me.hex, me.facing
    moved = False
    for command in action.commands:
        if isinstance(command, MoveCombatant) and command.combatant_id == me.id:
            where, moved = command.destination, True
        elif isinstance(command, TurnCombatant) and command.combatant_id == me.id:
            facing, moved = command.facing, True
        else:
            return None
    return (where, facing) if moved else None


def _place_score(view: _View, where: Hex, facing: Any) -> tuple[float, str]:
    """How good it is to stand at ``where`` facing ``facing``, and why in a few words."""
    me = view.me
    score = 0.0
    words: list[str] = []
    # Danger: every foe that reaches the place, by the arc it sees of the fighter.
    danger = 0.0
    for foe in view.foes:
        if where.distance(foe.hex) <= 2 or _reaches(foe, where):
            shown = arc_of(foe.hex, where, facing, me.handedness)
            danger += 1.0 + _ARC_WORTH[shown] / 3
    careful = view.choice.key == "careful"
    score -= danger * (3.0 if careful else 1.0)
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
    reaches = _reaches(me, target.hex, where, facing)
    keeps_off = view.choice.key == "skirmisher" and view.far_reaching
    if keeps_off:
        # Out of the foe's reach, within its own: a few hexes off.
        score -= abs(distance - 4) * 2
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
        score += 4
        words.append(f"facing {target.name}")
    if distance <= 2 and not keeps_off:
        arc = _arc_seen_by(target, where)
        score += _ARC_WORTH[arc]
        if arc.frontality >= 2:
            words.append(f"at {_ARC_WORDS[arc].removeprefix('the ')} of {target.name}")
    return score, ", ".join(words)


def _as_deed(label: str) -> str:
    """A move's label as what the fighter does ("move to ..." -> "moves to ...")."""
    for verb, deed in (("move to ", "moves to "), ("face ", "turns to face ")):
        if label.startswith(verb):
            return deed + label.removeprefix(verb)
    return label


def _score_maneuver(view: _View, action: LegalAction, attack_ready: bool) -> _Scored | None:
    command = action.command
    assert isinstance(command, ChooseManeuver)
    if view.me.maneuver is not None:
        return None  # chosen already: the policy does not change its mind
    try:
        terms = view.ruleset.turns.maneuver(command.maneuver).terms(command.option)
    except RulesError:
        return None
    key = view.choice.key
    if key == "aggressive" and attack_ready and terms.attacks > 0 and not terms.active_defenses:
        # All-out when the chosen foe cannot strike back from where it stands.
        target = view.target
        if target is not None and not _reaches(target, view.me.hex):
            return _Scored(action, ATTACK_BASE + 50, "goes all out: the foe cannot strike back")
    # Careful, and not falling back (a defensive maneuver would keep it where it
    # stands): on guard while it cannot strike and a foe can.
    defensive = key == "careful" and terms.defense_bonus > 0 and terms.attacks == 0
    # Not while it has no weapon in hand: it goes for one first.
    if defensive and view.armed and not view.retreating and not attack_ready:
        threatened = any(_reaches(f, view.me.hex) for f in view.foes)
        if threatened:
            return _Scored(action, ATTACK_BASE / 2, "takes a defensive maneuver")
    return None


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
    """The fighter's next action by ``choice``; None when it has none (not its turn)."""
    if choice.key not in POLICY_KEYS:
        raise RulesError(f"no policy {choice.key!r} (there are {', '.join(POLICY_KEYS)})")
    cache = OddsCache() if cache is None else cache
    if actions is None:
        actions = ruleset.turns.legal_actions(state, combatant_id)
    if not actions:
        return None
    me = state.combatant(combatant_id)
    view = _view(ruleset, state, me, choice)
    here, _ = _place_score(view, me.hex, me.facing)
    scored: list[_Scored] = []
    ending: LegalAction | None = None
    for action in _attacks_to_score(ruleset, state, me, actions):
        found = _score_attack(view, action, cache)
        if found is not None:
            scored.append(found)
    attack_ready = bool(scored)
    for action in actions:
        command = action.command
        found = None
        if action.ends_turn:
            ending = action
        elif isinstance(command, ChooseManeuver):
            found = _score_maneuver(view, action, attack_ready)
        elif isinstance(command, ReadyWeapon | PickUpItem):
            found = _score_arming(view, action)
        else:
            place = _where_after(me, action)
            if place is not None:
                score, why = _place_score(view, *place)
                if score > here + MOVE_GAIN:
                    found = _Scored(action, score - here, f"{_as_deed(action.label)}: {why}")
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
