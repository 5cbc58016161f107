"""Seed 002's protocol answers: initiative, maneuvers, legal actions, condition
labels, the sheet and its codec, the terrain's labels, the attack form, pieces
and the battle file, through ``Battle`` commands where the battle asks them."""

from __future__ import annotations

from dataclasses import replace

import pytest

from hexmap import Facing, Hex
from rules.battle.commands import Attack, EndTurn, MoveCombatant, PickUpItem, SetPosture
from rules.battle.model import Posture, Side
from rules.battle.roster import AddCombatant
from rules.battle.savefile import read_battle, write_battle
from rules.battle.scatter import Occupant, StrayRule
from rules.battle.terrain import Footing, Light, WaterDepth
from rules.battle.turns import ChooseManeuver, StartTurns
from rules.core.dice import ScriptedDice
from rules.core.errors import DataError, IllegalCommandError, RulesError
from rules.sets.attack_form import FLAG_ON
from rules.sets.registry import get_ruleset
from rules.sets.seed002.attack import Attack002, DefenseKind, Seed002Answer
from rules.sets.seed002.events import SkillRolled
from rules.sets.seed002.maneuvers import TieRolled
from rules.sets.seed002.ruleset import seed002_ruleset
from rules.sets.seed002.sheet import Sheet002, base_hit_points, sheet_of
from rules.sets.seed002.tables import catalog_002
from rules.sets.seed002.tracks import Tracks002, tracks_of
from rules.sets.sheet_fields import SheetEntries
from tests.rules.seed002_duel import (
    HOME,
    RULESET,
    SOUTH,
    battle,
    combatant,
    duel,
    fighter,
    of,
    paint,
    sword,
)

FAR = Hex.from_offset(8, 15)


def test_initiative_by_dex_ties_by_d10_rolled_again_while_equal() -> None:
    third = combatant(fighter("Third", dexterity=11), Hex.from_offset(2, 2), Facing.S, "t")
    state = duel(fighter("Quick", dexterity=15), fighter("Even", dexterity=11), third)
    b = battle(state)
    events = b.execute(StartTurns(), ScriptedDice((4, 4, 2, 7)))
    assert b.state.initiative == ("a", "t", "d")
    assert [(e.combatant_id, e.face) for e in of(events, TieRolled)] == [
        ("d", 4),
        ("t", 4),
        ("d", 2),
        ("t", 7),
    ]


def test_initiative_uses_dex_as_the_wounds_left_it() -> None:
    slowed = fighter("Slowed", dexterity=15)
    slowed = replace(
        slowed,
        stats=replace(
            sheet_of(slowed), characteristics=replace(sheet_of(slowed).characteristics, dexterity=5)
        ),
    )
    b = battle(duel(slowed, fighter("Defender", dexterity=9)))
    b.execute(StartTurns(), ScriptedDice(()))
    assert b.state.initiative == ("d", "a")


def test_maneuvers_and_what_they_allow() -> None:
    keys = [m.key for m in RULESET.turns.maneuvers(duel(), "a")]
    assert keys == ["attack", "move", "ready", "change-posture", "wait", "do-nothing"]
    attack = RULESET.turns.maneuver("attack").terms()
    assert (attack.attacks, attack.movement.value, attack.active_defenses) == (1, "step", True)
    assert RULESET.turns.maneuver("move").terms().attacks == 0
    assert RULESET.turns.maneuver("wait").terms().out_of_turn
    with pytest.raises(RulesError):
        RULESET.turns.maneuver("all-out-attack")


def test_a_move_maneuver_allows_no_attack_and_an_attack_implies_the_attack_maneuver() -> None:
    b = battle(duel(fighter("Quick", dexterity=15)))
    b.execute(StartTurns(), ScriptedDice(()))
    events = b.execute(Attack("a", "d", sword()), ScriptedDice((99,)))
    assert b.state.combatant("a").maneuver is not None
    assert b.state.combatant("a").maneuver.key == "attack"  # type: ignore[union-attr]
    assert events
    b.execute(EndTurn(), ScriptedDice(()))
    b.execute(EndTurn(), ScriptedDice(()))
    b.execute(ChooseManeuver("a", "move", ""), ScriptedDice(()))
    with pytest.raises(IllegalCommandError):
        b.execute(Attack("a", "d", sword()), ScriptedDice((99,)))


