"""Each ruleset's demo battle (assets/battles/demo-<key>.hexfray, written by
packaging/make_demo_battles.py): it exists for every registered ruleset, is what
the script writes, and plays ten rounds through ``Battle`` commands chosen from
the ruleset's legal actions, with replay, undo and save/load giving the same
battle."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rules.battle.battle import Battle
from rules.battle.commands import Attack, EndTurn, MoveCombatant, TurnCombatant
from rules.battle.maneuvers import MoveAllowance
from rules.battle.model import Combatant
from rules.battle.savefile import read_battle, write_battle
from rules.battle.state import BattleState, Command
from rules.battle.turns import ChooseManeuver
from rules.core.errors import RulesError
from rules.sets.protocol import Ruleset
from rules.sets.registry import get_ruleset, ruleset_keys, ruleset_of

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "packaging" / "make_demo_battles.py"


def test_the_committed_demos_are_what_the_script_writes() -> None:
    run = subprocess.run(
        [sys.executable, str(SCRIPT), "--check"], cwd=ROOT, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stdout + run.stderr


# --- ten rounds of each demo ---------------------------------------------------------

ROUNDS = 10
# Commands one fighter may take in one turn before the policy ends it: a guard
# against a ruleset whose legal actions never run out.
ACTIONS_PER_TURN = 12
BATTLES = ROOT / "assets" / "battles"
_MOVEMENT_RANK = {
    MoveAllowance.NONE: 0,
    MoveAllowance.STEP: 1,
    MoveAllowance.HALF: 2,
    MoveAllowance.FULL: 3,
}


def demo_file(key: str) -> Path:
    return BATTLES / f"demo-{key}.hexfray"


def load_demo(key: str) -> Battle:
    path = demo_file(key)
    assert path.is_file(), (
        f"ruleset {key} has no demo battle {path.name}: write "
        f"assets/rulesets/{key}/demo-setup.json and run python packaging/make_demo_battles.py"
    )
    return read_battle(path.read_bytes(), rulesets=get_ruleset)


def nearest_foe(state: BattleState, me: Combatant) -> Combatant | None:
    foes = [c for c in state.combatants if c.side is not me.side and c.status.can_defend]
    return min(foes, key=lambda c: (c.hex.distance(me.hex), c.id), default=None)


def maneuver_rank(ruleset: Ruleset, command: ChooseManeuver) -> tuple[int, int, int]:
    """Attacks first, then keeping the active defenses, then the longest move."""
    terms = ruleset.turns.maneuver(command.maneuver).terms(command.option)
    return (
        terms.attacks > 0,
        terms.active_defenses,
        _MOVEMENT_RANK[terms.movement],
    )


def choose(state: BattleState, ruleset: Ruleset, me: Combatant, turned: bool) -> Command | None:
    """The policy's next command for ``me`` on its turn, from the ruleset's legal
    actions; None: end the turn. A maneuver that allows an attack when none is
    chosen yet; an attack on a foe in reach; a step that brings the nearest foe
    closer; a turn to face it (once a turn); else the end of the turn."""
    actions = [a.command for a in ruleset.turns.legal_actions(state, me.id)]
    if me.maneuver is None or me.maneuver.implied:
        maneuvers = [c for c in actions if isinstance(c, ChooseManeuver)]
        wanted = [c for c in maneuvers if maneuver_rank(ruleset, c)[0]]
        if wanted and me.maneuver is None:
            return max(wanted, key=lambda c: maneuver_rank(ruleset, c))
    attacks = [c for c in actions if isinstance(c, Attack)]
    if attacks:
        return attacks[0]
    foe = nearest_foe(state, me)
    if foe is None:
        return None
    distance = me.hex.distance(foe.hex)
    steps = [
        c
        for c in actions
        if isinstance(c, MoveCombatant) and c.destination.distance(foe.hex) < distance
    ]
    if steps and distance > 1:
        return min(
            steps, key=lambda c: (c.destination.distance(foe.hex), c.destination.to_offset())
        )
    turns = [c for c in actions if isinstance(c, TurnCombatant)]
    if turns and not turned:
        ahead = me.hex + me.facing.vector
        best = min(
            turns, key=lambda c: ((me.hex + c.facing.vector).distance(foe.hex), int(c.facing))
        )
        if (me.hex + best.facing.vector).distance(foe.hex) < ahead.distance(foe.hex):
            return best
    return None


def play_rounds(
    battle: Battle, rounds: int = ROUNDS, run: Callable[[Command], object] | None = None
) -> None:
    """``rounds`` rounds of the running turn order by the policy (``choose``), each
    command given to ``run`` (by default ``battle.execute``)."""
    run = battle.execute if run is None else run
    ruleset = ruleset_of(battle.state)
    assert battle.state.turns_running, "the demo opens with its turn order begun"
    last_round = battle.state.turn + rounds
    while battle.state.turn < last_round and battle.state.turns_running:
        active = battle.state.active_id
        assert active is not None
        turned = False
        for _ in range(ACTIONS_PER_TURN):
            state = battle.state
            if state.active_id != active:
                break  # the turn ended by itself (the fighter fell)
            command = choose(state, ruleset, state.combatant(active), turned)
            if command is None:
                break
            turned = turned or isinstance(command, TurnCombatant)
            run(command)
        if battle.state.active_id == active:
            run(EndTurn())


@pytest.fixture(scope="module", params=ruleset_keys())
def played(request: pytest.FixtureRequest) -> tuple[str, Battle, BattleState]:
    """Each registered ruleset's demo, loaded, with its state as loaded and after
    ten rounds played."""
    key = str(request.param)
    battle = load_demo(key)
    loaded = battle.state
    play_rounds(battle)
    return key, battle, loaded


def test_every_registered_ruleset_has_a_demo_battle() -> None:
    missing = [key for key in ruleset_keys() if not demo_file(key).is_file()]
    assert not missing, f"no demo battle for ruleset(s) {', '.join(missing)}"


def test_the_demo_plays_ten_rounds_with_attacks_and_wounds(
    played: tuple[str, Battle, BattleState],
) -> None:
    key, battle, loaded = played
    assert battle.state.ruleset_key == key
    assert battle.state.turn >= loaded.turn + ROUNDS or not battle.state.turns_running
    attacks = [c for c in battle.commands if isinstance(c, Attack)]
    assert len(attacks) >= 2, f"ruleset {key}: the demo's fighters hardly attack ({len(attacks)})"
    hurt = [
        c.name
        for c in battle.state.combatants
        if c.hp != loaded.combatant(c.id).hp or c.tracks != loaded.combatant(c.id).tracks
    ]
    assert hurt, f"ruleset {key}: ten rounds and nobody is hurt"
    assert any(c.hp < loaded.combatant(c.id).hp for c in battle.state.combatants), (
        f"ruleset {key}: no hit point lost in ten rounds"
    )
    sides = {battle.state.combatant(a.attacker_id).side for a in attacks}
    assert len(sides) >= 2, f"ruleset {key}: only one side attacks"


def test_the_played_demo_replays_from_its_seed_and_commands(
    played: tuple[str, Battle, BattleState],
) -> None:
    _key, battle, _loaded = played
    replayed = Battle.replay(battle.initial, battle.seed, battle.commands, rulesets=get_ruleset)
    assert replayed.state == battle.state
    assert replayed.dice_log == battle.dice_log


def test_undoing_all_and_redoing_all_gives_the_same_battle(
    played: tuple[str, Battle, BattleState],
) -> None:
    _key, battle, _loaded = played
    copy = Battle.replay(
        battle.initial, battle.seed, battle.commands, battle.dice_log, rulesets=get_ruleset
    )
    end = copy.state
    count = len(copy.commands)
    while copy.can_undo:
        copy.undo()
    assert copy.state == battle.initial
    assert len(copy.undone) == count
    while copy.can_redo:
        copy.redo()
    assert copy.state == end
    assert copy.dice_log == battle.dice_log


def test_the_played_demo_saves_and_loads_as_it_is(
    played: tuple[str, Battle, BattleState],
) -> None:
    key, battle, _loaded = played
    text = write_battle(battle, get_ruleset(key).sheets.saved_types)
    loaded = read_battle(text, rulesets=get_ruleset)
    assert loaded.state == battle.state
    assert loaded.commands == battle.commands
    assert loaded.dice_log == battle.dice_log
    assert write_battle(loaded, get_ruleset(key).sheets.saved_types) == text


# --- the set-up's refusals ---------------------------------------------------------------


def _script() -> Any:
    """packaging/make_demo_battles.py by path (packaging/ is no package)."""
    name = "hexfray_make_demo_battles"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # its dataclasses find their module
    spec.loader.exec_module(module)
    return module


def _setup(**changes: object) -> dict[str, object]:
    setup: dict[str, object] = {
        "map": {"cols": 12, "rows": 10},
        "fighters": [
            {"template": "fencer", "side": "red", "at": {"col": 4, "row": 3}, "facing": "S"},
            {"template": "spearman", "side": "blue", "at": {"col": 6, "row": 8}},
        ],
    }
    setup.update(changes)
    return setup


def test_a_set_up_is_built_through_commands_with_its_turns_begun() -> None:
    battle = _script().demo_battle(
        "000", _setup(terrain=[{"hexes": [{"col": 4, "row": 4}], "footing": "bad"}])
    )
    names = [type(c).__name__ for c in battle.commands]
    assert names == ["PaintTerrain", "AddCombatant", "AddCombatant", "StartTurns"]
    assert battle.initial.combatants == () and battle.state.turns_running
    spearman = battle.state.combatant("c2")
    assert spearman.facing.name == "N", "facing the map's middle by default"


def test_every_facing_a_set_up_names_is_kept_north_too() -> None:
    """North is Facing 0: a set-up's "N" is kept, not taken for a facing left out."""
    for facing in ("N", "SE"):
        fighters = [
            # At the top edge: the middle of the map is to the south.
            {"template": "fencer", "side": "red", "at": {"col": 6, "row": 1}, "facing": facing},
            {"template": "spearman", "side": "blue", "at": {"col": 6, "row": 8}},
        ]
        battle = _script().demo_battle("000", _setup(fighters=fighters))
        assert battle.state.combatant("c1").facing.name == facing


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        (
            {"fighters": [{"template": "fencer", "side": "red", "at": {"col": 1, "row": 1}}]},
            "at least two",
        ),
        ({"map": {"cols": 12, "rows": 10}, "seed": "x"}, "seed"),
        (
            {"sides": [{"side": "red", "name": "Reds", "colour": "#aa0000"}]},
            "not one of the set-up's sides",
        ),
        (
            {"terrain": [{"hexes": [{"col": 40, "row": 1}], "footing": "bad"}]},
            "off the 12 x 10 map",
        ),
        ({"options": ["no-such-option"]}, "no-such-option"),
    ],
    ids=["one-fighter", "seed", "side", "terrain", "option"],
)
def test_a_broken_set_up_is_refused_by_its_place(changes: dict[str, object], message: str) -> None:
    script = _script()
    with pytest.raises(RulesError, match=message):
        script.demo_battle("000", _setup(**changes))


def test_a_template_of_another_ruleset_is_refused_in_a_set_up() -> None:
    script = _script()
    other = next((k for k in ruleset_keys() if k != "000"), None)
    if other is None:
        pytest.skip("one ruleset registered")
    stranger = next(p.stem for p in (ROOT / "assets" / "templates").glob(f"{other}-*.json"))
    fighters = _setup()["fighters"]
    assert isinstance(fighters, list)
    fighters[0]["template"] = stranger
    with pytest.raises(RulesError, match=f"is a template of ruleset {other}, not of ruleset 000"):
        script.demo_battle("000", _setup(fighters=fighters))
