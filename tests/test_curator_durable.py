"""The curator on a real Temporal dev server: the same result as inline, and faults that lose nothing."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from pydantic_ai.messages import ModelMessage, ModelResponse, ToolCallPart
from pydantic_ai.models.function import AgentInfo, FunctionModel
from temporalio.client import Client

from curator.batch import RunReport
from curator.durable.types import workflow_id
from curator.durable.worker import connect, signal_turn, worker
from curator.pipeline import Curator
from curator.runtime import Runtime, start
from graph.platform.db import Database
from graph.reads.temporal import state_at
from graph.settings import Settings
from graph.sql import load
from tests.conftest import TEST_DB
from tests.curator_llm import Script, by_turns, entity, fact, rel, turn
from tests.fake_openai import FakeOpenAI, serve
from tests.temporal_dev import dev_server, temporal  # noqa: F401
from tests.test_curator_pipeline import NOW

TRANSCRIPT = {
    "Luna ist meine Katze, Futter um 19 Uhr": [entity("pet:luna", "Luna", aliases=["Luna"]),
                                               rel("person:me", "cares_for", "pet:luna", quote="Luna ist meine Katze"),
                                               fact("pet:luna", "feeding_time", "19:00", quote="Futter um 19 Uhr")],
    "danke 👍": [],
    "Rex ist mein Hund und frisst immer um 7": [entity("pet:rex", "Rex"),
                                                fact("pet:rex", "feeding_time", "07:00", quote="frisst immer um 7")],
    "Rex hat am 1. Mai 2020 Geburtstag, merk dir das": [fact("pet:rex", "birthday", "2020-05-01",
                                                             quote="Rex hat am 1. Mai 2020 Geburtstag")],
}


@pytest.fixture
def tsettings(settings: Settings, temporal: str) -> Settings:  # noqa: F811
    return settings.model_copy(update={
        "temporal_address": temporal, "temporal_task_queue": f"curator-{uuid.uuid4().hex[:8]}",
        "curator_debounce_s": 0.3, "curator_debounce_turns": 5, "curator_activity_timeout_s": 4.0,
        "curator_timeout_s": 2.0})


def committed(db: Database, owner: str) -> set[tuple[str, str, str]]:
    """Every believed fact of the owner's entities, as (subject, predicate, value)."""
    out = set()
    for ref in ("pet:luna", "pet:rex", "person:me"):
        state = state_at(db, owner, ref, NOW)
        out |= {(ref, f.predicate, str(f.value)) for f in (state.facts if state else [])}
    return out


def runs(db: Database, owner: str, chat: str) -> list[dict[str, Any]]:
    with db.owner_tx(owner, read_only=True) as conn:
        return [dict(r) for r in conn.execute(load("curator_runs_for_chat"), {"chat_id": chat, "limit": 100})]


async def durably(client: Client, settings: Settings, owner: str, chat: str, explicit: bool = True) -> list[RunReport]:
    await signal_turn(client, settings, owner, chat, explicit)
    handle = client.get_workflow_handle(workflow_id(owner, chat), result_type=list[RunReport])
    result: list[RunReport] = await handle.result()
    return result


def test_inline_equals_durable(db: Database, tsettings: Settings) -> None:
    inline_owner, durable_owner = f"in-{uuid.uuid4().hex[:8]}", f"du-{uuid.uuid4().hex[:8]}"
    model = Script(default=by_turns(TRANSCRIPT)).model()
    curator = Curator(db, tsettings, model)
    for text in TRANSCRIPT:
        turn(db, inline_owner, "c", text)
        asyncio.run(curator.curate(inline_owner, "c"))

    async def durable() -> None:
        client = await connect(tsettings)
        async with worker(client, tsettings, curator):
            for text in TRANSCRIPT:
                turn(db, durable_owner, "c", text)
                reports = await durably(client, tsettings, durable_owner, "c")
                assert [r.status for r in reports] in (["committed"], ["skipped"])

    asyncio.run(durable())
    facts = committed(db, inline_owner)
    assert ("pet:luna", "feeding_time", "19:00") in facts and ("pet:rex", "birthday", "2020-05-01") in facts
    assert committed(db, durable_owner) == facts
    assert [r["status"] for r in runs(db, durable_owner, "c")] == [r["status"] for r in runs(db, inline_owner, "c")]


def test_durable_debounce_coalesces(db: Database, tsettings: Settings, owner: str) -> None:
    script = Script(default=by_turns(TRANSCRIPT))

    async def go() -> list[RunReport]:
        client = await connect(tsettings)
        async with worker(client, tsettings, Curator(db, tsettings, script.model())):
            for text in list(TRANSCRIPT)[2:]:
                turn(db, owner, "d", text)
                await signal_turn(client, tsettings, owner, "d", False)
            handle = client.get_workflow_handle(workflow_id(owner, "d"), result_type=list[RunReport])
            result: list[RunReport] = await handle.result()
            return result

    [report] = asyncio.run(go())
    assert (report.status, report.from_seq, report.upto_seq, script.calls) == ("committed", 1, 2, 1)
    assert ("pet:rex", "birthday", "2020-05-01") in committed(db, owner)


def test_llm_timeout_then_curated_exactly_once(db: Database, tsettings: Settings, owner: str) -> None:
    async def go() -> tuple[list[RunReport], list[RunReport]]:
        client = await connect(tsettings)
        async with worker(client, tsettings, Curator(db, tsettings, hanging_model())):
            turn(db, owner, "t", "Rex ist mein Hund und frisst immer um 7")
            first = await durably(client, tsettings, owner, "t")
            second = await durably(client, tsettings, owner, "t")
            return first, second

    first, second = asyncio.run(go())
    assert [r.status for r in first] == ["failed"] and (first[0].error or "").startswith("model error (timeout)"), first
    assert [r.status for r in second] == ["committed"]
    assert [(r["status"], r["from_seq"], r["upto_seq"]) for r in runs(db, owner, "t")] == [
        ("committed", 1, 1), ("failed", 1, 1)]
    assert committed(db, owner) == {("pet:rex", "feeding_time", "07:00")}


