"""rules.battle.terrain: the sparse terrain map, the brush, and terrain and posture
modifiers of an attack."""

from __future__ import annotations

from dataclasses import replace

import pytest

from hexmap import Arc, Facing, Hex, HexGrid
from rules.battle.battle import Battle
from rules.battle.command_events import TerrainPainted
from rules.battle.commands import PaintTerrain, SetPosture
from rules.battle.state import BattleState
from rules.battle.terrain import (
    OPEN_GROUND,
    Cover,
    Footing,
    Light,
    Terrain,
    TerrainChange,
    TerrainMap,
    WaterDepth,
)
from rules.core.citation import cite
from rules.core.errors import IllegalCommandError, RulesError
from rules.core.modifiers import Modifier
from rules.sets.registry import get_ruleset
from rules.sets.seed000.conditions import (
    Posture,
    ProneCover,
    SelectedCondition,
    load_condition_catalog,
)
from rules.sets.seed000.situation import (
    situation_modifiers,
    terrain_conditions,
    terrain_modifiers,
    terrain_modifiers_between,
)

CONDITIONS = cite("000", "ADVERSE COMBAT CONDITIONS")
A_HEX = Hex.from_offset(4, 4)
D_HEX = A_HEX + Facing.N.vector


@pytest.fixture
def duel(make) -> BattleState:
    """Attacker ``a`` facing N at A_HEX, defender ``d`` facing S just north of it."""
    a = make("sword-and-shield", A_HEX, Facing.N, id="a")
    d = make("sword-and-shield", D_HEX, Facing.S, id="d")
    return BattleState(HexGrid(10, 10), (a, d))


# ------------------------------------------------------------------- values


def test_light_penalties_run_from_daylight_to_total_darkness():
    assert [light.penalty for light in Light] == list(range(0, -11, -1))
    assert Light.from_penalty(-9) is Light.NEARLY_DARK
    assert Light.TWILIGHT.penalty == -1 and Light.TOTAL_DARKNESS.penalty == -10
    with pytest.raises(RulesError):
        Light.from_penalty(-11)


def test_footing_and_water_penalties():
    assert [f.penalty for f in Footing] == [0, -1, -2, -3]
    assert [w.penalty for w in WaterDepth] == [0, -1, -2, -3, -4, -5, -6, -6]
    assert WaterDepth.ANKLE.penalty == -1 and WaterDepth.CHEST.penalty == -6
    assert WaterDepth.DEEP.swimming and not WaterDepth.CHEST.swimming


def test_cover_hides_body_areas():
    assert Cover.NONE.covered_areas == frozenset()
    assert Cover.PARTIAL.covered_areas == {"leg"}
    assert Cover.FULL.covered_areas == {"leg", "torso"}


def test_terrain_height_must_be_whole_levels():
    with pytest.raises(RulesError):
        Terrain(height=1.5)  # type: ignore[arg-type]
    assert Terrain(height=-1).describe() == "height -1"
    assert OPEN_GROUND.describe() == "open ground" and OPEN_GROUND.is_open


# --------------------------------------------------------------------- map


def test_terrain_map_is_sparse_canonical_and_comparable():
    mud = Terrain(footing=Footing.BAD)
    a = TerrainMap(((Hex(1, 1), mud), (Hex(0, 0), OPEN_GROUND), (Hex(0, 1), mud)))
    b = TerrainMap(((Hex(0, 1), mud), (Hex(1, 1), mud)))
    assert a == b and hash(a) == hash(b)
    assert len(a) == 2 and list(a) == [(Hex(0, 1), mud), (Hex(1, 1), mud)]
    assert a.at(Hex(0, 0)) == OPEN_GROUND and a[Hex(1, 1)] == mud
    later = TerrainMap(((Hex(0, 1), mud), (Hex(0, 1), OPEN_GROUND)))
    assert len(later) == 0  # later pairs win, open ground is dropped
    with pytest.raises(RulesError):
        TerrainMap(((Hex(0, 0), "mud"),))  # type: ignore[arg-type]


def test_painting_changes_only_what_the_brush_sets():
    dark = TerrainChange(light=Light.BAD_4)
    wet = TerrainChange(water=WaterDepth.KNEE)
    m = TerrainMap().painted([Hex(0, 0), Hex(1, 0)], dark).painted([Hex(1, 0)], wet)
    assert m.at(Hex(0, 0)) == Terrain(light=Light.BAD_4)
    assert m.at(Hex(1, 0)) == Terrain(light=Light.BAD_4, water=WaterDepth.KNEE)
    erased = m.painted([Hex(0, 0), Hex(1, 0)], TerrainChange.open_ground())
    assert erased == TerrainMap()
    assert TerrainChange().is_empty and not dark.is_empty
    assert "bad light (-4)" in dark.describe()
    assert TerrainChange.open_ground().describe() == "open ground"


