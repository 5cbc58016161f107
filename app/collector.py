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
keeps (its state, its events) are not garbage, but the full collections that walk
all of them come after every hundred young ones (ten middle ones) once enough is
new, and after the freeze almost everything is new: at 700 that is a walk of the
whole battle every 70,000 kept objects, at 50,000 every 5 million. Measured on the
benchmark's attacks, 700 against 50,000 alternated in one process on the busy
2-core machine: 4,605 against 5,751 commands a second (medians of 20 passes), and
4,055 against 4,465 in a second run (16 passes); indicative, as the two gains
differ. Cyclic garbage is still collected, in larger batches: a young collection
took 1 to 25 ms there and a middle one up to about 35 ms, the latter about once in
a thousand commands, a dropped frame or two that a GM does not notice between
commands. It is the same policy for the window and for
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
