"""Keys for memoising pure steps of the rules on values that cannot hash."""

from __future__ import annotations

from typing import Generic, TypeVar

__all__ = ["ByIdentity", "Passenger"]

T = TypeVar("T")


class ByIdentity(Generic[T]):
    """An object as a memo key by identity: the hit location systems and tables
    hold mappings (unhashable), and one loaded object answers the same way for
    its whole life. The key keeps its object alive."""

    __slots__ = ("value",)

    def __init__(self, value: T) -> None:
        self.value = value

    def __hash__(self) -> int:
        return id(self.value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ByIdentity) and other.value is self.value


class Passenger(Generic[T]):
    """An argument that rides along a memo key without being part of it: the
    memoised step reads of it only what the rest of the key holds (a combatant
    whose HP, state, HT and armor are in the key). All passengers compare equal."""

    __slots__ = ("value",)

    def __init__(self, value: T) -> None:
        self.value = value

    def __hash__(self) -> int:
        return 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Passenger)
