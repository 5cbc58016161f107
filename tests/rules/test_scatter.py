"""rules.battle.scatter: direction die, tracing, stray hits (with seed 000's
checks, rules.sets.seed000.stray_hits) and exact landing odds."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from hexmap import Facing, Hex, HexGrid, ray, ring
from rules.battle.model import Combatant, Side
from rules.battle.pieces import (
    AT_FEET,
    IN_HAND,
    DirectionRule,
    DistanceDice,
    Piece,
    Placement,
    PlacementKind,
    flies,
    land,
)
from rules.battle.scatter import (
    MapLanding,
    Occupant,
    PieceLanded,
    StrayRule,
    direction_of_die,
    landing_distribution,
    random_direction,
    scatter_landing,
    scatter_piece,
    stray_hit_distribution,
    stray_rule_of,
    trace,
)
from rules.core.dice import distribution
from rules.core.errors import RulesError
from rules.sets.seed000.sheet import Attributes
from rules.sets.seed000.stray_hits import IN_PATH_HIT_CHANCE, Seed000StrayHits
from rules.sets.seed000.weapon_strikes import (
    ADJACENT_OR_FEET,
    DROPPED_NEARBY,
    KNOCKED_AWAY,
    ONE_HEX_RANDOM,
)
from tests.rules.sheets import seed000_fighter

BIG = HexGrid(40, 40)
MIDDLE = Hex.from_offset(20, 20)
TWO_D6 = distribution(2)
HIT = Fraction(3, 8)
FORWARD_OR_BACK_1D6 = Placement(
    PlacementKind.FLIES, DistanceDice(1), 0, DirectionRule.FORWARD_OR_BACK
)


STRAY = Seed000StrayHits()


def _occupant(combatant_id: str, name: str, dx: int) -> Occupant:
    fighter = seed000_fighter(name, attributes=Attributes(dx=dx))
    return Occupant(Combatant(combatant_id, fighter, Side.RED, MIDDLE, Facing.N, 10))


def starts() -> list[Hex]:
    """Starting hexes in even and odd columns, far from the edges."""
    return [Hex.from_offset(c, r) for c, r in ((20, 20), (19, 20), (15, 24), (25, 16))]


# --------------------------------------------------------------- direction die


def test_direction_die_runs_clockwise_from_north():
    faces = [direction_of_die(d) for d in range(1, 7)]
    assert faces == [Facing.N, Facing.NE, Facing.SE, Facing.S, Facing.SW, Facing.NW]


@pytest.mark.parametrize("bad", [0, 7, -1, True, 2.0])
def test_direction_die_rejects_non_faces(bad):
    with pytest.raises(RulesError):
        direction_of_die(bad)


def test_random_direction_rolls_one_d6(scripted):
    dice = scripted([4, 6])
    assert random_direction(dice, "which way the Rapier goes") == (4, Facing.S)
    assert random_direction(dice, "which way the Rapier goes") == (6, Facing.NW)
    assert dice.unused == 0


def test_random_direction_agrees_with_the_weapons_helper_landing():
    """weapon_strikes.Landing.facing uses the same mapping."""
    for seed in range(40):
        landing = land(ONE_HEX_RANDOM, random.Random(seed))
        assert landing.direction_roll is not None
        assert landing.facing() is direction_of_die(landing.direction_roll)


# ---------------------------------------------------------------------- trace


def test_trace_runs_straight_and_stops_at_the_edge():
    grid = HexGrid(5, 5)
    start = Hex.from_offset(2, 2)
    path, edge = trace(start, Facing.S, 2, grid)
    assert path == ray(start, Facing.S, 2) and not edge
    path, edge = trace(start, Facing.S, 9, grid)
    assert edge
    assert path[-1] == Hex.from_offset(2, 4) == grid.last_inside(ray(start, Facing.S, 9))
    assert path == ray(start, Facing.S, 2)


# ---------------------------------------------------- exact landing odds


@pytest.mark.parametrize("start", starts())
def test_knocked_away_small_weapon_odds(start):
    """000 DROPPED WEAPONS: 1d3-1 hexes in a random direction - 0 hexes 1/3, each of
    the six neighbours 1/18, each of the six hexes two straight steps away 1/18."""
    dist = landing_distribution(start, KNOCKED_AWAY, BIG)
    expected = {start: Fraction(1, 3)}
    for f in Facing:
        expected[start + f.vector] = Fraction(1, 18)
        expected[start + f.vector.scale(2)] = Fraction(1, 18)
    assert dict(dist) == expected
    assert set(dist) - {start} <= set(ring(start, 1)) | set(ring(start, 2))
    assert sum(dist.values()) == 1


@pytest.mark.parametrize("start", starts())
def test_knocked_away_large_weapon_odds(start):
    """Large weapons: at the feet (1/2) or in an adjacent hex (1/12 each)."""
    dist = landing_distribution(start, ADJACENT_OR_FEET, BIG)
    expected = {start: Fraction(1, 2)} | {n: Fraction(1, 12) for n in start.neighbors()}
    assert dict(dist) == expected


@pytest.mark.parametrize("start", starts())
def test_knock_away_001_one_hex_in_a_random_direction(start):
    dist = landing_distribution(start, ONE_HEX_RANDOM, BIG)
    assert dict(dist) == {n: Fraction(1, 6) for n in start.neighbors()}


@pytest.mark.parametrize("placement", [AT_FEET, DROPPED_NEARBY])
def test_no_dice_placements_stay_put(placement):
    assert dict(landing_distribution(MIDDLE, placement, BIG)) == {MIDDLE: Fraction(1)}


def test_in_hand_has_no_landing():
    with pytest.raises(RulesError):
        landing_distribution(MIDDLE, IN_HAND, BIG)


@pytest.mark.parametrize("start", starts())
def test_flight_of_2d6_hexes(start):
    """A flail head: 2d6 hexes along one of six directions - the hex d steps out in a
    direction has P(2d6 = d) / 6, for d = 2..12."""
    dist = landing_distribution(start, flies("2d6"), BIG)
    assert len(dist) == 6 * 11
    for f in Facing:
        for d in range(2, 13):
            assert dist[start + f.vector.scale(d)] == TWO_D6[d] / 6
    assert start not in dist
    assert sum(dist.values()) == 1


def test_flight_lengths_follow_2d6():
    dist = landing_distribution(MIDDLE, flies("2d6"), BIG)
    by_length: dict[int, Fraction] = {}
    for h, p in dist.items():
        by_length[h.distance(MIDDLE)] = by_length.get(h.distance(MIDDLE), Fraction(0)) + p
    assert by_length == dict(TWO_D6)
    assert by_length[7] == Fraction(1, 6) and by_length[2] == by_length[12] == Fraction(1, 36)


def test_flight_with_a_combatant_in_the_path():
    """Somebody 3 hexes north: a piece flying north that gets that far is stopped
    there on 3d6 <= 9 (3/8); past them the odds shrink by 5/8."""
    target = MIDDLE + Facing.N.vector.scale(3)
    occupants = {target: HIT}
    dist = landing_distribution(MIDDLE, flies("2d6"), BIG, occupants, stray_rule=StrayRule.IN_PATH)
    north = Fraction(1, 6)
    reach_3 = sum(p for d, p in TWO_D6.items() if d >= 3)
    assert IN_PATH_HIT_CHANCE == HIT
    assert dist[target] == north * (reach_3 * HIT + TWO_D6[3] * (1 - HIT))
    assert dist[MIDDLE + Facing.N.vector.scale(2)] == north * TWO_D6[2]
    for d in range(4, 13):
        assert dist[MIDDLE + Facing.N.vector.scale(d)] == north * TWO_D6[d] * (1 - HIT)
    for d in range(2, 13):  # other directions are untouched
        assert dist[MIDDLE + Facing.S.vector.scale(d)] == north * TWO_D6[d]
    assert sum(dist.values()) == 1
    hits = stray_hit_distribution(
        MIDDLE, flies("2d6"), BIG, occupants, stray_rule=StrayRule.IN_PATH
    )
    assert dict(hits) == {target: north * reach_3 * HIT}


def test_two_combatants_in_line_the_nearer_is_checked_first():
    near = MIDDLE + Facing.SE.vector
    far = MIDDLE + Facing.SE.vector.scale(2)
    hits = stray_hit_distribution(
        MIDDLE, flies("2d6"), BIG, {near: HIT, far: HIT}, stray_rule=StrayRule.IN_PATH
    )
    se = Fraction(1, 6)
    assert hits[near] == se * HIT  # every 2d6 flight passes the first hex
    assert hits[far] == se * (1 - HIT) * HIT


def test_occupant_hit_chances_may_be_given_per_hex():
    target = MIDDLE + Facing.N.vector
    dist = landing_distribution(
        MIDDLE, flies("2d6"), BIG, {target: Fraction(1)}, stray_rule=StrayRule.IN_PATH
    )
    assert dist[target] == Fraction(1, 6)  # everything flying north stops there


def test_a_flail_piece_carries_its_own_stray_rule():
    piece = Piece("head of Morningstar", None, flies("2d6"), stray_hit_factor=Fraction(1, 2))
    assert stray_rule_of(piece) is StrayRule.IN_PATH
    target = MIDDLE + Facing.NW.vector.scale(2)
    with_piece = landing_distribution(MIDDLE, piece, BIG, {target: HIT})
    with_rule = landing_distribution(
        MIDDLE, flies("2d6"), BIG, {target: HIT}, stray_rule=StrayRule.IN_PATH
    )
    assert with_piece == with_rule
    assert landing_distribution(MIDDLE, flies("2d6"), BIG, {target: HIT}) == landing_distribution(
        MIDDLE, flies("2d6"), BIG
    )  # a bare placement hits nobody unless told


def test_stray_rules_of_pieces():
    assert stray_rule_of(Piece("sword", None, KNOCKED_AWAY)) is StrayRule.NONE
    assert stray_rule_of(Piece("rest", None, flies("1d6"))) is StrayRule.NONE
    flew = Piece("axe", None, FORWARD_OR_BACK_1D6, stray_hit_factor=Fraction(1, 2))
    assert stray_rule_of(flew) is StrayRule.DX_AT_LANDING


def test_forward_or_back_flight_and_dx_at_landing():
    """The critical miss table's flying weapon: 1d6 hexes, forward on 1-3 and back
    on 4-6; whoever is where it lands rolls DX (hit on a failure); it lands there."""
    dist = landing_distribution(MIDDLE, FORWARD_OR_BACK_1D6, BIG, facing=Facing.NE)
    for d in range(1, 7):
        assert dist[MIDDLE + Facing.NE.vector.scale(d)] == Fraction(1, 12)
        assert dist[MIDDLE + Facing.SW.vector.scale(d)] == Fraction(1, 12)
    target = MIDDLE + Facing.NE.vector.scale(2)
    fail_dx = Fraction(1, 4)
    with_target = landing_distribution(
        MIDDLE,
        FORWARD_OR_BACK_1D6,
        BIG,
        {target: fail_dx},
        facing=Facing.NE,
        stray_rule=StrayRule.DX_AT_LANDING,
    )
    assert with_target == dist  # the piece lands there hit or not
    hits = stray_hit_distribution(
        MIDDLE,
        FORWARD_OR_BACK_1D6,
        BIG,
        {target: fail_dx},
        facing=Facing.NE,
        stray_rule=StrayRule.DX_AT_LANDING,
    )
    assert dict(hits) == {target: Fraction(1, 12) * fail_dx}
    with pytest.raises(RulesError):
        landing_distribution(MIDDLE, FORWARD_OR_BACK_1D6, BIG)


# ----------------------------------------------------------------- map edges


def _edge_expected(start: Hex, placement: Placement, grid: HexGrid) -> dict[Hex, Fraction]:
    """The odds worked out independently: every direction and distance, cut with
    HexGrid.last_inside."""
    out: dict[Hex, Fraction] = {}
    for d, p in placement.distance_distribution().items():
        if d == 0:
            out[start] = out.get(start, Fraction(0)) + p
            continue
        for f in Facing:
            h = grid.last_inside(ray(start, f, d))
            out[h] = out.get(h, Fraction(0)) + p / 6
    return out


@pytest.mark.parametrize(
    "placement", [KNOCKED_AWAY, ADJACENT_OR_FEET, ONE_HEX_RANDOM, flies("2d6"), flies("1d6")]
)
@pytest.mark.parametrize("corner", [(0, 0), (4, 0), (0, 3), (4, 3), (2, 0)])
def test_mass_piles_on_the_last_hex_inside_the_map(placement, corner):
    grid = HexGrid(5, 4)
    start = Hex.from_offset(*corner)
    dist = landing_distribution(start, placement, grid)
    assert dict(dist) == _edge_expected(start, placement, grid)
    assert all(h in grid for h in dist)
    assert sum(dist.values()) == 1


def test_off_map_flights_stay_in_the_corner():
    """From the top-left corner of a 5 x 4 map, N, NE, NW and SW leave the map at
    once: 4/6 of every flight stays in the corner hex. South runs down column 0 to
    its last row (a 2 stops on row 2); south-east leaves the map after 4 hexes."""
    grid = HexGrid(5, 4)
    corner = Hex.from_offset(0, 0)
    dist = landing_distribution(corner, flies("2d6"), grid)
    sixth = Fraction(1, 6)
    assert dist[corner] == 4 * sixth
    assert dist[Hex.from_offset(0, 2)] == TWO_D6[2] * sixth
    assert dist[Hex.from_offset(0, 3)] == (1 - TWO_D6[2]) * sixth
    assert dist[Hex(2, 0)] == TWO_D6[2] * sixth
    assert dist[Hex(3, 0)] == TWO_D6[3] * sixth
    assert dist[Hex(4, 0)] == (1 - TWO_D6[2] - TWO_D6[3]) * sixth
    assert len(dist) == 6


# ---------------------------------------------------------- rolled landings


def test_scatter_piece_with_scripted_dice(scripted):
    piece = Piece("head of Morningstar", None, flies("2d6"))
    dice = scripted([3, 4, 3])  # 2d6 = 7, direction die 3 = SE
    landing = scatter_piece(piece, MIDDLE, BIG, dice)
    assert dice.unused == 0
    assert landing.dice is not None and landing.dice.distance == 7
    assert landing.direction_die == 3 and landing.direction is Facing.SE
    assert landing.path == ray(MIDDLE, Facing.SE, 7)
    assert landing.final == MIDDLE + Facing.SE.vector.scale(7)
    assert not landing.stopped_at_edge and landing.checks == ()
    text = landing.describe()
    assert "2d6: 3+4 = 7" in text and "SE" in text and "direction die 3" in text


def test_a_rolled_landing_is_kept(scripted):
    """Pieces from seed 000's breakage and disarm rules arrive with their dice rolled."""
    rolled = Piece("Broadsword", None, KNOCKED_AWAY).landed(scripted([3, 5]), "Sir Aldric")  # SW 2
    dice = scripted([])
    landing = scatter_piece(rolled, MIDDLE, BIG, dice)
    assert landing.final == MIDDLE + Facing.SW.vector.scale(2)
    assert landing.distance_rolled == 2


