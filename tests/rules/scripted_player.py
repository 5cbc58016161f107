"""A scripted player for simulated battles (rules.sim.simulate's ``player``): cheap
and deterministic, so that the simulation path can be checked against ``Battle``
on hundreds of seeds. Each turn: pick up a weapon within reach when disarmed, else
face the nearest foe still able to act and strike it with the ruleset's plain
attack, readying an unready weapon first, else step towards it; then end the turn."""

from __future__ import annotations

from dataclasses import replace

from hexmap import direction_to
from rules.battle.commands import (
    EndTurn,
    MoveCombatant,
    PickUpItem,
    ReadyWeapon,
    TurnCombatant,
)
from rules.battle.hands import pick_up_problem
from rules.battle.model import Combatant, Status
from rules.battle.state import BattleState, Command
from rules.battle.turns import StartTurns
from rules.play.policies import Decision
from rules.sets.protocol import Ruleset, plain_attack


class ScriptedPlayer:
    def waits_for(self, state: BattleState) -> str:
        return "the battle is decided" if state.outcome is not None else ""

    def next_decision(self, ruleset: object, state: BattleState) -> Decision | None:
        if state.outcome is not None:
            return None
        active = state.active_id
        if active is None:
            return Decision("", "Start the turns", (StartTurns(),), False, "", 0.0)
        commands = _commands(ruleset, state, state.combatant(active))  # type: ignore[arg-type]
        return Decision(active, "scripted", (*commands, EndTurn()), True, "", 0.0)


def _commands(ruleset: Ruleset, state: BattleState, who: Combatant) -> list[Command]:
    if who.status is not Status.ACTIVE:
        return []
    if not who.fighter.weapons:
        near = [
            i
            for i in state.items
            if i.weapon is not None
            and who.hex.distance(i.hex) <= 1
            and pick_up_problem(who, i.weapon) is None
        ]
        return [PickUpItem(who.id, near[0].id)] if near else []
    foes = [c for c in state.combatants if c.side != who.side and c.status is Status.ACTIVE]
    if not foes:
        return []
    target = min(foes, key=lambda c: (who.hex.distance(c.hex), c.id))
    facing = direction_to(who.hex, target.hex)
    commands: list[Command] = []
    if who.facing is not facing:
        commands.append(TurnCombatant(who.id, facing))
    faced = state.with_combatants(replace(who, facing=facing))
    attack = plain_attack(ruleset, faced, who.id, target.id)
    if attack is not None:
        return [*commands, attack]
    if who.unready:
        return [*commands, ReadyWeapon(who.id, sorted(who.unready)[0])]
    step = who.hex.neighbor(facing)
    if step in state.grid and state.occupant(step) is None:
        commands.append(MoveCombatant(who.id, step))
    return commands
