"""Start-up speed-ups for the packaged app (docs/packaging.md, "How Hexfray starts
quickly"). Nothing here imports Qt, so ``main.py`` can use it before anything else
is loaded.

**Precompiled dataclass methods.** ``dataclasses`` writes the source of each
class's ``__init__``, ``__repr__``, ``__eq__``, ``__hash__`` and frozen
``__setattr__``/``__delattr__`` and compiles it when the class is created: about
0.45 ms a class on CPython 3.11, some 17 ms for the 41 dataclasses the first frame
needs. The build imports every module of ``app``, ``rules`` and ``hexmap`` once
(``python -m app.fast_start --record FOLDER``) and saves the compiled code of every
generated method, keyed by its exact source text, a file per module, in the
bundle. The packaged app installs those tables as the ``exec`` that the
``dataclasses`` module calls: a source text they hold runs the code ``compile``
would have made of it, any other text is compiled as usual. The files carry the
Python version that wrote them and any other version ignores them.

The other speed-up, no cyclic garbage collection until the window and its panes
are up, is two lines in ``main.py`` and the bundle's runtime hook
``packaging/rthook_pause_gc.py``.
"""

from __future__ import annotations

import dataclasses
import importlib
import marshal
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from types import CodeType
from typing import Any

# The one resolver of bundled files; it creates no dataclass, so the tables below
# can still be installed before any module of ours creates one.
from rules.core.assets import bundle_root

DATACLASS_CODE_DIR = "dataclass-code"
RECORDED_PACKAGES = ("hexmap", "rules", "app")
_builtin_exec = exec


def _compile(source: object) -> CodeType:
    """What ``exec(source)`` compiles when ``dataclasses`` calls it: that module has
    no ``__future__`` imports, so none of this module's may leak in
    (``dont_inherit``; ``annotations`` would turn return annotations into strings)."""
    if isinstance(source, CodeType):
        return source
    return compile(source, "<string>", "exec", dont_inherit=True)  # type: ignore[call-overload]


def _version_header() -> bytes:
    # marshal's format and the code objects belong to one interpreter version.
    return f"hexfray dataclass code {sys.implementation.cache_tag} {sys.version}\n".encode()


class _ExecHook:
    """What ``dataclasses`` calls as ``exec``: runs the code ``_code`` gives."""

    def exec(
        self,
        source: object,
        globals: dict[str, Any] | None = None,
        locals: Mapping[str, object] | None = None,
    ) -> None:
        # dataclasses passes the namespace of the class's module as the globals.
        module = (globals or {}).get("__name__")
        code = self._code(source, module if isinstance(module, str) else "?")
        _builtin_exec(code, globals, locals)

    def _code(self, source: object, module: str) -> CodeType:
        raise NotImplementedError


class DataclassCode(_ExecHook):
    """Compiled dataclass methods, used as ``dataclasses``'s ``exec``. Each module's
    table is a file of its own in ``folder``, read when that module first creates a
    dataclass (reading all of them up front would cost a third of what they save).
    Counts ``hits`` (the code came from a table) and, by module, ``missed``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._codes: dict[str, dict[str, CodeType]] = {}
        self.hits = 0
        self.missed: dict[str, int] = {}

    @property
    def misses(self) -> int:
        return sum(self.missed.values())

    def missed_in(self, packages: Iterable[str] = RECORDED_PACKAGES) -> dict[str, int]:
        """Misses in modules of ``packages``, whose methods the build recorded all of."""
        prefixes = tuple(packages)
        return {
            module: count
            for module, count in self.missed.items()
            if module in prefixes or module.startswith(tuple(f"{p}." for p in prefixes))
        }  # fmt: skip

    def _module_codes(self, module: str) -> dict[str, CodeType]:
        codes = self._codes.get(module)
        if codes is None:
            try:
                data = (self.folder / f"{module}.bin").read_bytes()
            except OSError:
                data = b""
            codes = self._codes[module] = loads_dataclass_code(data) or {}
        return codes

    def _code(self, source: object, module: str) -> CodeType:
        code = self._module_codes(module).get(source) if isinstance(source, str) else None
        if code is None:
            self.missed[module] = self.missed.get(module, 0) + 1
            return _compile(source)
        self.hits += 1
        return code


class _Recorder(_ExecHook):
    """``dataclasses``'s ``exec`` while recording: compiles, runs and keeps."""

    def __init__(self) -> None:
        self.codes: dict[str, dict[str, CodeType]] = {}

    def _code(self, source: object, module: str) -> CodeType:
        code = _compile(source)
        if isinstance(source, str):
            self.codes.setdefault(module, {})[source] = code
        return code