def test_knocked_away_zero_rolls_no_direction(scripted):
    dice = scripted([1])  # 1d3 = 1: 0 hexes
    landing = scatter_piece(Piece("Knife", None, KNOCKED_AWAY), MIDDLE, BIG, dice)
    assert landing.final == MIDDLE and landing.direction is None
    assert landing.direction_die is None
    assert "falls at the feet" in landing.describe()


def test_edge_stops_a_rolled_flight(scripted):
    grid = HexGrid(6, 6)
    start = Hex.from_offset(2, 2)
    landing = scatter_piece(Piece("tip", None, flies("2d6")), start, grid, scripted([6, 6, 4]))
    assert landing.stopped_at_edge
    assert landing.final == Hex.from_offset(2, 5)
    assert "map edge" in landing.describe()


def _flail_head() -> Piece:
    return Piece("head of Morningstar", None, flies("2d6"), stray_hit_factor=Fraction(1, 2))


def test_a_flying_piece_hits_someone_in_its_path(scripted):
    bob_hex = MIDDLE + Facing.N.vector.scale(2)
    occupants = {bob_hex: _occupant("bob", "Bob", 12)}
    dice = scripted([3, 3, 1, 2, 3, 3])  # 6 hexes north; 3d6 = 8 <= 9: hit
    landing = scatter_piece(
        _flail_head(), MIDDLE, BIG, dice, occupants=occupants, hits=STRAY
    )
    assert dice.unused == 0
    assert landing.final == bob_hex and landing.path == ray(MIDDLE, Facing.N, 2)
    assert len(landing.checks) == 1 and landing.checks[0].hit
    assert landing.hit_id == "bob"
    assert "stopped by a hit after 2" in landing.describe()


