"""A small battle file for the tests of its loader: two fencers facing each other."""

from __future__ import annotations


def two_fencers(**blue: object) -> dict[str, object]:
    """A 5x5 battle of a red fencer at (1, 1) facing S and a blue one at (1, 3)
    facing N; ``blue`` adds fields to the blue fencer's entry."""
    return {
        "map": {"cols": 5, "rows": 5},
        "combatants": [
            {"template": "fencer", "side": "red", "at": {"col": 1, "row": 1}, "facing": "S"},
            {
                "template": "fencer",
                "side": "blue",
                "at": {"col": 1, "row": 3},
                "facing": "N",
                **blue,
            },
        ],
    }
