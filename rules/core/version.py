"""The version of Hexfray's rules engine, single-sourced from pyproject.toml.

``ENGINE_VERSION`` is the ``[project] version`` of pyproject.toml, which a
bundle carries beside ``assets/`` (``rules.core.assets.bundle_root``). A battle
file records it, and the About box shows it (``app.help.app_version``).
"""

from __future__ import annotations

import tomllib
from typing import Final

from rules.core.assets import bundle_root

UNKNOWN_VERSION = "unknown"


def _project_version() -> str:
    try:
        with (bundle_root() / "pyproject.toml").open("rb") as f:
            return str(tomllib.load(f)["project"]["version"])
    except (OSError, KeyError, TypeError, tomllib.TOMLDecodeError):
        # Hexfray runs from its source tree or from a bundle, which both carry the
        # file; it is not installed as a distribution that metadata could name.
        return UNKNOWN_VERSION


ENGINE_VERSION: Final = _project_version()
