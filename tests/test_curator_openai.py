"""The real provider path: pydantic-ai's OpenAI model against a local chat-completions server (loopback)."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime

from curator.extract import build_model
from curator.pipeline import Curator
from curator.usage import usage_since
from graph.platform.db import Database
from graph.reads.temporal import state_at
from graph.settings import Settings
from tests.curator_llm import entity, fact, ops, turn
from tests.fake_openai import FakeOpenAI, serve
from tests.test_curator_pipeline import NOW


def test_no_model_configured_means_no_model(settings: Settings) -> None:
    assert build_model(settings.model_copy(update={"curator_model": None, "curator_base_url": None})) is None


def test_curator_through_an_openai_compatible_server(db: Database, settings: Settings, owner: str) -> None:
    answer = ops(entity("pet:rex", "Rex"), fact("pet:rex", "feeding_time", "07:00", quote="um 7 Uhr"),
                 {"op": "assert_fact", "subject": 42})
    with serve(FakeOpenAI(answers=["{broken", answer])) as fake:
        configured = settings.model_copy(update={"curator_base_url": fake.url, "curator_model_name": "local-llm"})
        model = build_model(configured)
        assert model is not None
        turn(db, owner, "o", "Rex frisst immer um 7 Uhr. Key: sk-proj-Ab3dEf6hIj9kLmN0pQrStUvWxYz1234567890abcd")
        [report] = asyncio.run(Curator(db, configured, model).curate(owner, "o"))
    assert (report.status, report.retried, report.committed) == ("committed", True, 2)
    assert [d.code for d in report.dropped] == ["INVALID_OP"]
    state = state_at(db, owner, "pet:rex", NOW)
    assert state is not None and [f.value for f in state.facts] == ["07:00"]
    first, retry = fake.requests
    assert first["model"] == "local-llm" and first["tools"][0]["function"]["name"]
    sent = json.dumps(first["messages"])
    assert "Rex frisst immer" in sent and "sk-proj-Ab3dEf6" not in sent  # the key never left the process
    # the one retry is a new request with a short note of what was wrong, never the bad answer sent back
    again = json.dumps(retry["messages"])
    assert "Your previous answer was rejected" in again and "{broken" not in again
    assert len(retry["messages"]) == len(first["messages"])
    spent = usage_since(db, owner, datetime(2020, 1, 1, tzinfo=UTC))  # two answers of 100 in, 20 out; one turn
    assert (spent.calls, spent.turns, spent.input_per_turn, spent.output_per_turn) == (1, 1, 200.0, 40.0)
