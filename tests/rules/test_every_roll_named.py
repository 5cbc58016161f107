"""Physical dice: every roll a command asks of the table says whose it is and what
it is for (docs/architecture.md, "Physical dice").

A scripted person at the table (``NamingTable``) enters faces for every request and
keeps each one with the rules modules that asked for it. The commands come from
every ruleset, with each of its options: every fighter of its demo battle against
every other, at each weapon's reach, the defender facing three ways, with each set
of choices its attack form offers (``Attacks.attack_variants``), bystanders all
around so that flying pieces and weapons knocked away hit somebody; blows and
disarms at the defender's weapon where a weapon reaches it; for seed 000, fighters
whose gear reaches its other roll sites; and the demo battle's turn order rolled
again and played for rounds by the demo policy, for the turn's own rolls, then a
drop where the dice say. A request that names nobody of the battle fails; so does
a drive that never reaches the roll sites the issue names (the disarm contest, a
weapon breaking, a stray hit and its damage, the damage of a blow on a weapon, a
piece's landing)."""

from __future__ import annotations

import itertools
import json
import random
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest

from hexmap import Facing, Hex, HexGrid
from rules.battle.battle import Battle, attacker_reach, weapon_positions
from rules.battle.catalog import parse_fighter
from rules.battle.commands import Attack, DropItem
from rules.battle.model import Combatant, Side, Status
from rules.battle.savefile import read_battle
from rules.battle.state import BattleState, Command
from rules.battle.turns import StartTurns
from rules.core.dice import DiceRequest, EnteredDice
from rules.core.errors import RulesError
from rules.sets.protocol import Ruleset, likeliest_answer
from rules.sets.registry import get_ruleset, ruleset_keys
from tests.rules.test_demo_battles import demo_file, play_rounds

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "rules"
DICE_MODULE = RULES / "core" / "dice.py"
GRID = HexGrid(14, 14)
ORIGIN = Hex.from_offset(7, 7)
FACINGS = (Facing.S, Facing.SE, Facing.N)
ROUNDS = 10  # of each demo battle, for the turn's rolls

# The roll sites each ruleset's drive must reach (rules modules, by path under
# rules/): the ones physical-dice mode once asked for without a name among them.
REACHED: dict[str, frozenset[str]] = {
    "000": frozenset(
        {
            "sets/seed000/dice_steps.py",  # attack, defenses, damage
            "sets/seed000/disarm.py",  # the Quick Contest
            "sets/seed000/breakage.py",  # which part breaks, a parry that breaks
            "sets/seed000/stray_hits.py",  # a flying piece's hit and its damage
            "sets/seed000/critical_misses.py",  # the table
            "sets/seed000/hit_location.py",
            "sets/seed000/improvised.py",  # an improvised weapon after its parry
            "battle/pieces.py",  # how far and which way a piece goes
            "battle/scatter.py",
        }
    ),
    "002": frozenset({"sets/seed002/attack_steps.py", "sets/seed002/wounds.py"}),
    "003": frozenset({"sets/seed003/combat.py", "sets/seed003/fudge_dice.py"}),
    "004": frozenset(
        {"sets/seed004/attack_steps.py", "sets/seed004/checks.py", "sets/seed004/injury.py"}
    ),
}


@dataclass
class NamingTable:
    """A person at the table who enters faces from its own generator (now and then
    all low or all high, for the criticals) and keeps, for every request, the
    rules modules on the stack and whether it named one of ``names``."""

    names: Sequence[str]
    seed: int
    modules: set[str] = field(default_factory=set)
    unnamed: list[str] = field(default_factory=list)
    asked: int = 0

    def __post_init__(self) -> None:
        self._random = random.Random(self.seed)

    def __call__(self, request: DiceRequest) -> list[int]:
        self.asked += 1
        stack = _rules_modules_on_stack()
        self.modules.update(stack)
        if not any(name in request.what for name in self.names):
            self.unnamed.append(f"{request} (asked from {' <- '.join(stack[:3])})")
        pick = self._random.random()
        if pick < 0.12:
            return [request.low] * request.count
        if pick < 0.24:
            return [request.high] * request.count
        return [self._random.randint(request.low, request.high) for _ in range(request.count)]


