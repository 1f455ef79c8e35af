"""The finder's reconciler on a real Temporal dev server: the schedule starts `finder:reconcile`, whose
activity is the inline `reconcile_owner`; after a commit a run embeds the rows exactly as the inline path
does, and a model that is down never fails the workflow (the error is recorded on the rows)."""

from __future__ import annotations

import asyncio
import uuid
from datetime import timedelta
from typing import Any

from temporalio.client import ScheduleActionExecutionStartWorkflow
from temporalio.worker import Worker

from curator.durable.worker import connect
from graph.demo import load_demo
from graph.finder import reconciler
from graph.finder.durable import (
    WORKFLOW,
    FinderActivities,
    FinderReconcile,
    ReconcileInput,
    ReconcileSummary,
    ensure_schedule,
)
from graph.finder.nudger import sweep_interval
from graph.ledger.committer import commit_proposal
from graph.ledger.proposal import AssertFact, MemoryMutationProposal
from graph.ledger.tokens import Principal
from graph.platform.db import Database
from graph.settings import Settings
from tests.temporal_dev import temporal  # noqa: F401
from tests.test_finder import NOW, HashEmbedder


def projections(db: Database, owner: str) -> list[dict[str, Any]]:
    with db.owner_tx(owner, read_only=True) as conn:
        # every column but the keys (entity ids differ between the two owners)
        return conn.execute("SELECT source_kind, text, embedding_model, embedding_pending, embedding_error, "
                            "embedding::text AS embedding FROM memory_projections ORDER BY text").fetchall()


def test_the_schedule_embeds_after_a_commit_as_the_inline_reconcile(db: Database, settings: Settings,
                                                                     owner: str, temporal: str) -> None:  # noqa: F811
    durable, inline = owner, f"finder-inline-{uuid.uuid4().hex[:8]}"
    for who in (durable, inline):
        load_demo(db, who, now=NOW)
    queue = f"finder-{uuid.uuid4().hex[:8]}"
    tsettings = settings.model_copy(update={"temporal_address": temporal, "temporal_task_queue": queue,
                                            "finder_sweep_s": 120.0})
    schedule_id = f"finder-test-{uuid.uuid4().hex[:8]}"
    fact = MemoryMutationProposal(run_id="r-vac", operations=[
        AssertFact(subject="pet:luna", predicate="description", value="shy tabby, scared of the vacuum",
                   valid_from=NOW, source="user", confidence=1.0)])

    async def scenario() -> tuple[ReconcileSummary, ReconcileSummary, timedelta]:
        client = await connect(tsettings)
        async with Worker(client, task_queue=f"{queue}-down", workflows=[FinderReconcile],
                          activities=FinderActivities(db, HashEmbedder(fail=True)).all()):
            down = await client.execute_workflow(WORKFLOW, ReconcileInput(owner=durable), id=f"{queue}-down",
                                                 task_queue=f"{queue}-down", result_type=ReconcileSummary)
        assert commit_proposal(db, Principal(owner=durable, kind="owner"), fact).committed == 1
        async with Worker(client, task_queue=queue, workflows=[FinderReconcile],
                          activities=FinderActivities(db, HashEmbedder()).all()):
            # only this owner: the run must not depend on what other tests of the session hold
            await ensure_schedule(client, tsettings, schedule_id, durable)
            await ensure_schedule(client, tsettings, schedule_id, durable)  # a second worker start updates it
            handle = client.get_schedule_handle(schedule_id)
            await handle.trigger()
            for _ in range(300):
                described = await handle.describe()
                if described.info.recent_actions:
                    break
                await asyncio.sleep(0.1)
            action = described.info.recent_actions[-1].action
            assert isinstance(action, ScheduleActionExecutionStartWorkflow)
            up = await client.get_workflow_handle(action.workflow_id, result_type=ReconcileSummary).result()
            every = described.schedule.spec.intervals[0].every
            await handle.delete()
            return down, up, every

    down, up, every = asyncio.run(scenario())
    assert every == timedelta(seconds=120)
    # the model was down: the workflow still completed, and the error sits on the rows (as inline)
    assert (down.owners, down.projected, down.embedded, down.failed, down.errors) == (1, 4, 0, 4, [])
    # at least Luna's text is rewritten; after test_finder in the same session 2 rewrites were seen once
    # (not explained yet), so the count is a lower bound and the row-by-row equality below is the check
    assert (up.owners, up.embedded, up.failed, up.errors) == (1, 4, 0, []) and up.projected >= 1
    got = projections(db, durable)
    assert all(not r["embedding_pending"] and r["embedding_error"] is None and r["embedding"] for r in got)
    assert any("vacuum" in r["text"] for r in got)
    # the same result as the inline path on the same world and commit
    assert commit_proposal(db, Principal(owner=inline, kind="owner"), fact).committed == 1
    reconciler.reconcile_owner(db, inline, HashEmbedder())
    assert got == projections(db, inline)


def test_the_server_thread_sweeps_only_without_temporal() -> None:
    assert sweep_interval(Settings(finder_sweep_s=120.0, temporal_address=None)) == 120.0
    assert sweep_interval(Settings(finder_sweep_s=120.0, temporal_address="localhost:7233")) == 0.0
