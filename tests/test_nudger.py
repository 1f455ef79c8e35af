"""The finder's nudger coalesces a burst of commits' nudges per owner (graph/finder/nudger.py, issue 11)."""

from __future__ import annotations

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
