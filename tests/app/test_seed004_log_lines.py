"""Seed 004's log lines (app.rulesets.seed004.log_lines): every event class that
the seed 004 package defines reaches the log through Battle commands, and each
gets a short one-line text with every number read from the event, in its tone."""

from __future__ import annotations

import rules.sets.seed004
import rules.sets.seed004.events as ev
from app.event_text import Tone
from app.rulesets import ruleset_ui
from app.rulesets.seed004.log_lines import seed004_line
from rules.battle.pieces import Piece, Placement, PlacementKind
from rules.battle.turns import StartTurns
from rules.core.dice import ScriptedDice
from rules.core.events import Event
from rules.sets.seed004.wound_effects import WoundEffectRolled, WoundTaken
from tests.app.form_ui_checks import event_classes, package_modules
from tests.rules.seed004_battle import CATALOG, FRONT, RULESET, duel, hit

# The tone each event class of seed 004 is shown in (a check by its result, a
# zone's damage by whether any was done).
TONES: dict[type[Event], tuple[Tone, ...]] = {
    ev.AttackDeclared: (Tone.TITLE,),
    ev.CheckRolled: (Tone.SUCCESS, Tone.FAILURE),
    ev.AttackOutcome: (Tone.OUTCOME,),
    ev.ZoneFound: (Tone.PLAIN,),
    ev.DamageRolled: (Tone.PLAIN,),
    ev.ZoneDamaged: (Tone.HARM, Tone.NOTE),
    WoundTaken: (Tone.HARM,),
    WoundEffectRolled: (Tone.HARM,),
    ev.StatusChanged: (Tone.HARM,),
    ev.DefenseNotRolled: (Tone.NOTE,),
    ev.NothingHit: (Tone.NOTE,),
    ev.InitiativeRolled: (Tone.PLAIN,),
}


def seed004_event_classes() -> set[type[Event]]:
    """Every Event subclass defined in a module of the rules.sets.seed004 package."""
    return event_classes(package_modules(rules.sets.seed004))


def battle_events() -> list[Event]:
    """Events of each kind, from Battle commands on scripted dice."""
    events: list[Event] = []
    # a dodge that fails, a torso hit, a failed wound check, the fifth wound's effect
    events += hit(duel(bob_wounds=4), (3, 3, 1, 1, 3, 3, 5, 1, 1, 3))
    # a head hit below 0 HP: the consciousness check fails (unconscious)
    events += hit(duel(bob_hp=5), (3, 3, 1, 1, 5, 5, 5, 6, 6, 6, 6))
    # a surprise attack (no defense) on the heart stopped by the bone: no damage
    events += hit(duel(), (6, 6, 1, 1, 1), "knife", "stab", surprise=True)
    battle = duel()
    events += battle.execute(StartTurns(), ScriptedDice((6, 6, 1, 1)))
    piece = Piece("Club", CATALOG.weapon("club"), Placement(PlacementKind.FLIES))
    state = battle.state
    _, flown = RULESET.battlefield.piece_hit(
        state, piece, None, state.combatant("a"), "b", FRONT, ScriptedDice(())
    )
    events += flown
    return events


def test_every_seed_004_event_class_has_a_tone() -> None:
    assert seed004_event_classes() == set(TONES)


def test_every_seed_004_event_reaches_the_log_with_a_short_line() -> None:
    events = battle_events()
    seen = {type(e) for e in events}
    assert seed004_event_classes() <= seen, seed004_event_classes() - seen
    formatter = ruleset_ui("004").log_formatter
    for event in events:
        if type(event) not in TONES:  # the battle core's own events (turn order ...)
            assert seed004_line(event) is None
            continue
        line = seed004_line(event)
        assert line is not None, type(event).__name__
        text, tone = line
        assert formatter.line(event) == line
        assert text == event.describe() and "\n" not in text and 0 < len(text) <= 140, text
        assert tone in TONES[type(event)], (type(event).__name__, tone)
    zoned = [e for e in events if isinstance(e, ev.ZoneDamaged)]
    assert {tone_of(e) for e in zoned if e.damage} == {Tone.HARM}
    assert {tone_of(e) for e in zoned if not e.damage} == {Tone.NOTE}
    checks = [e for e in events if isinstance(e, ev.CheckRolled)]
    assert {tone_of(e) for e in checks if e.roll.succeeded} == {Tone.SUCCESS}
    assert {tone_of(e) for e in checks if not e.roll.succeeded} == {Tone.FAILURE}


def tone_of(event: Event) -> Tone:
    line = seed004_line(event)
    assert line is not None
    return line[1]


def test_only_an_attack_declaration_opens_a_row() -> None:
    formatter = ruleset_ui("004").log_formatter
    for event in battle_events():
        assert formatter.opens_row(event) is isinstance(event, ev.AttackDeclared)


def test_other_events_are_not_seed_004_s() -> None:
    assert seed004_line(Event()) is None
