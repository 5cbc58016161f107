"""The battlefield in the battle model: items on the map (drop, pick up, ready,
GM edits), pieces placed from attack results, replay, and striking at weapons."""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction

import pytest

from hexmap import Facing, Hex, HexGrid, Reach, weapon_hexes
from rules.battle.battle import (
    Battle,
    command_rng,
    drop_from_hand,
    place_launched_pieces,
    place_pieces,
    source_weapon_of,
    weapon_positions,
)
from rules.battle.catalog import load_catalog
from rules.battle.command_events import PostureChanged
from rules.battle.commands import (
    AddItem,
    ApplyMapEffects,
    Attack,
    DropItem,
    EndTurn,
    MoveCombatant,
    PaintTerrain,
    PickUpItem,
    PlaceItem,
    ReadyWeapon,
    SetPosture,
    TurnCombatant,
)
from rules.battle.items import (
    Falls,
    ItemDropped,
    ItemKind,
    ItemPickedUp,
    LeftHand,
    Readied,
    ShieldLeavesHand,
    WeaponLeavesHand,
    item_from_weapon,
)
from rules.battle.model import ActionKind, TurnAction, WeaponMode
from rules.battle.pieces import AT_FEET, Piece, flies
from rules.battle.scatter import PieceLanded
from rules.battle.state import BattleState, LaunchedPiece
from rules.battle.terrain import Footing, TerrainChange
from rules.core.errors import IllegalCommandError
from rules.sets.registry import get_ruleset, ruleset_of
from rules.sets.seed000.attack import AttackOptions
from rules.sets.seed000.attack_steps import attack_command
from rules.sets.seed000.breakage import break_weapon
from rules.sets.seed000.conditions import Posture
from rules.sets.seed000.defense import DefenseChoice
from rules.sets.seed000.defense_kinds import DefenseKind
from rules.sets.seed000.stray_hits import StrayHitChecked, StrayHitDamaged
from rules.sets.seed000.tables import Tables
from rules.sets.seed000.weapon_strikes import (
    KNOCKED_AWAY,
    ONE_HEX_RANDOM,
    WEAPON_STRIKES_000,
    WEAPON_STRIKES_001,
)
from rules.sets.seed000.weapon_targets import can_strike_at_weapon

CATALOG = load_catalog()
GRID = HexGrid(16, 16)
RULES = get_ruleset()  # the battles' ruleset: seed 000
TABLES = Tables()  # its tables, for the rules called directly
HOME = Hex.from_offset(8, 8)


def two(make, a_template="sword-and-shield", d_template="flail-fighter", gap=1) -> BattleState:
    """``a`` at HOME facing N; ``d`` ``gap`` hexes north of it, facing S."""
    a = make(a_template, HOME, Facing.N, id="a")
    d = make(d_template, HOME + Facing.N.vector.scale(gap), Facing.S, id="d")
    return BattleState(GRID, (a, d))


# ------------------------------------------------------------ drop & pick up


def test_drop_in_the_own_hex_by_default(make):
    battle = Battle(two(make), 1, get_ruleset)
    events = battle.execute(DropItem("a", "broadsword"))
    state = battle.state
    assert [i.id for i in state.items] == ["item-1"] and state.next_item == 2
    item = state.item("item-1")
    assert item.hex == HOME and item.kind is ItemKind.WEAPON and item.weapon.key == "broadsword"
    assert item.origin_id == "a" and item.icon == "weapon:sword"
    assert not any(w.key == "broadsword" for w in state.combatant("a").fighter.weapons)
    assert isinstance(events[0], ItemDropped) and events[0].involved_hexes() == (HOME,)
    assert state.items_at(HOME) == (item,)
    # an attack with the dropped sword is refused
    with pytest.raises(ValueError):
        battle.execute(Attack("a", "d", AttackOptions("broadsword", "swing")))