def test_a_flying_piece_misses_and_flies_on(scripted):
    bob_hex = MIDDLE + Facing.N.vector.scale(2)
    occupants = {bob_hex: _occupant("bob", "Bob", 12)}
    dice = scripted([3, 3, 1, 4, 4, 4])  # 3d6 = 12: miss
    landing = scatter_piece(
        _flail_head(), MIDDLE, BIG, dice, occupants=occupants, hits=STRAY
    )
    assert landing.final == MIDDLE + Facing.N.vector.scale(6)
    assert not landing.checks[0].hit and landing.hit_id is None


def test_the_thrower_in_the_start_hex_is_never_checked(scripted):
    occupants = {MIDDLE: _occupant("me", "Me", 10)}
    landing = scatter_piece(
        _flail_head(), MIDDLE, BIG, scripted([1, 1, 2]), occupants=occupants, hits=STRAY
    )
    assert landing.checks == () and landing.final == MIDDLE + Facing.NE.vector.scale(2)


def test_dx_at_landing_in_play(scripted):
    piece = Piece("Axe", None, FORWARD_OR_BACK_1D6, stray_hit_factor=Fraction(1, 2))
    spot = MIDDLE + Facing.S.vector.scale(2)  # facing N, die 5: back = S
    occupants = {spot: _occupant("bob", "Bob", 10)}
    dice = scripted([2, 5, 6, 6, 1])  # 1d6 = 2, back; DX roll 13 vs 10: fails -> hit
    landing = scatter_piece(
        piece, MIDDLE, BIG, dice, wielder_facing=Facing.N, occupants=occupants, hits=STRAY
    )
    assert landing.final == spot and landing.checks[0].rule is StrayRule.DX_AT_LANDING
    assert landing.checks[0].hit and landing.hit_id == "bob"


