"""The app's import contract covers every module: only ``app.rulesets.<key>`` imports
``rules.sets.<key>``; the rest of ``app`` knows the protocol and the registries.

pyproject.toml holds one forbidden contract per registered ruleset whose source
is all of ``app``. These tests prove that a contract catches a forbidden import:
``lint-imports`` runs on a copy of the code, first untouched (it must pass, so that
a failure below is for the right reason), then with a ruleset import added to a
module that the hand-listed contract of old left out. They also check that every
registered ruleset has its contract and its place in the independence contract."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from app.rulesets import RULESET_UIS
from rules.sets.registry import RULESETS

ROOT = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")  # import-linter, a dev dependency
COPIED = ("app", "rules", "hexmap")


def package_of(target: str) -> str:
    """The package a registry entry ("rules.sets.seed000.ruleset:seed000_ruleset")
    lives in: ``rules.sets.seed000``."""
    module = target.partition(":")[0]
    return ".".join(module.split(".")[:3])


def contract_name(key: str) -> str:
    return (
        f"Only {package_of(RULESET_UIS[key])} imports {package_of(RULESETS[key])}"
    )


def copy_of_the_code(into: Path) -> Path:
    for package in COPIED:
        shutil.copytree(
            ROOT / package, into / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    shutil.copy2(ROOT / "pyproject.toml", into / "pyproject.toml")
    return into


def lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` on the code under ``root`` (and on nothing else: the copy
    is the only ``app`` and ``rules`` on the path)."""
    assert LINT_IMPORTS.exists(), f"import-linter is not installed at {LINT_IMPORTS}"
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--no-logo"],
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root), "COLUMNS": "200"},  # no wrapped lines
        capture_output=True,
        text=True,
        check=False,
    )


def add_import(module: Path, statement: str) -> None:
    """``statement`` as the first import of ``module``, after its ``from __future__``."""
    lines = module.read_text(encoding="utf-8").splitlines(keepends=True)
    future = next(i for i, line in enumerate(lines) if line.startswith("from __future__"))
    lines.insert(future + 1, f"{statement}  # noqa: F401\n")
    module.write_text("".join(lines), encoding="utf-8")


def test_the_untouched_copy_keeps_every_contract(tmp_path: Path) -> None:
    """The control: the contracts hold on a copy of the code as it is."""
    result = lint_imports(copy_of_the_code(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr
    for key in RULESETS:
        assert f"{contract_name(key)} KEPT" in result.stdout


# (module of app, ruleset key): modules that the hand-listed contract did not cover,
# and one ruleset's widgets reaching into another ruleset's package.
FORBIDDEN_IMPORTS = [
    ("app/character_editor.py", "000"),
    ("app/files.py", "000"),
    ("app/gcs_import.py", "000"),
    ("app/new_battle.py", "002"),
    ("app/templates.py", "004"),
    ("app/rulesets/seed002/ui.py", "000"),
]


@pytest.mark.parametrize(("module", "key"), FORBIDDEN_IMPORTS)
def test_a_ruleset_import_outside_its_app_package_breaks_its_contract(
    tmp_path: Path, module: str, key: str
) -> None:
    code = copy_of_the_code(tmp_path)
    assert lint_imports(code).returncode == 0  # the control, on this very copy
    add_import(code / module, f"import {package_of(RULESETS[key])}.sheet")
    result = lint_imports(code)
    assert result.returncode != 0
    assert f"{contract_name(key)} BROKEN" in result.stdout
    assert "1 broken" in result.stdout  # that contract alone
    importer = module.removesuffix(".py").replace("/", ".")
    assert f"{importer} -> {package_of(RULESETS[key])}.sheet" in result.stdout


def contracts() -> list[dict[str, Any]]:
    with (ROOT / "pyproject.toml").open("rb") as file:
        config = tomllib.load(file)
    found: list[dict[str, Any]] = config["tool"]["importlinter"]["contracts"]
    return found


@pytest.mark.parametrize("key", sorted(RULESETS))
def test_every_registered_ruleset_has_its_app_contract(key: str) -> None:
    package, own_ui = package_of(RULESETS[key]), package_of(RULESET_UIS[key])
    mine = [c for c in contracts() if c.get("forbidden_modules") == [package]]
    assert len(mine) == 1, f"no contract keeps {package} out of app"
    contract = mine[0]
    assert contract["name"] == contract_name(key)
    assert contract["type"] == "forbidden" and contract["source_modules"] == ["app"]
    assert sorted(contract["ignore_imports"]) == sorted(
        [f"{own_ui} -> {package}.**", f"{own_ui}.** -> {package}.**"]
    )
    assert not contract.get("allow_indirect_imports", False)


def test_the_independence_and_components_contracts_name_every_ruleset() -> None:
    packages = sorted(package_of(target) for target in RULESETS.values())
    independence = [c for c in contracts() if c["type"] == "independence"]
    assert [sorted(c["modules"]) for c in independence] == [packages]
    components = [c for c in contracts() if c.get("source_modules") == ["rules.sets.components"]]
    assert [sorted(c["forbidden_modules"]) for c in components] == [packages]
    assert sorted(RULESET_UIS) == sorted(RULESETS)