def test_drop_into_a_hex_passed_through(make):
    battle = Battle(two(make, gap=3), 1, get_ruleset)
    battle.execute(MoveCombatant("a", HOME + Facing.SE.vector.scale(2)))
    battle.execute(DropItem("a", "broadsword", to_hex=HOME + Facing.N.vector))  # next to start
    assert battle.state.item("item-1").hex == HOME + Facing.N.vector
    with pytest.raises(IllegalCommandError):
        battle.execute(DropItem("a", "medium-shield", to_hex=HOME + Facing.N.vector.scale(3)))


def test_drop_picked_by_the_dice_is_one_of_the_candidates_and_replays(make, scripted):
    state = two(make)
    cmd = DropItem("a", "medium-shield", random_hex=True)
    result = cmd.apply(state, scripted([1]), get_ruleset())
    assert result.state.item("item-1").hex == HOME  # candidate 1 is the own hex
    assert result.state.item("item-1").kind is ItemKind.SHIELD
    assert result.state.combatant("a").fighter.shield is None
    assert result.events[0].picked_by_dice
    battle = Battle(state, 5, get_ruleset)
    battle.execute(cmd)
    assert Battle.replay(state, 5, battle.commands, rulesets=get_ruleset).state == battle.state


def test_pick_up_is_a_ready_maneuver(make):
    battle = Battle(two(make), 1, get_ruleset)
    battle.execute(DropItem("a", "broadsword"))
    battle.execute(DropItem("a", "medium-shield"))
    events = battle.execute(PickUpItem("a", "item-1"))
    assert isinstance(events[0], ItemPickedUp) and events[0].key == "broadsword"
    a = battle.state.combatant("a")
    assert a.ready_used and "broadsword" not in a.unready
    assert [i.id for i in battle.state.items] == ["item-2"]
    with pytest.raises(IllegalCommandError):  # one Ready per turn
        battle.execute(PickUpItem("a", "item-2"))
    battle.execute(PickUpItem("a", "item-2", gm_override=True))
    assert battle.state.combatant("a").fighter.shield is not None
    battle.execute(EndTurn())
    assert not battle.state.combatant("a").ready_used


def test_pick_up_reach_and_usefulness(make):
    state = two(make, gap=3)
    junk_far = AddItem(HOME + Facing.S.vector.scale(2), "rest of a flail", ItemKind.PIECE)
    sword_near = AddItem(HOME + Facing.SW.vector, "Knife", ItemKind.WEAPON, CATALOG.weapon("knife"))
    junk_here = AddItem(HOME, "stump", ItemKind.PIECE)
    battle = Battle(state, 1, get_ruleset)
    for cmd in (junk_far, sword_near, junk_here):
        battle.execute(cmd)
    with pytest.raises(IllegalCommandError):
        battle.execute(PickUpItem("a", "item-1"))  # two hexes away
    with pytest.raises(IllegalCommandError):
        battle.execute(PickUpItem("a", "item-3"))  # useless
    with pytest.raises(IllegalCommandError, match="needs a free hand"):
        battle.execute(PickUpItem("a", "item-2"))  # sword and shield fill both hands
    battle.execute(DropItem("a", "broadsword"))
    battle.execute(PickUpItem("a", "item-2"))  # adjacent
    assert battle.state.combatant("a").fighter.weapon("knife").name == "Knife"
    with pytest.raises(IllegalCommandError):
        battle.execute(PickUpItem("a", "item-9"))


def test_the_unconscious_cannot_pick_up(make):
    state = two(make)
    a = replace(state.combatant("a"), status=state.combatant("a").status.UNCONSCIOUS)
    state = state.with_combatants(a)
    battle = Battle(state, 1, get_ruleset)
    battle.execute(AddItem(HOME, "Knife", ItemKind.WEAPON, CATALOG.weapon("knife")))
    with pytest.raises(IllegalCommandError):
        battle.execute(PickUpItem("a", "item-1"))


