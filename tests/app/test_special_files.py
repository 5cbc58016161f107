"""Only regular files are read (rules.core.file_reading; issue 23, "Inputs that
hang or crash", 3): a named pipe given as a battle file, a template, an autosave,
a character file, the settings or a bundled table hung the program, since opening
one for reading waits for a writer; ``/dev/zero`` as the autosave grew to 24 GB and
as a template ran out of memory. Each reader now refuses such a file unread, with
a message that says what it is, and never opens a named pipe at all."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from app import user_dirs
from app.files import JOURNAL_SUFFIX, BattleFileError, find_recoverable, open_battle, recover
from app.gcs_import import import_to_template
from app.templates import load_library
from rules.battle import catalog
from rules.core import assets
from rules.core.errors import DataError

ROOT = Path(__file__).resolve().parents[2]
PIPE = "is not a regular file (a named pipe)"
pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="a system without named pipes")
DEVICE = "is not a regular file (a device)"


class Pipe:
    """A named pipe with a writer standing by: a reader that opens it (as Hexfray
    did) gets through at once and reads nothing, instead of hanging the test, and
    is counted in ``opened``."""

    def __init__(self, path: Path) -> None:
        os.mkfifo(path)
        self.path = path
        self.opened = 0
        self._closing = False
        self._writer = threading.Thread(target=self._stand_by, daemon=True)
        self._writer.start()

    def _stand_by(self) -> None:
        while True:
            descriptor = os.open(self.path, os.O_WRONLY)  # until a reader opens the pipe
            os.close(descriptor)  # the reader reads an empty file
            if self._closing:
                return
            self.opened += 1

    def close(self) -> int:
        """Release the writer; how many times a reader opened the pipe."""
        self._closing = True
        while self._writer.is_alive():
            descriptor = os.open(self.path, os.O_RDONLY | os.O_NONBLOCK)
            self._writer.join(0.05)
            os.close(descriptor)
        return self.opened


@pytest.fixture
def pipes() -> Iterator[list[Pipe]]:
    made: list[Pipe] = []
    yield made
    for pipe in made:
        pipe.close()


def pipe_at(path: Path, pipes: list[Pipe]) -> Pipe:
    path.parent.mkdir(parents=True, exist_ok=True)
    pipe = Pipe(path)
    pipes.append(pipe)
    return pipe


def test_a_named_pipe_as_a_battle_file_is_refused_unopened(
    tmp_path: Path, pipes: list[Pipe]
) -> None:
    pipe = pipe_at(tmp_path / "battle.hexfray", pipes)
    with pytest.raises(BattleFileError) as refused:
        open_battle(pipe.path)
    assert str(refused.value) == f"battle.hexfray {PIPE}"
    assert pipe.close() == 0


def test_a_named_pipe_as_a_template_is_named_as_a_problem_unopened(
    tmp_path: Path, pipes: list[Pipe]
) -> None:
    pipe = pipe_at(tmp_path / "templates" / "pipe.json", pipes)
    library = load_library(tmp_path / "templates")
    assert library.problems == (f"pipe.json: the file {PIPE}",)
    assert pipe.close() == 0


def test_a_named_pipe_as_an_autosave_is_neither_offered_nor_opened(
    tmp_path: Path, pipes: list[Pipe]
) -> None:
    pipe = pipe_at(tmp_path / "autosave" / f"battle-1{JOURNAL_SUFFIX}", pipes)
    assert find_recoverable(tmp_path / "autosave") == ()
    with pytest.raises(BattleFileError) as refused:
        recover(pipe.path)
    assert str(refused.value) == f"{pipe.path.name} {PIPE}"
    assert pipe.close() == 0


def test_a_named_pipe_as_a_character_file_is_refused_unopened(
    tmp_path: Path, pipes: list[Pipe]
) -> None:
    pipe = pipe_at(tmp_path / "aldo.gcs", pipes)
    with pytest.raises(DataError) as refused:
        import_to_template(pipe.path, "Aldo", tmp_path / "templates")
    assert str(refused.value) == f"the file {PIPE}"
    assert pipe.close() == 0
    assert not (tmp_path / "templates").exists()


def test_a_named_pipe_as_the_settings_is_left_alone(
    tmp_path: Path, pipes: list[Pipe], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HEXFRAY_HOME", str(tmp_path / "home"))
    pipe = pipe_at(user_dirs.config_dir() / "settings.ini", pipes)
    store = user_dirs.settings()
    assert Path(store.fileName()) != pipe.path
    store.setValue("kept", "for this session")  # the program runs on, on its defaults
    assert user_dirs.settings().value("kept") == "for this session"
    assert pipe.close() == 0
    assert pipe.path.is_fifo()


def test_a_named_pipe_as_a_bundled_table_is_a_damaged_bundle(
    tmp_path: Path, pipes: list[Pipe], monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copytree(assets.asset_root(), tmp_path / "assets")
    (tmp_path / "assets" / "fighters.json").unlink()
    pipe = pipe_at(tmp_path / "assets" / "fighters.json", pipes)
    monkeypatch.setattr(assets, "bundle_root", lambda: tmp_path)
    catalog.load_fighters.cache_clear()
    try:
        with pytest.raises(DataError) as refused:
            catalog.load_fighters()
    finally:
        catalog.load_fighters.cache_clear()
    assert str(refused.value) == f"asset fighters.json {PIPE}"
    assert pipe.close() == 0


def test_a_named_pipe_given_on_the_command_line_ends_the_program_with_status_2(
    tmp_path: Path,
) -> None:
    pipe = tmp_path / "battle.hexfray"
    os.mkfifo(pipe)  # no writer: a reader that opens it would wait for ever
    result = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "--screenshot", str(tmp_path / "x.png"), str(pipe)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,  # what main hung on
        env={**os.environ, "HEXFRAY_HOME": str(tmp_path / "home"), "QT_QPA_PLATFORM": "offscreen"},
        check=False,
    )
    assert result.returncode == 2
    assert result.stderr.splitlines() == [f"hexfray: cannot open {pipe}: battle.hexfray {PIPE}"]


ENDLESS_READERS = """
import json, sys
from pathlib import Path
from app import user_dirs
from app.files import BattleFileError, find_recoverable, open_battle, recover
from app.templates import load_library

