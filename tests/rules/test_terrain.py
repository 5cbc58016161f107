"""rules.battle.terrain: the sparse terrain map, the brush and the facts it paints,
with no rule of any seed; seed 000's penalties for them
(rules.sets.seed000.terrain_penalties) and the terrain and posture modifiers of an
attack (rules.sets.seed000.situation)."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from hexmap import Arc, Facing, Hex, HexGrid
from rules.battle import terrain as neutral_terrain
from rules.battle.battle import Battle
from rules.battle.command_events import TerrainPainted
from rules.battle.commands import Attack, PaintTerrain, SetPosture
from rules.battle.state import BattleState
from rules.battle.terrain import (
    OPEN_GROUND,
    Cover,
    Footing,
    Light,
    Terrain,
    TerrainChange,
    TerrainFact,
    TerrainMap,
    WaterDepth,
    fact_label,
)
from rules.core.citation import Citation, cite
from rules.core.errors import IllegalCommandError, RulesError
from rules.core.modifiers import Modifier
from rules.sets.registry import get_ruleset
from rules.sets.seed000.attack import AttackOptions
from rules.sets.seed000.attack_events import AttackRolled
from rules.sets.seed000.conditions import (
    Posture,
    ProneCover,
    SelectedCondition,
)
from rules.sets.seed000.situation import (
    situation_modifiers,
    terrain_conditions,
    terrain_modifiers,
    terrain_modifiers_between,
)
from rules.sets.seed000.tables import Tables
from rules.sets.seed000.terrain_penalties import (
    CONDITIONS_000,
    footing_penalty,
    light_penalty,
    terrain_label,
    terrain_penalty,
    water_penalty,
)

CONDITIONS = cite("000", "ADVERSE COMBAT CONDITIONS")
A_HEX = Hex.from_offset(4, 4)
D_HEX = A_HEX + Facing.N.vector
TABLES = Tables()  # the ruleset's tables, for the rules called directly
FACTS: tuple[TerrainFact, ...] = (*Light, *Footing, *WaterDepth, *Cover)


@pytest.fixture
def duel(make) -> BattleState:
    """Attacker ``a`` facing N at A_HEX, defender ``d`` facing S just north of it."""
    a = make("sword-and-shield", A_HEX, Facing.N, id="a")
    d = make("sword-and-shield", D_HEX, Facing.S, id="d")
    return BattleState(HexGrid(10, 10), (a, d))


# --------------------------------------------------- the facts, ruleset-neutral


def test_light_runs_in_darkness_degrees_from_daylight_to_total_darkness():
    assert [light.darkness for light in Light] == list(range(11))
    assert Light.of_darkness(9) is Light.NEARLY_DARK
    assert Light.DAYLIGHT.darkness == 0 and Light.TOTAL_DARKNESS.darkness == 10
    assert [light for light in Light if light.is_dim] == [Light.of_darkness(d) for d in range(2, 9)]
    with pytest.raises(RulesError):
        Light.of_darkness(11)
    with pytest.raises(RulesError):
        Light.of_darkness(-1)


def test_terrain_facts_are_named_by_the_fact_alone():
    assert [fact_label(light) for light in Light] == [
        "daylight",
        "twilight",
        *(f"dim light (darkness {d} of 10)" for d in range(2, 9)),
        "nearly dark",
        "total darkness",
    ]
    assert [f.label for f in Footing] == [
        "good footing", "bad footing", "very bad footing", "treacherous footing"
    ]
    assert [w.label for w in WaterDepth] == [
        "dry",
        *(f"{depth}-deep water" for depth in ("ankle", "knee", "thigh", "hip", "waist", "chest")),
        "deep water, swimming",
    ]
    assert WaterDepth.DEEP.swimming and not WaterDepth.CHEST.swimming


def test_the_neutral_terrain_holds_no_penalty_and_cites_no_seed():
    """What a fact does to an attack is the ruleset's: no member carries a penalty,
    no label prints a modifier, and the module defines no citation."""
    for fact in FACTS:
        assert not hasattr(fact, "penalty"), fact
        assert not re.search(r"[-+]\d", fact.label), fact.label
    assert not any(isinstance(value, Citation) for value in vars(neutral_terrain).values())
    assert not hasattr(neutral_terrain, "CONDITIONS_000")


def test_descriptions_name_each_fact_as_the_label_says():
    t = Terrain(light=Light.DIM_3, water=WaterDepth.HIP, height=2)
    assert t.describe() == "dim light (darkness 3 of 10), hip-deep water, height 2"
    assert t.describe(lambda fact: fact.name) == "DIM_3, HIP, height 2"
    change = TerrainChange(footing=Footing.BAD, cover=Cover.FULL)
    assert change.describe() == "bad footing, full cover (leg, torso hidden)"
    assert change.describe(lambda fact: fact.name) == "BAD, FULL"


def test_cover_hides_body_areas():
    assert Cover.NONE.covered_areas == frozenset()
    assert Cover.PARTIAL.covered_areas == {"leg"}
    assert Cover.FULL.covered_areas == {"leg", "torso"}


def test_terrain_height_must_be_whole_levels():
    with pytest.raises(RulesError):
        Terrain(height=1.5)  # type: ignore[arg-type]
    assert Terrain(height=-1).describe() == "height -1"
    assert OPEN_GROUND.describe() == "open ground" and OPEN_GROUND.is_open


# ------------------------------------------------------ seed 000's penalties


def test_000_penalties_of_the_terrain_facts():
    """000 ADVERSE COMBAT CONDITIONS: twilight -1 down to nearly dark -9, total
    darkness -10; bad footing -1 or worse; water -1 ankle-deep to -6 chest-deep,
    swimming -6."""
    assert [light_penalty(light) for light in Light] == list(range(0, -11, -1))
    assert [footing_penalty(f) for f in Footing] == [0, -1, -2, -3]
    assert [water_penalty(w) for w in WaterDepth] == [0, -1, -2, -3, -4, -5, -6, -6]
    assert [terrain_penalty(c) for c in Cover] == [0, 0, 0]
    assert CONDITIONS_000 == CONDITIONS


def test_000_penalties_lie_in_the_condition_catalogs_ranges():
    catalog = TABLES.adverse_conditions

    def span(key: str) -> tuple[int | None, int]:
        found = catalog.get(key).range_for(melee=True)
        assert found is not None
        return found.low, found.high

    def inside(value: int, key: str) -> bool:
        low, high = span(key)
        return (low is None or low <= value) and value <= high

    bad_light = [light for light in Light if light.darkness in range(1, 10)]
    assert all(inside(light_penalty(light), "bad_light") for light in bad_light)
    assert span("total_darkness") == (light_penalty(Light.TOTAL_DARKNESS),) * 2
    assert all(inside(footing_penalty(f), "bad_footing") for f in Footing if f is not Footing.GOOD)
    depths = [w for w in WaterDepth if w not in (WaterDepth.NONE, WaterDepth.DEEP)]
    assert all(inside(water_penalty(w), "in_water") for w in depths)
    assert span("in_water") == (water_penalty(WaterDepth.CHEST), water_penalty(WaterDepth.ANKLE))
    assert span("swimming") == (water_penalty(WaterDepth.DEEP),) * 2


def test_000_names_the_facts_with_their_penalties():
    """The names a seed 000 battle shows in the hex pane, the brush and the map's
    tooltip (the ruleset's ``terrain_label``)."""
    ruleset = get_ruleset()
    assert [ruleset.battlefield.terrain_label(light) for light in Light] == [
        "daylight",
        "twilight (-1)",
        *(f"bad light (-{d})" for d in range(2, 9)),
        "nearly dark (-9)",
        "total darkness (-10)",
    ]
    assert [terrain_label(f) for f in Footing] == [
        "good footing", "bad footing (-1)", "very bad footing (-2)", "treacherous footing (-3)"
    ]
    assert [terrain_label(w) for w in WaterDepth] == [
        "dry",
        "ankle-deep water (-1)",
        "knee-deep water (-2)",
        "thigh-deep water (-3)",
        "hip-deep water (-4)",
        "waist-deep water (-5)",
        "chest-deep water (-6)",
        "deep water, swimming (-6)",
    ]
    assert [terrain_label(c) for c in Cover] == [c.label for c in Cover]


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
    dark = TerrainChange(light=Light.DIM_4)
    wet = TerrainChange(water=WaterDepth.KNEE)
    m = TerrainMap().painted([Hex(0, 0), Hex(1, 0)], dark).painted([Hex(1, 0)], wet)
    assert m.at(Hex(0, 0)) == Terrain(light=Light.DIM_4)
    assert m.at(Hex(1, 0)) == Terrain(light=Light.DIM_4, water=WaterDepth.KNEE)
    erased = m.painted([Hex(0, 0), Hex(1, 0)], TerrainChange.open_ground())
    assert erased == TerrainMap()
    assert TerrainChange().is_empty and not dark.is_empty
    assert dark.describe() == "dim light (darkness 4 of 10)"
    assert dark.describe(terrain_label) == "bad light (-4)"
    assert TerrainChange.open_ground().describe() == "open ground"


def test_paint_terrain_command_and_replay(duel):
    hexes = (A_HEX, A_HEX + Facing.S.vector)
    change = TerrainChange(footing=Footing.VERY_BAD, height=1)
    battle = Battle(duel, 3, get_ruleset)
    events = battle.execute(PaintTerrain(hexes, change))
    assert isinstance(events[0], TerrainPainted)
    assert events[0].involved_hexes() == hexes
    # the log names the change as seed 000 does
    assert events[0].describe() == "GM paints 2 hexes: very bad footing (-2), height 1"
    assert battle.state.terrain.at(A_HEX) == Terrain(footing=Footing.VERY_BAD, height=1)
    assert battle.execute(PaintTerrain(hexes, change)) == ()  # nothing new
    replay = Battle.replay(duel, 3, battle.commands, rulesets=get_ruleset)
    assert replay.state == battle.state
    with pytest.raises(IllegalCommandError):
        battle.execute(PaintTerrain((Hex(50, 50),), change))


# -------------------------------------------------------------- modifiers


def test_light_counts_at_the_defenders_hex_footing_and_water_at_the_attackers():
    attacker = Terrain(light=Light.TOTAL_DARKNESS, footing=Footing.BAD, water=WaterDepth.THIGH)
    defender = Terrain(light=Light.DIM_3, footing=Footing.TREACHEROUS, water=WaterDepth.CHEST)
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
    catalog = TABLES.adverse_conditions
    attacker = Terrain(footing=Footing.VERY_BAD, water=WaterDepth.ANKLE)
    defender = Terrain(light=Light.NEARLY_DARK)
    mods = terrain_modifiers_between(attacker, defender, catalog=catalog)
    assert [m.value for m in mods] == [-9, -2, -1]
    assert all(m.citation == CONDITIONS for m in mods)
    assert mods[0].reason == f"{catalog.get('bad_light').label} at the target's hex"
    assert mods[1].reason.endswith("at the attacker's hex")
    expected = catalog.condition_modifiers(
        terrain_conditions(attacker, defender), melee=True, swinging=False
    )
    assert [m.value for m in mods] == [m.value for m in expected]
    dark = Terrain(light=Light.TOTAL_DARKNESS)
    darkness = terrain_modifiers_between(OPEN_GROUND, dark, catalog=catalog)
    assert [m.value for m in darkness] == [-10]


def test_terrain_modifiers_of_a_battle(duel):
    state = replace(
        duel,
        terrain=TerrainMap(
            ((A_HEX, Terrain(footing=Footing.BAD)), (D_HEX, Terrain(light=Light.TWILIGHT)))
        ),
    )
    mods = terrain_modifiers(state, "a", "d", tables=TABLES)
    assert [m.value for m in mods] == [-1, -1]
    # the other way round: the twilight is now where the attacker stands, so it
    # does not count; the mud is at the target's hex, so it does not count either
    assert terrain_modifiers(state, "d", "a", tables=TABLES) == ()


def test_situation_collects_terrain_posture_height_and_arc(duel):
    terrain = TerrainMap(
        (
            (A_HEX, Terrain(footing=Footing.BAD, height=1)),
            (D_HEX, Terrain(light=Light.DIM_2, cover=Cover.PARTIAL)),
        )
    )
    battle = Battle(replace(duel, terrain=terrain), 1, get_ruleset)
    battle.execute(SetPosture("a", Posture.KNEELING))
    battle.execute(SetPosture("d", Posture.DEFENSIVE_CROUCH))
    s = situation_modifiers(battle.state, "a", "d", tables=TABLES)
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
    back = situation_modifiers(battle.state, "d", "a", tables=TABLES)
    assert back.from_below and back.covered_areas == frozenset()


def test_an_unpainted_map_gives_a_plain_situation(duel):
    s = situation_modifiers(duel, "a", "d", tables=TABLES)
    assert s.modifiers == () and s.total == 0 and s.conditions == ()
    assert not s.from_above and not s.from_below
    assert s.prone_cover is ProneCover.HEAD_UP_NO_COVER


def test_ranged_situation_uses_the_ranged_posture_values(duel):
    battle = Battle(duel, 1, get_ruleset)
    battle.execute(SetPosture("d", Posture.KNEELING))
    melee = situation_modifiers(battle.state, "a", "d", tables=TABLES)
    ranged = situation_modifiers(battle.state, "a", "d", melee=False, tables=TABLES)
    assert melee.posture_modifiers == ()
    assert [m.value for m in ranged.posture_modifiers] == [-2]


# ---------------------------------------------------- in an Attack command


def test_painted_light_footing_and_water_give_the_000_penalties_in_an_attack(duel):
    """000 ADVERSE COMBAT CONDITIONS: the light at the target's hex, the footing and
    the water at the attacker's go into the attack's plan and its roll, as the
    attack pane passes the situation's picks on."""
    battle = Battle(duel, 5, get_ruleset)
    battle.execute(PaintTerrain((D_HEX,), TerrainChange(light=Light.DIM_4)))
    battle.execute(
        PaintTerrain((A_HEX,), TerrainChange(footing=Footing.VERY_BAD, water=WaterDepth.KNEE))
    )
    ruleset = get_ruleset()
    situation = situation_modifiers(battle.state, "a", "d", tables=TABLES)
    assert situation.conditions == (
        SelectedCondition("bad_light", -4),
        SelectedCondition("bad_footing", -2),
        SelectedCondition("in_water", -2),
    )
    plain = ruleset.attacks.default_attack(battle.state, "a", "d")
    assert isinstance(plain, AttackOptions)
    choices = replace(plain, conditions=situation.conditions)
    terrain = [
        (m.value, m.reason)
        for m in ruleset.attacks.preview_attack(battle.state, "a", "d", choices).modifiers
        if m.citation == CONDITIONS
    ]
    assert terrain == [(-4, "Bad light"), (-2, "Bad footing"), (-2, "Standing in water")]
    events = battle.execute(Attack("a", "d", choices))
    rolled = next(e for e in events if isinstance(e, AttackRolled))
    assert [(m.value, m.reason) for m in rolled.modifiers if m.citation == CONDITIONS] == terrain
    assert "-4 Bad light" in rolled.describe()
    on_open_ground = Battle(duel, 5, get_ruleset).execute(Attack("a", "d", plain))
    plain_roll = next(e for e in on_open_ground if isinstance(e, AttackRolled))
    assert rolled.effective_skill == plain_roll.effective_skill - 8
