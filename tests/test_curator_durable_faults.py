"""The curator's workflow against Temporal itself failing: the server stopped in the middle of a batch and
started again on its state file, and the recorded history of a real run replayed against the current code."""

from __future__ import annotations

import asyncio
import os
import subprocess
import uuid
from pathlib import Path

from pydantic_ai.messages import ModelMessage, ModelResponse, ToolCallPart
from pydantic_ai.models.function import AgentInfo, FunctionModel
from temporalio.client import WorkflowHistory
from temporalio.contrib.pydantic import pydantic_data_converter
from temporalio.worker import Replayer

from curator.batch import RunReport
from curator.durable.types import workflow_id
from curator.durable.worker import connect, signal_turn, worker
from curator.durable.workflow import CuratorChat
from curator.pipeline import Curator
from curator.status import chat_status
from graph.platform.db import Database
from graph.reads.temporal import state_at
from graph.settings import Settings
from tests.curator_llm import Script, by_turns, turn
from tests.hostile_http import free_port
from tests.temporal_dev import spawn, stop, temporal  # noqa: F401
from tests.test_curator_durable import TRANSCRIPT, committed, runs
from tests.test_curator_pipeline import NOW

EVERY_FACT = {("person:me", "cares_for", "pet:luna"), ("pet:luna", "feeding_time", "19:00"),
              ("pet:rex", "feeding_time", "07:00"), ("pet:rex", "birthday", "2020-05-01")}
HISTORY = Path(__file__).parent / "data" / "curator_chat_history.json"


