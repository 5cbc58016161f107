"""The single exception type of the hexmap package."""


class HexmapError(ValueError):
    """Every domain error raised by hexmap: bad coordinates, bad reach text, bad sizes.

    It subclasses ValueError so callers that only care about "bad input" can catch that.
    """