def test_legal_actions_on_its_turn_and_none_out_of_it() -> None:
    b = battle(duel(fighter("Quick", dexterity=15)))
    b.execute(StartTurns(), ScriptedDice(()))
    labels = [a.label for a in RULESET.turns.legal_actions(b.state, "a")]
    assert "attack Defender: Longsword, cut" in labels and "end the turn" in labels
    assert "maneuver: Move" in labels and any(x.startswith("move to") for x in labels)
    assert RULESET.turns.legal_actions(b.state, "d") == ()
    for action in RULESET.turns.legal_actions(b.state, "a"):
        if action.label == "attack Defender: Longsword, cut":
            # The attacker's choices alone: the defender answers for itself.
            assert action.command == Attack("a", "d", Attack002("longsword", "cut"))


def test_legal_actions_of_the_fallen_are_only_ending_the_turn() -> None:
    state = duel(fighter("Quick", dexterity=15))
    a = state.combatant("a")
    hurt = a.evolve(tracks=Tracks002(paralysis="neck"))
    b = battle(state.with_combatants(hurt))
    b.execute(StartTurns(), ScriptedDice(()))
    assert [x.label for x in RULESET.turns.legal_actions(b.state, "a")] == ["end the turn"]


def test_condition_labels() -> None:
    b = battle(duel())
    b.execute(SetPosture("d", Posture.PRONE), ScriptedDice(()))
    assert RULESET.conditions.labels(b.state.combatant("d")) == ("prone",)
    hurt = b.state.combatant("d").evolve(
        tracks=Tracks002(bleeding=1, skill_penalty=-50, useless_arms=frozenset({"left"}))
    )
    assert RULESET.conditions.labels(hurt) == (
        "prone",
        "bleeding 1 HP a round",
        "broken ribs (-50%)",
        "useless left arm",
    )


def test_sheet_rows() -> None:
    c = duel().combatant("a")
    sections = {s.title: {r.label: r.value for r in s.rows} for s in RULESET.sheets.sections(c)}
    assert sections["Characteristics"]["HP"] == "12 of 12"
    assert (sections["Characteristics"]["STR"], sections["Characteristics"]["CHA"]) == ("11", "11")
    assert sections["Characteristics"]["Major wound level"] == "6"
    assert sections["Characteristics"]["Armour points"] == "2 (Hard leather)"
    assert sections["Skills"]["Close Combat"] == "50%"
    assert sections["Weapons"]["Longsword"] == "cut 1d8 reach 1; medium"
    assert base_hit_points(sheet_of(c).characteristics) == 11


def test_sheet_codec_round_trip_and_refusals() -> None:
    f = fighter("Coded", ("dagger", "shortbow"), skills={"Athletics": 30})
    data = RULESET.sheets.encode(f)
    assert data["format"] == "hexfray-sheet-002" and data["version"] == 1
    assert RULESET.sheets.decode(data) == replace(
        f, stats=Sheet002(sheet_of(f).characteristics, dict(sorted(sheet_of(f).skills.items())))
    )
    with pytest.raises(DataError, match="format"):
        RULESET.sheets.decode({**data, "format": "hexfray-sheet-000"})
    with pytest.raises(DataError, match="version"):
        RULESET.sheets.decode({**data, "version": 2})
    bad = {**data, "characteristics": {**data["characteristics"], "siz": 0}}  # type: ignore[dict-item]
    with pytest.raises(DataError, match="siz"):
        RULESET.sheets.decode(bad)
    with pytest.raises(DataError, match="no seed 002 weapon"):
        RULESET.sheets.decode({**data, "weapons": ["broadsword"]})


