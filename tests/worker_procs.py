"""Real `worldmem worker` processes for the tests and the bench: each polls the given task queue of a Temporal
server with the shared database, and asks the local fake OpenAI server under its own path (`/v1/<name>/...`),
so the fake knows which worker made each request."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from temporalio.api.enums.v1 import TaskQueueType
from temporalio.api.taskqueue.v1 import TaskQueue
from temporalio.api.workflowservice.v1 import DescribeTaskQueueRequest
from temporalio.client import Client

from graph.settings import Settings
from tests.fake_openai import FakeOpenAI


def spawn(settings: Settings, db_name: str, fake: FakeOpenAI, name: str, log: Path) -> subprocess.Popen[bytes]:
    url = f"{fake.url}/{name}"
    env = {**os.environ, "WORLDMEM_DB_NAME": db_name, "WORLDMEM_TEMPORAL_ADDRESS": settings.temporal_address or "",
           "WORLDMEM_TEMPORAL_TASK_QUEUE": settings.temporal_task_queue,
           "WORLDMEM_CURATOR_BASE_URL": url, "WORLDMEM_CURATOR_MODEL_NAME": "fake",
           "WORLDMEM_CURATOR_TIMEOUT_S": "100", "WORLDMEM_CURATOR_CHECK_ON_START": "false",
           "WORLDMEM_EMBEDDING_PROVIDER": "openai", "WORLDMEM_EMBEDDING_BASE_URL": url,
           "WORLDMEM_EMBEDDING_TIMEOUT_S": "100",
           "WORLDMEM_TEMPORAL_HEARTBEAT_TIMEOUT_S": str(settings.temporal_heartbeat_timeout_s),
           # the schedules the worker creates span every owner of the database: not while a test runs
           "WORLDMEM_FINDER_SWEEP_S": "86400", "WORLDMEM_RETENTION_EVERY_HOURS": "8760"}
    with log.open("ab") as out:
        return subprocess.Popen([sys.executable, "-m", "cli.main", "worker"], env=env, stdout=out,
                                stderr=subprocess.STDOUT)


def stop(procs: list[subprocess.Popen[bytes]]) -> None:
    for proc in procs:
        if proc.poll() is None:
            proc.terminate()
    for proc in procs:
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@contextmanager
def workers(settings: Settings, db_name: str, fake: FakeOpenAI, names: list[str]
            ) -> Iterator[dict[str, subprocess.Popen[bytes]]]:
    """The worker processes by name; on a failure inside the block, what each wrote goes to stderr."""
    with tempfile.TemporaryDirectory(prefix="workers-") as tmp:
        logs = {name: Path(tmp) / f"{name}.log" for name in names}
        procs = {name: spawn(settings, db_name, fake, name, logs[name]) for name in names}
        try:
            yield procs
        except BaseException:
            for name, log in logs.items():
                print(f"--- worker {name} (exit {procs[name].poll()}):\n{log.read_text()[-3000:]}", file=sys.stderr)
            raise
        finally:
            stop(list(procs.values()))


def asker(path: str) -> str:
    """Which worker made a request to the fake: /v1/<name>/chat/completions."""
    return path.split("/")[2]


async def polling(client: Client, queue: str, n: int, within_s: float = 90.0) -> None:
    """Wait until `n` workers poll `queue` for activities (a worker process needs seconds to start, more on a
    loaded machine)."""
    request = DescribeTaskQueueRequest(namespace=client.namespace, task_queue=TaskQueue(name=queue),
                                       task_queue_type=TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY)
    deadline = time.monotonic() + within_s
    while len((await client.workflow_service.describe_task_queue(request)).pollers) < n:
        if time.monotonic() > deadline:
            raise TimeoutError(f"fewer than {n} workers poll {queue}")
        await asyncio.sleep(0.2)
