"""The rulesets in the bundle: packaging/registered_rulesets.py reads the modules,
packages and files of every registered ruleset from the registries
(rules.sets.registry.RULESETS, app.rulesets.RULESET_UIS), the spec takes its hidden
imports from it and packaging/check_bundle.py checks a bundle against it; the
frozen self-test opens each ruleset's demo battle."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from app.rulesets import RULESET_UIS
from rules.sets.registry import RULESETS

ROOT = Path(__file__).resolve().parents[2]
PACKAGING = ROOT / "packaging"


def _load(name: str) -> ModuleType:
    if str(PACKAGING) not in sys.path:
        sys.path.insert(0, str(PACKAGING))
    spec = importlib.util.spec_from_file_location(
        f"hexfray_packaging_{name}", PACKAGING / f"{name}.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_registered_modules_and_packages_come_from_the_registries() -> None:
    registered = _load("registered_rulesets")
    modules = registered.registered_modules()
    for target in (*RULESETS.values(), *RULESET_UIS.values()):
        module = target.partition(":")[0]
        assert module in modules
        assert module.rpartition(".")[0] in registered.registered_packages()
        assert importlib.util.find_spec(module) is not None
    assert len(registered.registered_packages()) == len(RULESETS) + len(RULESET_UIS)


def test_each_rulesets_tables_demo_and_templates_are_listed() -> None:
    listed = set(_load("registered_rulesets").ruleset_asset_paths(ROOT))
    for key in RULESETS:
        assert f"assets/battles/demo-{key}.hexfray" in listed
        tables = ROOT / "assets" / "rulesets" / key
        for path in tables.rglob("*"):
            if path.is_file():
                assert path.relative_to(ROOT).as_posix() in listed
        for path in (ROOT / "assets" / "templates").glob(f"{key}-*.json"):
            assert path.relative_to(ROOT).as_posix() in listed


def test_the_spec_and_the_check_read_the_registries() -> None:
    spec = (PACKAGING / "hexfray.spec").read_text(encoding="utf-8")
    assert "registered_rulesets.registered_packages()" in spec
    assert "registered_rulesets.registered_modules()" in spec
    assert "seed002" not in spec and "seed003" not in spec, "no ruleset listed by hand"
    check = (PACKAGING / "check_bundle.py").read_text(encoding="utf-8")
    assert "registered_rulesets.registered_modules()" in check
    assert "registered_rulesets.ruleset_asset_paths(ROOT)" in check


def test_a_bundle_without_a_rulesets_module_or_tables_is_refused(tmp_path: Path) -> None:
    check = _load("check_bundle")
    inside = tmp_path / "_internal"
    for package in ("app", "rules", "hexmap"):
        for source in (ROOT / package).rglob("*.py"):
            compiled = inside / source.relative_to(ROOT).with_suffix(".pyc")
            compiled.parent.mkdir(parents=True, exist_ok=True)
            compiled.write_bytes(b"")
    registered = _load("registered_rulesets")
    for asset in registered.ruleset_asset_paths(ROOT):
        (inside / asset).parent.mkdir(parents=True, exist_ok=True)
        (inside / asset).write_bytes(b"")
    problems = check.check_contents(tmp_path)
    assert not any("registered module" in p or "ruleset file" in p for p in problems)
    key = list(RULESETS)[-1]
    module = RULESETS[key].partition(":")[0]
    (inside / Path(*module.split("."))).with_suffix(".pyc").unlink()
    demo = f"assets/battles/demo-{key}.hexfray"
    (inside / demo).unlink()
    problems = check.check_contents(tmp_path)
    assert f"registered module not bundled: {module}" in problems
    assert f"ruleset file not bundled: {demo}" in problems


def test_the_self_test_opens_every_rulesets_demo(qapp: object, capsys: object) -> None:
    from app.self_test import run_self_test

    assert run_self_test() == 0
    out = capsys.readouterr().out  # type: ignore[attr-defined]
    for key in RULESETS:
        assert f"PASS  ruleset {key} demo: demo-{key}.hexfray" in out