def _rules_modules_on_stack() -> list[str]:
    """The rules modules on the caller's stack, innermost first, rules/core/dice.py
    left out ("sets/seed000/disarm.py:256")."""
    found: list[str] = []
    frame = sys._getframe(2)
    while frame is not None:
        path = Path(frame.f_code.co_filename)
        if path.is_relative_to(RULES) and path != DICE_MODULE:
            found.append(f"{path.relative_to(RULES).as_posix()}:{frame.f_lineno}")
        frame = frame.f_back
    return found


@dataclass
class Drive:
    """What one ruleset's drive asked of the table."""

    modules: set[str] = field(default_factory=set)
    unnamed: list[str] = field(default_factory=list)
    asked: int = 0

    def run(self, battle: Battle, command: Command, seed: int) -> None:
        names = [c.name for c in battle.state.combatants]
        table = NamingTable(names, seed)
        try:
            battle.execute(command, EnteredDice(table))
        except RulesError:
            pass  # a set-up the rules refuse: the rolls asked before still count
        finally:
            self.modules.update(m.rpartition(":")[0] for m in table.modules)
            self.unnamed.extend(table.unnamed)
            self.asked += table.asked


def demo_fighters(key: str) -> tuple[Combatant, ...]:
    """The fighters of ruleset ``key``'s demo battle."""
    battle = read_battle(demo_file(key).read_bytes(), rulesets=get_ruleset)
    return battle.state.combatants


def rulesets_of(key: str) -> tuple[Ruleset, ...]:
    """The ruleset as it is and with each of its options."""
    base = get_ruleset(key)
    return (base, *(get_ruleset(key, (option,)) for option in base.available_options))


def fresh(template: Combatant, id: str, where: Hex, facing: Facing, side: Side) -> Combatant:
    return replace(
        template, id=id, hex=where, facing=facing, side=side,
        hp=template.fighter.hit_points, status=Status.ACTIVE,
    )  # fmt: skip


def bystanders(
    fighters: Sequence[Combatant], taken: set[Hex], around: Sequence[Hex]
) -> tuple[Combatant, ...]:
    """Somebody in every free hex next to ``around``: in the way of whatever flies."""
    crowd: list[Combatant] = []
    for centre in around:
        for facing in Facing:
            where = centre + facing.vector
            if where in taken or where not in GRID:
                continue
            taken.add(where)
            template = fighters[len(crowd) % len(fighters)]
            crowd.append(fresh(template, f"by{len(crowd)}", where, Facing.N, Side.GREEN))
    return tuple(crowd)


def every_pair(fighters: Sequence[Combatant]) -> Iterator[tuple[Combatant, Combatant]]:
    return ((a, d) for a in fighters for d in fighters if a is not d)


def duels(
    blank: BattleState,
    pairs: Iterable[tuple[Combatant, Combatant]],
    crowd_from: Sequence[Combatant],
    facings: Sequence[Facing] = FACINGS,
) -> Iterator[BattleState]:
    """Each pair, straight ahead at each distance one of the attacker's weapon modes
    reaches first, the defender facing each of ``facings`` in turn, with bystanders
    all around both."""
    for a_template, d_template in pairs:
        modes = [mode for weapon in a_template.fighter.weapons for mode in weapon.modes]
        nearest = {min((d for d in mode.reach.distances if d > 0), default=0) for mode in modes}
        for distance in sorted(nearest - {0}):
            for facing in facings:
                a = fresh(a_template, "attacker", ORIGIN, Facing.N, Side.RED)
                where = ORIGIN + Facing.N.vector.scale(distance)
                d = fresh(d_template, "defender", where, facing, Side.BLUE)
                crowd = bystanders(crowd_from, {a.hex, d.hex}, (a.hex, d.hex))
                yield replace(blank, combatants=(a, d, *crowd))


def template_fighter(key: str, name: str, *weapons: str) -> Combatant:
    """A bundled template's fighter named ``name``, with ``weapons`` from the
    catalog before its own."""
    document = json.loads((ROOT / "assets" / "templates" / f"{key}.json").read_text())
    ruleset = get_ruleset(document["ruleset"])
    catalog = ruleset.sheets.catalog()
    _key, fighter = parse_fighter({**document["fighter"], "key": key}, catalog)
    extra = tuple(catalog.weapon(w) for w in weapons)
    fighter = replace(fighter, name=name, weapons=(*extra, *fighter.weapons))
    return Combatant(id=key, fighter=fighter, side=Side.RED, hex=ORIGIN, facing=Facing.N, hp=0)


