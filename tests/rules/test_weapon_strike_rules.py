"""The weapon-strike component of seed 000's ruleset, chosen once by the battle's
option: 000 STRIKING AT WEAPONS and 000 DISARMING AN OPPONENT by default, 001
Striking at Weapons in Tactical Combat and 001 Knocking a Weapon Away with
``locations-001``. Each test plays ``Attack`` commands through a ``Battle``."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from types import MappingProxyType
from typing import TypeVar

from hexmap import Facing, Hex, HexGrid
from rules.battle.battle import Battle
from rules.battle.catalog import Catalog
from rules.battle.commands import Attack
from rules.battle.model import INTACT, ActionKind, Combatant, DamageType, TurnAction
from rules.battle.pieces import PlacementKind
from rules.battle.state import BattleState
from rules.core.citation import cite
from rules.core.events import Event
from rules.sets.registry import get_ruleset, ruleset_of
from rules.sets.seed000.attack import AttackOptions, WeaponAttack
from rules.sets.seed000.attack_events import AttackRolled, DisarmContested, WeaponStruck
from rules.sets.seed000.disarm import DisarmOutcome
from rules.sets.seed000.ruleset import Seed000
from rules.sets.seed000.tables import LOCATIONS_001, Tables
from rules.sets.seed000.weapon_strikes import (
    WEAPON_STRIKES_000,
    WEAPON_STRIKES_001,
    WeaponStrikeRules,
)
from rules.sets.seed000.weapon_targets import can_strike_at_weapon
from rules.sets.seed000.wound_effects import Victim
from tests.rules.weapon_set_ups import swordsman_beside_a_spear

Make = Callable[..., Combatant]
E = TypeVar("E", bound=Event)

DISARM = AttackOptions(
    "rapier", "thrust", target_weapon_key="broadsword", weapon_attack=WeaponAttack.DISARM
)
BREAK_SPEAR = AttackOptions(
    "broadsword", "swing", target_weapon_key="long-spear", weapon_attack=WeaponAttack.BREAK
)


def strikes_of(state: BattleState) -> WeaponStrikeRules:
    ruleset = ruleset_of(state)
    assert isinstance(ruleset, Seed000)
    return ruleset.weapon_strikes


def fencer_against_swordsman(make: Make, options: tuple[str, ...] = ()) -> BattleState:
    a = make("fencer", Hex(5, 5), Facing.S, id="a")
    d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d")
    return BattleState(HexGrid(10, 10), (a, d), ruleset_options=options)


def first_battle(
    state: BattleState, options: AttackOptions, want: Callable[[Battle], bool]
) -> Battle:
    """The first battle seed whose one attack gives what ``want`` looks for."""
    rng = random.Random(9)
    for _ in range(4000):
        battle = Battle(state, rng.randrange(10**6), get_ruleset)
        battle.execute(Attack("a", "d", options))
        if want(battle):
            return battle
    raise AssertionError("no battle seed gives the wanted attack")


def events_of(battle: Battle, kind: type[E]) -> list[E]:
    return [e for e in battle.events if isinstance(e, kind)]


def disarm_ended(outcome: DisarmOutcome) -> Callable[[Battle], bool]:
    return lambda b: any(e.result.outcome is outcome for e in events_of(b, DisarmContested))


def test_the_option_chooses_the_component_once() -> None:
    """000 STRIKING AT WEAPONS by default; 001 Striking at Weapons in Tactical Combat
    with the locations-001 option, the same component for the whole battle."""
    plain = get_ruleset("000")
    with_001 = get_ruleset("000", (LOCATIONS_001,))
    assert isinstance(plain, Seed000) and isinstance(with_001, Seed000)
    assert plain.weapon_strikes is WEAPON_STRIKES_000
    assert with_001.weapon_strikes is WEAPON_STRIKES_001
    assert plain.weapon_strikes.citation == cite("000", "STRIKING AT WEAPONS")
    assert with_001.weapon_strikes.citation == cite(
        "001", "Striking at Weapons in Tactical Combat"
    )


def test_000_disarming_is_a_quick_contest_instead_of_the_attack(make: Make) -> None:
    """000 DISARMING AN OPPONENT: no attack roll; the contest carries the 000 STRIKING
    AT WEAPONS size penalty (-4 for a broadsword; a rapier is a fencing weapon, so no
    -2); a won contest drops the foe's weapon in his own hex."""
    state = fencer_against_swordsman(make)
    battle = first_battle(state, DISARM, disarm_ended(DisarmOutcome.DEFENDER_DISARMED))
    assert events_of(battle, AttackRolled) == []
    (contested,) = events_of(battle, DisarmContested)
    assert contested.citation == cite("000", "DISARMING AN OPPONENT")
    (size,) = contested.result.contest.attacker.modifiers
    assert (size.value, size.citation) == (-4, cite("000", "STRIKING AT WEAPONS"))
    dropped = contested.result.dropped
    assert dropped is not None and dropped.placement.kind is PlacementKind.DROPPED_IN_HEX
    (item,) = battle.state.items
    assert item.weapon is not None and item.weapon.key == "broadsword"
    assert item.hex == state.combatant("d").hex