def dumps_dataclass_code(codes: Mapping[str, CodeType]) -> bytes:
    """One module's table (source text -> code) as a file's bytes."""
    return _version_header() + marshal.dumps(dict(codes))


def loads_dataclass_code(data: bytes) -> dict[str, CodeType] | None:
    """A module's table, or None if another Python wrote it or it is damaged."""
    header = _version_header()
    if not data.startswith(header):
        return None
    try:
        codes = marshal.loads(data[len(header) :])
    except (EOFError, ValueError, TypeError):
        return None
    if not isinstance(codes, dict) or not all(
        isinstance(k, str) and isinstance(v, CodeType) for k, v in codes.items()
    ):
        return None
    return codes


def write_dataclass_code(folder: Path, codes: Mapping[str, Mapping[str, CodeType]]) -> None:
    """``codes``: module name -> source text -> code, one file per module."""
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.bin"):
        old.unlink()
    for module, table in codes.items():
        (folder / f"{module}.bin").write_bytes(dumps_dataclass_code(table))


def install_dataclass_code(folder: Path) -> DataclassCode:
    """Let ``dataclasses`` take its methods' code from the tables in ``folder``."""
    table = DataclassCode(folder)
    dataclasses.exec = table.exec  # type: ignore[attr-defined]
    return table


def uninstall_dataclass_code() -> None:
    """Back to compiling every generated method (the builtin ``exec``)."""
    if "exec" in vars(dataclasses):
        del dataclasses.exec  # type: ignore[attr-defined]


def installed_dataclass_code() -> DataclassCode | None:
    hook = vars(dataclasses).get("exec")
    owner = getattr(hook, "__self__", None)
    return owner if isinstance(owner, DataclassCode) else None


def install_bundled_dataclass_code() -> DataclassCode | None:
    """In a bundle whose build recorded the tables, install them (None without the
    folder, as in the source tree: then every class compiles its methods as usual)."""
    folder = bundle_root() / DATACLASS_CODE_DIR
    return install_dataclass_code(folder) if folder.is_dir() else None


def record_dataclass_code(modules: Iterable[str]) -> dict[str, dict[str, CodeType]]:
    """Import ``modules`` (not yet imported) and return the code of every dataclass
    method they generated: module name -> source text -> code."""
    recorder = _Recorder()
    dataclasses.exec = recorder.exec  # type: ignore[attr-defined]
    try:
        for name in modules:
            importlib.import_module(name)
    finally:
        uninstall_dataclass_code()
    return recorder.codes


def app_modules(packages: Iterable[str] = RECORDED_PACKAGES) -> list[str]:
    """Every module of ``packages``, found on disk without importing them."""
    root = Path(__file__).resolve().parent.parent
    names: list[str] = []
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m app.fast_start",
        description="Record the compiled dataclass methods of Hexfray's modules "
        "for the packaged app (run by packaging/hexfray.spec).",
    )
    parser.add_argument("--record", metavar="FOLDER", type=Path, required=True)
    args = parser.parse_args(argv)
    codes = record_dataclass_code(name for name in app_modules() if name not in sys.modules)
    write_dataclass_code(args.record, codes)
    methods = sum(len(table) for table in codes.values())
    print(f"recorded {methods} dataclass methods of {len(codes)} modules in {args.record}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