def test_ready_weapon_and_shield(make):
    state = two(make)
    a = state.combatant("a")
    state = state.with_combatants(replace(a, unready=frozenset({"broadsword"}), shield_ready=False))
    battle = Battle(state, 1, get_ruleset)
    events = battle.execute(ReadyWeapon("a", "broadsword"))
    assert isinstance(events[0], Readied) and "Broadsword" in events[0].describe()
    assert "broadsword" not in battle.state.combatant("a").unready
    with pytest.raises(IllegalCommandError):
        battle.execute(ReadyWeapon("a", "medium-shield"))  # second Ready this turn
    battle.execute(EndTurn())
    battle.execute(ReadyWeapon("a", "medium-shield"))
    assert battle.state.combatant("a").shield_ready
    with pytest.raises(IllegalCommandError):
        battle.execute(ReadyWeapon("a", "broadsword", gm_override=True))  # already ready
    with pytest.raises(IllegalCommandError):
        battle.execute(ReadyWeapon("a", "halberd", gm_override=True))


def test_gm_places_moves_and_removes_items(make):
    battle = Battle(two(make), 1, get_ruleset)
    battle.execute(AddItem(HOME, "Knife", ItemKind.WEAPON, CATALOG.weapon("knife"), note="x"))
    assert battle.state.item("item-1").icon == "weapon:knife"
    battle.execute(PlaceItem("item-1", Hex(1, 1)))
    assert battle.state.item("item-1").hex == Hex(1, 1)
    assert battle.execute(PlaceItem("item-1", Hex(1, 1))) == ()
    with pytest.raises(IllegalCommandError):
        battle.execute(PlaceItem("item-1", Hex(60, 0)))
    with pytest.raises(IllegalCommandError):
        battle.execute(AddItem(Hex(60, 0), "Knife", ItemKind.WEAPON, CATALOG.weapon("knife")))
    battle.execute(PlaceItem("item-1", None))
    assert battle.state.items == () and battle.state.next_item == 2


def test_item_ids_are_unique_in_a_state(make):
    state = two(make)
    item = item_from_weapon(CATALOG.weapon("knife"), "item-1", HOME)
    with pytest.raises(IllegalCommandError):
        replace(state, items=(item, item))
    with pytest.raises(IllegalCommandError):
        state.with_new_item(replace(item, id="item-5"))


# --------------------------------------------------------- pieces to the map


def flail_head() -> Piece:
    return Piece("head of Morningstar", None, flies("2d6"), stray_hit_factor=Fraction(1, 2))


def test_a_flail_head_flies_and_hits_someone(make, scripted):
    """The flail fighter ``d`` (ST 13, 2d+2 swing) loses the head of the flail; it
    flies 2d6 = 6 south, meets ``a`` one hex away, hits on 3d6 = 6 and drops there."""
    state = two(make)
    a_before = state.combatant("a")
    dice = scripted([2, 4, 4, 1, 2, 3, 5, 5])  # 2d6=6, die 4 = S, 3d6=6 hit, 2d+2 = 12
    after, events = place_pieces(state, (flail_head(),), "d", dice, RULES)
    assert dice.unused == 0
    item = after.item("item-1")
    assert item.hex == HOME and item.kind is ItemKind.PIECE and item.origin_id == "d"
    kinds = [type(e) for e in events]
    assert kinds[:3] == [StrayHitChecked, PieceLanded, StrayHitDamaged]
    hit = events[2]
    assert isinstance(hit, StrayHitDamaged)
    assert hit.damage.roll.total == 12 and hit.damage.basic == 6  # half damage
    armor_dr = a_before.fighter.armor.dr if a_before.fighter.armor else 0
    assert after.combatant("a").hp == a_before.hp - max(0, 6 - armor_dr)
    assert hit.involved_hexes() == (HOME,)


def test_source_weapon_is_found_by_name(make):
    d = make("flail-fighter", HOME, Facing.N)
    assert source_weapon_of(flail_head(), d).key == "morningstar"
    assert source_weapon_of(Piece("rock", None, AT_FEET), d) is None
    sword = CATALOG.weapon("broadsword")
    assert source_weapon_of(Piece(sword.name, sword, AT_FEET), d) == sword