def test_scatter_landing_refuses_in_hand_and_moves_without_direction(scripted):
    with pytest.raises(RulesError):
        scatter_piece(Piece("x", None, IN_HAND), MIDDLE, BIG, scripted([]))
    odd = Placement(PlacementKind.FLIES, DistanceDice(1), 0, DirectionRule.NONE)
    with pytest.raises(RulesError):
        scatter_landing("x", land(odd, scripted([3])), MIDDLE, BIG, scripted([]))


def test_rolled_landings_match_the_exact_support():
    """Many seeds: every rolled landing is a hex the distribution gives a chance."""
    grid = HexGrid(7, 7)
    start = Hex.from_offset(1, 5)
    target = Hex.from_offset(1, 3)
    occupants = {target: _occupant("bob", "Bob", 10)}
    for placement in (KNOCKED_AWAY, ADJACENT_OR_FEET, ONE_HEX_RANDOM, flies("2d6")):
        piece = Piece("p", None, placement, stray_hit_factor=Fraction(1, 2))
        support = landing_distribution(start, piece, grid, {target: HIT})
        for seed in range(60):
            landing = scatter_piece(
                piece, start, grid, random.Random(seed), occupants=occupants, hits=STRAY
            )
            assert support[landing.final] > 0


def test_events_highlight_the_path():
    landing = MapLanding(
        "tip", flies("2d6"), MIDDLE, None, Facing.N, ray(MIDDLE, Facing.N, 2), MIDDLE, False
    )
    event = PieceLanded(landing=landing, item_id="item-1", origin_id="a")
    assert event.involved_hexes() == ray(MIDDLE, Facing.N, 2)
    assert event.involved_combatants() == ("a",)


def test_stray_check_event_text(scripted):
    bob_hex = MIDDLE + Facing.N.vector
    landing = scatter_piece(
        _flail_head(),
        MIDDLE,
        BIG,
        scripted([1, 1, 1, 1, 1, 1]),
        occupants={bob_hex: _occupant("bob", "Bob", 12)},
        hits=STRAY,
    )
    event = landing.checks[0].event
    assert "Bob" in event.describe() and "hits" in event.describe()
    assert event.involved_hexes() == (bob_hex,)