def test_sheet_entries_round_trip_and_ranges() -> None:
    f = fighter("Edited")
    entries = RULESET.sheets.entries(f)
    assert RULESET.sheets.with_entries(f, entries) == replace(
        f, stats=Sheet002(sheet_of(f).characteristics, dict(sorted(sheet_of(f).skills.items())))
    )
    changed = SheetEntries({**entries.values, "dex": 17}, {"Dodge": 60})
    edited = RULESET.sheets.with_entries(f, changed)
    assert (sheet_of(edited).characteristics.dexterity, sheet_of(edited).skill("Dodge")) == (17, 60)
    with pytest.raises(DataError):
        RULESET.sheets.with_entries(f, SheetEntries({**entries.values, "str": 0}, {}))
    problems = RULESET.sheets.problems(
        replace(f, weapons=(replace(catalog_002().weapons["longsword"], skill="Sword Dancing"),))
    )
    assert [p.place for p in problems] == ["weapons/0/skill"]


def test_skills_default_to_their_base_values() -> None:
    bare = Sheet002()
    assert (bare.skill("Close Combat"), bare.skill("Ranged Combat"), bare.skill("Dodge")) == (
        22,
        22,
        21,
    )
    assert bare.skill("Juggling") == 0


def test_terrain_labels_name_the_rows() -> None:
    assert RULESET.battlefield.terrain_label(Light.DIM_5).endswith("partial darkness (-25%)")
    assert RULESET.battlefield.terrain_label(Light.TOTAL_DARKNESS).endswith("darkness (-50%)")
    assert RULESET.battlefield.terrain_label(Light.TWILIGHT) == Light.TWILIGHT.label
    assert RULESET.battlefield.terrain_label(Footing.BAD).endswith("unstable ground (-25%)")
    assert RULESET.battlefield.terrain_label(WaterDepth.DEEP).startswith("deep")
    assert RULESET.battlefield.terrain_label(WaterDepth.KNEE) == WaterDepth.KNEE.label


def test_attack_form_fields_and_greyed_choices() -> None:
    state = duel(fighter("Archer", ("shortbow", "dagger")), defender_hex=FAR)
    form = RULESET.attacks.attack_form(state, "a", "d", {})
    assert form.field("weapon").value == "shortbow/shoot"
    dagger = {c.key: c.problem for c in form.field("weapon").choices}["dagger/stab"]
    # The bow takes both hands: the dagger stays at the belt (rules.battle.hands).
    assert dagger == "Archer's Dagger is carried, not in hand: draw it first (Ready)"
    defenses = {c.key: c.problem for c in form.field("defense").choices}
    assert defenses["parry:longsword"] == "a ranged attack can be dodged, not parried"
    entries = {
        "wind": "high-wind",
        "obscured": "obscured",
        "movement": "moved-10m",
        "blinded": FLAG_ON,
    }
    form = RULESET.attacks.attack_form(state, "a", "d", entries)
    assert form.answer == Seed002Answer(DefenseKind.DODGE)
    assert form.choices == Attack002(
        "shortbow",
        "shoot",
        replace(
            sword().gm, wind="high-wind", obscured="obscured", movement="moved-10m", blinded=True
        ),
    )
    close = RULESET.attacks.attack_form(duel(), "a", "d", entries)
    assert close.field("wind").value == "" and close.field("blinded").value == ""
    far = RULESET.attacks.attack_form(duel(defender_hex=FAR), "a", "d", {})
    assert far.choices is None and "beyond" in far.problem


def test_attack_form_helpless_takes_the_defense_away() -> None:
    form = RULESET.attacks.attack_form(duel(), "a", "d", {"helpless": FLAG_ON})
    assert form.field("defense").value == "none"
    assert form.choices is not None and form.choices.gm.helpless  # type: ignore[attr-defined]