def test_real_broken_flails_land_on_the_map(make):
    for seed in range(30):
        state = two(make)
        rng = random.Random(seed)
        result = break_weapon(CATALOG.weapon("morningstar"), rng, table=TABLES.broken_weapons)
        after, events = place_pieces(state, result.pieces, "d", rng, RULES)
        assert len(after.items) == len(result.pieces)
        assert all(i.hex in GRID for i in after.items)
        assert sum(isinstance(e, PieceLanded) for e in events) == len(result.pieces)


def test_in_hand_pieces_are_not_placed(make):
    state = two(make)
    result = break_weapon(
        CATALOG.weapon("broadsword"), random.Random(3), table=TABLES.broken_weapons
    )
    pieces = (*result.pieces, *(() if result.in_hand is None else (result.in_hand,)))
    after, _ = place_pieces(state, pieces, "a", random.Random(1), RULES)
    assert len(after.items) == len(result.pieces)


def test_drop_from_hand_at_the_feet(make):
    state = two(make)
    after, events = drop_from_hand(state, "a", "medium-shield", random.Random(1), RULES)
    assert isinstance(events[0], LeftHand)
    item = after.item("item-1")
    assert item.kind is ItemKind.SHIELD and item.hex == HOME and item.icon == "shield:medium"
    assert after.combatant("a").fighter.shield is None
    after, _ = drop_from_hand(
        after, "a", "broadsword", random.Random(1), RULES, reason="crippled hand"
    )
    assert after.item("item-2").hex == HOME


def test_drop_from_hand_knocked_away(make, scripted):
    state = two(make, gap=3)
    after, events = drop_from_hand(
        state, "a", "broadsword", scripted([3, 2]), RULES, placement=KNOCKED_AWAY
    )
    assert after.item("item-1").hex == HOME + Facing.NE.vector.scale(2)
    landed = [e for e in events if isinstance(e, PieceLanded)]
    assert landed[0].landing.direction is Facing.NE


def test_map_effects(make, scripted):
    state = two(make, gap=3)
    effects = (
        WeaponLeavesHand("d", "morningstar", (flail_head(),)),
        ShieldLeavesHand("a"),
        Falls("a", Posture.SITTING),
    )
    battle = Battle(state, 2, get_ruleset)
    events = battle.execute(ApplyMapEffects(effects))
    after = battle.state
    assert not after.combatant("d").fighter.weapons
    assert after.combatant("a").fighter.shield is None
    assert after.combatant("a").posture is Posture.SITTING
    kinds = {i.kind for i in after.items}
    assert kinds == {ItemKind.PIECE, ItemKind.SHIELD}
    assert any(isinstance(e, PostureChanged) and e.fell for e in events)
    assert Battle.replay(state, 2, battle.commands, rulesets=get_ruleset).state == after


def test_a_remnant_stays_in_hand(make):
    state = two(make)
    remnant = replace(CATALOG.weapon("club"), key="morningstar:broken", name="baton")
    effect = WeaponLeavesHand(
        "d", "morningstar", (flail_head(),), in_hand=Piece("baton", remnant, AT_FEET)
    )
    battle = Battle(state, 4, get_ruleset)
    events = battle.execute(ApplyMapEffects((effect,)))
    assert [w.key for w in battle.state.combatant("d").fighter.weapons] == ["morningstar:broken"]
    assert "baton stays in hand" in events[0].describe()