def hanging_model() -> FunctionModel:
    """The first request does not answer within curator_timeout_s; later ones answer from the transcript."""
    table = by_turns(TRANSCRIPT)
    calls = []

    async def answer(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        calls.append(1)
        if len(calls) == 1:
            await asyncio.sleep(10)
        return ModelResponse(parts=[ToolCallPart(info.output_tools[0].name, table(messages))])

    return FunctionModel(answer, model_name="hanging")


@pytest.fixture
def fake_llm() -> Iterator[FakeOpenAI]:
    with serve(FakeOpenAI()) as fake:
        yield fake


def worker_process(tsettings: Settings, fake: FakeOpenAI) -> subprocess.Popen[bytes]:
    env = {**os.environ, "WORLDMEM_DB_NAME": TEST_DB, "WORLDMEM_TEMPORAL_ADDRESS": tsettings.temporal_address or "",
           "WORLDMEM_TEMPORAL_TASK_QUEUE": tsettings.temporal_task_queue, "WORLDMEM_CURATOR_BASE_URL": fake.url,
           "WORLDMEM_CURATOR_MODEL_NAME": "fake", "WORLDMEM_CURATOR_TIMEOUT_S": "60",
           # the start check's call would count among the curator calls this file counts (tests/test_curator_check.py)
           "WORLDMEM_CURATOR_CHECK_ON_START": "false"}
    return subprocess.Popen([sys.executable, "-m", "cli.main", "worker"], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)


def test_worker_killed_mid_batch(db: Database, tsettings: Settings, owner: str, fake_llm: FakeOpenAI) -> None:
    """SIGKILL the worker while the LLM call is in flight: a second worker retries the batch, once."""
    fake_llm.answers.append(by_turns(TRANSCRIPT))
    fake_llm.answers.append(by_turns(TRANSCRIPT))
    fake_llm.delays[1] = 30.0  # the first call hangs
    first = worker_process(tsettings, fake_llm)
    second: subprocess.Popen[bytes] | None = None
    try:
        turn(db, owner, "k", "Rex ist mein Hund und frisst immer um 7")

        async def go() -> list[RunReport]:
            client = await connect(tsettings)
            await signal_turn(client, tsettings, owner, "k", True)
            deadline = time.monotonic() + 60
            while not fake_llm.requests:
                assert time.monotonic() < deadline and first.poll() is None, "the worker never called the LLM"
                await asyncio.sleep(0.1)
            first.send_signal(signal.SIGKILL)
            first.wait()
            nonlocal second
            second = worker_process(tsettings, fake_llm)
            handle = client.get_workflow_handle(workflow_id(owner, "k"), result_type=list[RunReport])
            result: list[RunReport] = await handle.result()
            return result

        reports = asyncio.run(asyncio.wait_for(go(), 120))
    finally:
        for proc in (first, second):
            if proc is not None and proc.poll() is None:
                proc.terminate()
                proc.wait(10)
    assert [r.status for r in reports] == ["committed"]
    assert len(fake_llm.requests) == 2
    assert committed(db, owner) == {("pet:rex", "feeding_time", "07:00")}
    assert [r["status"] for r in runs(db, owner, "k")] == ["committed"]


def test_temporal_down_falls_back_to_inline(db: Database, settings: Settings, owner: str, tmp_path: Any) -> None:
    script = Script(default=by_turns(TRANSCRIPT))
    with dev_server(tmp_path / "server.log") as address:
        fast = settings.model_copy(update={"temporal_address": address, "curator_debounce_s": 0.2,
                                           "temporal_task_queue": "nobody-listens"})

        async def connected() -> Runtime:
            runtime = await start(db, fast, script.model())
            assert runtime is not None and runtime.durable
            return runtime

        loop = asyncio.new_event_loop()
        runtime = loop.run_until_complete(connected())
    # the server is gone: every turn still gets curated, inline
    turn(db, owner, "f", "Rex ist mein Hund und frisst immer um 7")
    runtime.on_turn(owner, "f", True)

    async def settle() -> None:
        deadline = time.monotonic() + 30
        while runtime.fallbacks == 0 and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        await runtime.inline.idle()
        await runtime.stop()

    loop.run_until_complete(settle())
    loop.close()
    assert runtime.fallbacks == 1
    assert committed(db, owner) == {("pet:rex", "feeding_time", "07:00")}

    unreachable = settings.model_copy(update={"temporal_address": "127.0.0.1:9"})
    down = asyncio.run(start(db, unreachable, script.model()))
    assert down is not None and not down.durable


def test_catch_up_reconciler(db: Database, settings: Settings, owner: str) -> None:
    for text in list(TRANSCRIPT)[:2]:
        turn(db, owner, "r", text)  # stored while no runtime listened

    async def go() -> list[RunReport]:
        runtime = await start(db, settings, Script(default=by_turns(TRANSCRIPT)).model())
        assert runtime is not None
        reports = await runtime.catch_up(older_than=timedelta(0), owner=owner)
        again = await runtime.catch_up(older_than=timedelta(0), owner=owner)  # nothing lags any more
        await runtime.stop()
        return reports + again

    reports = asyncio.run(go())
    assert [r.status for r in reports] == ["committed"]
    assert ("pet:luna", "feeding_time", "19:00") in committed(db, owner)