def test_every_attack_variant_previews_with_odds_summing_to_1() -> None:
    state = duel(fighter("Archer", ("shortbow", "dagger")), defender_hex=FAR)
    for s in (state, duel()):
        variants = RULESET.attacks.attack_variants(s, "a", "d")
        assert variants
        for v in variants:
            assert (
                sum(x.probability for x in RULESET.attacks.preview_attack(s, "a", "d", v).odds) == 1
            )


def test_no_piece_hits_anybody() -> None:
    who = duel().combatant("d")
    assert RULESET.battlefield.stray_hits.hit_chance(Occupant(who), StrayRule.IN_PATH) == 0
    state = duel()
    piece_state, events = RULESET.battlefield.piece_hit(
        state,
        None,
        None,
        who,
        "d",
        who.hex,  # type: ignore[arg-type]
        ScriptedDice(()),
    )
    assert (piece_state, events) == (state, ())


def test_placeable_items_are_the_catalog_weapons_but_bare_hands() -> None:
    names = [w.name for w in RULESET.battlefield.placeable_items()]
    assert "Fist" not in names and "Longsword" in names and names == sorted(names, key=str.lower)


def test_no_options() -> None:
    # The registry hands out the package's shared instance (asked again here: a
    # test elsewhere may have made the cache start over since RULESET was built).
    assert get_ruleset("002") is seed002_ruleset()
    assert get_ruleset("002").options == RULESET.options == frozenset()
    with pytest.raises(RulesError):
        get_ruleset("002", ["locations-001"])


def test_a_wounded_battle_saves_and_loads_as_it_is() -> None:
    b = battle(duel(None, fighter("Defender", ("longsword", "dagger"), armour=None)))
    b.execute(Attack("a", "d", sword()), ScriptedDice((3, 99, 9)))  # a useless left arm
    b.execute(MoveCombatant("a", HOME + Facing.N.vector), ScriptedDice(()))
    text = write_battle(b, RULESET.sheets.saved_types)
    loaded = read_battle(text, rulesets=get_ruleset)
    assert loaded.state == b.state
    assert tracks_of(loaded.state.combatant("d")).useless_arms == {"left"}
    assert [i.name for i in loaded.state.items] == ["Dagger"]


def test_a_fighter_of_another_ruleset_is_refused() -> None:
    from rules.sets.seed000.ruleset import seed000_ruleset  # noqa: F401 (its sheet type)
    from rules.sets.seed000.sheet import Sheet000

    stranger = replace(fighter("Stranger"), stats=Sheet000())
    b = battle(duel())
    with pytest.raises(IllegalCommandError, match="Stranger"):
        b.execute(
            AddCombatant(combatant(stranger, Hex.from_offset(1, 1), Facing.S, "x", Side.GREEN)),
            ScriptedDice(()),
        )
    assert SOUTH in b.state.grid


def test_situation_names_the_map_s_modifiers_for_both_rolls() -> None:
    b = battle(duel())
    b.execute(SetPosture("d", Posture.PRONE), ScriptedDice(()))
    found = [(m.value, m.reason) for m in RULESET.attacks.situation(b.state, "a", "d")]
    assert found == [
        (25, "target prone or attacked from behind"),
        (-25, "defense: fighting while prone"),
    ]


def test_a_paralysed_attacker_has_no_attack() -> None:
    state = duel()
    still = state.with_combatants(state.combatant("a").evolve(tracks=Tracks002(paralysis="neck")))
    assert RULESET.attacks.default_attack(still, "a", "d") is None
    assert RULESET.attacks.attack_variants(still, "a", "d") == ()


