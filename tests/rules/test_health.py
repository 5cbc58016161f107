"""Each ruleset's health in its own terms (issue 22; ``Conditions.health``): hit points
where the ruleset counts them (seed 004's maximum less its wounds), the most
severe wound of a FUDGE body (003 5.872, 5.874), and the share of the bar."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules.battle.commands import EditCombatant
from rules.battle.model import Combatant
from rules.sets.components.fudge_locations import BodyPart, PartKind, WoundLevel
from rules.sets.protocol import Health
from rules.sets.registry import get_ruleset
from rules.sets.seed003.tracks import body_of, with_body
from rules.sets.seed004.tracks import Seed004Tracks
from tests.rules.test_demo_battles import load_demo, play_rounds


def wounded(c: Combatant, *wounds: tuple[BodyPart, WoundLevel]) -> Combatant:
    body = body_of(c)
    for part, level in wounds:
        body, _mark = body.with_wound(part, level)
    return with_body(c, body)


@pytest.fixture(scope="module")
def fudge_fighter() -> Combatant:
    """The 003 demo's barbarian, unhurt."""
    return load_demo("003").state.combatant("c1")


def test_a_fudge_fighter_shows_his_most_severe_wound(fudge_fighter: Combatant) -> None:
    ruleset = get_ruleset("003")
    assert ruleset.conditions.health_heading == "Wound"
    c = fudge_fighter
    assert ruleset.conditions.health(c) == Health(
        "Unhurt", Fraction(1), "No wound on any body part"
    )
    # only the most severe wound counts (003 5.874): the arm's Very Hurt over the torso's Hurt
    both = wounded(c, (BodyPart.TORSO, WoundLevel.HURT), (BodyPart.LEFT_ARM, WoundLevel.VERY_HURT))
    health = ruleset.conditions.health(both)
    assert (health.text, health.fraction) == ("Very Hurt", Fraction(2, 5))
    assert "left arm very hurt" in health.tooltip and "torso hurt" in health.tooltip
    assert health.text != f"{both.hp}/{both.fighter.hit_points}"
    # a limb's fourth level is Useless, its fifth Crippled (003 5.872)
    useless = ruleset.conditions.health(wounded(c, (BodyPart.RIGHT_LEG, WoundLevel.INCAPACITATED)))
    assert (useless.text, useless.fraction) == ("Useless", Fraction(1, 5))
    # the same level on the body and a limb: the body's word
    tie = wounded(
        c, (BodyPart.LEFT_HAND, WoundLevel.NEAR_DEATH), (BodyPart.HEAD, WoundLevel.NEAR_DEATH)
    )
    assert (ruleset.conditions.health(tie).text, ruleset.conditions.health(tie).fraction) == (
        "Near Death",
        0,
    )
    assert ruleset.conditions.health(
        wounded(c, (BodyPart.LEFT_HAND, WoundLevel.NEAR_DEATH))
    ).text == ("Crippled")


def test_past_the_track_a_fudge_fighter_is_dead(fudge_fighter: Combatant) -> None:
    ruleset = get_ruleset("003")
    c = fudge_fighter
    boxes = sum(body_of(c).track(BodyPart.TORSO).boxes[WoundLevel.NEAR_DEATH - 1 :])
    dead = wounded(c, *[(BodyPart.TORSO, WoundLevel.NEAR_DEATH)] * (boxes + 1))
    assert ruleset.conditions.health(dead) == Health(
        "Dead",
        Fraction(0),
        "Most severe wound: Dead (torso); only it counts (003 5.874). Wounds: torso dead",
    )


def test_the_wounds_of_a_played_fudge_battle_show_in_the_column() -> None:
    battle = load_demo("003")
    play_rounds(battle, 10)
    ruleset = get_ruleset("003")
    words = {"Unhurt", "Dead", "Lost"} | {
        level.label(kind) for level in WoundLevel for kind in PartKind
    }
    shown = {c.name: ruleset.conditions.health(c).text for c in battle.state.combatants}
    assert set(shown.values()) <= words, shown
    assert any(text != "Unhurt" for text in shown.values()), shown
    for c in battle.state.combatants:
        severities = [t.worst for t in body_of(c).parts if t.worst is not None]
        if severities and not any(t.past for t in body_of(c).parts):
            worst = max(severities)
            assert shown[c.name] in {worst.label(kind) for kind in PartKind}, c.name


@pytest.mark.parametrize("key", ["000", "002", "004"])
def test_hit_point_rulesets_show_hit_points(key: str) -> None:
    battle = load_demo(key)
    c = battle.state.combatants[0]
    battle.execute(EditCombatant(c.id, hp=c.fighter.hit_points - 3))
    c = battle.state.combatant(c.id)
    ruleset = get_ruleset(key)
    assert ruleset.conditions.health_heading == "HP"
    maximum = c.fighter.hit_points
    assert ruleset.conditions.health(c) == Health(
        f"{maximum - 3}/{maximum}",
        Fraction(maximum - 3, maximum),
        f"{maximum - 3} of {maximum} hit points",
    )
    battle.execute(EditCombatant(c.id, hp=-2))
    down = ruleset.conditions.health(battle.state.combatant(c.id))
    assert (down.text, down.fraction) == (f"-2/{maximum}", 0)


def test_seed_004_counts_hit_points_of_the_maximum_its_wounds_leave() -> None:
    """Base rules: each wound lowers the maximum by one."""
    c = load_demo("004").state.combatants[0]
    two = c.evolve(tracks=Seed004Tracks(wounds=2), hp=c.fighter.hit_points - 10)
    health = get_ruleset("004").conditions.health(two)
    maximum = c.fighter.hit_points - 2
    assert health.text == f"{maximum - 8}/{maximum}"
    assert health.fraction == Fraction(maximum - 8, maximum)
    assert health.tooltip.endswith("the maximum less 2 for wounds")
