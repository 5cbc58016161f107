"""What the seed 002 tests share: fighters built from its catalog, a duel of two
of them face to face, a battle on it, and dice that give the faces asked for."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import TypeVar

from hexmap import Facing, Hex, HexGrid
from rules.battle.battle import Battle
from rules.battle.commands import Attack, PaintTerrain
from rules.battle.model import Combatant, Fighter, Side
from rules.battle.state import BattleState
from rules.battle.terrain import TerrainChange
from rules.core.dice import RecordingDice, ScriptedDice
from rules.core.events import Event
from rules.sets.registry import get_ruleset
from rules.sets.seed002.attack import Attack002, DefenseKind, Seed002Answer
from rules.sets.seed002.events import SkillRolled
from rules.sets.seed002.ruleset import seed002_ruleset
from rules.sets.seed002.sheet import Characteristics, Sheet002
from rules.sets.seed002.situation import GMSituation
from rules.sets.seed002.tables import catalog_002

E = TypeVar("E", bound=Event)
GRID = HexGrid(20, 20)
HOME = Hex.from_offset(8, 10)
SOUTH = HOME + Facing.S.vector
RULESET = seed002_ruleset()


def fighter(
    name: str = "Fighter",
    weapons: Sequence[str] = ("longsword",),
    armour: str | None = "hard-leather",
    skills: Mapping[str, int] | None = None,
    hp: int = 12,
    move: int = 8,
    **chars: int,
) -> Fighter:
    cat = catalog_002()
    c = replace(Characteristics(strength=11, size=11, dexterity=11), **chars)
    levels = {"Close Combat": 50, "Dodge": 40, "Ranged Combat": 50, "Unarmed": 40}
    levels.update(skills or {})
    return Fighter(
        name=name,
        hit_points=hp,
        move=move,
        weapons=tuple(cat.weapons[w] for w in weapons),
        stats=Sheet002(c, levels),
        armor=None if armour is None else cat.armor[armour],
    )


def combatant(f: Fighter, at: Hex, facing: Facing, cid: str, side: Side = Side.RED) -> Combatant:
    return Combatant(cid, f, side, at, facing, f.hit_points)


def duel(
    attacker: Fighter | None = None,
    defender: Fighter | None = None,
    *others: Combatant,
    defender_hex: Hex = SOUTH,
    defender_facing: Facing = Facing.N,
) -> BattleState:
    """The attacker "a" (blue) at HOME facing south, the defender "d" (red) in front."""
    a = combatant(attacker or fighter("Attacker"), HOME, Facing.S, "a", Side.BLUE)
    d = combatant(defender or fighter("Defender"), defender_hex, defender_facing, "d", Side.RED)
    return BattleState(GRID, (a, d, *others), ruleset_key="002")


def battle(state: BattleState) -> Battle:
    return Battle(state, 3, get_ruleset)


def dice(faces: Iterable[int]) -> ScriptedDice:
    return ScriptedDice(faces)


def of(events: Sequence[Event], kind: type[E]) -> list[E]:
    return [e for e in events if isinstance(e, kind)]


def sword(**gm: object) -> Attack002:
    return Attack002("longsword", "cut", GMSituation(**gm))  # type: ignore[arg-type]


def parry(weapon_key: str) -> Seed002Answer:
    """The defender's answer: a parry with ``weapon_key``."""
    return Seed002Answer(DefenseKind.PARRY, weapon_key)


class FacesThenOnes(RecordingDice):
    """The faces given, then the lowest face of every further die: for tests that
    read only the first rolls."""

    def __init__(self, faces: Iterable[int]) -> None:
        super().__init__()
        self._faces = list(faces)

    def _next(self, a: int, b: int) -> int:
        return self._faces.pop(0) if self._faces else a


def attack(
    b: Battle,
    choices: Attack002,
    faces: Iterable[int] = (99,),
    attacker: str = "a",
    defender: str = "d",
    answer: Seed002Answer | None = None,
) -> tuple[Event, ...]:
    """Execute an Attack command with ``faces`` (then ones); ``answer`` None: the
    defender's default (a dodge)."""
    return b.execute(Attack(attacker, defender, choices, answer), FacesThenOnes(faces))


def rolls(events: Sequence[Event]) -> list[SkillRolled]:
    return of(events, SkillRolled)


def paint(b: Battle, hexes: Sequence[Hex], **change: object) -> None:
    b.execute(PaintTerrain(tuple(hexes), TerrainChange(**change)), ScriptedDice(()))  # type: ignore[arg-type]
