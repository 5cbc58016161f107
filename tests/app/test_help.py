"""Help: one shortcut list for the window and the help, the dialogs, the first-run
guide and its "Don't show again"."""

from __future__ import annotations

import importlib.metadata
import tomllib
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QApplication, QMainWindow, QMessageBox

from app import help as app_help

ROOT = Path(__file__).resolve().parents[2]


def _portable(sequences: list[QKeySequence]) -> frozenset[str]:
    return frozenset(s.toString(QKeySequence.SequenceFormat.PortableText) for s in sequences)


def test_shortcut_names_are_unique_and_every_key_parses(qapp) -> None:
    names = [s.action for s in app_help.SHORTCUTS]
    assert len(names) == len(set(names))
    for entry in app_help.SHORTCUTS:
        sequences = app_help.key_sequences(entry.action)
        assert sequences, entry
        assert all(not s.isEmpty() for s in sequences), entry
        assert app_help.keys_text(entry)


def test_no_key_does_two_things(qapp) -> None:
    owner: dict[tuple[str, str], str] = {}
    for entry in app_help.SHORTCUTS:
        for key in _portable(app_help.key_sequences(entry.action)):
            where = (entry.scope, key)
            assert where not in owner, f"{key} is bound to {owner.get(where)} and {entry.action}"
            owner[where] = entry.action


def test_unknown_action_is_an_error() -> None:
    with pytest.raises(KeyError):
        app_help.shortcut("no-such-action")


def test_the_window_and_the_help_list_the_same_shortcuts(main_window) -> None:
    """Every shortcut the main window binds is in SHORTCUTS with the same keys, and
    every entry of SHORTCUTS is bound in the window (once its Help menu is in)."""
    bound = {
        _portable(a.shortcuts())
        for a in main_window.findChildren(QAction)
        if a.shortcuts()
    }
    listed = {
        _portable(app_help.key_sequences(s.action)): s.action
        for s in app_help.SHORTCUTS
        if s.via_action
    }
    unlisted = [sorted(keys) for keys in bound if keys not in listed]
    assert not unlisted, f"bound in the window but not in app.help.SHORTCUTS: {unlisted}"
    if not any(_portable(app_help.key_sequences("help_rules")) == b for b in bound):
        app_help.build_help_menu(main_window)  # until the window adds it itself
        bound |= {_portable(a.shortcuts()) for a in main_window.findChildren(QAction)}
    missing = [name for keys, name in listed.items() if keys not in bound]
    assert not missing, f"listed in app.help.SHORTCUTS but bound to no action: {missing}"


def test_rules_reference_renders_the_markdown(qtbot, tmp_path: Path) -> None:
    page = tmp_path / "rules.md"
    page.write_text("# Facing\n\nThe **front** arc.\n", encoding="utf-8")
    dialog = app_help.RulesReferenceDialog(None, page)
    qtbot.addWidget(dialog)
    assert dialog.found
    text = dialog.browser.toPlainText()
    assert "Facing" in text and "The front arc." in text


def test_rules_reference_follows_links_between_the_docs(
    qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from PySide6.QtCore import QUrl
    from PySide6.QtGui import QDesktopServices

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "rules.md").write_text(
        "# Rules\n\nSee [core](rules-core.md), [code](../rules/attack.py), "
        "[table](../assets/t.json).\n", encoding="utf-8"
    )
    (docs / "rules-core.md").write_text("# Core rules\n\nThe core.\n", encoding="utf-8")
    (tmp_path / "assets").mkdir()
    (tmp_path / "assets" / "t.json").write_text("{}", encoding="utf-8")
    opened: list[str] = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url.fileName()))
    dialog = app_help.RulesReferenceDialog(None, docs / "rules.md")
    qtbot.addWidget(dialog)
    dialog.follow(QUrl("rules-core.md"))
    assert "The core." in dialog.browser.toPlainText()
    dialog.browser.backward()
    assert "See core" in dialog.browser.toPlainText()
    dialog.follow(QUrl("../assets/t.json"))
    assert opened == ["t.json"]
    dialog.follow(QUrl("../rules/attack.py"))
    assert "not part of this build" in dialog.note.text()


def test_rules_reference_says_clearly_when_the_file_is_missing(qtbot, tmp_path: Path) -> None:
    missing = tmp_path / "docs" / "rules.md"
    dialog = app_help.RulesReferenceDialog(None, missing)
    qtbot.addWidget(dialog)
    assert not dialog.found
    assert "not found" in dialog.browser.toPlainText()
    assert str(missing) in dialog.browser.toPlainText()


def test_the_rules_reference_is_looked_for_beside_the_assets() -> None:
    assert app_help.rules_reference_path() == ROOT / "docs" / "gm-rules.md"


