"""One way to name a hex everywhere (issue 22): the map's column and row, as
``rules.battle.values.hex_name`` says it ("column 12, row 6"), in every event's
sentence and log line of a played battle of each ruleset, in the refusals, the
legal actions, the status bar, the panes and the map's tooltip. No other form
("13,-2", "Hex 15,-4", "Hex(q=15, r=-4)") is left."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from dataclasses import replace

import pytest
from PySide6.QtCore import Qt

from app.event_text import rows_for_events
from app.gcs_import import ImportPlan, update_text
from app.main_window import MainWindow
from app.rulesets import ruleset_ui
from hexmap import Hex
from rules.battle.battle import Battle
from rules.battle.command_events import Moved
from rules.battle.commands import Attack, DropItem, MoveCombatant, PickUpItem, PlaceItem
from rules.battle.items import ItemDropped, ItemPickedUp, ItemPlaced
from rules.battle.roster import AddCombatant, CombatantAdded, CombatantRemoved, RemoveCombatant
from rules.battle.scatter import PieceLanded
from rules.battle.state import BattleState
from rules.battle.values import hex_name
from rules.core.errors import RulesError
from rules.core.events import Event
from rules.sets.protocol import ImportedCharacter
from rules.sets.registry import ruleset_keys, ruleset_of
from tests.rules.test_demo_battles import load_demo, play_rounds

ROUNDS = 3
# The hex-bearing events every played battle below brings, and the one a thrown
# weapon brings where a demo fighter carries one.
EXPECTED = {Moved, ItemDropped, ItemPlaced, ItemPickedUp, CombatantAdded, CombatantRemoved}
THROWN = {"002": PieceLanded}


def hexes_in(value: object) -> set[Hex]:
    """Every hex a value holds, however deep (an event's fields, a landing's path)."""
    if isinstance(value, Hex):
        return {value}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        found: set[Hex] = set()
        for field in dataclasses.fields(value):
            found |= hexes_in(getattr(value, field.name))
        return found
    if isinstance(value, tuple | list | frozenset | set):
        return set().union(*(hexes_in(v) for v in value)) if value else set()
    return set()


def other_forms(text: str, hexes: set[Hex]) -> list[str]:
    """What in ``text`` names a hex otherwise than ``hex_name``: its axial
    coordinates as a pair ("13,-2"), or a ``Hex`` written out."""
    found = re.findall(r"Hex\(|\bq=|\bHex -?\d", text)
    for h in hexes:
        found += re.findall(rf"(?<![\w.,-]){h.q}, ?{h.r}(?![\w,])", text)
    return found


def texts_of(event: Event, key: str) -> Iterator[str]:
    """The event's sentence and its log line, as the log shows them."""
    yield event.describe()
    for row in rows_for_events((event,), ruleset_ui(key).log_formatter):
        for line in row.lines:
            yield line.text
            yield line.detail


def gm_commands(battle: Battle) -> None:
    """What a GM does besides the turns: a weapon dropped, moved on the map,
    picked up and dropped again, a thrown weapon where one is carried, a fighter
    added and one taken off the map."""
    state = battle.state
    holder = next(c for c in state.combatants if c.fighter.weapons and c.status.can_defend)
    weapon = holder.fighter.weapons[0]
    battle.execute(DropItem(holder.id, weapon.key))
    item = battle.state.items[-1]
    step = next(n for n in holder.hex.neighbors() if n in state.grid and state.occupant(n) is None)
    battle.execute(PlaceItem(item.id, step))
    battle.execute(PickUpItem(holder.id, item.id, gm_override=True))
    battle.execute(DropItem(holder.id, weapon.key))  # and it stays on the map
    throw = next(thrown_attacks(battle.state), None)
    if throw is not None:
        battle.execute(throw)
    grid = battle.state.grid
    free = next(
        h
        for h in (
            Hex.from_offset(col, row) for row in range(grid.height) for col in range(grid.width)
        )
        if battle.state.occupant(h) is None
    )
    newcomer = replace(holder, id="newcomer", hex=free)
    battle.execute(AddCombatant(newcomer))
    battle.execute(RemoveCombatant("newcomer"))


