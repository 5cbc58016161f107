"""``rules.core.quick_init``: the quicker ``__init__`` takes the arguments the
dataclass's own takes and builds the same instance."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import pytest

from rules.core.quick_init import quick_init


@dataclass(frozen=True)
class Plain:
    x: int
    y: str = "y"
    z: tuple[int, ...] = field(default_factory=lambda: (1,))

    def __post_init__(self) -> None:
        if self.x < 0:
            raise ValueError("x below 0")


@quick_init
@dataclass(frozen=True)
class QuickPlain(Plain):
    pass


@dataclass(frozen=True, slots=True)
class Slotted:
    a: int
    b: frozenset[str] = field(default_factory=frozenset)
    c: int = 3


@quick_init
@dataclass(frozen=True, slots=True)
class QuickSlotted:
    a: int
    b: frozenset[str] = field(default_factory=frozenset)
    c: int = 3


@dataclass(frozen=True, kw_only=True)
class KeywordBase:
    k: int = 0


@quick_init
@dataclass(frozen=True, kw_only=True)
class QuickKeyword(KeywordBase):
    m: str
    n: int = 5


def test_a_plain_class_gets_its_fields_defaults_factories_and_post_init() -> None:
    assert vars(QuickPlain(1)) == vars(Plain(1))
    assert vars(QuickPlain(2, "a", (3,))) == vars(Plain(2, "a", (3,)))
    assert QuickPlain(x=1, z=(2,)).z == (2,)
    with pytest.raises(ValueError, match="below 0"):
        QuickPlain(-1)
    with pytest.raises(TypeError):
        QuickPlain()  # type: ignore[call-arg]
    with pytest.raises(dataclasses.FrozenInstanceError):
        QuickPlain(1).x = 2  # type: ignore[misc]


def test_a_slotted_class_fills_its_slots() -> None:
    made = QuickSlotted(1)
    assert (made.a, made.b, made.c) == (1, frozenset(), 3)
    assert QuickSlotted(1, c=4).c == 4
    assert QuickSlotted(1) == QuickSlotted(1)
    assert hash(QuickSlotted(1)) == hash(QuickSlotted(1))
    assert (Slotted(1).a, Slotted(1).c) == (made.a, made.c)
    with pytest.raises(TypeError):
        QuickSlotted(1, frozenset(), 3, 4)  # type: ignore[call-arg]


def test_keyword_only_fields_stay_keyword_only_and_replace_and_repr_work() -> None:
    made = QuickKeyword(m="q")
    assert (made.k, made.m, made.n) == (0, "q", 5)
    with pytest.raises(TypeError):
        QuickKeyword("q")  # type: ignore[call-arg, arg-type]
    assert dataclasses.replace(made, n=1).n == 1
    assert repr(QuickKeyword(m="a", k=2)) == "QuickKeyword(k=2, m='a', n=5)"


def test_what_it_does_not_rebuild_is_refused() -> None:
    class NotADataclass:
        pass

    with pytest.raises(TypeError, match="frozen dataclass"):
        quick_init(NotADataclass)

    @dataclass(frozen=True)
    class LeftOut:
        a: int
        b: int = field(default=0, init=False)

    with pytest.raises(TypeError, match="not in __init__"):
        quick_init(LeftOut)
