"""Each battle's seed, spawned from the run's master seed.

Battle ``i`` of a run gets the seed of the ``i``-th child of the master seed's
``numpy.random.SeedSequence`` (the child ``SeedSequence(master, spawn_key=(i,))``,
exactly what ``SeedSequence(master).spawn`` hands out ``i``-th). It depends on the
master seed and the battle's number only: not on the batch the battle went out
in, the worker that played it, or the backend, so a run's battles are the same
on one worker, on many or on a cluster.
"""

from __future__ import annotations

import numpy as np

# The largest master seed taken: SeedSequence takes any non-negative integer, and a
# command line's number is bounded before it is converted (app.simulate_cli).
MAX_MASTER_SEED = 2**128 - 1


def battle_seed(master_seed: int, index: int) -> int:
    """The seed of battle ``index`` (from 0) of the run seeded ``master_seed``: a
    64-bit number."""
    if not 0 <= master_seed <= MAX_MASTER_SEED:
        raise ValueError(f"a master seed is 0 to 2**128-1, not {master_seed}")
    if index < 0:
        raise ValueError(f"battle numbers start at 0, not {index}")
    child = np.random.SeedSequence(master_seed, spawn_key=(index,))
    return int(child.generate_state(1, dtype=np.uint64)[0])


def battle_seeds(master_seed: int, first: int, count: int) -> tuple[int, ...]:
    """The seeds of battles ``first`` .. ``first + count - 1``."""
    return tuple(battle_seed(master_seed, i) for i in range(first, first + count))
