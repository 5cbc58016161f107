"""The one resolver for data files under ``assets/``.

Run from the source tree, assets live in ``<repo>/assets``; in a PyInstaller
bundle they are unpacked under ``sys._MEIPASS/assets``. Every table is read through
``asset_path``/``read_json`` so the two cases never diverge. Parsing the JSON into
frozen objects is left to pure loader functions elsewhere (they take parsed data,
so tests feed them malformed data directly).
"""

from __future__ import annotations

import sys
from pathlib import Path

from rules.core.errors import DataError
from rules.core.file_reading import read_regular_file
from rules.core.strict_json import strict_json

_REPO_ASSETS = Path(__file__).resolve().parents[2] / "assets"
# The largest table is a few tens of kilobytes; a far larger one is damaged.
MAX_ASSET_BYTES = 4 * 1024 * 1024


def bundle_root() -> Path:
    """The folder that holds ``assets/`` and the build's other data files:
    ``sys._MEIPASS`` when frozen by PyInstaller, else the repo."""
    bundle = getattr(sys, "_MEIPASS", None)
    if getattr(sys, "frozen", False) and isinstance(bundle, str):
        return Path(bundle)
    return _REPO_ASSETS.parent


def asset_root() -> Path:
    """``sys._MEIPASS/assets`` when frozen by PyInstaller, else ``<repo>/assets``."""
    return bundle_root() / "assets"


def asset_path(*parts: str) -> Path:
    """Path of an asset, e.g. ``asset_path("rulesets", "000", "directional.json")``.

    Parts are plain names: absolute parts and ``..`` are refused, so a name taken
    from data cannot point outside the assets folder.
    """
    for part in parts:
        if not part or Path(part).is_absolute() or ".." in Path(part).parts:
            raise DataError(f"bad asset path part {part!r}")
    return asset_root().joinpath(*parts)


def read_json(*parts: str) -> object:
    """Parse an asset as JSON. A missing, unreadable or damaged file (not a
    regular file, over ``MAX_ASSET_BYTES``, bad JSON, NaN, a key twice, deep
    nesting, a number too long) raises ``DataError``."""
    path = asset_path(*parts)
    name = "/".join(parts)
    try:
        data = read_regular_file(
            path,
            MAX_ASSET_BYTES,
            lambda problem: DataError(f"asset {problem}"),
            name=name,
            kind="a table",
        )
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(f"cannot read asset {name}: {exc}") from exc
    # Strict: a damaged table is refused as a DataError, whatever the damage is.
    return strict_json(text, lambda problem: DataError(f"asset {name} is damaged: {problem}"))
