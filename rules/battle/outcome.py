"""How a battle ended, as the state keeps it (``BattleState.outcome``).

The battle decides it itself after every command (``rules.battle.decision``);
keeping it in the state makes an undo take it back, and a save and a replay
bring it again, like everything else the commands did.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.battle.model import Side


@dataclass(frozen=True, slots=True)
class BattleOutcome:
    """The battle is decided: ``winner`` is the one side with a fighter still able
    to act (None: a draw, nobody can), since ``round``. ``continued``: the GM
    chose to play on anyway (``rules.battle.decision.ContinueBattle``)."""

    winner: Side | None
    round: int
    continued: bool = False

    @property
    def is_draw(self) -> bool:
        return self.winner is None