def test_paint_terrain_command_and_replay(duel):
    hexes = (A_HEX, A_HEX + Facing.S.vector)
    change = TerrainChange(footing=Footing.VERY_BAD, height=1)
    battle = Battle(duel, 3, get_ruleset)
    events = battle.execute(PaintTerrain(hexes, change))
    assert isinstance(events[0], TerrainPainted)
    assert events[0].involved_hexes() == hexes and "2 hexes" in events[0].describe()
    assert battle.state.terrain.at(A_HEX) == Terrain(footing=Footing.VERY_BAD, height=1)
    assert battle.execute(PaintTerrain(hexes, change)) == ()  # nothing new
    replay = Battle.replay(duel, 3, battle.commands, rulesets=get_ruleset)
    assert replay.state == battle.state
    with pytest.raises(IllegalCommandError):
        battle.execute(PaintTerrain((Hex(50, 50),), change))


# -------------------------------------------------------------- modifiers


def test_light_counts_at_the_defenders_hex_footing_and_water_at_the_attackers():
    attacker = Terrain(light=Light.TOTAL_DARKNESS, footing=Footing.BAD, water=WaterDepth.THIGH)
    defender = Terrain(light=Light.BAD_3, footing=Footing.TREACHEROUS, water=WaterDepth.CHEST)
    picks = terrain_conditions(attacker, defender)
    assert picks == (
        SelectedCondition("bad_light", -3),
        SelectedCondition("bad_footing", -1),
        SelectedCondition("in_water", -3),
    )
    assert terrain_conditions(OPEN_GROUND, Terrain(light=Light.TOTAL_DARKNESS)) == (
        SelectedCondition("total_darkness"),
    )
    assert terrain_conditions(Terrain(water=WaterDepth.DEEP), OPEN_GROUND) == (
        SelectedCondition("swimming"),
    )
    assert terrain_conditions(OPEN_GROUND, OPEN_GROUND) == ()


def test_terrain_modifiers_use_the_condition_catalog():
    catalog = load_condition_catalog()
    attacker = Terrain(footing=Footing.VERY_BAD, water=WaterDepth.ANKLE)
    defender = Terrain(light=Light.NEARLY_DARK)
    mods = terrain_modifiers_between(attacker, defender)
    assert [m.value for m in mods] == [-9, -2, -1]
    assert all(m.citation == CONDITIONS for m in mods)
    assert mods[0].reason == f"{catalog.get('bad_light').label} at the target's hex"
    assert mods[1].reason.endswith("at the attacker's hex")
    expected = catalog.condition_modifiers(
        terrain_conditions(attacker, defender), melee=True, swinging=False
    )
    assert [m.value for m in mods] == [m.value for m in expected]
    darkness = terrain_modifiers_between(OPEN_GROUND, Terrain(light=Light.TOTAL_DARKNESS))
    assert [m.value for m in darkness] == [-10]


def test_terrain_modifiers_of_a_battle(duel):
    state = replace(
        duel,
        terrain=TerrainMap(
            ((A_HEX, Terrain(footing=Footing.BAD)), (D_HEX, Terrain(light=Light.TWILIGHT)))
        ),
    )
    mods = terrain_modifiers(state, "a", "d")
    assert [m.value for m in mods] == [-1, -1]
    # the other way round: the twilight is now where the attacker stands, so it
    # does not count; the mud is at the target's hex, so it does not count either
    assert terrain_modifiers(state, "d", "a") == ()


def test_situation_collects_terrain_posture_height_and_arc(duel):
    terrain = TerrainMap(
        (
            (A_HEX, Terrain(footing=Footing.BAD, height=1)),
            (D_HEX, Terrain(light=Light.BAD_2, cover=Cover.PARTIAL)),
        )
    )
    battle = Battle(replace(duel, terrain=terrain), 1, get_ruleset)
    battle.execute(SetPosture("a", Posture.KNEELING))
    battle.execute(SetPosture("d", Posture.DEFENSIVE_CROUCH))
    s = situation_modifiers(battle.state, "a", "d")
    assert s.arc is Arc.FRONT and s.distance == 1
    assert s.from_above and not s.from_below and s.height_difference == 1
    assert s.conditions == (
        SelectedCondition("bad_light", -2),
        SelectedCondition("bad_footing", -1),
    )
    assert [m.value for m in s.terrain_modifiers] == [-2, -1]
    assert [(m.value, m.reason) for m in s.posture_modifiers] == [
        (-2, "attacker kneeling"),
        (-1, "target defensive crouch"),
    ]
    assert s.modifiers == s.terrain_modifiers + s.posture_modifiers
    assert s.total == -6
    assert s.covered_areas == {"leg"}
    assert s.prone_cover is ProneCover.HEAD_UP_WITH_COVER
    assert all(isinstance(m, Modifier) and m.reason for m in s.modifiers)
    back = situation_modifiers(battle.state, "d", "a")
    assert back.from_below and back.covered_areas == frozenset()


def test_an_unpainted_map_gives_a_plain_situation(duel):
    s = situation_modifiers(duel, "a", "d")
    assert s.modifiers == () and s.total == 0 and s.conditions == ()
    assert not s.from_above and not s.from_below
    assert s.prone_cover is ProneCover.HEAD_UP_NO_COVER


def test_ranged_situation_uses_the_ranged_posture_values(duel):
    battle = Battle(duel, 1, get_ruleset)
    battle.execute(SetPosture("d", Posture.KNEELING))
    melee = situation_modifiers(battle.state, "a", "d")
    ranged = situation_modifiers(battle.state, "a", "d", melee=False)
    assert melee.posture_modifiers == ()
    assert [m.value for m in ranged.posture_modifiers] == [-2]
