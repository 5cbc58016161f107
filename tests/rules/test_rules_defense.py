"""Active and passive defenses of seed 000: directional penalties on real hexes
for both hands, the below flag, caps, parry classes and cumulative defenses."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from hexmap import Arc, Facing, Handedness, Hex, arc_direction, arc_of
from rules.battle.model import (
    ActionKind,
    Armor,
    Combatant,
    ParryClass,
    Shield,
    ShieldSize,
    Side,
    Status,
    TurnAction,
)
from rules.core.citation import cite
from rules.core.errors import DataError, IllegalAttackError
from rules.sets.seed000.attack import AttackOptions, plan_attack, resolve_attack
from rules.sets.seed000.defense import (
    DefenseChoice,
    DefensePlan,
    attack_cumulative_modifiers,
    block_base,
    cumulative_defense_modifiers,
    dodge_base,
    parry_base,
    parse_directional_table,
    possible_defenses,
    start_new_turn,
)
from rules.sets.seed000.defense_kinds import DefenseKind
from rules.sets.seed000.sheet import sheet_of
from rules.sets.seed000.tables import Tables
from tests.rules.sheets import amend

Make = Callable[..., Combatant]
RIGHT, LEFT = Handedness.RIGHT, Handedness.LEFT
DODGE = DefenseChoice(DefenseKind.DODGE)
BLOCK = DefenseChoice(DefenseKind.BLOCK)
CUMULATIVE = cite("000", "CUMULATIVE DEFENSES")

# The seed's directional table (000 BLOCK, 000 PARRY, 000 PASSIVE DEFENSE) for a
# right-handed fighter: block, parry one-handed, parry two-handed, shield PD counts.
TABLE = {
    Arc.FRONT: (0, 0, 0, True),
    Arc.SHIELD_FRONT: (0, -2, 0, True),
    Arc.WEAPON_FRONT: (-2, 0, 0, False),
    Arc.SHIELD_SIDE: (-4, -4, -4, True),
    Arc.WEAPON_SIDE: (-4, -4, -4, False),
    Arc.REAR: (-6, -6, -6, False),
}
BELOW = (-4, -2, 0)


def parry(key: str) -> DefenseChoice:
    return DefenseChoice(DefenseKind.PARRY, key)


def attacker_from(make: Make, defender: Combatant, arc: Arc, template: str = "sword-and-shield"):
    """An attacker on the hex next to the defender in ``arc``, facing the defender."""
    direction = arc_direction(defender.facing, defender.handedness, arc)
    attacker = make(
        template, defender.hex.neighbor(direction), direction.opposite(), id="a", side=Side.BLUE
    )
    assert arc_of(attacker.hex, defender.hex, defender.facing, defender.handedness) is arc
    return attacker


def defense_value(
    make: Make,
    ruleset: Tables,
    defender: Combatant,
    arc: Arc,
    choice: DefenseChoice,
    below: bool = False,
) -> DefensePlan:
    attacker = attacker_from(make, defender, arc)
    # A thrust: no +1 for parrying a swing muddles the comparison.
    opts = AttackOptions("broadsword", "thrust", defenses=(choice,), from_below=below)
    return plan_attack(attacker, defender, opts, ruleset).defenses[0]


# --- the directional table, on real hexes ------------------------------------------


@pytest.mark.parametrize("handedness", [RIGHT, LEFT])
@pytest.mark.parametrize("facing", [Facing.N, Facing.SE, Facing.SW])
@pytest.mark.parametrize("arc", list(Arc))
def test_block_and_one_handed_parry_by_arc(
    make: Make, ruleset: Tables, arc: Arc, facing: Facing, handedness: Handedness
) -> None:
    d = make("sword-and-shield", Hex(2, 3), facing, id="d", handedness=handedness)
    block, one_handed, _, _ = TABLE[arc]
    front_block = defense_value(make, ruleset, d, Arc.FRONT, BLOCK).value
    front_parry = defense_value(make, ruleset, d, Arc.FRONT, parry("broadsword")).value
    assert defense_value(make, ruleset, d, arc, BLOCK).value - front_block == block
    p = defense_value(make, ruleset, d, arc, parry("broadsword"))
    assert p.value - front_parry == one_handed
    if one_handed:
        assert [m.citation for m in p.modifiers if m.value == one_handed] == [cite("000", "PARRY")]


@pytest.mark.parametrize("handedness", [RIGHT, LEFT])
@pytest.mark.parametrize("arc", list(Arc))
def test_two_handed_parry_by_arc(
    make: Make, ruleset: Tables, arc: Arc, handedness: Handedness
) -> None:
    d = make("spearman", Hex(0, 0), Facing.NE, id="d", handedness=handedness)
    assert d.fighter.weapon("long-spear").two_handed
    front = defense_value(make, ruleset, d, Arc.FRONT, parry("long-spear")).value
    assert defense_value(make, ruleset, d, arc, parry("long-spear")).value - front == TABLE[arc][2]


@pytest.mark.parametrize("handedness", [RIGHT, LEFT])
@pytest.mark.parametrize("arc", list(Arc))
def test_shield_pd_counts_by_arc(
    make: Make, ruleset: Tables, arc: Arc, handedness: Handedness
) -> None:
    d = make("sword-and-shield", Hex(0, 0), Facing.S, id="d", handedness=handedness)
    opts = AttackOptions("broadsword", "thrust")
    plan = plan_attack(attacker_from(make, d, arc), d, opts, ruleset)
    front = plan_attack(attacker_from(make, d, Arc.FRONT), d, opts, ruleset)
    counts = TABLE[arc][3]
    shield_pd = d.fighter.shield.pd if d.fighter.shield else 0
    assert plan.passive_defense.shield_counts is counts
    assert plan.passive_defense.total == 3 + (shield_pd if counts else 0)
    # PD is subtracted from the attacker's skill (000 PASSIVE DEFENSE).
    assert plan.effective_skill - front.effective_skill == (0 if counts else shield_pd)
    assert plan.effective_skill == plan.base_skill + sum(m.value for m in plan.modifiers)


def test_handedness_mirrors_the_front_diagonals_on_written_out_hexes(
    make: Make, ruleset: Tables
) -> None:
    # Defender on (0,0) facing N, attacker on the NW neighbour (-1,0), facing SE.
    def plans(handedness: Handedness) -> tuple[int, int, bool]:
        d = make("sword-and-shield", Hex(0, 0), Facing.N, id="d", handedness=handedness)
        a = make("sword-and-shield", Hex(-1, 0), Facing.SE, id="a")
        opts = AttackOptions("broadsword", "thrust", defenses=(BLOCK, parry("broadsword")))
        plan = plan_attack(a, d, opts, ruleset)
        block, par = plan.defenses
        return block.value, par.value + 2, plan.passive_defense.shield_counts  # +2: after a block

    r_block, r_parry, r_shield = plans(RIGHT)  # shield on the left: shield-side front
    l_block, l_parry, l_shield = plans(LEFT)  # shield on the right: weapon-side front
    assert (r_shield, l_shield) == (True, False)
    assert r_block - l_block == 2  # block -2 only from the weapon side
    assert l_parry - r_parry == 2  # one-handed parry -2 only from the shield side


@pytest.mark.parametrize("arc", list(Arc))
def test_below_takes_the_worse_of_arc_and_below(make: Make, ruleset: Tables, arc: Arc) -> None:
    d = make("sword-and-shield", Hex(0, 0), Facing.N, id="d")
    s = make("spearman", Hex(0, 0), Facing.N, id="d")
    for defender, choice, column in (
        (d, BLOCK, 0),
        (d, parry("broadsword"), 1),
        (s, parry("long-spear"), 2),
    ):
        front = defense_value(make, ruleset, defender, Arc.FRONT, choice).value
        below = defense_value(make, ruleset, defender, arc, choice, below=True).value
        assert below - front == min(TABLE[arc][column], BELOW[column])
    a = attacker_from(make, d, arc)
    plan = plan_attack(a, d, AttackOptions("broadsword", "thrust", from_below=True), ruleset)
    assert plan.passive_defense.shield_counts is TABLE[arc][3]  # shield PD as its arc


def test_below_is_not_added_to_the_arc_penalty(make: Make, ruleset: Tables) -> None:
    d = make("sword-and-shield", Hex(0, 0), Facing.N, id="d")
    front = defense_value(make, ruleset, d, Arc.FRONT, BLOCK).value
    assert defense_value(make, ruleset, d, Arc.SHIELD_SIDE, BLOCK, below=True).value == front - 4
    # The same table with "sum" would give -8: the rule is data, and it matters.
    summed = replace(
        ruleset.directional, combine_below=type(ruleset.directional.combine_below)("sum")
    )
    assert summed.penalty(DefenseKind.BLOCK, Arc.SHIELD_SIDE, True, False) == -8
    assert ruleset.directional.penalty(DefenseKind.BLOCK, Arc.SHIELD_SIDE, True, False) == -4


@pytest.mark.parametrize("arc", list(Arc))
def test_dodge_has_no_directional_penalty(make: Make, ruleset: Tables, arc: Arc) -> None:
    d = make("spearman", Hex(0, 0), Facing.N, id="d")
    assert defense_value(make, ruleset, d, arc, DODGE).value == dodge_base(d.fighter).value - 1
    assert defense_value(make, ruleset, d, arc, DODGE, below=True).value == (
        defense_value(make, ruleset, d, Arc.FRONT, DODGE).value
    )


def test_directional_json_matches_the_seed_table(ruleset: Tables) -> None:
    t = ruleset.directional
    for arc, (block, one, two, shield) in TABLE.items():
        row = t.arcs[arc]
        assert (row.block, row.parry_one_handed, row.parry_two_handed, row.shield_pd) == (
            block,
            one,
            two,
            shield,
        )
    assert (t.below.block, t.below.parry_one_handed, t.below.parry_two_handed) == BELOW


# --- base scores ----------------------------------------------------------------------


def test_base_scores_round_down(templates: dict[str, Any], catalog: Any) -> None:
    f = templates["sword-and-shield"]
    assert block_base(f).value == 9  # 2/3 of 14 = 9.33
    g = amend(f, skills={"Shield": 13, "Broadsword": 13})
    assert block_base(g).value == 8  # 8.67
    expected = {
        ParryClass.FULL: 15,
        ParryClass.TWO_THIRDS: 10,
        ParryClass.HALF: 7,
        ParryClass.THIRD: 5,
    }
    sword = catalog.weapon("broadsword")
    for cls, value in expected.items():
        w = replace(sword, parry=cls)
        assert parry_base(amend(f, skills={"Broadsword": 15}), w).value == value


def test_dodge_is_the_best_of_move_dx_and_dodge_skill(templates: dict[str, Any]) -> None:
    f = templates["spearman"]
    assert dodge_base(replace(f, move=7)).value == 7
    assert dodge_base(replace(f, move=4)).value == sheet_of(f).attributes.dx // 2
    assert dodge_base(amend(f, move=4, dodge_skill=17)).value == 8


def test_dodge_subtracts_encumbrance_and_combat_reflexes_adds(make: Make, ruleset: Tables) -> None:
    d = make("spearman", Hex(0, 0), Facing.N, id="d", move=6, encumbrance=2)
    v = defense_value(make, ruleset, d, Arc.FRONT, DODGE).value
    assert v == 6 - 2
    cr = make("spearman", Hex(0, 0), Facing.N, id="d", move=6, encumbrance=2, combat_reflexes=True)
    assert defense_value(make, ruleset, cr, Arc.FRONT, DODGE).value == v + 1
    par = defense_value(make, ruleset, cr, Arc.FRONT, parry("long-spear"))
    assert par.value == par.base + 1
    assert any(m.citation == cite("000", "DEFENSES") for m in par.modifiers)


# --- caps --------------------------------------------------------------------------------


def test_armor_pd_is_capped_at_8(make: Make, ruleset: Tables) -> None:
    d = make("spearman", Hex(0, 0), Facing.N, id="d", armor=Armor("x", "Dragon scale", 10, 10))
    plan = plan_attack(
        attacker_from(make, d, Arc.FRONT), d, AttackOptions("broadsword", "thrust"), ruleset
    )
    assert plan.passive_defense.armor_pd == 8 and plan.passive_defense.total == 8
    assert plan.effective_skill == plan.base_skill - 8


def test_armor_and_shield_pd_capped_at_10(make: Make, ruleset: Tables) -> None:
    big = Shield("big", "Large shield", ShieldSize.LARGE, 4, 25, heavy=True)
    d = make(
        "sword-and-shield", Hex(0, 0), Facing.N, id="d", armor=Armor("p", "Plate", 8, 8), shield=big
    )
    plan = plan_attack(
        attacker_from(make, d, Arc.FRONT), d, AttackOptions("broadsword", "thrust"), ruleset
    )
    assert (plan.passive_defense.armor_pd, plan.passive_defense.shield_pd) == (8, 2)
    assert plan.effective_skill == plan.base_skill - 10


def test_active_defense_plus_pd_is_at_most_16(make: Make, ruleset: Tables) -> None:
    # The fencer: Fencing 15 + Combat Reflexes = 16 with leather PD 2 -> 14.
    d = make("fencer", Hex(0, 0), Facing.N, id="d")
    p = defense_value(make, ruleset, d, Arc.FRONT, parry("rapier"))
    assert p.base == 15 and p.value == 16 - 2
    capped = [m for m in p.modifiers if m.citation == cite("000", "ACTIVE DEFENSES")]
    assert [m.value for m in capped] == [-2]


def test_temporary_modifiers_come_after_the_pd_cap(make: Make, ruleset: Tables) -> None:
    d = make("fencer", Hex(0, 0), Facing.N, id="d")
    a = attacker_from(make, d, Arc.FRONT)
    swing = plan_attack(
        a, d, AttackOptions("broadsword", "swing", defenses=(parry("rapier"),)), ruleset
    )
    assert swing.defenses[0].value == 14 + 1  # +1 parrying a swing, on top of the cap


def test_every_score_at_most_16(make: Make, ruleset: Tables) -> None:
    d = make(
        "fencer", Hex(0, 0), Facing.N, id="d", armor=None, skills={"Fencing": 22, "Main-Gauche": 14}
    )
    a = attacker_from(make, d, Arc.FRONT)
    swing = plan_attack(
        a, d, AttackOptions("broadsword", "swing", defenses=(parry("rapier"),)), ruleset
    )
    p = swing.defenses[0]
    assert p.value == 16 and p.base == 22
    assert p.value == p.base + sum(m.value for m in p.modifiers)
    blocker = make(
        "sword-and-shield",
        Hex(0, 0),
        Facing.N,
        id="d",
        armor=None,
        skills={"Shield": 30, "Broadsword": 14},
    )
    b = defense_value(make, ruleset, blocker, Arc.FRONT, BLOCK)
    assert b.base == 20 and b.value == 16 - 3  # medium shield PD 3 counts from the front


# --- cumulative defenses: the seed's worked example ------------------------------------


def cumulative(history: list[TurnAction], kind: DefenseKind, key: str | None = None) -> int:
    return sum(m.value for m in cumulative_defense_modifiers(history, kind, key))


W = "broadsword"
ATTACK = TurnAction(ActionKind.ATTACK, W)
BLOCKED = TurnAction(ActionKind.BLOCK, "medium-shield")
DODGED = TurnAction(ActionKind.DODGE)
PARRIED = TurnAction(ActionKind.PARRY, W)


def test_each_defense_after_the_first_is_at_minus_2() -> None:
    # parry, then block, then dodge: 0, -2, -4; a second dodge -6.
    assert cumulative([], DefenseKind.PARRY, W) == 0
    assert cumulative([PARRIED], DefenseKind.BLOCK) == -2
    assert cumulative([PARRIED, BLOCKED], DefenseKind.DODGE) == -4
    assert cumulative([PARRIED, BLOCKED, DODGED], DefenseKind.DODGE) == -6


def test_defenses_with_a_weapon_that_attacked_are_at_minus_4_each() -> None:
    assert cumulative([ATTACK], DefenseKind.PARRY, W) == -4
    assert cumulative([ATTACK, PARRIED], DefenseKind.PARRY, W) == -8


def test_worked_example_attack_block_dodge_parry() -> None:
    assert cumulative([ATTACK], DefenseKind.BLOCK) == -2
    assert cumulative([ATTACK, BLOCKED], DefenseKind.DODGE) == -4
    assert cumulative([ATTACK, BLOCKED, DODGED], DefenseKind.PARRY, W) == -8
    after = [ATTACK, BLOCKED, DODGED, PARRIED]
    assert cumulative(after, DefenseKind.PARRY, W) == -12
    assert cumulative(after, DefenseKind.BLOCK) == -8
    assert cumulative(after, DefenseKind.DODGE) == -8


def test_a_critical_success_does_not_count() -> None:
    won = replace(BLOCKED, counts=False)
    assert cumulative([ATTACK, won], DefenseKind.DODGE) == -2


def test_attacking_with_a_weapon_that_parried_is_at_minus_4() -> None:
    mods = attack_cumulative_modifiers([PARRIED, DODGED, PARRIED], W)
    assert sum(m.value for m in mods) == -8 and mods[0].citation == CUMULATIVE
    assert attack_cumulative_modifiers([PARRIED], "axe") == ()


def _cumulative_part(plan: DefensePlan) -> int:
    return sum(m.value for m in plan.modifiers if m.citation == CUMULATIVE)


def test_worked_example_through_real_attacks(make: Make, ruleset: Tables, scripted: Any) -> None:
    """The seed's example played out: D attacks, then is attacked and blocks, dodges
    and parries (all failing), then faces a second attack."""
    d = make("sword-and-shield", Hex(0, 0), Facing.N, id="d")
    victim = make("spearman", Hex(0, -1), Facing.S, id="v")
    first = plan_attack(d, victim, AttackOptions(W, "thrust"), ruleset)
    # attack 16: a plain miss (no defenses announced), so no damage dice are needed
    # (a 17 would be a critical miss and roll on the critical miss table)
    d = resolve_attack(first, d, victim, scripted((6, 6, 4)), ruleset).attacker_after
    assert d.actions_this_turn == (replace(ATTACK, target_id="v"),)  # aimed at the victim

    a1 = make("sword-and-shield", Hex(0, -1), Facing.S, id="a1")
    plan = plan_attack(
        a1, d, AttackOptions(W, "thrust", defenses=(BLOCK, DODGE, parry(W))), ruleset
    )
    assert [_cumulative_part(p) for p in plan.defenses] == [-2, -4, -8]
    # attack 7 hits (skill 14 - PD 6); block 15 (vs 7), dodge 6 (vs 0) and parry 6 (vs 1)
    # fail - by less than 10, so none is a critical failure with its mishap; 1 damage die.
    faces = (2, 2, 3, 5, 5, 5, 2, 2, 2, 2, 2, 2, 2)
    res = resolve_attack(plan, a1, d, scripted(faces), ruleset)
    assert [r.outcome.is_success for r in res.defense_rolls] == [False, False, False]
    d = res.defender_after

    a2 = make("sword-and-shield", Hex(1, -1), Facing.SW, id="a2")
    for choice, expected in ((parry(W), -12), (BLOCK, -8), (DODGE, -8)):
        second = plan_attack(a2, d, AttackOptions(W, "thrust", defenses=(choice,)), ruleset)
        assert _cumulative_part(second.defenses[0]) == expected
    assert start_new_turn(d).actions_this_turn == ()


def test_critical_success_on_a_defense_wins_and_is_not_counted(
    make: Make, ruleset: Tables, scripted: Any
) -> None:
    d = make("sword-and-shield", Hex(0, 0), Facing.N, id="d")
    a = make("sword-and-shield", Hex(0, -1), Facing.S, id="a")
    plan = plan_attack(a, d, AttackOptions(W, "thrust", defenses=(BLOCK, DODGE)), ruleset)
    res = resolve_attack(plan, a, d, scripted((2, 2, 3, 1, 1, 2)), ruleset)  # block rolls 4
    assert res.defense_rolls[0].roll.outcome.name == "CRITICAL_SUCCESS"
    assert res.outcome.name == "DEFENDED" and res.damage is None
    assert [x.counts for x in res.defender_after.actions_this_turn] == [False, True]
    # The winning block gives no penalty later; the unrolled dodge still counts.
    again = plan_attack(
        a, res.defender_after, AttackOptions(W, "thrust", defenses=(BLOCK,)), ruleset
    )
    assert _cumulative_part(again.defenses[0]) == -2


# --- what may be announced ----------------------------------------------------------------


def _plan(make: Make, ruleset: Tables, d: Combatant, *defenses: DefenseChoice):
    a = attacker_from(make, d, Arc.FRONT)
    return plan_attack(a, d, AttackOptions(W, "thrust", defenses=defenses), ruleset)


def test_illegal_defenses(make: Make, ruleset: Tables, catalog: Any) -> None:
    fencer = make("fencer", Hex(0, 0), Facing.N, id="d")
    knight = make("sword-and-shield", Hex(0, 0), Facing.N, id="d")
    with pytest.raises(IllegalAttackError, match="no shield"):
        _plan(make, ruleset, fencer, BLOCK)
    with pytest.raises(IllegalAttackError, match="not ready"):
        _plan(make, ruleset, replace(knight, unready=frozenset({"medium-shield"})), BLOCK)
    with pytest.raises(IllegalAttackError, match="only one"):
        _plan(make, ruleset, fencer, parry("rapier"), parry("main-gauche"))
    with pytest.raises(IllegalAttackError, match="only one"):
        _plan(make, ruleset, knight, DODGE, BLOCK, DODGE)
    with pytest.raises(IllegalAttackError):
        _plan(make, ruleset, knight, DefenseChoice(DefenseKind.DODGE, W))
    with pytest.raises(IllegalAttackError, match="needs a weapon"):
        _plan(make, ruleset, knight, DefenseChoice(DefenseKind.PARRY))
    with pytest.raises(IllegalAttackError, match="no weapon"):
        _plan(make, ruleset, knight, parry("halberd"))
    bow = replace(
        catalog.weapon("club"), key="staff-sling", name="Staff sling", parry=ParryClass.NONE
    )
    slinger = make("sword-and-shield", Hex(0, 0), Facing.N, id="d", weapons=(bow,))
    with pytest.raises(IllegalAttackError, match="cannot parry"):
        _plan(make, ruleset, slinger, parry("staff-sling"))
    with pytest.raises(IllegalAttackError, match="not ready to parry"):
        _plan(make, ruleset, replace(knight, unready=frozenset({W})), parry(W))
    with pytest.raises(IllegalAttackError, match="unconscious"):
        _plan(make, ruleset, replace(knight, status=Status.UNCONSCIOUS), DODGE)
    # An unconscious defender can still be attacked, without active defenses.
    assert _plan(make, ruleset, replace(knight, status=Status.UNCONSCIOUS)).defenses == ()


def test_full_class_and_polearms_parry_even_when_unready(
    make: Make, ruleset: Tables, catalog: Any
) -> None:
    fencer = replace(make("fencer", Hex(0, 0), Facing.N, id="d"), unready=frozenset({"rapier"}))
    assert _plan(make, ruleset, fencer, parry("rapier")).defenses[0].value > 0
    halberdier = make(
        "spearman",
        Hex(0, 0),
        Facing.N,
        id="d",
        weapons=(catalog.weapon("halberd"),),
        skills={"Polearm": 14},
    )
    halberdier = replace(halberdier, unready=frozenset({"halberd"}))
    p = _plan(make, ruleset, halberdier, parry("halberd")).defenses[0]
    assert p.base == 7 and not p.becomes_unready  # 1/2 class, but polearms stay ready


def test_a_shield_blocks_at_most_twice_its_pd_per_turn(make: Make, ruleset: Tables) -> None:
    knight = make("sword-and-shield", Hex(0, 0), Facing.N, id="d")
    pd = knight.fighter.shield.pd if knight.fighter.shield else 0
    full = replace(knight, actions_this_turn=(BLOCKED,) * (2 * pd - 1))
    assert _plan(make, ruleset, full, BLOCK).defenses  # the last allowed block
    with pytest.raises(IllegalAttackError, match="at most"):
        _plan(make, ruleset, replace(full, actions_this_turn=(BLOCKED,) * (2 * pd)), BLOCK)


def test_possible_defenses(make: Make) -> None:
    knight = make("sword-and-shield", Hex(0, 0), Facing.N, id="d")
    assert possible_defenses(knight) == (DODGE, BLOCK, parry(W))
    fencer = make("fencer", Hex(0, 0), Facing.N, id="d")
    assert possible_defenses(fencer) == (DODGE, parry("rapier"), parry("main-gauche"))
    assert possible_defenses(replace(knight, status=Status.DEAD)) == ()


def test_unarmed_parry_against_a_weapon_is_at_minus_2(
    make: Make, ruleset: Tables, catalog: Any
) -> None:
    boxer = make(
        "spearman",
        Hex(0, 0),
        Facing.N,
        id="d",
        weapons=(catalog.weapon("fist"),),
        skills={"Brawling": 12},
    )
    p = _plan(make, ruleset, boxer, parry("fist")).defenses[0]
    assert p.base == 12 and p.value == 12 - 2
    assert [m.citation for m in p.modifiers] == [cite("000", "UNARMED PARRIES")]


@pytest.mark.parametrize(
    "mutate",
    [
        lambda d: d.pop("arcs"),
        lambda d: d["arcs"].pop("rear"),
        lambda d: d["arcs"]["front"].update(block="0"),
        lambda d: d["arcs"]["front"].update(block=2),
        lambda d: d["arcs"]["front"].pop("shield_pd"),
        lambda d: d["arcs"].update(behind=d["arcs"]["rear"]),
        lambda d: d["below"].update(shield_pd=True),
        lambda d: d.update(combine_below="product"),
        lambda d: d["citations"].pop("parry"),
    ],
)
def test_malformed_directional_tables(mutate: Callable[[dict[str, Any]], object]) -> None:
    import copy
    import json

    from rules.core.assets import asset_path

    data = json.loads(asset_path("rulesets", "000", "directional.json").read_text())
    parse_directional_table(copy.deepcopy(data))  # the shipped one parses
    mutate(data)
    with pytest.raises(DataError):
        parse_directional_table(data)