def test_000_a_lost_disarm_contest_has_no_effect(make: Make) -> None:
    """000 DISARMING AN OPPONENT: short of a win or the attacker's critical failure,
    nothing happens; the foe keeps his weapon ready."""
    state = fencer_against_swordsman(make)
    battle = first_battle(state, DISARM, disarm_ended(DisarmOutcome.NO_EFFECT))
    defender = battle.state.combatant("d")
    assert "broadsword" in {w.key for w in defender.fighter.weapons}
    assert "broadsword" not in defender.unready and battle.state.items == ()


def test_001_knocking_a_weapon_away_follows_a_hit(make: Make) -> None:
    """001 Knocking a Weapon Away: the attack is rolled first, with the 001 Striking at
    Weapons penalty by reach (-4 for a reach 1 broadsword); only after the hit comes
    the contest, and the weapon flies one hex in a random direction."""
    state = fencer_against_swordsman(make, (LOCATIONS_001,))
    battle = first_battle(state, DISARM, disarm_ended(DisarmOutcome.DEFENDER_DISARMED))
    kinds = [type(e) for e in battle.events]
    assert kinds.index(AttackRolled) < kinds.index(DisarmContested)
    (rolled,) = events_of(battle, AttackRolled)
    strike = [m for m in rolled.modifiers if m.citation == cite("001", "Striking at Weapons")]
    assert [m.value for m in strike] == [-4]
    (contested,) = events_of(battle, DisarmContested)
    assert contested.citation == cite("001", "Knocking a Weapon Away")
    dropped = contested.result.dropped
    assert dropped is not None and dropped.placement.kind is PlacementKind.ONE_HEX_RANDOM
    assert dropped.landing is not None and dropped.landing.distance == 1
    assert "broadsword" not in {w.key for w in battle.state.combatant("d").fighter.weapons}


def test_001_a_foe_who_keeps_his_weapon_holds_it_unready(make: Make) -> None:
    """001 Knocking a Weapon Away: a foe who wins by less than 3 or ties keeps his
    weapon, unready."""
    state = fencer_against_swordsman(make, (LOCATIONS_001,))
    battle = first_battle(state, DISARM, disarm_ended(DisarmOutcome.DEFENDER_KEEPS_UNREADY))
    assert "broadsword" in battle.state.combatant("d").unready


def test_a_blow_on_a_shaft_chops_it_under_000_and_damages_it_under_001(make: Make) -> None:
    """000 CUTTING THROUGH A WEAPON: a wooden shaft has DR 3 and HP 8. 001 Breaking a
    Weapon: the weapon's DR by material and HP by weight (Hexfray's table)."""
    for options, citation, words in (
        ((), cite("000", "CUTTING THROUGH A WEAPON"), "shaft DR 3, HP 8"),
        ((LOCATIONS_001,), cite("001", "Breaking a Weapon"), "DR "),
    ):
        state = swordsman_beside_a_spear(make, options)
        battle = first_battle(state, BREAK_SPEAR, lambda b: bool(events_of(b, WeaponStruck)))
        (struck,) = events_of(battle, WeaponStruck)
        assert struck.citation == citation and struck.text.startswith(words)