folder = Path(sys.argv[1])
found = {}
found["offered"] = len(find_recoverable(folder / "autosave"))
try:
    recover(folder / "autosave" / "battle-1.hexfray-journal")
except BattleFileError as refusal:
    found["recover"] = str(refusal)
found["templates"] = list(load_library(folder / "templates").problems)
try:
    open_battle(folder / "zeros.hexfray")
except BattleFileError as refusal:
    found["battle"] = str(refusal)
found["settings"] = user_dirs.settings().fileName() != str(user_dirs.config_dir() / "settings.ini")
print(json.dumps(found))
"""


def limit_memory() -> None:
    # Reading /dev/zero whole would fill the machine: the child fails instead.
    import resource  # POSIX only, as /dev/zero

    resource.setrlimit(resource.RLIMIT_AS, (2 * 2**30, 2 * 2**30))


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="a system without /dev/zero")
def test_dev_zero_as_an_autosave_a_template_a_battle_or_the_settings_is_refused(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    links = {
        tmp_path / "autosave" / f"battle-1{JOURNAL_SUFFIX}",
        tmp_path / "templates" / "zeros.json",
        tmp_path / "zeros.hexfray",
        home / "config" / "settings.ini",
    }
    for link in links:
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to("/dev/zero")
    result = subprocess.run(
        [sys.executable, "-c", ENDLESS_READERS, str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "HEXFRAY_HOME": str(home), "QT_QPA_PLATFORM": "offscreen"},
        preexec_fn=limit_memory,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert json.loads(result.stdout) == {
        "offered": 0,
        "recover": f"battle-1{JOURNAL_SUFFIX} {DEVICE}",
        "templates": [f"zeros.json: the file {DEVICE}"],
        "battle": f"zeros.hexfray {DEVICE}",
        "settings": True,
    }
