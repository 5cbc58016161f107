"""What one simulated battle reports (``BattleRecord``), what a worker needs to
play it (``BattleSetup``, made once per run by ``battle_setup``), and the one call
that plays it (``simulate_battle``).

This is the interface between the runs of many battles and the simulation path:
a runner calls only ``battle_setup`` and ``simulate_battle``. Both the setup and
the record are small and picklable, so they cross process and cluster boundaries.

The battle starts from the file's state as its log leaves it, as a new battle whose
commands roll on one stream of dice seeded with the battle's own ``seed``; every
fighter is played by the computer: its own policy, a GM's fighter the default one
(aggressive), as ``main.py autobattle`` plays it. ``rules.sim.simulate.replay_battle``
plays the same battle through ``Battle``, with its full log.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rules.battle.battle import Battle
from rules.battle.condition import Down
from rules.battle.savefile import read_battle, write_battle
from rules.battle.state import BattleState
from rules.sets.protocol import Ruleset
from rules.sets.registry import get_ruleset
from rules.sim.simulate import simulate

__all__ = [
    "BattleRecord",
    "BattleSetup",
    "FighterEnd",
    "battle_setup",
    "simulate_battle",
]

STANDING = "standing"
UNCONSCIOUS = "unconscious"
DEAD = "dead"


@dataclass(frozen=True, slots=True)
class FighterEnd:
    """One fighter at the end of a simulated battle. ``side``: the side's key
    (``Side.value``, "red"). ``end``: "standing", "unconscious" (down in any way
    but dead) or "dead", from the ruleset's condition view. ``injury``: the hit
    points lost (``Fighter.hit_points - Combatant.hp``: a FUDGE ruleset's overall
    wound track on the same scale)."""

    combatant_id: str
    name: str
    side: str
    end: str
    injury: int


@dataclass(frozen=True, slots=True)
class BattleRecord:
    """What one simulated battle reports: small and picklable.

    ``seed``: the battle's own seed. ``winner``: the winning side's key; None for a
    draw or a battle stopped at the round limit (``stopped``). ``rounds``: the
    round it was decided in, else the last one played. ``injury_by_location``: the
    injury done at each hit location (its label), in the order first struck;
    ``dropped``, ``broken``, ``knocked_away``: the weapons and shields that left a
    hand by a drop, broke, or were knocked away; ``scatter``: how far each piece
    that flew travelled, in hexes. ``choices``: the computer fighters' choices in
    order, when kept."""

    seed: int
    winner: str | None
    stopped: bool
    rounds: int
    fighters: tuple[FighterEnd, ...]
    injury_by_location: tuple[tuple[str, int], ...]
    dropped: int
    broken: int
    knocked_away: int
    scatter: tuple[int, ...]
    choices: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class BattleSetup:
    """What a worker needs to play one battle: the battle file's text (its log
    replayed once per worker) and its ruleset's key."""

    text: str
    ruleset_key: str


def battle_setup(source: Path | str | Battle | BattleState) -> BattleSetup:
    """The setup of a battle file (its path), of a ``Battle`` as it stands, or of
    a state. A file that cannot be read raises ``OSError``; one that is not a
    battle, ``BattleFileError``."""
    if isinstance(source, (Path, str)):
        text = Path(source).read_text(encoding="utf-8")
        battle = read_battle(text, rulesets=get_ruleset)
    elif isinstance(source, BattleState):
        battle = Battle(source, 0, get_ruleset)
    else:
        battle = source
    # The setup is the battle as it stands: a new battle from its current state,
    # so a worker replays no log.
    start = Battle(battle.state, 0, get_ruleset)
    ruleset = get_ruleset(start.initial.ruleset_key)
    return BattleSetup(write_battle(start, ruleset.sheets.saved_types), start.initial.ruleset_key)


# The state a setup starts from, read once per process (a runner's worker plays
# thousands of battles of one setup).
_start_states: dict[BattleSetup, BattleState] = {}


def start_state(setup: BattleSetup) -> BattleState:
    """The state ``setup``'s battles start from."""
    state = _start_states.get(setup)
    if state is None:
        state = read_battle(setup.text, rulesets=get_ruleset).state
        _start_states.clear()  # one setup at a time: a sweep moves on to the next
        _start_states[setup] = state
    return state


def simulate_battle(
    setup: BattleSetup, seed: int, max_rounds: int, *, keep_choices: bool = False
) -> BattleRecord:
    """One battle of ``setup`` played to its end, or stopped after ``max_rounds``,
    on the one stream of dice of ``seed``, every fighter played by the computer, on
    the simulation path (``rules.sim.simulate``); ``replay_battle`` plays the same
    battle through ``Battle``."""
    played = simulate(start_state(setup), seed, max_rounds, keep_decisions=keep_choices)
    state, report, tally = played.state, played.report, played.tally
    ruleset: Ruleset = get_ruleset(state.ruleset_key, state.ruleset_options)
    return BattleRecord(
        seed=seed,
        winner=report.winner.value if report.decided and report.winner is not None else None,
        stopped=not report.decided,
        rounds=report.rounds,
        fighters=fighter_ends(state, ruleset),
        injury_by_location=tuple(tally.injury_by_location.items()),
        dropped=tally.dropped,
        broken=tally.broken,
        knocked_away=tally.knocked_away,
        scatter=tuple(tally.scatter),
        choices=tuple(d.label for d in report.decisions if d.combatant_id),
    )


def fighter_ends(state: BattleState, ruleset: Ruleset) -> tuple[FighterEnd, ...]:
    """Each fighter of ``state`` as the ruleset's condition view ends it."""
    ends = []
    for c in state.combatants:
        down = ruleset.conditions.fighter_condition(c).down
        end = STANDING if down is None else DEAD if down is Down.DEAD else UNCONSCIOUS
        injury = max(0, c.fighter.hit_points - c.hp)
        ends.append(FighterEnd(c.id, c.name, c.side.value, end, injury))
    return tuple(ends)
