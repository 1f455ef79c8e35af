"""The last step of a batch retried after it already wrote (its worker died between the commit and reporting
it to Temporal, or was taken for dead and its step given to another): the retry reports what the first did
and writes nothing, so the chat's workflow goes on with the next batch instead of stopping at a stale one."""

from __future__ import annotations

import asyncio
import threading

from curator.batch import BatchRequest, RunReport
from curator.pipeline import Curator, going_on
from graph.platform.db import Database
from graph.settings import Settings
from tests.curator_llm import Script, by_turns, turn
from tests.test_curator_durable import TRANSCRIPT, committed, runs


def test_a_retried_commit_replays(db: Database, settings: Settings, owner: str) -> None:
    curator = Curator(db, settings, Script(default=by_turns(TRANSCRIPT)).model())
    turn(db, owner, "c", "Rex ist mein Hund und frisst immer um 7")
    batch = curator.load(BatchRequest(owner=owner, chat_id="c"))
    assert batch is not None and batch.trigger
    analysis = asyncio.run(curator.analyse(batch))
    routed = curator.validate(batch, analysis)
    first, again = (curator.finish(batch, analysis, routed) for _ in range(2))
    assert (first.status, again.status, again.committed) == ("committed", "committed", first.committed)
    assert [r["status"] for r in runs(db, owner, "c")] == ["committed"]
    assert committed(db, owner) == {("pet:rex", "feeding_time", "07:00")}


def test_a_retried_skip_replays(db: Database, settings: Settings, owner: str) -> None:
    curator = Curator(db, settings, Script().model())
    turn(db, owner, "s", "danke 👍")
    batch = curator.load(BatchRequest(owner=owner, chat_id="s"))
    assert batch is not None and not batch.trigger
    first, again = (curator.finish(batch, None, None) for _ in range(2))
    assert (first.status, again.status, (again.from_seq, again.upto_seq)) == ("skipped", "skipped", (1, 1))
    assert going_on(again)
    assert [r["status"] for r in runs(db, owner, "s")] == ["skipped"]


def test_a_skip_of_turns_another_run_curated_is_stale(db: Database, settings: Settings, owner: str) -> None:
    curator = Curator(db, settings, Script().model())
    turn(db, owner, "t", "danke 👍")
    batch = curator.load(BatchRequest(owner=owner, chat_id="t"))
    turn(db, owner, "t", "ok")
    assert batch is not None
    longer = curator.load(BatchRequest(owner=owner, chat_id="t"))  # turns 1..2: another run's batch
    assert longer is not None and curator.finish(longer, None, None).status == "skipped"
    assert curator.finish(batch, None, None).status == "stale"


def test_two_commits_of_one_batch_at_once(db: Database, settings: Settings, owner: str) -> None:
    """A worker taken for dead while it commits, and the retry on the other worker, commit at the same moment:
    one writes, the other waits for it and replays its result."""
    curator = Curator(db, settings, Script(default=by_turns(TRANSCRIPT)).model())
    turn(db, owner, "b", "Rex ist mein Hund und frisst immer um 7")
    batch = curator.load(BatchRequest(owner=owner, chat_id="b"))
    assert batch is not None
    analysis = asyncio.run(curator.analyse(batch))
    routed = curator.validate(batch, analysis)
    reports: list[RunReport] = []
    threads = [threading.Thread(target=lambda: reports.append(curator.finish(batch, analysis, routed)))
               for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [r.status for r in reports] == ["committed", "committed"]
    assert [r["status"] for r in runs(db, owner, "b")] == ["committed"]
    assert committed(db, owner) == {("pet:rex", "feeding_time", "07:00")}
