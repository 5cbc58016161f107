"""What a bundle must carry for each registered ruleset, read from the registries.

A ruleset's package (``rules.sets.seed002``) and its UI's (``app.rulesets.seed002``)
are imported by name only, through ``rules.sets.registry.RULESETS`` and
``app.rulesets.RULESET_UIS``, so PyInstaller's analysis of imports never sees
them. packaging/hexfray.spec takes its hidden imports from here, and
packaging/check_bundle.py checks the bundle against the same lists, so a ruleset
registered with one line is bundled and checked with no line written here:

* ``registered_modules()``: each registry entry's module ("rules.sets.seed002.ruleset");
* ``registered_packages()``: the packages they live in, whose every submodule is bundled;
* ``ruleset_asset_paths(root)``: each ruleset's files under ``assets/`` (its tables
  in ``assets/rulesets/<key>/``, its demo battle, its templates), as posix paths
  relative to ``root``.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from app.rulesets import RULESET_UIS  # noqa: E402  (the repository root is on the path)
from rules.sets.registry import RULESETS  # noqa: E402


def registered_modules() -> tuple[str, ...]:
    """The module of every registry entry ("module:attribute"), rulesets then UIs."""
    targets = (*RULESETS.values(), *RULESET_UIS.values())
    return tuple(dict.fromkeys(target.partition(":")[0] for target in targets))


def registered_packages() -> tuple[str, ...]:
    """The package of each registered module ("rules.sets.seed002")."""
    return tuple(dict.fromkeys(module.rpartition(".")[0] for module in registered_modules()))


def ruleset_keys() -> tuple[str, ...]:
    return tuple(dict.fromkeys((*RULESETS, *RULESET_UIS)))


def ruleset_asset_paths(root: Path = ROOT) -> tuple[str, ...]:
    """Each registered ruleset's files under ``root / "assets"`` (tables, demo battle,
    templates named for it, "002-*.json"; seed 000's shared tables are the
    bundle's own), relative to ``root``."""
    assets = root / "assets"
    found: list[Path] = []
    for key in ruleset_keys():
        tables = assets / "rulesets" / key
        if tables.is_dir():
            found += sorted(p for p in tables.rglob("*") if p.is_file())
        demo = assets / "battles" / f"demo-{key}.hexfray"
        if demo.is_file():
            found.append(demo)
        found += sorted((assets / "templates").glob(f"{key}-*.json"))
    return tuple(p.relative_to(root).as_posix() for p in found)


if __name__ == "__main__":
    for line in (*registered_modules(), *registered_packages(), *ruleset_asset_paths()):
        print(line)
