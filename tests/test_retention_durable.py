"""The retention job on a real Temporal dev server: the schedule starts `retention:run`, whose activity is
the inline job, and it does what the CLI does (here: rolls an old month of observations up, drops it)."""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime, timedelta

from temporalio.client import ScheduleActionExecutionStartWorkflow
from temporalio.worker import Worker

from curator.durable.worker import connect
from graph.platform.db import Database
from graph.retention import observed
from graph.retention.classes import month_of
from graph.retention.durable import RetentionActivities, RetentionRun, RunSummary, ensure_schedule
from graph.settings import Settings
from tests.temporal_dev import temporal  # noqa: F401

SEPTEMBER = datetime(2020, 9, 1, tzinfo=UTC)


def test_the_schedule_runs_the_job(db: Database, settings: Settings, temporal: str) -> None:  # noqa: F811
    owner = f"durable-{uuid.uuid4().hex[:8]}"
    with db.owner_tx(owner) as conn:
        observed.record(conn, [observed.Observation(event_type="observation", source="integration:x",
                                                    occurred_at=SEPTEMBER + timedelta(days=i), summary="ping")
                               for i in range(3)])
    tsettings = settings.model_copy(update={"temporal_address": temporal, "retention_window_days": 30,
                                            "temporal_task_queue": f"retention-{uuid.uuid4().hex[:8]}"})
    schedule_id = f"retention-test-{uuid.uuid4().hex[:8]}"

    async def scenario() -> tuple[RunSummary, timedelta]:
        client = await connect(tsettings)
        async with Worker(client, task_queue=tsettings.temporal_task_queue, workflows=[RetentionRun],
                          activities=RetentionActivities(db).all()):
            # only this owner: the job must not prune what other tests of the session keep
            await ensure_schedule(client, tsettings, schedule_id, owner)
            await ensure_schedule(client, tsettings, schedule_id, owner)  # a second worker start updates it
            handle = client.get_schedule_handle(schedule_id)
            await handle.trigger()
            for _ in range(300):
                described = await handle.describe()
                if described.info.recent_actions:
                    break
                await asyncio.sleep(0.1)
            action = described.info.recent_actions[-1].action
            assert isinstance(action, ScheduleActionExecutionStartWorkflow)
            result = await client.get_workflow_handle(action.workflow_id, result_type=RunSummary).result()
            every = described.schedule.spec.intervals[0].every
            await handle.delete()
            return result, every

    summary, every = asyncio.run(scenario())
    assert every == timedelta(hours=24)
    assert summary.dropped.get("2020-09") == 3 and summary.errors == []
    with db.owner_tx(owner, read_only=True) as conn:
        assert month_of(SEPTEMBER) not in observed.months(conn)
        texts = [r["text"] for r in conn.execute("SELECT text FROM memory_projections WHERE source_kind = 'rollup'")]
    assert texts == ["3 observation events, 2020-09 (09-01 to 09-03): mostly 'ping' (100 %)"]