def test_shortcuts_dialog_lists_every_shortcut_and_mouse_control(qtbot) -> None:
    dialog = app_help.ShortcutsDialog()
    qtbot.addWidget(dialog)
    rows = len(app_help.SHORTCUTS) + len(app_help.MOUSE_CONTROLS)
    assert dialog.table.rowCount() == rows
    described = " ".join(dialog.table.item(r, 2).text() for r in range(rows))
    assert all(s.description in described for s in app_help.SHORTCUTS)


def test_about_shows_the_version_and_the_bundled_components(qtbot) -> None:
    import importlib.metadata
    import platform

    with (ROOT / "pyproject.toml").open("rb") as f:
        version = tomllib.load(f)["project"]["version"]
    dialog = app_help.AboutDialog()
    qtbot.addWidget(dialog)
    assert dialog.version == version
    by_name = {c.name: c for c in dialog.components}
    pyside = by_name["Qt for Python (PySide6-Essentials)"]
    assert pyside.version == importlib.metadata.version("PySide6_Essentials")
    assert pyside.licence.startswith("LGPL-3.0")
    assert by_name["Hexy"].licence == "MIT"
    assert by_name["Hexy"].version == importlib.metadata.version("Hexy")
    assert by_name["NumPy"].licence.startswith("BSD")
    assert by_name["platformdirs"].licence == "MIT"
    assert by_name["Python"].version == platform.python_version()
    assert by_name["Python"].licence == "PSF-2.0"
    assert {"shiboken6", "Qt"} <= set(by_name)
    # choosing a component shows its licence text (Hexy ships one)
    row = list(by_name).index("Hexy")
    dialog.table.setCurrentCell(row, 0)
    assert "MIT" in dialog.licence.toPlainText() or "Permission" in dialog.licence.toPlainText()


def test_the_components_read_their_dist_info_as_importlib_metadata_does() -> None:
    # app.help reads the .dist-info folders itself (importlib.metadata costs the first
    # frame about 11 ms); the standard library's reading is the reference.
    by_name = {c.name: c for c in app_help.components()}
    for name, dist_name, _licence, _url in app_help._COMPONENTS:
        dist = importlib.metadata.distribution(dist_name)
        licences = sorted(
            (f for f in dist.files or () if f.name.upper().startswith(("LICEN", "COPYING"))),
            key=lambda f: len(f.parts),
        )
        expected = licences[0].read_text(encoding="utf-8") if licences else None
        assert (by_name[name].version, by_name[name].licence_text) == (dist.version, expected)
    assert by_name["NumPy"].licence_text  # its top-level text, not its vendored parts'


def test_the_first_run_guide_opens_at_the_first_start_only(qtbot, settings: QSettings) -> None:
    guide = app_help.maybe_show_first_run_guide(None, settings)
    assert guide is not None
    assert guide.isVisible() and not guide.isModal()
    guide.close()  # closed at once, nothing ticked: still not shown again
    assert app_help.guide_seen(settings)
    assert app_help.maybe_show_first_run_guide(None, settings) is None


def test_the_first_run_guide_never_opens_over_a_dialog(qtbot, settings: QSettings) -> None:
    """A dialog waiting for the GM (a file that could not be opened) keeps the guide
    away, and that start does not count as its first."""
    problem = QMessageBox(QMessageBox.Icon.Warning, "Open Battle", "cannot be opened")
    qtbot.addWidget(problem)
    problem.setModal(True)
    problem.show()
    assert QApplication.activeModalWidget() is problem
    assert app_help.maybe_show_first_run_guide(None, settings) is None
    assert not app_help.guide_seen(settings)
    problem.close()
    guide = app_help.maybe_show_first_run_guide(None, settings)
    assert guide is not None
    guide.close()


def test_the_guide_names_the_real_keys(qapp) -> None:
    html = app_help.guide_html()
    assert "Q" in html and "E" in html
    assert "Click a token" in html


def test_help_menu_opens_each_dialog_once(qtbot, tmp_path: Path) -> None:
    window = QMainWindow()
    qtbot.addWidget(window)
    actions = app_help.build_help_menu(window)
    for action, kind in (
        (actions.guide, app_help.FirstRunGuide),
        (actions.rules, app_help.RulesReferenceDialog),
        (actions.shortcuts, app_help.ShortcutsDialog),
        (actions.about, app_help.AboutDialog),
    ):
        action.trigger()
        action.trigger()  # the second time raises the same dialog
        open_ones = [d for d in window.findChildren(kind) if d.isVisible()]
        assert len(open_ones) == 1, kind
        open_ones[0].close()


def test_the_app_icon_has_every_size(qapp) -> None:
    icon = app_help.app_icon()
    sizes = {s.width() for s in icon.availableSizes()}
    assert {16, 32, 48, 256} <= sizes