def test_attack_pieces_are_placed_and_leave_the_hand(make, scripted):
    state = two(make, gap=3)
    sword = CATALOG.weapon("broadsword")
    knocked = Piece(sword.name, sword, ONE_HEX_RANDOM)
    shield = state.combatant("a").fighter.shield
    dropped = Piece(shield.name, None, AT_FEET, note="a dropped shield")
    launched = (LaunchedPiece(knocked, "a"), LaunchedPiece(dropped, "a"))
    after, events = place_launched_pieces(state, state, launched, scripted([2]), RULES)  # NE
    a = after.combatant("a")
    assert not any(w.key == "broadsword" for w in a.fighter.weapons) and a.fighter.shield is None
    assert after.item("item-1").hex == HOME + Facing.NE.vector
    assert after.item("item-2").kind is ItemKind.SHIELD and after.item("item-2").hex == HOME
    assert sum(isinstance(e, PieceLanded) for e in events) == 2


def test_replay_puts_every_item_back(make):
    """A whole log - moves, drops, dice-picked drops, flying pieces, pick-ups, terrain,
    posture - replays to an equal state, items in the same hexes."""
    state = two(make, gap=4)
    commands = [
        MoveCombatant("a", HOME + Facing.NW.vector),
        DropItem("a", "medium-shield", random_hex=True),
        ApplyMapEffects((WeaponLeavesHand("d", "morningstar", (flail_head(),)),)),
        PaintTerrain((HOME, HOME + Facing.N.vector), TerrainChange(footing=Footing.BAD)),
        SetPosture("d", Posture.KNEELING),
        EndTurn(),
        DropItem("a", "broadsword", to_hex=HOME + Facing.NW.vector + Facing.N.vector),
        PickUpItem("a", "item-3"),
        TurnCombatant("a", Facing.S),
        ApplyMapEffects((ShieldLeavesHand("d", KNOCKED_AWAY),)),
    ]
    battle = Battle(state, 99, get_ruleset)
    for c in commands:
        battle.execute(c)
    assert len(battle.state.items) == 3
    replay = Battle.replay(state, 99, battle.commands, rulesets=get_ruleset)
    assert replay.state == battle.state
    assert [(i.id, i.hex) for i in replay.state.items] == [
        (i.id, i.hex) for i in battle.state.items
    ]
    assert replay.events == battle.events


def test_battle_change_flags(make):
    battle = Battle(two(make), 1, get_ruleset)
    seen = []
    battle.subscribe(seen.append)
    battle.execute(DropItem("a", "broadsword"))
    battle.execute(PaintTerrain((HOME,), TerrainChange(footing=Footing.BAD)))
    assert seen[0].items_changed and not seen[0].terrain_changed
    assert seen[1].terrain_changed and not seen[1].items_changed


# --------------------------------------------------------- turn records


def test_attacks_record_whom_they_were_aimed_at(make):
    state = two(make)
    options = AttackOptions("broadsword", "swing", defenses=(DefenseChoice(DefenseKind.BLOCK),))
    battle = Battle(state, 7, get_ruleset)
    battle.execute(attack_command("a", "d", options))
    a, d = battle.state.combatant("a"), battle.state.combatant("d")
    assert a.actions_this_turn[-1] == TurnAction(ActionKind.ATTACK, "broadsword", target_id="d")
    assert all(x.target_id == "a" for x in d.actions_this_turn)
    assert a.weapons_used_against("d") == {"broadsword"}
    resolution = ruleset_of(state).resolution(state, "a", "d", options, command_rng(7, 0))
    assert resolution.attacker_after == a  # the battle applies the resolution as it is
    battle.execute(EndTurn())
    a = battle.state.combatant("a")
    assert a.actions_this_turn == () and a.actions_last_turn[-1].target_id == "d"
    assert a.weapons_attacked_or_feinted_with("d", last_turn=True) == {"broadsword"}


def test_feints_are_neither_attacks_nor_defenses():
    assert not ActionKind.FEINT.is_defense
    assert ActionKind.PARRY.is_defense and not ActionKind.ATTACK.is_defense


# --------------------------------------------------- striking at weapons


def reach_c_knife():
    knife = CATALOG.weapon("knife")
    return replace(knife, key="dirk", name="Dirk", modes=(replace(knife.modes[1], name="stab"),))


