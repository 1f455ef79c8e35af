"""Two real `worldmem worker` processes on one task queue of the Temporal dev server and the test database share
the curator's chats, the finder's and the retention's jobs: every batch and job is done once, and a worker
killed with SIGKILL in the middle of an activity leaves its work to the other, which finishes it (the
activities heartbeat; WORLDMEM_TEMPORAL_HEARTBEAT_TIMEOUT_S is 2 s here)."""

from __future__ import annotations

import asyncio
import signal
import time
import uuid
from contextlib import closing
from datetime import UTC, datetime, timedelta
from typing import Any

from temporalio.api.enums.v1 import PendingActivityState
from temporalio.client import Client, WorkflowHandle

from curator.batch import RunReport
from curator.durable.types import workflow_id
from curator.durable.worker import connect, signal_turn
from graph.demo import load_demo
from graph.finder.durable import WORKFLOW as FINDER
from graph.finder.durable import ReconcileInput, ReconcileSummary
from graph.platform.db import Database
from graph.platform.session_locks import LEADER, SessionLocks
from graph.reads.temporal import state_at
from graph.retention import job, observed
from graph.retention.classes import month_of
from graph.retention.durable import WORKFLOW as RETENTION
from graph.retention.durable import RunInput, RunSummary
from graph.settings import Settings
from tests.conftest import TEST_DB
from tests.curator_llm import by_turns, entity, fact, turn
from tests.fake_openai import FakeOpenAI, serve
from tests.temporal_dev import temporal  # noqa: F401
from tests.test_curator_durable import runs
from tests.test_curator_pipeline import NOW
from tests.test_finder import NOW as DEMO_NOW
from tests.worker_procs import asker, polling, workers

PETS = ["Rex", "Bello", "Fido", "Hasso", "Wuffi", "Struppi"]
SAID = {f"{name} ist mein Hund und frisst immer um 7": [
    entity(f"pet:{name.lower()}", name),
    fact(f"pet:{name.lower()}", "feeding_time", "07:00", quote="frisst immer um 7")] for name in PETS}
SEPTEMBER = datetime(2020, 9, 1, tzinfo=UTC)
FAST = {"curator_debounce_s": 0.3, "curator_activity_timeout_s": 30.0, "temporal_heartbeat_timeout_s": 2.0}


def shared(settings: Settings, temporal: str) -> Settings:  # noqa: F811
    return settings.model_copy(update={**FAST, "temporal_address": temporal,
                                       "temporal_task_queue": f"shared-{uuid.uuid4().hex[:8]}"})


async def until(check: Any, what: str, within_s: float = 60.0) -> None:
    deadline = time.monotonic() + within_s
    while not check():
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.05)


async def attempts(handle: WorkflowHandle[Any, Any]) -> list[int]:
    """The attempt number of every activity start in the workflow's history."""
    history = await handle.fetch_history()
    return [e.activity_task_started_event_attributes.attempt for e in history.events
            if e.HasField("activity_task_started_event_attributes")]


def believed(db: Database, owner: str) -> list[tuple[str, str, str]]:
    """The pets' believed facts as a list (a set would hide a fact written twice)."""
    out = []
    for ref in (f"pet:{name.lower()}" for name in PETS):
        state = state_at(db, owner, ref, NOW)
        out += [(ref, f.predicate, str(f.value)) for f in (state.facts if state else [])]
    return out


