"""Each output mode against a local OpenAI-compatible server that supports only that mode, and `auto`
finding it (tool, then native, then prompted) and remembering it per model."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from curator import output_mode
from curator.extract import build_model
from curator.pipeline import Curator
from graph.platform.db import Database
from graph.reads.temporal import state_at
from graph.settings import Settings
from tests.curator_llm import entity, fact, ops, turn
from tests.fake_openai import FakeOpenAI, serve
from tests.test_curator_pipeline import NOW

REX = ops(entity("pet:rex", "Rex"), fact("pet:rex", "feeding_time", "07:00", quote="um 7 Uhr"))


def curate(db: Database, settings: Settings, owner: str, fake: FakeOpenAI, setting: str) -> str:
    """One curator run through `fake` with the output-mode setting; the report's status."""
    configured = settings.model_copy(update={"curator_base_url": fake.url, "curator_output_mode": setting,
                                             "curator_model_name": f"m-{uuid.uuid4().hex[:6]}"})
    model = build_model(configured)
    assert model is not None
    chat = f"o-{uuid.uuid4().hex[:6]}"
    turn(db, owner, chat, "Rex frisst immer um 7 Uhr")
    [report] = asyncio.run(Curator(db, configured, model).curate(owner, chat))
    return report.status


@pytest.mark.parametrize("mode", ["tool", "native", "prompted"])
def test_each_mode_against_a_server_that_supports_only_it(db: Database, settings: Settings, owner: str,
                                                          mode: str) -> None:
    with serve(FakeOpenAI(modes=frozenset({mode}), answers=[REX])) as fake:
        assert curate(db, settings, owner, fake, mode) == "committed"
    assert fake.modes_seen == [mode]
    state = state_at(db, owner, "pet:rex", NOW)
    assert state is not None and [f.value for f in state.facts] == ["07:00"]
    if mode == "prompted":  # the schema travels in the instructions instead
        first = fake.requests[0]
        assert not first.get("tools") and first.get("response_format") in (None, {"type": "json_object"})
        assert "Always respond with a JSON object" in str(first["messages"])


@pytest.mark.parametrize(("supported", "tried"), [
    ("tool", ["tool"]), ("native", ["tool", "native"]), ("prompted", ["tool", "native", "prompted"])])
def test_auto_falls_back_on_a_refusal_and_remembers(db: Database, settings: Settings, owner: str, supported: str,
                                                    tried: list[str]) -> None:
    with serve(FakeOpenAI(modes=frozenset({supported}), answers=[REX, ops()])) as fake:
        configured = settings.model_copy(update={"curator_base_url": fake.url, "curator_output_mode": "auto",
                                                 "curator_model_name": f"m-{uuid.uuid4().hex[:6]}"})
        model = build_model(configured)
        assert model is not None
        for n in range(2):
            turn(db, owner, f"a-{supported}-{owner}", f"Rex frisst immer um 7 Uhr ({n})")
            [report] = asyncio.run(Curator(db, configured, model).curate(owner, f"a-{supported}-{owner}"))
            assert report.status == "committed"
    assert fake.modes_seen == [*tried, supported]  # the second run asks in the remembered mode at once
    assert output_mode.known(f"openai:{configured.curator_model_name}") == supported


def test_a_fixed_mode_the_server_refuses_fails_the_run_and_keeps_the_turns(db: Database, settings: Settings,
                                                                          owner: str) -> None:
    with serve(FakeOpenAI(modes=frozenset({"prompted"}))) as fake:
        assert curate(db, settings, owner, fake, "tool") == "failed"
    assert fake.modes_seen == ["tool"]


def test_a_refusal_is_a_shape_refusal_only() -> None:
    from pydantic_ai.exceptions import ModelHTTPError

    assert output_mode.is_refusal(ModelHTTPError(400, "m", {"message": "does not support tools"}))
    assert not output_mode.is_refusal(ModelHTTPError(429, "m", {"message": "rate limited"}))
    assert not output_mode.is_refusal(ModelHTTPError(500, "m", {"message": "boom"}))
    assert output_mode.attempts("native", "x:y") == ["native"]
