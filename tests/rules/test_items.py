"""rules.battle.items: ground items, hands, reach to items and where deliberate drops go."""

from __future__ import annotations

from dataclasses import replace

import pytest

from hexmap import Facing, Hex, HexGrid
from rules.battle.catalog import load_catalog
from rules.battle.items import (
    GroundItem,
    ItemDropped,
    ItemKind,
    ItemPlaced,
    drop_candidates,
    holds,
    icon_key,
    item_from_piece,
    item_from_shield,
    item_from_weapon,
    item_id,
    piece_kind,
    put_in_hand,
    take_from_hand,
    within_reach,
)
from rules.battle.model import WeaponDamageState
from rules.battle.pieces import AT_FEET, BROKEN_MARK, Piece
from rules.core.errors import IllegalCommandError
from rules.sets.seed000.weapon_strikes import KNOCKED_AWAY

CATALOG = load_catalog()
SWORD = CATALOG.weapon("broadsword")
BUCKLER = CATALOG.shield("buckler")
GRID = HexGrid(10, 10)
HOME = Hex.from_offset(5, 5)


def test_item_ids_count_up():
    assert [item_id(n) for n in (1, 2, 10)] == ["item-1", "item-2", "item-10"]


def test_ground_item_kinds_must_match_their_contents():
    GroundItem("i", "sword", ItemKind.WEAPON, SWORD, None, HOME, "weapon:sword")
    GroundItem("i", "junk", ItemKind.PIECE, None, None, HOME, "piece")
    with pytest.raises(IllegalCommandError):
        GroundItem("i", "sword", ItemKind.WEAPON, None, None, HOME, "x")
    with pytest.raises(IllegalCommandError):
        GroundItem("i", "shield", ItemKind.SHIELD, None, None, HOME, "x")
    with pytest.raises(IllegalCommandError):
        GroundItem("i", "odd", ItemKind.PIECE, None, BUCKLER, HOME, "x")
    with pytest.raises(IllegalCommandError):
        GroundItem("i", "odd", ItemKind.SHIELD, SWORD, BUCKLER, HOME, "x")


def test_icon_keys():
    assert icon_key(ItemKind.WEAPON, SWORD, None) == "weapon:sword"
    assert icon_key(ItemKind.SHIELD, None, BUCKLER) == "shield:buckler"
    assert icon_key(ItemKind.PIECE, None, None) == "piece"
    assert icon_key(ItemKind.PIECE, SWORD, None) == "piece:sword"


def test_whole_weapons_and_broken_pieces():
    assert piece_kind(Piece(SWORD.name, SWORD, KNOCKED_AWAY)) is ItemKind.WEAPON
    assert piece_kind(Piece("head", None, AT_FEET)) is ItemKind.PIECE
    broken = replace(SWORD, key=f"broadsword{BROKEN_MARK}")
    assert piece_kind(Piece("stump", broken, AT_FEET)) is ItemKind.PIECE
    item = item_from_piece(
        Piece("tip", broken, AT_FEET, note="n"),
        "item-3",
        HOME,
        "a",
    )
    assert item.kind is ItemKind.PIECE and item.icon == "piece:sword"
    assert item.weapon is broken and item.note == "n"
    assert item_from_weapon(SWORD, "item-1", HOME).kind is ItemKind.WEAPON
    assert item_from_shield(BUCKLER, "item-2", HOME, "a").usable


def test_take_and_put_back_a_weapon(make):
    c = make("sword-and-shield", HOME, Facing.N, id="a")
    state = WeaponDamageState(damage_taken=3)
    c = replace(c, unready=frozenset({"broadsword"}), weapon_states=(("broadsword", state),))
    empty, held = take_from_hand(c, "broadsword")
    assert held.weapon == SWORD and held.weapon_state == state and held.name == SWORD.name
    assert not holds(empty, "broadsword") and "broadsword" not in empty.unready
    assert empty.weapon_states == ()
    item = item_from_weapon(SWORD, "item-1", HOME, "a", held.weapon_state)
    back, key = put_in_hand(empty, item)
    assert key == "broadsword" and holds(back, "broadsword")
    assert "broadsword" not in back.unready  # picked up = readied
    assert back.weapon_state("broadsword") == state