def extra_fighters(key: str) -> tuple[Combatant, ...]:
    """Fighters beyond the demo's whose gear reaches more roll sites: bare fists
    (a parry that strikes back), an improvised weapon (its parry may ruin it), a
    heavy weapon (it breaks the blade that parries it)."""
    if key != "000":
        return ()
    return (
        template_fighter("brawler", "Brawler", "chair-leg"),
        template_fighter("halberdier", "Halberdier"),
        template_fighter("berserker", "Berserker"),
    )


def at_weapons(blank: BattleState, fighters: Sequence[Combatant]) -> Iterator[BattleState]:
    """Each fighter against each other armed one, standing where one of its weapons
    reaches both the defender and a hex of the defender's first weapon."""
    for a_template in fighters:
        for d_template in fighters:
            if d_template is a_template:
                continue
            d = fresh(d_template, "defender", ORIGIN, Facing.N, Side.BLUE)
            weapon_hexes = {h for hexes in weapon_positions(d).values() for h in hexes}
            if not weapon_hexes:
                continue
            found = next(
                (
                    a
                    for where in (ORIGIN + f.vector.scale(n) for f in Facing for n in (1, 2))
                    if where not in weapon_hexes
                    for facing in Facing
                    for a in (fresh(a_template, "attacker", where, facing, Side.RED),)
                    if ORIGIN in attacker_reach(a) and weapon_hexes & attacker_reach(a)
                ),
                None,
            )
            if found is not None:
                taken = {found.hex, d.hex, *weapon_hexes}
                crowd = bystanders(fighters, taken, (d.hex,))
                yield replace(blank, combatants=(found, d, *crowd))


def attack_drive(key: str) -> Drive:
    """Every attack variant of every set-up, under the ruleset and each option."""
    drive = Drive()
    fighters = demo_fighters(key)
    blank = BattleState(GRID, ())
    for ruleset in rulesets_of(key):
        ruled = replace(blank, ruleset_key=key, ruleset_options=tuple(sorted(ruleset.options)))
        setups = [*duels(ruled, every_pair(fighters), fighters), *at_weapons(ruled, fighters)]
        if not ruleset.options:
            extras = extra_fighters(key)
            mixed = [p for x in extras for f in fighters for p in ((x, f), (f, x))]
            setups += duels(ruled, mixed, fighters, (Facing.S,))
        for n, state in enumerate(setups):
            for m, choices in enumerate(
                ruleset.attacks.attack_variants(state, "attacker", "defender")
            ):
                battle = Battle(state, 0, get_ruleset)
                # the defender answers as it most likely would (seed 000: a defense)
                answer = likeliest_answer(ruleset, state, "attacker", "defender", choices)
                attack = Attack("attacker", "defender", choices, answer)
                drive.run(battle, attack, n * 7919 + m)
    return drive


def turn_drive(key: str, seed: int) -> Drive:
    """The demo battle's turn order rolled again, then ``ROUNDS`` rounds by the demo
    policy, then a drop where the dice say of what each fighter holds, all on
    entered dice."""
    drive = Drive()
    battle = read_battle(demo_file(key).read_bytes(), rulesets=get_ruleset)
    steps = itertools.count(seed * 100_003)
    drive.run(battle, StartTurns(), next(steps))
    play_rounds(battle, ROUNDS, lambda command: drive.run(battle, command, next(steps)))
    for c in battle.state.combatants:
        for weapon in c.fighter.weapons[:1]:
            drive.run(battle, DropItem(c.id, weapon.key, random_hex=True), next(steps))
    return drive


@pytest.mark.parametrize("key", ruleset_keys())
def test_every_roll_of_every_attack_names_whose_it_is(key: str) -> None:
    drive = attack_drive(key)
    for seed in range(3):
        turns = turn_drive(key, seed)
        drive.modules |= turns.modules
        drive.unnamed += turns.unnamed
        drive.asked += turns.asked
    assert drive.asked > 1000, f"ruleset {key}: the drive hardly rolled ({drive.asked})"
    missing = sorted(REACHED.get(key, frozenset()) - drive.modules)
    assert not missing, f"ruleset {key}: the drive never rolled in {', '.join(missing)}"
    unnamed = sorted(set(drive.unnamed))
    assert not unnamed, f"ruleset {key}: {len(unnamed)} roll(s) name nobody:\n" + "\n".join(
        unnamed[:40]
    )