def test_two_workers_curate_every_chat_once_and_survive_a_kill(db: Database, settings: Settings, owner: str,
                                                                temporal: str) -> None:  # noqa: F811
    tsettings = shared(settings, temporal)
    # every answer takes 3 s: the kill lands inside the model call of the batches the first worker took
    fake = FakeOpenAI(answers=[by_turns(SAID)] * 3 * len(SAID), delays={n: 3.0 for n in range(1, 50)})
    with serve(fake), workers(tsettings, TEST_DB, fake, ["w1", "w2"]) as procs:
        for i, text in enumerate(SAID):
            turn(db, owner, f"c{i}", text)

        async def go() -> tuple[str, float, list[list[RunReport]]]:
            client = await connect(tsettings)
            await polling(client, tsettings.temporal_task_queue, 2)  # both workers up: the kill leaves one
            for i in range(len(SAID)):
                await signal_turn(client, tsettings, owner, f"c{i}", True)
            await until(lambda: fake.paths, "no worker called the model")
            killed = asker(fake.paths[0])
            procs[killed].send_signal(signal.SIGKILL)
            procs[killed].wait()
            at = time.monotonic()
            handles = [client.get_workflow_handle(workflow_id(owner, f"c{i}"), result_type=list[RunReport])
                       for i in range(len(SAID))]
            results = await asyncio.wait_for(asyncio.gather(*(h.result() for h in handles)), 60)
            return killed, time.monotonic() - at, list(results)

        killed, took, results = asyncio.run(go())
    print(f"every batch committed {took:.1f} s after the kill")
    assert [[(r.status, r.from_seq, r.upto_seq) for r in reports] for reports in results] == [
        [("committed", 1, 1)]] * len(SAID)
    for i in range(len(SAID)):  # one committed run per batch, none recorded twice
        assert [(r["status"], r["from_seq"], r["upto_seq"]) for r in runs(db, owner, f"c{i}")] == [
            ("committed", 1, 1)]
    assert sorted(believed(db, owner)) == sorted((f"pet:{n.lower()}", "feeding_time", "07:00") for n in PETS)
    askers = [asker(p) for p in fake.paths]
    survivor = ({"w1", "w2"} - {killed}).pop()
    assert survivor in askers and len(askers) > len(SAID)  # the killed worker's batches were asked again
    # heartbeat timeout 2 s + retry after 1 s + the 3 s answer + the workflow's next task leaving the dead
    # worker's sticky queue after 2 s: about 8 s (16 s while that queue kept the SDK's 10 s); the bound leaves
    # room for a loaded machine
    assert took < 14


def test_two_workers_finder_job_finished_by_the_survivor(db: Database, settings: Settings, owner: str,
                                                          temporal: str) -> None:  # noqa: F811
    tsettings = shared(settings, temporal)
    load_demo(db, owner, now=DEMO_NOW)
    fake = FakeOpenAI(embed_delays={1: 60.0})  # the first embedding request hangs: its worker gets killed
    with serve(fake), workers(tsettings, TEST_DB, fake, ["w1", "w2"]) as procs:

        async def go() -> tuple[str, float, ReconcileSummary, list[int]]:
            client = await connect(tsettings)
            await polling(client, tsettings.temporal_task_queue, 2)
            handle = await client.start_workflow(
                FINDER, ReconcileInput(owner=owner, batch=1, heartbeat_timeout_s=2.0),
                id=f"finder-{uuid.uuid4().hex[:8]}", task_queue=tsettings.temporal_task_queue,
                result_type=ReconcileSummary)
            await until(lambda: fake.embedded, "no worker embedded")
            killed = asker(fake.embedded[0][0])
            procs[killed].send_signal(signal.SIGKILL)
            procs[killed].wait()
            at = time.monotonic()
            summary = await asyncio.wait_for(handle.result(), 60)
            return killed, time.monotonic() - at, summary, await attempts(handle)

        killed, took, summary, tries = asyncio.run(go())
    print(f"the finder's job finished {took:.1f} s after the kill")
    assert tries == [2]  # the killed attempt's start is not in the history: only the one that completed
    assert (summary.owners, summary.failed, summary.errors) == (1, 0, [])
    with db.owner_tx(owner, read_only=True) as conn:
        rows = conn.execute("SELECT text, embedding_model, embedding_pending FROM memory_projections").fetchall()
    assert rows and all(r["embedding_model"] == "openai:nomic-embed-text" and not r["embedding_pending"] for r in rows)
    again = [text for path, texts in fake.embedded[1:] for text in texts]
    assert all(asker(path) != killed for path, _ in fake.embedded[1:])
    assert sorted(again) == sorted(r["text"] for r in rows)  # the survivor embedded each text once
    assert summary.embedded == len(rows)
    assert took < 30


def september(db: Database, owner: str) -> None:
    """Three observations of an old month: the retention job rolls the month up and drops it."""
    with db.owner_tx(owner) as conn:
        observed.record(conn, [observed.Observation(event_type="observation", source="integration:x",
                                                    occurred_at=SEPTEMBER + timedelta(days=i), summary="ping")
                               for i in range(3)])


