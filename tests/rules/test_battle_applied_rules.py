"""Issue 11's weapon, stance and critical-hit rules as the battle applies them:
every test executes commands on a ``Battle`` and reads the resulting state and
events (broken weapons' reduced damage, note 13's shield PD, refused and open
stances, a 1/2-class disarm, the blunt end's Ready, pulled blows and shots at
weapons with missiles, critical hits).

Dice come from seeded battles found by searching (``first_battle``), never from
magic numbers."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from fractions import Fraction

import pytest

from hexmap import Facing, Hex, HexGrid
from rules.battle.battle import Battle
from rules.battle.catalog import Catalog
from rules.battle.commands import AddItem, Attack, DropItem, EndTurn, MoveCombatant, PickUpItem
from rules.battle.items import ItemDropped, ItemKind, ItemPickedUp
from rules.battle.model import Combatant, Posture, Weapon, WeaponKind
from rules.battle.state import BattleState, Command
from rules.core.citation import cite
from rules.core.errors import IllegalAttackError, IllegalCommandError
from rules.core.events import Event
from rules.core.modifiers import Modifier
from rules.sets.registry import get_ruleset
from rules.sets.seed000.attack import AttackOptions, SubdueMode, WeaponAttack
from rules.sets.seed000.attack_events import (
    AttackAdjusted,
    AttackOutcome,
    AttackResolved,
    AttackRolled,
    DamageDealt,
    DefenseRolled,
    DisarmContested,
    HitLocationRolled,
    WeaponBroke,
    WeaponStruck,
    WeaponUnreadied,
    WoundInflicted,
)
from rules.sets.seed000.attack_steps import attack_command
from rules.sets.seed000.breakage import BreakResult, break_weapon
from rules.sets.seed000.commands import ReverseWeapon, WeaponReversed
from rules.sets.seed000.defense import DefenseChoice
from rules.sets.seed000.defense_kinds import DefenseKind
from rules.sets.seed000.disarm import Hand
from rules.sets.seed000.sheet import InjuryTolerance, sheet_of
from rules.sets.seed000.tables import Tables
from rules.sets.seed000.wound_effects import RollKind
from tests.rules.battle_level import Make, of
from tests.rules.weapon_builder import build_weapon


def first_battle(
    state: BattleState,
    commands: Sequence[Command],
    want: Callable[[Battle, tuple[tuple[Event, ...], ...]], bool],
    limit: int = 3000,
) -> tuple[Battle, tuple[tuple[Event, ...], ...]]:
    """The first battle seed (0, 1, 2 ...) under which ``commands`` all execute and
    their event batches satisfy ``want``."""
    for seed in range(limit):
        battle = Battle(state, seed, get_ruleset)
        batches = tuple(battle.execute(command) for command in commands)
        if want(battle, batches):
            return battle, batches
    raise AssertionError(f"no seed below {limit} gives the wanted situation")


# --- 000 BROKEN WEAPONS: the reduced damage stays with the weapon ----------------------


def test_a_broken_sword_cuts_at_half_damage_in_hand_and_after_a_drop_and_pick_up(
    make: Make,
) -> None:
    a = make("flail-fighter", Hex(5, 5), Facing.S, id="a")
    d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d")
    state = BattleState(HexGrid(10, 10), (a, d))
    smash = Attack(
        "a",
        "d",
        AttackOptions(
            "morningstar", "swing", target_weapon_key="broadsword", weapon_attack=WeaponAttack.BREAK
        ),
    )

    def blade_broke(battle: Battle, batches: tuple[tuple[Event, ...], ...]) -> bool:
        broke = of(batches[0], WeaponBroke)
        return bool(broke) and broke[0].result.outcome == "broken_blade"

    battle, _ = first_battle(state, (smash,), blade_broke)
    broken_key = "broadsword:broken"
    held = battle.state.combatant("d").fighter.weapon(broken_key)
    assert held.mode("swing").damage.factor == Fraction(1, 2)
    cut = Attack("d", "a", AttackOptions(broken_key, "swing"))

    def halved_blow(events: tuple[Event, ...]) -> None:
        (dealt,) = of(events, DamageDealt)
        assert dealt.damage.basic == math.floor(dealt.damage.roll.total / 2)
        if dealt.damage.roll.total > 1:  # the log says so
            assert f"reduced to {dealt.damage.basic}" in dealt.describe()

    # In hand: every blow that lands does half its rolled damage.
    landed = [events for _ in range(20) if of(events := battle.execute(cut), DamageDealt)]
    assert len(landed) >= 3
    for events in landed:
        halved_blow(events)
    # Dropped, picked up again, and still half.
    dropped = battle.execute(DropItem("d", broken_key))
    (drop,) = of(dropped, ItemDropped)
    ground = battle.state.item(drop.item_id)
    assert ground.weapon is not None and ground.weapon.mode("swing").damage.factor == Fraction(1, 2)
    (picked,) = of(battle.execute(PickUpItem("d", drop.item_id)), ItemPickedUp)
    again = Attack("d", "a", AttackOptions(picked.key, "swing"))
    landed = [events for _ in range(20) if of(events := battle.execute(again), DamageDealt)]
    assert landed
    for events in landed:
        halved_blow(events)


def _broken(weapon: Weapon, outcome: str) -> BreakResult:
    """The first seeded break of ``weapon`` that gives ``outcome``."""
    tables = get_ruleset("000")
    assert isinstance(tables, Tables)
    for seed in range(500):
        result = break_weapon(weapon, random.Random(seed), table=tables.broken_weapons)
        if result.outcome == outcome:
            return result
    raise AssertionError(f"no seed gives {outcome} for {weapon.name}")


def test_a_shorter_flail_and_a_chain_piece_picked_up_do_half_damage(
    make: Make, catalog: Catalog
) -> None:
    kusari = build_weapon(WeaponKind.CHAIN, "Kusari", 5, ("swing", "sw+2 cr", "1-4"), skill="Flail")
    shorter = _broken(catalog.weapon("morningstar"), "shorter_flail").weapon_in_hand
    (head_end,) = _broken(kusari, "middle").pieces
    for piece in (shorter, head_end.weapon):
        assert piece is not None
        a = make("flail-fighter", Hex(5, 5), Facing.S, id="a", weapons=())
        d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d")
        landed = 0
        for seed in range(40):  # on the ground, picked up, one swing (1/3 class: then unready)
            battle = Battle(BattleState(HexGrid(10, 10), (a, d)), seed, get_ruleset)
            battle.execute(AddItem(Hex(5, 5), piece.name, ItemKind.PIECE, weapon=piece))
            (picked,) = of(battle.execute(PickUpItem("a", battle.state.items[-1].id)), ItemPickedUp)
            events = battle.execute(Attack("a", "d", AttackOptions(picked.key, "swing")))
            for dealt in of(events, DamageDealt):
                assert dealt.damage.basic == math.floor(dealt.damage.roll.total / 2), piece.name
                landed += 1
        assert landed >= 3, piece.name


# --- 000 RANDOM BODY HIT note 13: the shield's PD twice ---------------------------------


def _rolled(events: tuple[Event, ...]) -> AttackRolled:
    (rolled,) = of(events, AttackRolled)
    return rolled


def _note_13(rolled: AttackRolled) -> list[Modifier]:
    return [m for m in rolled.modifiers if m.citation == cite("000", "RANDOM BODY HIT note 13")]


def test_note_13_doubles_the_shield_pd_against_swings_at_the_chest_and_always_at_the_shield_arm(
    make: Make,
) -> None:
    a = make("sword-and-shield", Hex(5, 5), Facing.S, id="a")
    d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d")  # medium shield, PD 3
    battle = Battle(BattleState(HexGrid(10, 10), (a, d)), 1, get_ruleset)

    def attack(mode: str, location: str | None) -> AttackRolled:
        return _rolled(
            battle.execute(Attack("a", "d", AttackOptions("broadsword", mode, location)))
        )

    plain_swing, plain_thrust = attack("swing", None), attack("thrust", None)
    swung_chest = attack("swing", "chest")
    thrust_chest = attack("thrust", "chest")
    thrust_arm = attack("thrust", "far_arm")
    assert not _note_13(plain_swing) and not _note_13(thrust_chest)
    assert [m.value for m in _note_13(swung_chest)] == [-3]
    assert [m.value for m in _note_13(thrust_arm)] == [-3]
    chest_penalty = -1
    assert swung_chest.effective_skill == plain_swing.effective_skill + chest_penalty - 3
    assert thrust_chest.effective_skill == plain_thrust.effective_skill + chest_penalty
    # From the weapon side the shield gives no PD at all, so nothing to double.
    flank = make("sword-and-shield", Hex(6, 6), Facing.NW, id="a")
    side_battle = Battle(BattleState(HexGrid(10, 10), (flank, d)), 1, get_ruleset)
    events = side_battle.execute(Attack("a", "d", AttackOptions("broadsword", "swing", "chest")))
    assert not _note_13(_rolled(events))


# --- 000 REFUSED VS. OPEN STANCES ---------------------------------------------------------


def _stance_note(events: tuple[Event, ...]) -> str:
    (note,) = [e.text for e in of(events, AttackAdjusted) if "stands" in e.text]
    return note


def _note_9(rolled: AttackRolled) -> list[Modifier]:
    return [m for m in rolled.modifiers if m.citation == cite("000", "RANDOM BODY HIT note 9")]


def test_the_stance_decides_the_far_limb_penalty(make: Make, catalog: Catalog) -> None:
    a = make("spearman", Hex(5, 5), Facing.S, id="a")
    refused = make("sword-and-shield", Hex(5, 6), Facing.N, id="d")  # weapon and shield
    axe = catalog.weapon("axe")
    open_axe = make("sword-and-shield", Hex(5, 6), Facing.N, id="d", weapons=(axe,), shield=None)
    lone_sword = make("sword-and-shield", Hex(5, 6), Facing.N, id="d", shield=None)
    aim = Attack("a", "d", AttackOptions("long-spear", "thrust", "far_arm"))

    def aimed(defender: Combatant) -> tuple[tuple[Event, ...], AttackRolled]:
        battle = Battle(BattleState(HexGrid(10, 10), (a, defender)), 1, get_ruleset)
        events = battle.execute(aim)
        return events, _rolled(events)

    events, rolled = aimed(refused)
    assert "stands refused (weapon and shield)" in _stance_note(events)
    assert [m.value for m in _note_9(rolled)] == [-2]  # far arm -4, not the bracketed -2
    events, rolled = aimed(lone_sword)
    assert "stands refused (sword without shield)" in _stance_note(events)
    assert [m.value for m in _note_9(rolled)] == [-2]
    events, rolled = aimed(open_axe)
    assert "stands open (axe/mace fighting)" in _stance_note(events)
    assert _note_9(rolled) == []  # the bracketed -2, as for the near arm
    # Walking (more than a step this turn) is always open.
    start = Hex(5, 6) + Facing.S.vector + Facing.S.vector
    walker = replace(lone_sword, hex=start)
    battle = Battle(BattleState(HexGrid(16, 16), (a, walker)), 1, get_ruleset)
    battle.execute(MoveCombatant("d", Hex(5, 6)))
    events = battle.execute(aim)
    assert "stands open (walking or running)" in _stance_note(events)
    assert _note_9(_rolled(events)) == []


def test_the_stance_decides_whether_a_random_limb_hit_rolls_its_side(
    make: Make, catalog: Catalog
) -> None:
    a = make("spearman", Hex(5, 5), Facing.S, id="a", skills={"Spear": 30})
    refused = make("sword-and-shield", Hex(5, 6), Facing.N, id="d")
    open_axe = make(
        "sword-and-shield",
        Hex(5, 6),
        Facing.N,
        id="d",
        weapons=(catalog.weapon("axe"),),
        shield=None,
    )
    swing = Attack("a", "d", AttackOptions("long-spear", "thrust", random_location=True))

    def far_arm_sides(defender: Combatant) -> set[str]:
        sides: set[str] = set()
        for seed in range(400):
            battle = Battle(BattleState(HexGrid(10, 10), (a, defender)), seed, get_ruleset)
            for rolled in of(battle.execute(swing), HitLocationRolled):
                if rolled.roll.location == "far_arm" and rolled.roll.side is not None:
                    sides.add(rolled.roll.side.value)
        return sides

    assert far_arm_sides(refused) == {"left"}  # the shield side of a right-handed fighter
    assert far_arm_sides(open_axe) == {"left", "right"}  # no side nearer: a die picks


# --- point 11: the smaller rules ----------------------------------------------------------


def test_a_000_disarm_with_a_half_skill_weapon_leaves_it_unready(
    make: Make, catalog: Catalog
) -> None:
    axe, sword = catalog.weapon("axe"), catalog.weapon("broadsword")
    d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d")
    for weapon, unready in ((axe, True), (sword, False)):  # 1/2 class; 2/3 class
        a = make(
            "sword-and-shield",
            Hex(5, 5),
            Facing.S,
            id="a",
            weapons=(weapon,),
            skills={weapon.skill: 14},
        )
        disarm = Attack(
            "a",
            "d",
            AttackOptions(
                weapon.key,
                "swing",
                target_weapon_key="broadsword",
                weapon_attack=WeaponAttack.DISARM,
            ),
        )

        def kept_his_weapon(battle: Battle, batches: tuple[tuple[Event, ...], ...]) -> bool:
            (contest,) = of(batches[0], DisarmContested)
            return contest.result.disarmed is not Hand.ATTACKER

        battle, (events,) = first_battle(
            BattleState(HexGrid(10, 10), (a, d)), (disarm,), kept_his_weapon
        )
        after = battle.state.combatant("a")
        assert (weapon.key in after.unready) is unready, weapon.key
        assert bool(of(events, WeaponUnreadied)) is unready, weapon.key


def test_a_failed_001_knockdown_roll_and_its_head_trigger(make: Make) -> None:
    a = make("spearman", Hex(5, 5), Facing.S, id="a", skills={"Spear": 30})
    # 20 HP: a skull hit of 8 (2 through, x4) is over HP/3 and no major wound
    plain = make("sword-and-shield", Hex(5, 6), Facing.N, id="d", hit_points=20)
    brainless = make(
        "sword-and-shield",
        Hex(5, 6),
        Facing.N,
        id="d",
        hit_points=10,  # no x4 at the skull: 2 through, x2 = 4, over HP/3
        injury_tolerance=frozenset({InjuryTolerance.NO_BRAIN}),
    )
    at_skull = Attack("a", "d", AttackOptions("long-spear", "thrust", location="skull"))

    def skull_wound(
        defender: Combatant, extra: Callable[[WoundInflicted], bool]
    ) -> tuple[Battle, WoundInflicted]:
        def wanted(battle: Battle, batches: tuple[tuple[Event, ...], ...]) -> bool:
            wounds = of(batches[0], WoundInflicted)
            hp = defender.fighter.hit_points
            return (
                bool(wounds) and hp / 3 < wounds[0].assessment.injury <= hp / 2 and extra(wounds[0])
            )

        battle, (events,) = first_battle(
            BattleState(HexGrid(10, 10), (a, defender), ruleset_options=("locations-001",)),
            (at_skull,),
            wanted,
        )
        (wound,) = of(events, WoundInflicted)
        return battle, wound

    def knockdown_failed(w: WoundInflicted) -> bool:
        return any(o.roll.kind is RollKind.KNOCKDOWN and o.failed for o in w.outcomes)

    # Over HP/3 at the skull (no major wound): the base rules' head trigger, at -10.
    battle, wound = skull_wound(plain, knockdown_failed)
    assert any(r.kind is RollKind.KNOCKDOWN for r in wound.assessment.rolls)
    assert "knocked down" in {c.value for c in wound.wound.conditions}
    assert battle.state.combatant("d").posture is Posture.PRONE  # down at once
    # 001 No Brain: skull hits get no extra knockdown, so no roll under HP/2.
    _, wound = skull_wound(brainless, lambda w: True)
    assert not any(r.kind is RollKind.KNOCKDOWN for r in wound.assessment.rolls)


def test_pulled_blows_and_shots_at_weapons_with_missiles_and_thrown_weapons(
    make: Make, catalog: Catalog
) -> None:
    sling, knife = catalog.weapon("sling"), catalog.weapon("knife")
    a = make(
        "sword-and-shield",
        Hex(5, 3),
        Facing.S,
        id="a",
        weapons=(sling, knife),
        shield=None,  # a hand for each
        skills={"Sling": 30, "Knife": 30},
    )
    d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d")
    state = BattleState(HexGrid(10, 10), (a, d))
    tables = get_ruleset("000")
    assert isinstance(tables, Tables)
    for key, mode in (("sling", "shoot"), ("knife", "throw")):
        pulled = AttackOptions(key, mode, subdue=SubdueMode.PULLED, pulled_st=5)
        events = Battle(state, 1, get_ruleset).execute(Attack("a", "d", pulled))
        assert any("pulled blow at ST 5" in e.text for e in of(events, AttackAdjusted)), key
        dealt = of(events, DamageDealt)
        spec = a.fighter.weapon(key).mode(mode).damage
        assert not dealt or dealt[0].damage.dice == tables.weapon_damage(spec, 5), key
        shot = AttackOptions(
            key, mode, target_weapon_key="broadsword", weapon_attack=WeaponAttack.BREAK
        )
        _, (events,) = first_battle(
            state, (Attack("a", "d", shot),), lambda b, e: bool(of(e[0], WeaponStruck))
        )
        assert of(events, WeaponStruck)[0].weapon_name == "Broadsword", key
    # The blows in hand stay in hand.
    flat = AttackOptions("sling", "shoot", subdue=SubdueMode.FLAT)
    with pytest.raises(IllegalAttackError, match="blows in hand"):
        Battle(state, 1, get_ruleset).execute(Attack("a", "d", flat))


def test_a_pulled_blow_is_wielded_at_the_fighters_own_st(make: Make) -> None:
    # 001 Subduing a Foe: any ST below your own. The weapon's minimum ST (000
    # ADVERSE COMBAT CONDITIONS: -1 a point short) is met by the fighter's real ST.
    d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d")
    attributes = sheet_of(d).attributes

    def attack_roll(st: int, pulled: int | None) -> AttackRolled:
        own_st = replace(attributes, st=st)
        a = make("sword-and-shield", Hex(5, 5), Facing.S, id="a", attributes=own_st)
        options = AttackOptions(
            "broadsword",
            "swing",
            subdue=None if pulled is None else SubdueMode.PULLED,
            pulled_st=pulled,
        )
        battle = Battle(BattleState(HexGrid(10, 10), (a, d)), 1, get_ruleset)
        (rolled,) = of(battle.execute(Attack("a", "d", options)), AttackRolled)
        return rolled

    broadsword_min_st = d.fighter.weapon("broadsword").min_st
    assert 8 < broadsword_min_st <= 12  # a ST 12 fighter meets it, a ST 8 one does not
    strong, pulled = attack_roll(12, None), attack_roll(12, 5)
    assert not [m for m in pulled.modifiers if "minimum ST" in m.reason]
    assert pulled.effective_skill == strong.effective_skill
    weak, weak_pulled = attack_roll(8, None), attack_roll(8, 5)
    (short,) = [m for m in weak_pulled.modifiers if "minimum ST" in m.reason]
    assert short.value == 8 - broadsword_min_st  # the real ST's shortfall, not 5's
    assert weak_pulled.effective_skill == weak.effective_skill


# --- critical hits (base rules; seed 000 names only the defense criticals) ---------------


def test_a_critical_hit_allows_no_defense_and_does_normal_damage(make: Make) -> None:
    a = make("sword-and-shield", Hex(5, 5), Facing.S, id="a")
    d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d")
    blow = attack_command(
        "a", "d", AttackOptions("broadsword", "swing", defenses=(DefenseChoice(DefenseKind.DODGE),))
    )

    def critical(battle: Battle, batches: tuple[tuple[Event, ...], ...]) -> bool:
        return any(e.outcome is AttackOutcome.CRITICAL_HIT for e in of(batches[0], AttackResolved))

    battle, (events,) = first_battle(BattleState(HexGrid(10, 10), (a, d)), (blow,), critical)
    assert _rolled(events).roll.total in (3, 4)  # skill 14: only 3 and 4 are critical
    assert not of(events, DefenseRolled)  # the announced dodge is never rolled
    (dealt,) = of(events, DamageDealt)
    assert dealt.damage.basic == dealt.damage.roll.total  # the damage as rolled
    # No table roll: the command's dice are the attack's 3 and the damage dice only.
    assert len(battle.dice_log[-1]) == 3 + dealt.damage.dice.count
    (resolved,) = of(events, AttackResolved)
    # The log's outcome line tells the whole rule, not only the pane's tooltip.
    told = resolved.describe()
    assert "Critical hit" in told and "no defense allowed" in told
    assert "normal damage" in told and "critical hit table is not rolled" in told


def test_the_blunt_end_of_a_long_weapon_needs_a_ready_to_turn_it(make: Make) -> None:
    a = make("spearman", Hex(5, 5), Facing.S, id="a")  # long spear: reach 1-2
    d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d")
    battle = Battle(BattleState(HexGrid(10, 10), (a, d)), 1, get_ruleset)
    blunt = Attack("a", "d", AttackOptions("long-spear", "thrust", subdue=SubdueMode.BLUNT_END))
    point = Attack("a", "d", AttackOptions("long-spear", "thrust"))
    with pytest.raises(IllegalAttackError, match="turned end for end"):
        battle.execute(blunt)
    (turned,) = of(battle.execute(ReverseWeapon("a", "long-spear")), WeaponReversed)
    assert turned.butt_first and "blunt end forward" in turned.describe()
    assert battle.state.combatant("a").ready_used  # it was the turn's Ready
    assert of(battle.execute(blunt), AttackRolled)
    with pytest.raises(IllegalAttackError, match="held butt first"):
        battle.execute(point)
    with pytest.raises(IllegalCommandError, match="already taken a Ready"):
        battle.execute(ReverseWeapon("a", "long-spear"))  # one Ready a turn
    battle.execute(EndTurn())
    (back,) = of(battle.execute(ReverseWeapon("a", "long-spear")), WeaponReversed)
    assert not back.butt_first
    assert of(battle.execute(point), AttackRolled)


def test_a_reach_one_spear_strikes_with_its_butt_without_turning(
    make: Make, catalog: Catalog
) -> None:
    a = make("spearman", Hex(5, 5), Facing.S, id="a", weapons=(catalog.weapon("spear"),))
    d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d")
    battle = Battle(BattleState(HexGrid(10, 10), (a, d)), 1, get_ruleset)
    blunt = Attack("a", "d", AttackOptions("spear", "thrust", subdue=SubdueMode.BLUNT_END))
    assert of(battle.execute(blunt), AttackRolled)
    with pytest.raises(IllegalCommandError, match="reach 2 or more"):
        battle.execute(ReverseWeapon("a", "spear"))