def thrown_attacks(state: BattleState) -> Iterator[Attack]:
    """Every throw of a weapon at a foe who can defend that the ruleset's attack
    form offers (the GM's override past the turn's limits)."""
    ruleset = ruleset_of(state)
    for thrower in state.combatants:
        for target in state.combatants:
            if thrower.side is target.side or not target.status.can_defend:
                continue
            for choices in ruleset.attacks.attack_variants(state, thrower.id, target.id):
                if "throw" in repr(choices):
                    yield Attack(thrower.id, target.id, choices, gm_override=True)


@pytest.fixture(scope="module", params=ruleset_keys())
def played(request: pytest.FixtureRequest) -> tuple[str, Battle]:
    key = str(request.param)
    battle = load_demo(key)
    play_rounds(battle, ROUNDS)
    gm_commands(battle)
    return key, battle


def test_every_event_of_a_played_battle_names_its_hexes_one_way(
    played: tuple[str, Battle],
) -> None:
    key, battle = played
    seen: set[type] = set()
    for event in battle.events:
        hexes = hexes_in(event)
        if hexes:
            seen.add(type(event))
        for text in texts_of(event, key):
            assert not other_forms(text, hexes), f"{type(event).__name__}: {text!r}"
    expected = EXPECTED | ({THROWN[key]} if key in THROWN else set())
    assert expected <= seen, f"ruleset {key}: no {sorted(t.__name__ for t in expected - seen)}"


def test_a_landing_names_the_hex_it_lands_in(played: tuple[str, Battle]) -> None:
    _key, battle = played
    for event in battle.events:
        if isinstance(event, PieceLanded):
            assert hex_name(event.landing.final) in event.describe()


def test_refusals_and_legal_actions_name_hexes_one_way(played: tuple[str, Battle]) -> None:
    _key, battle = played
    state = battle.state
    ruleset = ruleset_of(state)
    someone = next(c for c in state.combatants if c.status.can_defend)
    beyond = Hex.from_offset(state.grid.width + 3, 2)
    messages = []
    for command in (
        MoveCombatant(someone.id, beyond, gm_override=True),
        PlaceItem(state.items[0].id, beyond),
        AddCombatant(replace(someone, id="late", hex=beyond)),
        AddCombatant(replace(someone, id="late", hex=state.combatants[-1].hex)),
    ):
        with pytest.raises(RulesError) as refused:
            battle.execute(command)
        messages.append(str(refused.value))
    assert hex_name(beyond) in messages[0] and hex_name(beyond) in messages[2]
    labels = [a.label for c in state.combatants for a in ruleset.turns.legal_actions(state, c.id)]
    moves = [label for label in labels if label.startswith("move to")]
    assert moves and all(
        re.fullmatch(r"move to column \d+, row \d+(, facing [NESW]+)?", s) for s in moves
    )
    for text in (*messages, *labels):
        assert not other_forms(text, {beyond, *(c.hex for c in state.combatants)}), text


def test_the_window_names_a_hex_as_the_log_does(qtbot, main_window: MainWindow) -> None:
    """The status bar's hover, the hex pane, the map's tooltip, the combatants'
    tooltip, the inspector and the import's update line."""
    window = main_window
    controller = window.controller
    c = controller.state.combatants[1]
    name = hex_name(c.hex)
    view = window.map_view
    view.hovered_hex_changed.emit(c.hex)  # the pointer over it (no real pointer moved)
    window.hex_pane.show_hex(c.hex)
    controller.select(c.id)
    row = window.combatants_pane.model.row_of(c.id)
    shown = {
        "status bar": window.hover_label.text(),
        "hex pane": window.hex_pane.title.text(),
        "tooltip": view.describe_hex(c.hex),
        "combatants": window.combatants_pane.model.index(row, 0).data(Qt.ItemDataRole.ToolTipRole),
        "inspector": window.inspector_pane.place_label.text(),
        "import": update_text(
            controller.state,
            ImportPlan(ImportedCharacter(c.fighter, c.hp, (), ()), (), c),
        ),
    }
    for where, text in shown.items():
        assert name in text.casefold(), f"{where}: {text!r}"
        assert not other_forms(text, {c.hex}), f"{where}: {text!r}"
