"""The finder's nudger coalesces a burst of commits' nudges per owner (graph/finder/nudger.py)."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from graph.finder import nudger
from graph.platform.db import Database


def test_nudges_coalesce_per_owner_until_the_thread_takes_them(db: Database,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, list[str] | None]] = []

    def reconcile(_db: Any, owner: str, _embedder: Any, *, refs: list[str] | None) -> None:
        calls.append((owner, refs))

    monkeypatch.setattr(nudger, "reconcile_owner", reconcile)
    n = nudger.Nudger(db, None, 0)
    n.nudge("a", ["person:x"])
    n.nudge("b", ["person:y"])
    n.nudge("a", ["person:z", "person:x"])
    n.nudge("c", ["person:w"])
    n.nudge("c", None)  # the whole owner: no refs list can say less
    n.nudge("c", ["person:v"])
    n.nudge("d", [f"person:p{i}" for i in range(nudger.MAX_REFS + 1)])
    n.start()
    n.stop()
    assert calls == [("a", ["person:x", "person:z"]), ("b", ["person:y"]), ("c", None), ("d", None)]
    n2 = nudger.Nudger(db, None, 0)
    n2.start()
    n2.nudge("a", ["person:q"])  # after the thread took the owner, a nudge queues it again
    n2.stop()
    assert calls[-1] == ("a", ["person:q"])


def test_drain_all_waits_for_every_nudgers_work(db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nudger.drain_all is true only once every Nudger of the process has reconciled what it was nudged with
    (tests/test_console_hostile.py relies on it before its snapshot)."""
    release = threading.Event()
    done: list[str] = []

    def reconcile(_db: Any, owner: str, _embedder: Any, *, refs: list[str] | None) -> None:
        release.wait(10)
        done.append(owner)

    monkeypatch.setattr(nudger, "reconcile_owner", reconcile)
    first, second = nudger.Nudger(db, None, 0), nudger.Nudger(db, None, 0)
    first.start()
    second.start()
    try:
        assert nudger.Nudger.drain_all(30)  # what apps of earlier tests still reconcile; nothing of ours yet
        first.nudge("a", ["person:x"])
        second.nudge("b", ["person:y"])
        assert not nudger.Nudger.drain_all(0.2) and done == []
        release.set()
        assert nudger.Nudger.drain_all(10)
        assert sorted(done) == ["a", "b"]
    finally:
        release.set()
        first.stop()
        second.stop()
