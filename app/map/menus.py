"""The map's context menu: for a combatant "Set as target", "Select", its postures
(``SetPosture``), what it must ready or may draw (``ReadyWeapon``), what it may
put away (``PutAwayItem``), what it may drop and who plays it (the GM or the
computer: ``app.played_by_menu``); on an
empty hex the GM's "Place item"; for items on the hex, "Pick up" by the selection
(``PickUpItem``)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QMenu, QWidget

from app import icons
from app.controller import BattleController
from app.map.drops import (
    catalog_item_choices,
    draw_choices,
    droppable_items,
    put_away_choices,
)
from app.map.tools import (
    combatant_at,
    pick_up_command,
    posture_choices,
    posture_command,
    posture_label,
    put_away_command,
    ready_choices,
    ready_command,
)
from app.new_battle import add_fighter_menu, duplicate_fighter_action, remove_fighter_action
from app.played_by_menu import add_played_by_menu
from hexmap import Hex
from rules.battle.items import ItemKind
from rules.battle.model import Combatant


def context_menu_for(
    parent: QWidget,
    controller: BattleController,
    h: Hex | None,
    begin_drop: Callable[[str, str], bool],
) -> QMenu | None:
    """The map's menu for a hex (None where there is nothing to offer); the drop
    entries start the pick of the hex with ``begin_drop(combatant_id, key)``."""
    if h is None:
        return None
    state = controller.state
    c = combatant_at(state, h)
    menu = QMenu(parent)
    menu.setObjectName("mapContextMenu")
    if c is not None:
        target = menu.addAction("Set as &Target")
        target.setObjectName("setTarget")
        target.setEnabled(c.id != controller.selected_id)
        target.triggered.connect(lambda _=False, cid=c.id: controller.set_target(cid))
        select = menu.addAction(f"&Select {c.name}")
        select.setObjectName("selectCombatant")
        select.triggered.connect(lambda _=False, cid=c.id: controller.select(cid))
        sub = menu.addMenu("&Posture")
        sub.setObjectName("postureMenu")
        for posture in posture_choices():
            action = sub.addAction(posture_label(posture))
            action.setObjectName(f"posture:{posture.value}")
            action.setCheckable(True)
            action.setChecked(posture == c.posture)
            action.triggered.connect(
                lambda _=False, cid=c.id, po=posture: controller.execute(posture_command(cid, po))
            )
        add_hands_menus(menu, controller, c)
        droppable = droppable_items(c)
        if droppable:
            sub = menu.addMenu("&Drop")
            sub.setObjectName("dropMenu")
            for key, name in droppable:
                action = sub.addAction(f"{name}…")
                action.setObjectName(f"drop:{key}")
                action.setStatusTip(
                    f"{c.name} drops the {name}: pick the hex where it falls"
                )
                action.triggered.connect(lambda _=False, cid=c.id, k=key: begin_drop(cid, k))
        add_played_by_menu(menu, controller, c)
        remove_fighter_action(menu, controller, c)
        duplicate_fighter_action(menu, controller, c)
    else:
        add_fighter_menu(menu, controller, h)
        add_place_item_menu(menu, controller, h)
    sid = controller.selected_id
    items = state.items_at(h)
    if items and sid is not None:
        menu.addSeparator()
        picker = state.combatant(sid)
        for item in items:
            action = menu.addAction(
                icons.item_icon(icons.icon_key_for(item.icon, item.name)),
                f"{picker.name}: pick up {item.name}",
            )
            action.setObjectName(f"pickUp:{item.id}")
            action.setEnabled(picker.hex.distance(item.hex) <= 1)
            action.triggered.connect(
                lambda _=False, cid=sid, iid=item.id: controller.execute(pick_up_command(cid, iid))
            )
    if menu.isEmpty():
        menu.deleteLater()
        return None
    return menu


def add_hands_menus(menu: QMenu, controller: BattleController, c: Combatant) -> None:
    """The fighter's "Ready" submenu (what the rules left unready, and drawing what
    it carries: ``ReadyWeapon``) and its "Put away" submenu (``PutAwayItem``, to
    free a hand); each a Ready maneuver."""
    readiable = [(key, name, name, "readies") for key, name in ready_choices(c)]
    readiable += [(key, f"Draw {name}", name, "draws") for key, name in draw_choices(c)]
    if readiable:
        sub = menu.addMenu("&Ready")
        sub.setObjectName("readyMenu")
        for key, text, name, verb in readiable:
            action = sub.addAction(text)
            action.setObjectName(f"ready:{key}")
            action.setStatusTip(f"{c.name} {verb} the {name} (a Ready maneuver)")
            action.triggered.connect(
                lambda _=False, cid=c.id, k=key: controller.execute(ready_command(cid, k))
            )
    held = put_away_choices(c)
    if held:
        sub = menu.addMenu("Put a&way")
        sub.setObjectName("putAwayMenu")
        for key, name in held:
            action = sub.addAction(name)
            action.setObjectName(f"putAway:{key}")
            action.setStatusTip(
                f"{c.name} puts the {name} away to free a hand (a Ready maneuver; "
                "Ready draws it again)"
            )
            action.triggered.connect(
                lambda _=False, cid=c.id, k=key: controller.execute(put_away_command(cid, k))
            )


def add_place_item_menu(menu: QMenu, controller: BattleController, h: Hex) -> None:
    """The GM's "Place item" submenu on an empty hex: every catalog weapon and
    shield, each put on the hex by ``AddItem``."""
    choices = catalog_item_choices(controller.ruleset)
    if not choices:
        return
    sub = menu.addMenu("&Place item…")
    sub.setObjectName("placeItemMenu")
    last_kind: ItemKind | None = None
    for choice in choices:
        if last_kind is not None and choice.kind is not last_kind:
            sub.addSeparator()
        last_kind = choice.kind
        action = sub.addAction(
            icons.item_icon(icons.icon_key_for(choice.icon, choice.name)), choice.name
        )
        action.setObjectName(f"place:{choice.kind.value}:{choice.key}")
        action.triggered.connect(
            lambda _=False, ch=choice, at=h: controller.execute(ch.command(at))
        )
