"""A worker killed (SIGKILL) while the model answers: the analyse activity heartbeats, so its death is noticed
after the heartbeat timeout, not the 120 s start-to-close timeout, and the other worker running all along
takes the batch over and commits it within 30 s, exactly once (Temporal dev server, two `worldmem worker`
processes, a scripted slow model)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
import uuid

import pytest

from curator.batch import RunReport
from curator.durable.types import workflow_id
from curator.durable.worker import connect, signal_turn
from graph.platform.db import Database
from graph.settings import Settings
from tests.conftest import TEST_DB
from tests.curator_llm import by_turns, turn
from tests.fake_openai import FakeOpenAI, serve
from tests.temporal_dev import temporal  # noqa: F401
from tests.test_curator_durable import TRANSCRIPT, committed, runs

TAKEOVER_S = 30.0


def worker_process(settings: Settings, fake: FakeOpenAI, name: str) -> subprocess.Popen[bytes]:
    """`worldmem worker` whose model is the fake under its own path, so the fake knows which worker asked."""
    env = {**os.environ, "WORLDMEM_DB_NAME": TEST_DB, "WORLDMEM_TEMPORAL_ADDRESS": settings.temporal_address or "",
           "WORLDMEM_TEMPORAL_TASK_QUEUE": settings.temporal_task_queue,
           "WORLDMEM_CURATOR_BASE_URL": f"{fake.url}/{name}", "WORLDMEM_CURATOR_MODEL_NAME": "fake",
           "WORLDMEM_CURATOR_TIMEOUT_S": "100", "WORLDMEM_CURATOR_CHECK_ON_START": "false"}
    return subprocess.Popen([sys.executable, "-m", "cli.main", "worker"], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)


def test_the_other_worker_takes_over_within_30_s(db: Database, settings: Settings, temporal: str,  # noqa: F811
                                                 owner: str) -> None:
    # the production timeouts: 120 s per activity; only the heartbeat can notice a dead worker sooner
    real = settings.model_copy(update={
        "temporal_address": temporal, "temporal_task_queue": f"curator-{uuid.uuid4().hex[:8]}",
        "curator_debounce_s": 0.3, "curator_activity_timeout_s": 120.0})
    with serve(FakeOpenAI(answers=[by_turns(TRANSCRIPT), by_turns(TRANSCRIPT)], delays={1: 100.0, 2: 2.0})) as fake:
        workers = {name: worker_process(real, fake, name) for name in ("w1", "w2")}
        try:
            turn(db, owner, "hb", "Rex ist mein Hund und frisst immer um 7")

            async def go() -> tuple[float, list[RunReport]]:
                client = await connect(real)
                await signal_turn(client, real, owner, "hb", True)
                deadline = time.monotonic() + 60
                while not fake.paths:
                    assert time.monotonic() < deadline, "no worker called the model"
                    await asyncio.sleep(0.1)
                busy = fake.paths[0].split("/")[2]  # /v1/<name>/chat/completions
                workers[busy].send_signal(signal.SIGKILL)
                workers[busy].wait()
                killed_at = time.monotonic()
                handle = client.get_workflow_handle(workflow_id(owner, "hb"), result_type=list[RunReport])
                try:
                    result: list[RunReport] = await asyncio.wait_for(handle.result(), TAKEOVER_S + 15)
                except TimeoutError:
                    pytest.fail(f"the batch was not committed {TAKEOVER_S + 15:.0f} s after the worker died")
                return time.monotonic() - killed_at, result

            took, reports = asyncio.run(go())
        finally:
            for proc in workers.values():
                if proc.poll() is None:
                    proc.terminate()
                    proc.wait(10)
    assert took <= TAKEOVER_S, f"committed {took:.1f} s after the kill"
    assert [r.status for r in reports] == ["committed"]
    assert len(fake.requests) == 2 and fake.paths[0] != fake.paths[1]  # the survivor asked the second time
    assert committed(db, owner) == {("pet:rex", "feeding_time", "07:00")}
    assert [r["status"] for r in runs(db, owner, "hb")] == ["committed"]