class Gate:
    """The curator's LLM: the first call hangs until the test opens the gate, then every call answers from the
    transcript. `entered` is set once the first call is in flight (the batch is being processed)."""

    def __init__(self) -> None:
        self.entered = asyncio.Event()
        self.open = asyncio.Event()
        self.calls = 0
        self.table = by_turns(TRANSCRIPT)

    async def answer(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        self.calls += 1
        self.entered.set()
        await self.open.wait()
        return ModelResponse(parts=[ToolCallPart(info.output_tools[0].name, self.table(messages))])

    def model(self) -> FunctionModel:
        return FunctionModel(self.answer, model_name="gate")


def test_temporal_restarted_mid_batch(db: Database, settings: Settings, owner: str, tmp_path: Path) -> None:
    """A dedicated dev server is stopped while the LLM call of a batch hangs and started again on the same state
    file; the worker resumes: each turn is curated exactly once, by one committed run per batch."""
    port, state, log = free_port(), tmp_path / "temporal.db", tmp_path / "server.log"
    fast = settings.model_copy(update={
        "temporal_address": f"127.0.0.1:{port}", "temporal_task_queue": f"curator-{uuid.uuid4().hex[:8]}",
        "curator_debounce_s": 0.3, "curator_debounce_turns": 5, "curator_activity_timeout_s": 60.0,
        "curator_timeout_s": 60.0})
    gate = Gate()
    texts = list(TRANSCRIPT)
    servers: list[subprocess.Popen[bytes]] = [spawn(port, log, state)]
    run_ids: list[str | None] = []

    async def go() -> list[RunReport]:
        client = await connect(fast)
        async with worker(client, fast, Curator(db, fast, gate.model())):
            for text in texts[:3]:
                turn(db, owner, "m", text)
            await signal_turn(client, fast, owner, "m", True)
            await asyncio.wait_for(gate.entered.wait(), 60)  # the batch 1..3 is in its LLM call
            run_ids.append((await client.get_workflow_handle(workflow_id(owner, "m")).describe()).run_id)
            await asyncio.to_thread(stop, servers[0])
            servers.append(await asyncio.to_thread(spawn, port, log, state))
            again = await connect(fast)
            turn(db, owner, "m", texts[3])  # stored after the restart, while the first batch still hangs
            await signal_turn(again, fast, owner, "m", True)
            gate.open.set()
            handle = again.get_workflow_handle(workflow_id(owner, "m"), result_type=list[RunReport])
            result: list[RunReport] = await asyncio.wait_for(handle.result(), 120)
            run_ids.append((await handle.describe()).run_id)
            return result

    try:
        reports = asyncio.run(go())
    finally:
        for proc in servers:
            stop(proc)
    assert [(r.status, r.from_seq, r.upto_seq) for r in reports] == [("committed", 1, 3), ("committed", 4, 4)]
    assert sorted((r["status"], r["from_seq"], r["upto_seq"]) for r in runs(db, owner, "m")) == [
        ("committed", 1, 3), ("committed", 4, 4)]
    assert run_ids[0] == run_ids[1]  # the run started before the restart finished both batches: its history survived
    assert gate.calls == 2  # the hanging call's answer reached the restarted server: not asked again
    assert committed(db, owner) == EVERY_FACT
    assert len(fact_rows(db, owner)) == len(EVERY_FACT)  # no fact was written twice
    status = chat_status(db, owner, "m", None)
    assert (status.watermark, status.last_seq, status.backlog) == (4, 4, 0)


def fact_rows(db: Database, owner: str) -> list[tuple[str, str, str]]:
    """The believed facts as a list (a set would hide a fact written twice)."""
    out = []
    for ref in ("pet:luna", "pet:rex", "person:me"):
        state = state_at(db, owner, ref, NOW)
        out += [(ref, f.predicate, str(f.value)) for f in (state.facts if state else [])]
    return out


async def recorded_run(db: Database, settings: Settings, owner: str) -> WorkflowHistory:
    """A real run (debounce, coalesced turns, a batch of every activity) on the dev server, and its history."""
    client = await connect(settings)
    async with worker(client, settings, Curator(db, settings, Script(default=by_turns(TRANSCRIPT)).model())):
        for text in TRANSCRIPT:
            turn(db, owner, "h", text)
            await signal_turn(client, settings, owner, "h", False)
        handle = client.get_workflow_handle(workflow_id(owner, "h"), result_type=list[RunReport])
        reports: list[RunReport] = await handle.result()
        assert [r.status for r in reports] == ["committed"]
        return await handle.fetch_history()


def replayer() -> Replayer:
    return Replayer(workflows=[CuratorChat], data_converter=pydantic_data_converter)


def test_replay_recorded_history(db: Database, settings: Settings, owner: str, temporal: str) -> None:  # noqa: F811
    """The history of a run recorded now replays against the current workflow code without nondeterminism."""
    fast = settings.model_copy(update={"temporal_address": temporal, "curator_debounce_s": 0.3,
                                       "temporal_task_queue": f"curator-{uuid.uuid4().hex[:8]}"})
    history = asyncio.run(recorded_run(db, fast, owner))
    kinds = {e.WhichOneof("attributes") for e in history.events}
    assert {"workflow_execution_signaled_event_attributes", "timer_started_event_attributes",
            "activity_task_completed_event_attributes"} <= kinds  # the run exercised signal, debounce, activities
    result = asyncio.run(replayer().replay_workflow(history, raise_on_replay_failure=False))
    assert result.replay_failure is None, result.replay_failure
    if os.environ.get("WORLDMEM_RECORD_HISTORY"):  # re-record tests/data's history (then commit it)
        HISTORY.write_text(history.to_json())


def test_replay_committed_history() -> None:
    """The history recorded with an earlier version of the workflow (tests/data) still replays: a change of the
    workflow code that breaks running workflows fails here and needs workflow.patched(). Re-record it (only for
    a deliberately incompatible change) with WORLDMEM_RECORD_HISTORY=1 and test_replay_recorded_history."""
    history = WorkflowHistory.from_json("curator-chat-recorded", HISTORY.read_text())
    assert len(history.events) > 10
    result = asyncio.run(replayer().replay_workflow(history, raise_on_replay_failure=False))
    assert result.replay_failure is None, result.replay_failure
