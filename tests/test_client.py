"""The agent client against a real server (uvicorn on a free localhost port): its methods, and its tools
driven by pydantic-ai's FunctionModel and TestModel. Never the internet."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from pydantic_ai import Agent
from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, TextPart, ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.models.test import TestModel

from client import MemoryUnavailable, ToolInputError, WorldmemClient, worldmem_toolset
from graph.demo import load_demo
from graph.platform.db import Database
from graph.settings import Settings
from resolvers.app import create_app
from tests.gql import MakeToken, make_token  # noqa: F401
from tests.hostile_http import free_port, in_thread

NOW = datetime.now(UTC).replace(second=0, microsecond=0)


@pytest.fixture(scope="module")
def server(settings: Settings, app_db_url: str) -> Iterator[str]:
    with in_thread(create_app(settings, database_url=app_db_url)) as address:
        yield f"http://{address}"


@pytest.fixture
def token(db: Database, owner: str, make_token: MakeToken) -> str:  # noqa: F811
    load_demo(db, owner, now=NOW)
    return make_token()


def test_client_methods_return_the_agent_text(server: str, token: str) -> None:
    async def run() -> dict[str, str]:
        async with WorldmemClient(server, token) as memory:
            return {
                "find": await memory.find_entity("Luni"),
                "entity": await memory.get_entity("pet:luna"),
                "recall": await memory.recall_facts_about("Basti", "answer*", scope="repo:home-agent"),
                "history": await memory.get_fact_history("pet:luna", "feeding_time"),
                "state": await memory.state_at("pet:luna", NOW - timedelta(days=20)),
                "known": await memory.state_as_known_at("pet:luna", NOW - timedelta(days=10)),
                "search": await memory.search_world_memory("vet"),
                "context": await memory.world_context("When is the cat fed?", chat_id="c1"),
            }

    out = asyncio.run(run())
    assert out["find"].startswith('"Luni" is pet:luna')
    assert out["entity"].startswith("pet:luna — Luna (pet)")
    assert '"en"' in out["recall"] and '"de"' not in out["recall"]
    assert "superseded" in out["history"]
    assert '"07:00"' in out["state"] and "As known on" in out["known"]
    assert "policy:no-late-food" in out["search"]
    assert out["context"].startswith("## Known World State") and "**pet:luna**" in out["context"]


def test_errors_are_typed(server: str, token: str) -> None:
    async def run() -> None:
        async with WorldmemClient(server + "/graphql", token) as memory:
            with pytest.raises(ToolInputError):
                await memory.execute('{ getStateAt(ref: "pet:luna", validTime: "2026-01-01T00:00:00") { text } }')
        async with WorldmemClient(server, "wm_not-a-token") as stranger:
            with pytest.raises(MemoryUnavailable, match="UNAUTHENTICATED"):
                await stranger.get_entity("pet:luna")
            assert await stranger.world_context("hello") == ""

    asyncio.run(run())


SCRIPT = [("find_entity", {"query": "the cat"}), ("find_entity", {"query": "Luna"}),
          ("get_entity", {"ref": "pet:luna"}),
          ("recall_facts_about", {"entity_or_query": "pet:luna", "predicate": "feeding*"}),
          ("get_fact_history", {"ref": "pet:luna", "predicate": "feeding_time"}),
          ("state_at", {"ref": "pet:luna", "valid_time": "2020-01-01T00:00:00Z"}),
          ("state_as_known_at", {"ref": "pet:luna", "system_time": (NOW - timedelta(days=10)).isoformat()}),
          ("search_world_memory", {"query": "vet advice"}), ("get_neighbors", {"ref": "pet:luna"}),
          ("effects_of", {"event_or_run": "demo-2-breakfast"}),
          ("explain_change", {"ref": "pet:luna", "predicate": "feeding_time"})]


def scripted(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    """Call every tool once, in one response, then answer with what came back."""
    returns = [p for m in messages if isinstance(m, ModelRequest) for p in m.parts if isinstance(p, ToolReturnPart)]
    if not returns:
        return ModelResponse(parts=[ToolCallPart(name, args, tool_call_id=f"c{i}") for i, (name, args) in
                                    enumerate(SCRIPT)])
    return ModelResponse(parts=[TextPart("\n\n".join(str(p.content) for p in returns))])


def test_toolset_with_a_scripted_model(server: str, token: str) -> None:
    async def run() -> tuple[list[str], str]:
        async with WorldmemClient(server, token) as memory:
            agent = Agent(FunctionModel(scripted), toolsets=[worldmem_toolset(memory)])
            result = await agent.run("What do you know about Luna?")
        names = [p.tool_name for m in result.all_messages() if isinstance(m, ModelRequest) for p in m.parts
                 if isinstance(p, ToolReturnPart)]
        return names, result.output

    names, output = asyncio.run(run())
    assert sorted(names) == sorted(n for n, _ in SCRIPT)
    assert '"the cat" is pet:luna' in output and '"Luna" is pet:luna' in output
    assert "History of feeding_time" in output and "policy:no-late-food" in output
    assert "Neighbours of pet:luna" in output and "Effects of demo-2-breakfast" in output and "Why: " in output
    assert "No entity" not in output and "Memory is unavailable" not in output


# TestModel makes up arguments ("a", or none when optional): tools that need a date, or one of several
# optional arguments (explain_change), would only be retried.
BLIND = ["find_entity", "get_entity", "recall_facts_about", "get_fact_history", "get_neighbors", "effects_of",
         "search_world_memory"]


def test_toolset_with_test_model_and_an_unreachable_server(server: str, token: str) -> None:
    async def run(url: str) -> Any:
        async with WorldmemClient(url, token, timeout=2) as memory:
            agent = Agent(TestModel(call_tools=BLIND), toolsets=[worldmem_toolset(memory)])
            return await agent.run("anything")

    reachable = asyncio.run(run(server))
    assert reachable.output
    down = asyncio.run(run(f"http://127.0.0.1:{free_port()}"))
    returned = [str(p.content) for m in down.all_messages() if isinstance(m, ModelRequest) for p in m.parts
                if isinstance(p, ToolReturnPart)]
    assert len(returned) == len(BLIND) and all(r.startswith("Memory is unavailable") for r in returned)


def test_the_readme_example_answers_from_memory(server: str, token: str, capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from client.example import main

    monkeypatch.setenv("WORLDMEM_TOKEN", token)
    assert main(["--url", server, "When does Luna get fed?"]) == 0
    out = capsys.readouterr().out
    world, _, answer = out.partition("From memory:")
    assert world.startswith("## Known World State") and "**pet:luna**" in world
    assert '"08:00"' in answer and '"18:00"' in answer and '"07:00"' not in answer
    assert "Nothing in memory matches" not in answer


def test_the_example_searches_word_by_word_without_linked_entities(
        server: str, token: str, capsys: pytest.CaptureFixture[str]) -> None:
    from client.example import content_words, main

    assert content_words("What did the vet advise about food?") == ["advise", "food", "vet"]
    assert main(["--url", server, "--token", token, "what about the vet advice?"]) == 0
    answer = capsys.readouterr().out.partition("From memory:")[2]
    assert "policy:no-late-food" in answer


def test_the_example_without_a_token_says_how_to_get_one(capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from client.example import main

    monkeypatch.delenv("WORLDMEM_TOKEN", raising=False)
    with pytest.raises(SystemExit):
        main(["When does Luna get fed?"])
    assert "WORLDMEM_TOKEN" in capsys.readouterr().err


def test_the_openai_model_path_builds_without_import_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    from pydantic_ai.models.openai import OpenAIResponsesModel

    from client.example import build_agent

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-used")  # no request is made: the agent is only built
    agent = build_agent("openai:gpt-4o", WorldmemClient("http://127.0.0.1:1", "wm_x"), "")
    assert isinstance(agent.model, OpenAIResponsesModel) and agent.model.model_name == "gpt-4o"


def test_the_example_says_what_to_check_when_the_server_is_down(capsys: pytest.CaptureFixture[str]) -> None:
    from client.example import main

    url = f"http://127.0.0.1:{free_port()}"
    assert main(["--url", url, "--token", "wm_x", "When does Luna get fed?"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"(memory unavailable: is `worldmem serve` running at {url}")
    assert "Memory is unavailable right now" in out