def with_weapon(state: BattleState, cid: str, weapon) -> BattleState:
    """``cid`` with ``weapon`` alone in hand (a two-handed one takes the shield's
    arm too: rules.battle.hands)."""
    c = state.combatant(cid)
    shield = None if weapon.two_handed else c.fighter.shield
    fighter = replace(c.fighter, weapons=(weapon,), shield=shield)
    return state.with_combatants(replace(c, fighter=fighter))


def test_weapon_positions_follow_001(make):
    """Each weapon held alone (what is carried at the belt is nowhere to strike)."""
    d = make("sword-and-shield", HOME, Facing.S, shield=None)
    weapons = (
        reach_c_knife(),
        CATALOG.weapon("broadsword"),
        CATALOG.weapon("greatsword"),
        CATALOG.weapon("halberd"),
        CATALOG.weapon("fist"),
    )
    pos: dict[str, tuple[Hex, ...]] = {}
    for weapon in weapons:
        pos |= weapon_positions(replace(d, fighter=replace(d.fighter, weapons=(weapon,))))
    s = Facing.S.vector
    assert pos["dirk"] == (HOME,)
    assert pos["broadsword"] == (HOME, HOME + s)
    assert pos["greatsword"] == (HOME + s, HOME + s.scale(2))
    assert pos["halberd"] == (HOME + s, HOME + s.scale(2), HOME + s.scale(3))
    assert "fist" not in pos
    assert pos["halberd"] == weapon_hexes(HOME, Facing.S, Reach.of(1, 2, 3))
    # With all five on the sheet, the dirk and the broadsword fill the hands.
    every = weapon_positions(replace(d, fighter=replace(d.fighter, weapons=weapons)))
    assert set(every) == {"dirk", "broadsword"}


@pytest.mark.parametrize(
    ("key", "gap", "allowed"),
    [
        ("dirk", 1, True),  # reach C: in the wielder's hex, 1 away
        ("dirk", 2, False),
        ("broadsword", 2, True),  # reach 1: also the hex in front, 1 away
        ("broadsword", 3, False),
        ("greatsword", 3, True),  # reach 2: two hexes in front
        ("greatsword", 4, False),
        ("halberd", 4, True),  # reach 3: three hexes in front
        ("halberd", 5, False),
    ],
)
def test_strike_at_weapon_by_reach(make, key, gap, allowed):
    """The attacker's broadsword (reach 1) reaches the hexes 1 ahead of it; the
    defender faces it from ``gap`` hexes away."""
    weapon = reach_c_knife() if key == "dirk" else CATALOG.weapon(key)
    state = with_weapon(two(make, gap=gap), "d", weapon)
    ok, reason = can_strike_at_weapon(state, "a", "d", weapon.key, strikes=WEAPON_STRIKES_000)
    assert ok is allowed
    assert "000 STRIKING AT WEAPONS" in reason


def test_a_weapon_used_against_the_attacker_is_always_fair_game_000(make):
    state = with_weapon(two(make, gap=5), "d", CATALOG.weapon("broadsword"))
    assert not can_strike_at_weapon(state, "a", "d", "broadsword", strikes=WEAPON_STRIKES_000)[0]
    assert can_strike_at_weapon(
        state,
        "a",
        "d",
        "broadsword",
        used_against_attacker_this_turn=True,
        strikes=WEAPON_STRIKES_000,
    )[0]
    d = state.combatant("d")
    parried = replace(
        d, actions_this_turn=(TurnAction(ActionKind.PARRY, "broadsword", target_id="a"),)
    )
    state2 = state.with_combatants(parried)
    ok, reason = can_strike_at_weapon(state2, "a", "d", "broadsword", strikes=WEAPON_STRIKES_000)
    assert ok and "used against" in reason
    # ... not when it was used against somebody else, unless the GM says so
    other = replace(
        d, actions_this_turn=(TurnAction(ActionKind.ATTACK, "broadsword", target_id="z"),)
    )
    state3 = state.with_combatants(other)
    assert not can_strike_at_weapon(state3, "a", "d", "broadsword", strikes=WEAPON_STRIKES_000)[0]
    assert not can_strike_at_weapon(
        state2,
        "a",
        "d",
        "broadsword",
        used_against_attacker_this_turn=False,
        strikes=WEAPON_STRIKES_000,
    )[0]


