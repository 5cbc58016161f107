"""The command line's rulesets: ``python main.py --list-rulesets`` prints each
registered ruleset's key, name and options (with what each does), one a line; and
``python main.py assets/battles/demo-<key>.hexfray --screenshot OUT.png`` renders
each ruleset's demo battle in a window built with that ruleset's UI."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

import app.main_window
import app.panes.inspector
import main
from app.rulesets import RulesetUI, ruleset_ui
from rules.sets.registry import get_ruleset, ruleset_keys

ROOT = Path(__file__).resolve().parents[2]
BATTLES = ROOT / "assets" / "battles"


def test_list_rulesets_prints_each_ruleset_on_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main.main(["--list-rulesets"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(ruleset_keys())
    for key, line in zip(ruleset_keys(), lines, strict=True):
        ruleset = get_ruleset(key)
        assert line.startswith(f"{key}  {ruleset.name}  options: ")
        if not ruleset.available_options:
            assert line.endswith("options: none")
        for option, explanation in ruleset.available_options.items():
            assert f"{option} ({' '.join(explanation.split())})" in line


def test_list_rulesets_from_the_shell_exits_0_without_a_window(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "--list-rulesets"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "HEXFRAY_HOME": str(tmp_path), "QT_QPA_PLATFORM": "offscreen"},
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    keys = [line.split("  ", 1)[0] for line in result.stdout.splitlines()]
    assert keys == list(ruleset_keys())


def test_list_rulesets_takes_no_battle_file(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main.main(["--list-rulesets", str(BATTLES / "demo-000.hexfray")])
    assert exit_.value.code == 2


@pytest.mark.parametrize("key", ruleset_keys())
def test_a_screenshot_of_each_rulesets_demo_battle(
    qapp: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, key: str
) -> None:
    demo = BATTLES / f"demo-{key}.hexfray"
    assert demo.is_file(), f"ruleset {key} has no demo battle (packaging/make_demo_battles.py)"
    asked: list[str] = []

    def recording_ui(asked_key: str) -> RulesetUI:
        asked.append(asked_key)
        return ruleset_ui(asked_key)

    monkeypatch.setattr(app.main_window, "ruleset_ui", recording_ui)
    monkeypatch.setattr(app.panes.inspector, "ruleset_ui", recording_ui)
    monkeypatch.setenv("HEXFRAY_HOME", str(tmp_path / "home"))
    out = tmp_path / f"demo-{key}.png"
    assert main.main([str(demo), "--screenshot", str(out)]) == 0
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1366, 768)
    assert asked and set(asked) == {key}, f"the window asked for the UIs of {sorted(set(asked))}"


@pytest.mark.parametrize("key", ruleset_keys())
def test_file_open_of_each_demo_in_a_running_window_brings_its_rulesets_pane(
    main_window: app.main_window.MainWindow,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    key: str,
) -> None:
    monkeypatch.setenv("HEXFRAY_HOME", str(tmp_path / "home"))
    problems: list[str] = []
    main_window.file_actions.show_problem = lambda _title, text: problems.append(text)
    assert main_window.file_actions.open_path(BATTLES / f"demo-{key}.hexfray", asked=True)
    assert problems == []
    state = main_window.controller.state
    assert state.ruleset_key == key and state.turns_running
    expected = ruleset_ui(key).attack_pane(main_window.controller, None)
    assert type(main_window.attack_pane) is type(expected)
    expected.deleteLater()
    active = state.active_id
    assert active is not None
    main_window.controller.select(active)
    main_window.repaint()


def test_file_open_demo_battle_offers_every_rulesets_demo_untitled(
    main_window: app.main_window.MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HEXFRAY_HOME", str(tmp_path / "home"))
    actions = main_window.file_actions
    file_menu = main_window.menuBar().actions()[0].menu()
    assert actions.demo_menu.menuAction() in file_menu.actions()
    assert actions.demo_menu.isEnabled()
    actions.demo_menu.aboutToShow.emit()  # filled as it opens, not at start-up
    entries = {a.objectName(): a for a in actions.demo_menu.actions()}
    opening = [name for name in entries if name.startswith("openDemo:")]
    assert opening == [f"openDemo:{key}" for key in ruleset_keys()]
    asked: list[str] = []
    actions.choose_save_path = lambda suggested: asked.append(suggested) or None  # type: ignore[func-returns-value]
    for key in ruleset_keys():
        entries[f"openDemo:{key}"].trigger()
        state = main_window.controller.state
        assert state.ruleset_key == key and state.turns_running
        assert actions.path is None and get_ruleset(key).name in actions.name
        assert not main_window.isWindowModified()
        assert not actions.save()  # Save asks where (the test answers Cancel): never the asset
        assert len(asked) == 1
        asked.clear()
