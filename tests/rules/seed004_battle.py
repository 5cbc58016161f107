"""What the seed 004 battle-level tests share: two fighters face to face (Ann
attacks, Bob defends) in a seed 004 battle, built from sheets the tests change,
and ``hit``, an Attack executed on scripted dice with its events."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from types import MappingProxyType

from hexmap import Facing, Hex, HexGrid
from rules.battle.battle import Battle
from rules.battle.commands import Attack, PutAwayItem, ReadyWeapon
from rules.battle.hands import hand_problem, hands_of
from rules.battle.model import Combatant, Fighter, Posture, Side
from rules.battle.state import BattleState
from rules.core.dice import ScriptedDice
from rules.core.events import Event
from rules.sets.components.zones_2d6 import Zone
from rules.sets.registry import get_ruleset
from rules.sets.seed004.attack import Defense, Seed004Answer, Seed004Attack
from rules.sets.seed004.ruleset import Seed004, seed004_ruleset
from rules.sets.seed004.sheet import Abilities, Sheet004, ZoneArmor
from rules.sets.seed004.tracks import Seed004Tracks

RULESET: Seed004 = seed004_ruleset()
CATALOG = RULESET.sheets.catalog()
GRID = HexGrid(12, 12)
HOME = Hex.from_offset(5, 5)
FRONT = HOME + Facing.S.vector
NO_ARMOR = ZoneArmor()
WEAPONS = ("knife", "club", "fists", "spear", "machete", "sledgehammer", "torch")


def fighter(
    name: str,
    *,
    hp: int = 35,
    skills: dict[str, int] | None = None,
    armor: ZoneArmor = NO_ARMOR,
    **abilities: int,
) -> Fighter:
    """A fighter with every catalog weapon; abilities 5 (modifier 0) unless given;
    Melee Combat 2 and Dodge 1 unless ``skills`` says otherwise."""
    sheet = Sheet004(
        Abilities(**abilities),
        MappingProxyType(skills if skills is not None else {"Melee Combat": 2, "Dodge": 1}),
        armor,
    )
    return Fighter(name, hp, 5, tuple(CATALOG.weapon(w) for w in WEAPONS), sheet)


def duel(
    ann: Fighter | None = None,
    bob: Fighter | None = None,
    *,
    bob_hex: Hex = FRONT,
    bob_facing: Facing = Facing.N,
    bob_posture: Posture = Posture.STANDING,
    bob_hp: int | None = None,
    bob_wounds: int = 0,
) -> Battle:
    """Ann ("a", blue) at HOME facing south, Bob ("b", red) in front of her facing
    north; a seed 004 battle through the registry."""
    ann = ann or fighter("Ann")
    bob = bob or fighter("Bob")
    a = Combatant("a", ann, Side.BLUE, HOME, Facing.S, ann.hit_points)
    b = Combatant(
        "b",
        bob,
        Side.RED,
        bob_hex,
        bob_facing,
        bob.hit_points if bob_hp is None else bob_hp,
        posture=bob_posture,
        tracks=Seed004Tracks(wounds=bob_wounds),
    )
    return Battle(BattleState(GRID, (a, b), ruleset_key="004"), 4, get_ruleset)


def hit(
    battle: Battle,
    faces: Sequence[int],
    weapon: str = "club",
    mode: str = "strike",
    *,
    attacker: str = "a",
    defender: str = "b",
    exact: bool = True,
    defense: Defense | None = None,
    **choices: object,
) -> tuple[Event, ...]:
    """Execute an attack on ``faces`` with ``weapon`` in hand (``wield``), the
    defender answering with ``defense`` (None: its default answer); with
    ``exact`` every face must be used."""
    wield(battle, attacker, weapon)
    dice = ScriptedDice(faces)
    options = Seed004Attack(weapon, mode, **choices)
    answer = None if defense is None else Seed004Answer(defense)
    events = battle.execute(Attack(attacker, defender, options, answer), dice)
    if exact:
        assert dice.unused == 0, f"{dice.unused} face(s) left unrolled"
    return events


def wield(battle: Battle, who: str, weapon: str) -> None:
    """Put away what ``who`` holds and draw ``weapon`` (the GM's Ready commands,
    overriding the one Ready a turn), unless it is in hand already or bare hands:
    a fighter with every catalog weapon holds only the first two."""
    c = battle.state.combatant(who)
    if hand_problem(c, weapon) is None:
        return
    for key in hands_of(c).held:
        battle.execute(PutAwayItem(who, key, gm_override=True))
    battle.execute(ReadyWeapon(who, weapon, gm_override=True))


def bob(battle: Battle) -> Combatant:
    return battle.state.combatant("b")


__all__ = ["Defense", "Zone", "bob", "duel", "fighter", "hit", "replace"]
