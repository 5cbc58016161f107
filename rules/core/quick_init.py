"""``quick_init``: a frozen dataclass whose ``__init__`` stores its fields straight
into the instance, for the classes every command builds many of (the attack's
plan, rolls, outcome and events).

A frozen dataclass's own ``__init__`` sets each field through
``object.__setattr__(self, name, value)``, a call that looks the name up again
for every field; on the attack path those calls are about a tenth of a command's
work. The ``__init__`` made here takes the same arguments (positional and
keyword-only, defaults, default factories) and calls ``__post_init__`` as the
dataclass's does, but writes the instance's ``__dict__`` (or, for slots, each
slot's own writer) directly. Everything else of the dataclass (equality, hash,
repr, ``replace``, the frozen ``__setattr__``) stays as ``dataclass`` made it.
"""

from __future__ import annotations

import dataclasses
import types
from typing import Any, TypeVar

__all__ = ["quick_init"]

T = TypeVar("T")

_FACTORY = object()  # a field's default when its default factory makes the value


def quick_init(cls: type[T]) -> type[T]:
    """``cls`` (a frozen dataclass: put ``@quick_init`` above ``@dataclass``) with
    the quicker ``__init__``. A ``TypeError`` for what it does not rebuild: a class
    that is not a frozen dataclass, an ``InitVar`` or a field left out of
    ``__init__``."""
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen:
        raise TypeError(f"quick_init takes a frozen dataclass, not {cls.__name__}")
    every = getattr(cls, "__dataclass_fields__")  # noqa: B009 - set by dataclass
    fields = [f for f in every.values() if f._field_type is dataclasses._FIELD]  # type: ignore[attr-defined]
    if any(f._field_type is dataclasses._FIELD_INITVAR for f in every.values()):  # type: ignore[attr-defined]
        raise TypeError(f"quick_init does not rebuild {cls.__name__}: it has an InitVar")
    if any(not f.init for f in fields):
        raise TypeError(f"quick_init does not rebuild {cls.__name__}: a field is not in __init__")
    namespace: dict[str, Any] = {"_FACTORY": _FACTORY}
    positional: list[str] = []
    keyword: list[str] = []
    body: list[str] = []
    for f in fields:
        if f.default is not dataclasses.MISSING:
            namespace[f"_default_{f.name}"] = f.default
            param = f"{f.name}=_default_{f.name}"
        elif f.default_factory is not dataclasses.MISSING:
            namespace[f"_factory_{f.name}"] = f.default_factory
            param = f"{f.name}=_FACTORY"
            body.append(f"    if {f.name} is _FACTORY:\n        {f.name} = _factory_{f.name}()")
        else:
            param = f.name
        (keyword if f.kw_only else positional).append(param)
    stored_in_dict = False
    for f in fields:
        # A slot is written by its own descriptor; any other field into __dict__.
        held = next((vars(k)[f.name] for k in cls.__mro__ if f.name in vars(k)), None)
        if isinstance(held, types.MemberDescriptorType):
            namespace[f"_set_{f.name}"] = held.__set__
            body.append(f"    _set_{f.name}(__quick_self, {f.name})")
        else:
            if not stored_in_dict:
                body.append("    __quick_fields = __quick_self.__dict__")
                stored_in_dict = True
            body.append(f"    __quick_fields[{f.name!r}] = {f.name}")
    if hasattr(cls, "__post_init__"):
        body.append("    __quick_self.__post_init__()")
    signature = ", ".join(["__quick_self", *positional, *(["*", *keyword] if keyword else [])])
    source = "\n".join([f"def __init__({signature}) -> None:", *(body or ["    pass"])])
    exec(source, namespace)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    init.__doc__ = cls.__init__.__doc__
    setattr(cls, "__init__", init)  # noqa: B010 - mypy may not assign to a method
    return cls
