"""The ways 3d6 can total each sum, for tests that check tables by enumeration."""

# Ways 3d6 can total n (of 216), written out rather than computed, so that the
# tests do not lean on rules.core.dice to check the tables built on it.
WAYS_3D6 = {
    3: 1,
    4: 3,
    5: 6,
    6: 10,
    7: 15,
    8: 21,
    9: 25,
    10: 27,
    11: 27,
    12: 25,
    13: 21,
    14: 15,
    15: 10,
    16: 6,
    17: 3,
    18: 1,
}