def test_the_form_s_defenses_show_the_skill_the_situation_leaves() -> None:
    """The defense choices name the base skill and, when the map, a mount or a
    wound changes it, the skill the roll is made at (as the attack rolls it)."""
    b = battle(duel(None, fighter("Defender", ("longsword", "dagger"))))
    plain = {
        c.key: c.label
        for c in RULESET.attacks.attack_form(b.state, "a", "d", {}).field("defense").choices
    }
    assert plain["dodge"] == "dodge (40%)"
    paint(b, [SOUTH], footing=Footing.BAD)
    form = RULESET.attacks.attack_form(b.state, "a", "d", {"defense": "dodge"})
    labels = {c.key: c.label for c in form.field("defense").choices}
    assert labels["dodge"] == "dodge (40%, now 15%)"
    assert labels["parry:dagger"] == "parry with the Dagger (50%, now 25%, small)"
    mounted = RULESET.attacks.attack_form(b.state, "a", "d", {"defender_mounted": FLAG_ON})
    # mounted +25% against the unstable ground's -25%: back to its skill
    assert {c.key: c.label for c in mounted.field("defense").choices}["dodge"] == "dodge (40%)"
    events = b.execute(Attack("a", "d", form.choices), ScriptedDice((10, 99, 1)))  # type: ignore[arg-type]
    assert [r.roll.skill for r in of(events, SkillRolled)] == [50, 15]


def _turns(b):  # type: ignore[no-untyped-def]
    """Start the turns: the quick attacker "a" first, the defender "d" next."""
    b.execute(StartTurns(), ScriptedDice(()))
    assert b.state.initiative == ("a", "d")


def test_each_maneuver_allows_what_it_says_through_battle_commands() -> None:
    """Wait: one attack on another fighter's turn; Ready: pick up a weapon and a
    step, no attack; Change posture: stand up, no step; Do nothing: no step, no
    attack. The Move maneuver's test is above."""
    step = HOME + Facing.N.vector
    waiting = battle(duel(fighter("Quick", dexterity=15), fighter("Tough", hp=40)))
    _turns(waiting)
    waiting.execute(ChooseManeuver("a", "wait", ""), ScriptedDice(()))
    waiting.execute(EndTurn(), ScriptedDice(()))
    assert waiting.state.active_id == "d"
    waiting.execute(Attack("a", "d", sword()), ScriptedDice((99,)))  # on the defender's turn
    with pytest.raises(IllegalCommandError, match="Wait allows 1"):
        waiting.execute(Attack("a", "d", sword()), ScriptedDice((99,)))

    ready = battle(duel(fighter("Quick", dexterity=15), fighter("Tough", hp=40)))
    _turns(ready)
    ready.execute(Attack("a", "d", sword()), ScriptedDice((100,)))  # a fumble drops the sword
    ready.execute(EndTurn(), ScriptedDice(()))
    ready.execute(EndTurn(), ScriptedDice(()))
    ready.execute(ChooseManeuver("a", "ready", ""), ScriptedDice(()))
    ready.execute(PickUpItem("a", ready.state.items[0].id), ScriptedDice(()))
    assert [w.key for w in ready.state.combatant("a").fighter.weapons] == ["longsword"]
    with pytest.raises(IllegalCommandError, match="Ready"):
        ready.execute(Attack("a", "d", sword()), ScriptedDice((99,)))
    ready.execute(MoveCombatant("a", step), ScriptedDice(()))
    assert ready.state.combatant("a").hex == step

    posture = battle(duel(fighter("Quick", dexterity=15)))
    posture.execute(SetPosture("a", Posture.PRONE), ScriptedDice(()))  # before the turns
    _turns(posture)
    posture.execute(ChooseManeuver("a", "change-posture", ""), ScriptedDice(()))
    posture.execute(SetPosture("a", Posture.STANDING), ScriptedDice(()))
    assert posture.state.combatant("a").posture is Posture.STANDING
    with pytest.raises(IllegalCommandError, match="Change posture"):
        posture.execute(MoveCombatant("a", step), ScriptedDice(()))

    idle = battle(duel(fighter("Quick", dexterity=15)))
    _turns(idle)
    idle.execute(ChooseManeuver("a", "do-nothing", ""), ScriptedDice(()))
    for command in (Attack("a", "d", sword()), MoveCombatant("a", step)):
        with pytest.raises(IllegalCommandError, match="Do nothing"):
            idle.execute(command, ScriptedDice((99,)))
