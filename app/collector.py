"""How the Hexfray process uses Python's cyclic garbage collector.

Start-up makes tens of thousands of objects that live as long as the program: the
modules, the rules' tables, the Qt wrappers of the window. A battle then makes many
short-lived frozen records for every command (states, plans, events), almost all of
them freed by reference counting. Left as they are, the start-up objects sit in the
collector's oldest generation, which every full collection walks again although
nothing there ever becomes garbage.

So, once start-up is over, ``settle_collector`` collects what start-up left over and
freezes the rest (``gc.freeze``): the collector's later runs only walk what the
battle made since. It is the same policy for the window and for ``--benchmark``, so
the figures are those of the program as a GM runs it.
"""

from __future__ import annotations

import gc


def pause_collector() -> None:
    """No cyclic collection while start-up builds its long-lived objects."""
    gc.disable()


def settle_collector() -> None:
    """After start-up: free start-up's garbage, freeze what remains out of the
    collector's walks, and collect normally from then on."""
    gc.collect()
    gc.freeze()
    gc.enable()