def test_only_001_lets_a_reach_two_weapon_be_struck_the_turn_after_it_attacked(
    make: Make,
) -> None:
    """001 Striking at Weapons in Tactical Combat: a reach 2+ weapon that attacked or
    feinted against the attacker last turn may be struck at out of reach; 000
    STRIKING AT WEAPONS knows no such rule."""
    a = make("sword-and-shield", Hex(5, 1), Facing.S, id="a")
    d = make("spearman", Hex(5, 8), Facing.N, id="d")
    d = replace(
        d, actions_last_turn=(TurnAction(ActionKind.FEINT, "long-spear", target_id="a"),)
    )
    for options, allowed in (((), False), ((LOCATIONS_001,), True)):
        state = BattleState(HexGrid(10, 10), (a, d), ruleset_options=options)
        verdict, reason = can_strike_at_weapon(
            state, "a", "d", "long-spear", strikes=strikes_of(state)
        )
        assert verdict is allowed, reason


def test_the_ruleset_reads_each_table_once_and_the_rules_take_it_from_there() -> None:
    """Every table through its ruleset: the hit locations of the option (000 RANDOM
    HIT LOCATION's table or 001 Hit Location) and the weapon tables, each read once
    per ruleset object."""
    plain = get_ruleset("000")
    with_001 = get_ruleset("000", (LOCATIONS_001,))
    assert isinstance(plain, Seed000) and isinstance(with_001, Seed000)
    assert plain.hit_locations is plain.hit_location_table
    assert with_001.hit_locations is with_001.locations_001
    for table in ("blade_breaking", "weapon_integrity", "broken_weapons", "locations_001"):
        assert getattr(plain, table) is getattr(plain, table)


def test_001_breaking_a_weapon_judges_by_the_rulesets_integrity_table(
    catalog: Catalog,
) -> None:
    """001 Breaking a Weapon: the DR the blow meets is the one in the table the
    ruleset hands over, not one the rule reads for itself."""
    spear = catalog.weapon("long-spear")
    ruleset = Tables((LOCATIONS_001,))
    integrity = ruleset.weapon_integrity
    armoured = replace(integrity, dr=MappingProxyType({m: 100 for m in integrity.dr}))

    class ArmouredTables:
        blade_breaking = ruleset.blade_breaking
        weapon_integrity = armoured

    blow = (spear, spear, INTACT, 20, DamageType.CUTTING)
    usual = WEAPON_STRIKES_001.damage_struck_weapon(*blow, ruleset)
    dr = integrity.dr[integrity.material(spear)]
    assert usual.after.damage_taken == 20 - dr
    held = WEAPON_STRIKES_001.damage_struck_weapon(*blow, ArmouredTables())
    assert held.after.damage_taken == 0 and not held.broke


def test_the_000_table_wounds_by_the_rulesets_wounding_table() -> None:
    """Base rules (damage by ST, DR and wounding) under 000 RANDOM BODY HIT: a wound's
    multiplier is the damage type's in the ruleset's wounding table, which the
    ruleset hands to its hit location table."""
    ruleset = Tables()
    table = ruleset.hit_location_table
    assert table.base_multipliers == ruleset.wounding.multipliers
    victim = Victim(hp=12, ht=11)
    usual = table.assess_wound("abdomen", DamageType.CUTTING, 6, victim)
    doubled = replace(
        table,
        base_multipliers=MappingProxyType(
            {t: 2 * m for t, m in ruleset.wounding.multipliers.items()}
        ),
    ).assess_wound("abdomen", DamageType.CUTTING, 6, victim)
    assert doubled.injury > usual.injury
