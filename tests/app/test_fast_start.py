"""The start-up speed-ups of app/fast_start.py and main.py (issue 5, docs/packaging.md):
precompiled dataclass methods that behave exactly like compiled ones, and no cyclic
garbage collection until the window and its panes are up."""

from __future__ import annotations

import dataclasses
import importlib
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

import app.fast_start as fast_start

ROOT = Path(__file__).resolve().parents[2]

MODULE_SOURCE = textwrap.dedent(
    """
    from dataclasses import dataclass, field

    @dataclass(frozen=True)
    class Blow:
        attacker: str
        damage: int = 0
        tags: tuple[str, ...] = ()

    @dataclass(order=True)
    class Tally:
        hits: int
        names: list[str] = field(default_factory=list)
    """
)


@pytest.fixture
def fresh_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A module of two dataclasses, imported afresh by each ``importlib`` call."""
    (tmp_path / "fast_start_sample.py").write_text(MODULE_SOURCE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield "fast_start_sample"
    sys.modules.pop("fast_start_sample", None)
    fast_start.uninstall_dataclass_code()


def _import_fresh(name: str) -> object:
    sys.modules.pop(name, None)
    return importlib.import_module(name)


def _behaviour(module: object) -> dict[str, object]:
    blow_type = module.Blow  # type: ignore[attr-defined]
    tally_type = module.Tally  # type: ignore[attr-defined]
    blow = blow_type("Gorm", 7, ("cut",))
    with pytest.raises(dataclasses.FrozenInstanceError):
        blow.damage = 9
    tally = tally_type(2)
    tally.names.append("Ysolde")
    return {
        "repr": (repr(blow), repr(tally)),
        "eq": (blow == blow_type("Gorm", 7, ("cut",)), blow == blow_type("Gorm", 8)),
        "hash": hash(blow) == hash(blow_type("Gorm", 7, ("cut",))),
        "order": tally_type(1) < tally_type(2),
        "defaults": (blow_type("Ash").damage, tally_type(0).names),
        "annotations": (blow_type.__init__.__annotations__, tally_type.__init__.__annotations__),
        "fields": [f.name for f in dataclasses.fields(blow_type)],
    }


def test_recorded_methods_run_from_the_table_and_behave_as_compiled(
    fresh_module: str, tmp_path: Path
) -> None:
    compiled = _behaviour(_import_fresh(fresh_module))
    sys.modules.pop(fresh_module, None)
    codes = fast_start.record_dataclass_code([fresh_module])
    assert set(codes) == {fresh_module}
    fast_start.write_dataclass_code(tmp_path / "tables", codes)

    table = fast_start.install_dataclass_code(tmp_path / "tables")
    assert fast_start.installed_dataclass_code() is table
    from_table = _behaviour(_import_fresh(fresh_module))

    assert from_table == compiled
    # Blow: __init__, __repr__, __eq__, __hash__, __setattr__, __delattr__;
    # Tally: __init__, __repr__, __eq__ and the four comparisons.
    assert table.hits == len(codes[fresh_module]) == 13
    assert table.misses == 0
    # The generated return annotation is the object, as plain dataclasses make it,
    # not the string this module's `from __future__ import annotations` would give.
    assert compiled["annotations"][0]["return"] is None  # type: ignore[index]


def test_a_class_the_build_never_saw_is_compiled_as_usual(
    fresh_module: str, tmp_path: Path
) -> None:
    table = fast_start.install_dataclass_code(tmp_path / "no-tables-here")
    behaviour = _behaviour(_import_fresh(fresh_module))
    assert behaviour["eq"] == (True, False)
    assert table.hits == 0
    assert table.missed == {fresh_module: 13}
    assert table.missed_in(["fast_start_sample"]) == {fresh_module: 13}
    assert table.missed_in() == {}  # not one of app, rules or hexmap


def test_tables_of_another_python_or_damaged_ones_are_ignored(tmp_path: Path) -> None:
    code = compile("x = 1", "<string>", "exec")
    data = fast_start.dumps_dataclass_code({"x = 1": code})
    assert fast_start.loads_dataclass_code(data) == {"x = 1": code}
    other_python = data.replace(sys.version.encode(), b"2.7.18 (elsewhere)", 1)
    assert fast_start.loads_dataclass_code(other_python) is None
    assert fast_start.loads_dataclass_code(data[:-3]) is None
    assert fast_start.loads_dataclass_code(b"") is None


def test_uninstalling_restores_the_builtin_exec(tmp_path: Path) -> None:
    fast_start.install_dataclass_code(tmp_path)
    assert "exec" in vars(dataclasses)
    fast_start.uninstall_dataclass_code()
    assert "exec" not in vars(dataclasses)
    assert fast_start.installed_dataclass_code() is None


def test_only_a_bundle_installs_the_tables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert fast_start.install_bundled_dataclass_code() is None  # from source
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    assert fast_start.install_bundled_dataclass_code() is None  # no tables recorded
    (tmp_path / fast_start.DATACLASS_CODE_DIR).mkdir()
    try:
        table = fast_start.install_bundled_dataclass_code()
        assert table is not None
        assert table.folder == tmp_path / fast_start.DATACLASS_CODE_DIR
    finally:
        fast_start.uninstall_dataclass_code()


def test_the_build_records_every_dataclass_of_the_app(tmp_path: Path) -> None:
    modules = fast_start.app_modules()
    assert {"hexmap.coords", "rules.battle.model", "app.panes.attack_parts", "rules"} <= set(modules)
    assert not any(name.endswith("__init__") for name in modules)
    done = subprocess.run(
        [sys.executable, "-m", "app.fast_start", "--record", str(tmp_path / "tables")],
        cwd=ROOT, capture_output=True, text=True, check=True,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
    )  # fmt: skip
    assert "dataclass methods" in done.stdout
    model = fast_start.loads_dataclass_code((tmp_path / "tables" / "rules.battle.model.bin").read_bytes())
    assert model is not None
    # rules.battle.model's Combatant: its generated __init__ names its fields.
    assert any("def __init__(self,id:_type_id,fighter:_type_fighter," in text for text in model)


def test_garbage_collection_waits_for_the_window_and_its_panes(tmp_path: Path) -> None:
    code = textwrap.dedent(
        """
        import gc
        import app.startup_probe as probe
        from PySide6.QtCore import QTimer
        from PySide6.QtWidgets import QApplication

        seen = {}

        def watch(window):
            seen["while starting"] = gc.isenabled()

            def after_first_paint():
                seen["panes built"] = bool(window.panes)

                def later():
                    seen["once the panes are up"] = gc.isenabled()
                    QApplication.quit()

                QTimer.singleShot(0, later)

            window.call_after_first_paint(after_first_paint)

        probe.install_startup_probe = watch
        import main

        main.main(["--measure-startup"])
        seen["after the event loop"] = gc.isenabled()
        print(sorted(seen.items()))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen", "HEXFRAY_HOME": str(tmp_path)},
        timeout=120,
    )  # fmt: skip
    assert done.stdout.strip().splitlines()[-1] == str(sorted({
        "while starting": False,
        "panes built": True,
        "once the panes are up": True,
        "after the event loop": True,
    }.items()))  # fmt: skip


def test_the_command_line_modes_collect_garbage_as_usual(tmp_path: Path) -> None:
    # A bundle's runtime hook pauses the collector before Qt loads
    # (packaging/rthook_pause_gc.py); only the window's start keeps it paused.
    hook = (ROOT / "packaging" / "rthook_pause_gc.py").read_text(encoding="utf-8")
    code = (
        hook
        + "\nimport main\n"
        + f"main.main(['--screenshot', {str(tmp_path / 'shot.png')!r}])\n"
        + "print('collecting:', gc.isenabled())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen", "HEXFRAY_HOME": str(tmp_path)},
        timeout=120,
    )  # fmt: skip
    assert done.stdout.strip().splitlines()[-1] == "collecting: True"
    assert (tmp_path / "shot.png").is_file()
