"""How the Hexfray process uses Python's cyclic garbage collector.

Start-up makes tens of thousands of objects that live as long as the program: the
modules, the rules' tables, the Qt wrappers of the window. A battle then makes many
short-lived frozen records for every command (states, plans, events), almost all of
them freed by reference counting. Left as they are, the start-up objects sit in the
collector's oldest generation, which every full collection walks again although
nothing there ever becomes garbage.

So, once start-up is over, ``settle_collector`` collects what start-up left over and
freezes the rest (``gc.freeze``): the collector's later runs only walk what the
battle made since. It also lets the young generation grow to ``YOUNG_GENERATION``
new objects before it is collected, instead of Python's 700. The records a command
keeps (its state, its events) are not garbage, yet at 700 each of them is walked
again by the young and middle generations' collections every few commands, and
the full collections come often, since after the freeze they compare what is new
with the little that is not frozen. Measured on the benchmark's attacks, 700
against 50,000 alternated in one run, on the busy 2-core machine: 4,605 against
5,751 commands a second (medians of 20 passes), and 4,055 against 4,465 in a
second run (16 passes). Cyclic garbage is still collected, only in larger
batches: a young collection of 50,000 objects took 10 to 25 ms there, about once
in a hundred commands. It is the same policy for the window and for
``--benchmark``, so the figures are those of the program as a GM runs it.
"""

from __future__ import annotations

import gc

# New container objects between two young collections (Python's default is 700).
YOUNG_GENERATION = 50_000


def pause_collector() -> None:
    """No cyclic collection while start-up builds its long-lived objects."""
    gc.disable()


def settle_collector() -> None:
    """After start-up: free start-up's garbage, freeze what remains out of the
    collector's walks, and collect from then on, the young generation in batches
    of ``YOUNG_GENERATION``."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_GENERATION, *gc.get_threshold()[1:])
    gc.enable()
