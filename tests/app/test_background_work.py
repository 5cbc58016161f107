"""The panes' worker thread (app/background_work.py): only the latest request's
result comes back, on the GUI thread, and a result asked for outright comes at
once."""

from __future__ import annotations

import threading
from concurrent.futures import Future

from app.background_work import LatestResult


def test_only_the_latest_request_is_delivered_on_the_gui_thread(qtbot) -> None:
    work = LatestResult[int]()
    gate = threading.Event()
    delivered: list[tuple[int, bool]] = []

    def deliver(future: Future[int]) -> None:
        delivered.append((future.result(), threading.current_thread() is threading.main_thread()))

    work.request(lambda: gate.wait(5) and 1, deliver)  # still running when replaced
    work.request(lambda: 2, deliver)
    work.request(lambda: 3, deliver)
    gate.set()
    qtbot.waitUntil(lambda: bool(delivered), timeout=5000)
    qtbot.wait(50)
    assert delivered == [(3, True)]
    assert not work.pending


def test_a_result_asked_for_outright_is_delivered_once(qtbot) -> None:
    work = LatestResult[str]()
    delivered: list[str] = []
    work.request(lambda: "odds", lambda future: delivered.append(future.result()))
    work.wait()
    assert delivered == ["odds"]
    qtbot.wait(50)  # the queued delivery finds it delivered
    assert delivered == ["odds"]


def test_a_cancelled_request_is_never_delivered(qtbot) -> None:
    work = LatestResult[int]()
    delivered: list[int] = []
    work.request(lambda: 7, lambda future: delivered.append(future.result()))
    work.cancel()
    qtbot.wait(100)
    assert delivered == []