def test_reach_2_weapons_after_attacking_001(make):
    halberd = CATALOG.weapon("halberd")
    state = with_weapon(two(make, gap=6), "d", halberd)
    d = state.combatant("d")
    feinted = replace(
        d, actions_last_turn=(TurnAction(ActionKind.FEINT, "halberd", target_id="a"),)
    )
    state = state.with_combatants(feinted)
    ok, reason = can_strike_at_weapon(state, "a", "d", "halberd", strikes=WEAPON_STRIKES_001)
    assert ok and "001" in reason
    # 000 knows no such rule; a reach 1 weapon gets no such pass under 001 either
    assert not can_strike_at_weapon(state, "a", "d", "halberd", strikes=WEAPON_STRIKES_000)[0]
    sword = with_weapon(state, "d", CATALOG.weapon("broadsword"))
    d = sword.combatant("d")
    sword = sword.with_combatants(
        replace(d, actions_last_turn=(TurnAction(ActionKind.ATTACK, "broadsword", target_id="a"),))
    )
    assert not can_strike_at_weapon(sword, "a", "d", "broadsword", strikes=WEAPON_STRIKES_001)[0]


def test_strike_at_weapon_with_a_chosen_weapon_and_bare_hands(make):
    state = with_weapon(two(make, gap=2), "d", CATALOG.weapon("broadsword"))
    assert can_strike_at_weapon(
        state, "a", "d", "broadsword", attacker_weapon_key="broadsword", strikes=WEAPON_STRIKES_000
    )[0]
    with pytest.raises(IllegalCommandError):
        can_strike_at_weapon(
            state, "a", "d", "broadsword", attacker_weapon_key="pike", strikes=WEAPON_STRIKES_000
        )
    with pytest.raises(IllegalCommandError):
        can_strike_at_weapon(state, "a", "d", "halberd", strikes=WEAPON_STRIKES_000)
    fists = with_weapon(state, "d", CATALOG.weapon("fist"))
    ok, reason = can_strike_at_weapon(fists, "a", "d", "fist", strikes=WEAPON_STRIKES_000)
    assert not ok and "hit location" in reason


def test_weapon_mode_reach_union_is_used(make):
    """A weapon with a reach 2 mode only is still found in two hexes."""
    spear = CATALOG.weapon("spear")
    long = replace(spear, modes=(WeaponMode("thrust", spear.modes[0].damage, Reach.of(2)),))
    state = with_weapon(two(make, gap=3), "d", long)
    assert can_strike_at_weapon(state, "a", "d", "spear", strikes=WEAPON_STRIKES_000)[0]


def test_a_disarm_through_the_attack_command_puts_the_weapon_on_the_map(make):
    """End to end: rules.sets.seed000.attack's resolution hands the disarmed weapon over as a
    piece; the Attack command places it with the same dice; a replay agrees."""
    from rules.sets.seed000.attack import WeaponAttack

    state = two(make, d_template="fencer")
    options = AttackOptions(
        "broadsword", "swing", target_weapon_key="rapier", weapon_attack=WeaponAttack.DISARM
    )
    placed = 0
    for seed in range(80):
        battle = Battle(state, seed, get_ruleset)
        battle.execute(Attack("a", "d", options))
        after = battle.state
        for item in after.items:
            placed += 1
            assert item.origin_id is not None and item.hex in GRID
            holder = after.combatant(item.origin_id)
            if item.weapon is not None and item.kind is ItemKind.WEAPON:
                assert all(w.key != item.weapon.key for w in holder.fighter.weapons)
        assert Battle.replay(state, seed, battle.commands, rulesets=get_ruleset).state == after
    assert placed > 0