def test_a_second_weapon_with_the_same_key_is_renamed(make):
    c = make("sword-and-shield", HOME, Facing.N, shield=None)  # a hand free for the second
    item = item_from_weapon(SWORD, "item-7", HOME)
    after, key = put_in_hand(c, item)
    assert key == "broadsword@item-7"
    assert [w.key for w in after.fighter.weapons] == ["broadsword", "broadsword@item-7"]


def test_shields_come_and_go(make):
    c = make("sword-and-shield", HOME, Facing.N)
    shield = c.fighter.shield
    assert shield is not None
    without, held = take_from_hand(replace(c, shield_ready=False), shield.key)
    assert held.shield == shield and without.fighter.shield is None and without.shield_ready
    with pytest.raises(IllegalCommandError):
        put_in_hand(c, item_from_shield(BUCKLER, "item-1", HOME, None))  # one shield only
    back, key = put_in_hand(without, item_from_shield(shield, "item-1", HOME, None))
    assert key == shield.key and back.fighter.shield == shield


def test_hands_refuse_what_is_not_there(make):
    c = make("fencer", HOME, Facing.N)
    with pytest.raises(IllegalCommandError):
        take_from_hand(c, "broadsword")
    fist = CATALOG.weapon("fist")
    boxer = replace(c, fighter=replace(c.fighter, weapons=(fist,)))
    with pytest.raises(IllegalCommandError):
        take_from_hand(boxer, "fist")
    with pytest.raises(IllegalCommandError):
        put_in_hand(c, GroundItem("i", "junk", ItemKind.PIECE, None, None, HOME, "piece"))


def test_reach_to_items(make):
    c = make("fencer", HOME, Facing.N)
    for where, ok in ((HOME, True), (HOME + Facing.S.vector, True), (HOME + Hex(0, 2), False)):
        item = item_from_weapon(SWORD, "item-1", where)
        assert within_reach(c, item) is ok


def test_drop_candidates_without_a_move_are_the_hex_and_its_neighbours(make):
    c = make("fencer", HOME, Facing.N)
    found = drop_candidates(c, GRID)
    assert found[0] == HOME
    assert set(found) == {HOME, *HOME.neighbors()}
    assert list(found[1:]) == sorted(found[1:])


def test_drop_candidates_follow_the_path_of_the_turn(make):
    start = Hex.from_offset(2, 5)
    path = (start, start + Facing.SE.vector, start + Facing.SE.vector.scale(2))
    c = replace(make("fencer", path[-1], Facing.SE), path_this_turn=path)
    found = set(drop_candidates(c, GRID))
    expected = set(path)
    for h in path:
        expected.update(h.neighbors())
    assert found == {h for h in expected if h in GRID}


def test_drop_candidates_stay_on_the_map(make):
    corner = Hex.from_offset(0, 0)
    found = drop_candidates(make("fencer", corner, Facing.N), GRID)
    assert all(h in GRID for h in found) and found[0] == corner
    assert len(found) == 3  # the corner, its neighbours S and SE


def test_item_event_texts():
    dropped = ItemDropped(
        combatant_id="a", name="Ann", item_id="item-1", item_name="Broadsword", hex=HOME
    )
    assert "Ann drops the Broadsword" in dropped.describe()
    assert dropped.involved_hexes() == (HOME,)
    moved = ItemPlaced(item_id="item-1", item_name="Axe", before=HOME, after=Hex(0, 0))
    assert "moves" in moved.describe() and moved.involved_hexes() == (HOME, Hex(0, 0))
    assert "removes" in ItemPlaced(item_id="i", item_name="Axe", before=HOME, after=None).describe()
    assert "places" in ItemPlaced(item_id="i", item_name="Axe", before=None, after=HOME).describe()
