"""Domain errors of the rules layer. All subclass ValueError so callers can treat
bad input uniformly (as python-chess does with its IllegalMoveError)."""


class RulesError(ValueError):
    """Base of every rules-layer error."""


class IllegalCommandError(RulesError):
    """A battle command that cannot be applied to the current battle state."""


class IllegalAttackError(RulesError):
    """An attack or defense that the rules do not allow (e.g. blocking with no shield)."""


class DataError(RulesError):
    """A malformed asset table (weapons, shields, armor, battle files)."""