async def running_on(handle: WorkflowHandle[Any, Any]) -> int:
    """The pid of the worker running the workflow's activity (its identity is pid@host), once it started."""
    while True:
        pending = (await handle.describe()).raw_description.pending_activities
        if pending and pending[0].state == PendingActivityState.PENDING_ACTIVITY_STATE_STARTED:
            return int(pending[0].last_worker_identity.split("@")[0])
        await asyncio.sleep(0.1)


def test_two_workers_retention_job_finished_by_the_survivor(db: Database, settings: Settings, owner: str,
                                                             temporal: str) -> None:  # noqa: F811
    """The job waits inside its activity for the retention lock this test holds; its worker is killed there."""
    tsettings = shared(settings, temporal)
    september(db, owner)
    with serve(FakeOpenAI()) as fake, workers(tsettings, TEST_DB, fake, ["w1", "w2"]) as procs, \
            closing(SessionLocks(db.url)) as lock:
        assert lock.leads(job.RETENTION)

        async def go() -> tuple[float, RunSummary, list[int]]:
            client = await connect(tsettings)
            await polling(client, tsettings.temporal_task_queue, 2)
            handle = await client.start_workflow(
                RETENTION, RunInput(window_days=30, owner=owner, heartbeat_timeout_s=2.0),
                id=f"retention-{uuid.uuid4().hex[:8]}", task_queue=tsettings.temporal_task_queue,
                result_type=RunSummary)
            pid = await asyncio.wait_for(running_on(handle), 60)
            [killed] = [p for p in procs.values() if p.pid == pid]
            killed.send_signal(signal.SIGKILL)
            killed.wait()
            at = time.monotonic()
            release()
            summary = await asyncio.wait_for(handle.result(), 60)
            return time.monotonic() - at, summary, await attempts(handle)

        def release() -> None:
            lock.release(LEADER, job.RETENTION)

        try:
            took, summary, tries = asyncio.run(go())
        finally:  # the pooled connection must not keep the lock for the session's other retention runs
            release()
    print(f"the retention job finished {took:.1f} s after the kill")
    assert tries == [2]
    assert (summary.dropped.get("2020-09"), summary.errors) == (3, [])
    with db.owner_tx(owner, read_only=True) as conn:
        assert month_of(SEPTEMBER) not in observed.months(conn)  # other tests' months may exist
        rollups = conn.execute("SELECT text FROM memory_projections WHERE source_kind = 'rollup'").fetchall()
    assert len(rollups) == 1
    assert took < 30


def test_two_workers_run_each_retention_job_once(db: Database, settings: Settings, owner: str,
                                                  temporal: str) -> None:  # noqa: F811
    tsettings = shared(settings, temporal)
    september(db, owner)
    with serve(FakeOpenAI()) as fake, workers(tsettings, TEST_DB, fake, ["w1", "w2"]):

        async def job(client: Client) -> tuple[RunSummary, list[int]]:
            handle = await client.start_workflow(
                RETENTION, RunInput(window_days=30, owner=owner, heartbeat_timeout_s=2.0),
                id=f"retention-{uuid.uuid4().hex[:8]}", task_queue=tsettings.temporal_task_queue,
                result_type=RunSummary)
            return await asyncio.wait_for(handle.result(), 60), await attempts(handle)

        async def go() -> list[tuple[RunSummary, list[int]]]:
            client = await connect(tsettings)
            await polling(client, tsettings.temporal_task_queue, 2)
            return list(await asyncio.gather(job(client), job(client)))  # one each, perhaps one per worker

        done = asyncio.run(go())
    assert [tries for _, tries in done] == [[1], [1]]
    # the two runs together rolled the month up and dropped it once
    assert sorted(s.dropped.get("2020-09", 0) for s, _ in done) == [0, 3]
    with db.owner_tx(owner, read_only=True) as conn:
        texts = [r["text"] for r in conn.execute("SELECT text FROM memory_projections WHERE source_kind = 'rollup'")]
    assert len(texts) == 1
