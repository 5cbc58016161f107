"""Random set-ups for the auto-play property tests (issue 25, "What must hold"):
a battle of 2 to 4 fighters from a ruleset's bundled templates on a small map,
at random hexes and facings, on random terrain, each fighter played by a random
policy with random settings (or left to the GM, and played by the set-up's
default policy), some hurt already or with their first weapon not in hand, and a
random battle seed.

A set-up is made from its ruleset and a number alone (numpy's ``SeedSequence``
of the two), so a failing one is rerun from the number the test names:
``setup("002", 417)``. ``check_setup`` plays one and says which property it
breaks, if any.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

import numpy as np

from app.templates import Template, bundled_dir, read_template_file
from hexmap import Facing, Handedness, HexGrid
from rules.battle.battle import Battle
from rules.battle.commands import Attack
from rules.battle.controllers import PolicyChoice
from rules.battle.model import Combatant, Side
from rules.battle.policy_settings import POLICY_KEYS, TARGET_KEYS
from rules.battle.state import BattleState
from rules.battle.terrain import Cover, Footing, Light, Terrain, TerrainMap, WaterDepth
from rules.play.autoplay import MAX_ACTIONS_PER_TURN, AutoPlayReport, auto_play
from rules.play.policies import Decision, OddsCache
from rules.sets.registry import get_ruleset

RULESETS = ("000", "002", "003", "004")
# Small battles and a modest round limit keep a thousand set-ups affordable.
MIN_SIDE, MAX_SIDE = 5, 10
MIN_FIGHTERS, MAX_FIGHTERS = 2, 4
MAX_ROUNDS = 10
# The share of the map painted, each painted hex with one terrain kind.
PAINTED = 0.2
# The battlefield's kinds of terrain (rules.battle.terrain): each fact on its own,
# from the mild to the worst (deep water, total darkness, full cover, a height).
# The map knows no impassable terrain: what a path must go round is the other
# fighters and the map's edge, and the set-ups crowd small maps with both.
TERRAIN_KINDS = (
    Terrain(footing=Footing.BAD),
    Terrain(footing=Footing.TREACHEROUS),
    Terrain(water=WaterDepth.KNEE),
    Terrain(water=WaterDepth.CHEST),
    Terrain(water=WaterDepth.DEEP),
    Terrain(cover=Cover.PARTIAL),
    Terrain(cover=Cover.FULL),
    Terrain(light=Light.DIM_5),
    Terrain(light=Light.TOTAL_DARKNESS),
    Terrain(height=1),
    Terrain(height=-1),
)
RETREAT_THRESHOLDS = (0.0, 0.25, 0.5, 0.75, 1.0)
SIDES = (Side.RED, Side.BLUE, Side.GREEN)
# The share of fighters the battle leaves to the GM: auto-play plays them by the
# set-up's default policy.
GM_SHARE = 0.25
# The share of fighters that start hurt, and with their first weapon not in hand.
HURT_SHARE = 0.2
SHEATHED_SHARE = 0.15
T = TypeVar("T")


@functools.cache
def templates(ruleset_key: str) -> tuple[Template, ...]:
    """The bundled templates of the ruleset, in file name order."""
    found = (read_template_file(p) for p in sorted(bundled_dir().glob("*.json")))
    return tuple(t for t in found if t.ruleset_key == ruleset_key)


@dataclass(frozen=True)
class Setup:
    ruleset_key: str
    number: int
    state: BattleState
    seed: int  # the battle's dice
    # The policy of the fighters the battle leaves to the GM (as ``main.py
    # autobattle`` plays them).
    default: PolicyChoice

    def battle(self) -> Battle:
        return Battle(self.state, self.seed, get_ruleset)


def setup(ruleset_key: str, number: int) -> Setup:
    """Set-up ``number`` of the ruleset: the same battle for the same two."""
    rng = np.random.default_rng(np.random.SeedSequence([int(ruleset_key), number]))

    def pick(options: Sequence[T]) -> T:
        return options[int(rng.integers(len(options)))]

    def random_choice() -> PolicyChoice:
        return PolicyChoice(pick(POLICY_KEYS), pick(TARGET_KEYS), pick(RETREAT_THRESHOLDS))

    sides_of_map = rng.integers(MIN_SIDE, MAX_SIDE + 1, size=2)
    grid = HexGrid(int(sides_of_map[0]), int(sides_of_map[1]))
    hexes = grid.hexes()
    count = int(rng.integers(MIN_FIGHTERS, MAX_FIGHTERS + 1))
    spots = rng.choice(len(hexes), size=count, replace=False)
    # Two sides at least; a third now and then.
    sides = [Side.RED, Side.BLUE, *(pick(SIDES) for _ in range(count - 2))]
    combatants = []
    controllers = []
    for i in range(count):
        template = pick(templates(ruleset_key))
        fighter = template.fighter
        if not template.names_its_hand:
            fighter = replace(fighter, handedness=pick(tuple(Handedness)))
        fighter = replace(fighter, name=f"{fighter.name} {i + 1}")
        cid = f"c{i + 1}"
        at = hexes[int(spots[i])]
        placed = Combatant(cid, fighter, sides[i], at, pick(tuple(Facing)), fighter.hit_points)
        if rng.random() < HURT_SHARE:  # hurt already: a careful one may fall back at once
            placed = replace(placed, hp=int(rng.integers(1, fighter.hit_points + 1)))
        if fighter.weapons and rng.random() < SHEATHED_SHARE:  # it draws before it fights
            placed = replace(placed, carried=frozenset({fighter.weapons[0].key}))
        combatants.append(placed)
        if rng.random() >= GM_SHARE:
            controllers.append((cid, random_choice()))
    painted = rng.random(len(hexes)) < PAINTED
    kinds = rng.integers(len(TERRAIN_KINDS), size=len(hexes))
    cells = zip(hexes, painted, kinds, strict=True)
    terrain = TerrainMap(tuple((h, TERRAIN_KINDS[int(k)]) for h, p, k in cells if p))
    state = BattleState(
        grid,
        tuple(combatants),
        ruleset_key=ruleset_key,
        terrain=terrain,
        controllers=tuple(controllers),
    )
    return Setup(ruleset_key, number, state, int(rng.integers(1 << 31)), random_choice())


@dataclass
class Played:
    """A set-up played: the battle, auto-play's report, and the round and fighter
    of each decision (a fighter has one turn a round)."""

    battle: Battle
    report: AutoPlayReport
    turns: list[tuple[int, str]]

    @property
    def most_in_a_turn(self) -> int:
        """The most decisions one fighter took in one of its turns (its end included)."""
        return max(Counter(self.turns).values(), default=0)

    @property
    def last_round(self) -> int:
        """The round of the last decision (0: none)."""
        return max((r for r, _ in self.turns), default=0)


def play(one: Setup, cache: OddsCache | None = None) -> Played:
    battle = one.battle()
    turns: list[tuple[int, str]] = []

    def note(decision: Decision) -> None:
        turns.append((battle.state.round, decision.combatant_id))

    report = auto_play(
        battle, default=one.default, max_rounds=MAX_ROUNDS, on_decision=note, cache=cache
    )
    return Played(battle, report, turns)


def check_setup(one: Setup, *, again: bool, cache: OddsCache | None = None) -> str | None:
    """Why the set-up breaks a property (None: it holds them all): a command the
    battle refused, an attack on an ally, a turn past the bound on decisions, a
    battle that ran past the round limit; and with ``again``, a second play of
    the same set-up that differs from the first."""
    played = play(one, cache)
    battle, report = played.battle, played.report
    where = f"set-up {one.ruleset_key}/{one.number}"
    if report.refused:
        return f"{where}: the battle refused {report.refused[0]}"
    fighters = {c.id: c for c in battle.state.combatants}
    for decision in report.decisions:
        for command in decision.commands:
            ally = isinstance(command, Attack) and (
                fighters[command.attacker_id].side is fighters[command.defender_id].side
            )
            if ally:
                return f"{where}: {decision.reason} (an ally)"
    if played.most_in_a_turn > MAX_ACTIONS_PER_TURN:
        return f"{where}: a fighter took {played.most_in_a_turn} decisions in one turn"
    if not report.decided and report.stopped_for != f"the round limit ({MAX_ROUNDS})":
        return f"{where}: auto-play stopped for {report.stopped_for!r}"
    # Decided at the latest as the round after the limit begins (a fighter's
    # roll at the start of its turn); no decision taken past the limit.
    if played.last_round > MAX_ROUNDS or battle.state.round > MAX_ROUNDS + 1:
        return f"{where}: played on to round {max(played.last_round, battle.state.round)}"
    if again:
        second = play(one, cache).battle
        if second.commands != battle.commands or second.dice_log != battle.dice_log:
            return f"{where}: the same seed gave another battle"
        if second.state != battle.state:
            return f"{where}: the same seed gave another end"
    return None
