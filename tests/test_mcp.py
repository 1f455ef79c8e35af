"""`worldmem mcp` driven by the MCP SDK's own client: a subprocess (stdio, and streamable HTTP) against a
real GraphQL server on 127.0.0.1 with the test database. Never the internet."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import httpx
import httpx2
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.types import CallToolResult, TextContent

from client import WorldmemClient
from graph.codemode.sample import load_sample
from graph.finder.embedders import embedder_for
from graph.finder.reconciler import reconcile_owner
from graph.platform.db import Database
from graph.settings import Settings
from tests.gql import MakeToken, make_token  # noqa: F401
from tests.hostile_http import free_port
from tests.test_client import NOW, SCRIPT, server, token  # noqa: F401

ROOT = Path(__file__).resolve().parents[1]
READ_TOOLS = {"find_entity", "get_entity", "recall_facts_about", "get_fact_history", "get_neighbors", "state_at",
              "state_as_known_at", "effects_of", "explain_change", "search_world_memory", "world_context"}
TOOLS = READ_TOOLS | {"export_conventions", "record_build_result"}
CODING = {"message": "run the tests", "scope": "repo:home-agent"}
DAY = date(2026, 11, 20)


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "cli.main", "mcp", *args]


def env_without_token() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != "WORLDMEM_TOKEN"}


def text(result: CallToolResult) -> str:
    return "".join(c.text for c in result.content if isinstance(c, TextContent))


@pytest.fixture
def coding_token(db: Database, owner: str, make_token: MakeToken, settings: Settings) -> str:  # noqa: F811
    """The demo world with the code-mode sample (conventions, a decision, a failed test run), embedded before
    any read (so both sides of a comparison search the same embedded rows, not a background embedding half
    done); an agent token."""
    load_sample(db, owner, NOW)
    reconcile_owner(db, owner, embedder_for(settings))
    return make_token(kind="agent")


READS: list[tuple[str, dict[str, Any]]] = [
    *SCRIPT, ("world_context", {"message": "When is the cat fed?", "chat_id": "c1"}), ("world_context", CODING)]


async def stdio_session(url: str, token_: str) -> dict[str, Any]:
    argv = command("--token", token_, "--url", url)
    params = StdioServerParameters(command=argv[0], args=argv[1:], env=env_without_token(), cwd=str(ROOT))
    async with Client(params) as session:
        listed = await session.list_tools()
        reads = [await session.call_tool(name, args) for name, args in READS]
        export = await session.call_tool("export_conventions", {"repo": "repo:home-agent"})
        build = await session.call_tool("record_build_result", {"repo": "repo:home-agent", "kind": "build",
                                                                "status": "passed", "summary": "wheel built"})
        after = await session.call_tool("world_context", CODING)
        naive = await session.call_tool("state_at", {"ref": "pet:luna", "valid_time": "2026-01-01T00:00:00"})
        # what GraphQL takes too: a date alone (midnight UTC), or no time at all (now)
        day = await session.call_tool("state_at", {"ref": "pet:luna", "valid_time": DAY.isoformat()})
        now = await session.call_tool("state_at", {"ref": "pet:luna"})
        known_on = await session.call_tool("state_as_known_at", {"ref": "pet:luna",
                                                                 "system_time": DAY.isoformat()})
        missing = await session.call_tool("get_entity", {})
        unnamed = await session.call_tool("explain_change", {})  # refused by the GraphQL server
        not_repo = await session.call_tool("export_conventions", {"repo": "pet:luna"})
        log = await session.call_tool("record_build_result", {"repo": "repo:home-agent", "kind": "test",
                                                              "status": "failed", "summary": "E   assert 1\nE  == 2"})
        deploy = await session.call_tool("record_build_result", {"repo": "repo:home-agent", "kind": "deploy",
                                                                 "status": "passed"})
        return {"tools": listed.tools, "reads": reads, "export": export, "build": build, "after": after,
                "naive": naive, "day": day, "now": now, "known_on": known_on,
                "missing": missing, "unnamed": unnamed, "not_repo": not_repo, "log": log,
                "deploy": deploy}


async def direct(url: str, token_: str) -> tuple[list[str], str]:
    """The same reads through the GraphQL client (the same method names and arguments) and the export,
    then state_at and state_as_known_at at midnight UTC of DAY and state_at now."""
    async with WorldmemClient(url, token_) as memory:
        texts = []
        for name, args in READS:
            typed = {k: datetime.fromisoformat(v) if k.endswith("_time") else v for k, v in args.items()}
            texts.append(await getattr(memory, name)(**typed))
        midnight = datetime.combine(DAY, datetime.min.time(), UTC)
        texts += [await memory.state_at("pet:luna", midnight), await memory.state_at("pet:luna"),
                  await memory.state_as_known_at("pet:luna", midnight)]
        return texts, await memory.export_conventions("repo:home-agent")


def test_stdio_lists_and_calls_every_tool_with_the_graphql_texts(server: str, coding_token: str) -> None:  # noqa: F811
    expected, exported = asyncio.run(direct(server, coding_token))  # before the session records a build
    *expected, at_midnight, at_now, known_at_midnight = expected
    out = asyncio.run(stdio_session(server, coding_token))
    assert {t.name for t in out["tools"]} == TOOLS
    state_at = next(t for t in out["tools"] if t.name == "state_at")
    assert state_at.input_schema["required"] == ["ref"] and state_at.description
    assert text(out["day"]) == at_midnight and text(out["known_on"]) == known_at_midnight
    assert text(out["now"]) == at_now and not out["now"].is_error
    assert all(t.description for t in out["tools"])

    reads: list[CallToolResult] = out["reads"]
    assert not any(r.is_error for r in reads), [text(r) for r in reads if r.is_error]
    assert {name for name, _ in READS} == READ_TOOLS  # every read tool called ...
    for (name, _), got, want in zip(READS, reads, expected, strict=True):
        assert text(got) == want, name  # ... and answering exactly what the GraphQL tool answers
    by_name = {name: text(r) for (name, _), r in zip(READS, reads, strict=True)}
    assert by_name["find_entity"].startswith('"Luna" is pet:luna')  # the later of SCRIPT's two
    assert "Effects of demo-2-breakfast" in by_name["effects_of"]
    kitchen, coding = text(reads[-2]), text(reads[-1])
    assert kitchen.startswith("## Known World State") and "Conventions" not in kitchen
    assert "### Conventions and decisions" in coding and 'shadows global: "pytest -x"' in coding
    assert "repo:home-agent test failed: 3 of 812 failed" in coding

    assert not out["export"].is_error and text(out["export"]) == exported
    assert text(out["export"]).startswith("# AGENTS.md — home-agent")
    assert "build passed for repo:home-agent recorded" in text(out["build"]) and "windowed" in text(out["build"])
    assert "repo:home-agent build passed: wheel built" in text(out["after"])

    for refused in ("naive", "missing", "unnamed", "not_repo", "log", "deploy"):
        assert out[refused].is_error, refused
    assert "valid_time" in text(out["missing"]) or "ref" in text(out["missing"])
    assert "timezone" in text(out["naive"]).lower()
    assert text(out["unnamed"]).endswith("BAD_INPUT: give factId, or ref and predicate")  # the server's code
    assert "KIND_MISMATCH: pet:luna is a pet" in text(out["not_repo"])
    assert "BAD_INPUT" in text(out["log"]) and "one line only" in text(out["log"])
    assert "kind" in text(out["deploy"])  # the SDK's own argument validation


def test_no_or_refused_token_serves_nothing(server: str) -> None:  # noqa: F811
    bad = subprocess.run(command("--token", "wm_not-a-token", "--url", server), cwd=ROOT, env=env_without_token(),
                         input="", capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "did not accept the token" in bad.stderr and bad.stdout == ""
    none = subprocess.run(command("--url", server), cwd=ROOT, env=env_without_token(), input="",
                          capture_output=True, text=True, timeout=60)
    assert none.returncode == 2 and "needs a token" in none.stderr and none.stdout == ""
    down = subprocess.run(command("--token", "wm_x", "--url", f"http://127.0.0.1:{free_port()}"), cwd=ROOT,
                          env=env_without_token(), input="", capture_output=True, text=True, timeout=60)
    assert down.returncode == 2 and "could not check the token" in down.stderr and down.stdout == ""


def wait_for_port(port: int, proc: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 30
    while True:
        assert proc.poll() is None, proc.communicate()[1]
        assert time.monotonic() < deadline, "worldmem mcp --http did not start"
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)


@pytest.fixture
def http_mcp(server: str, token: str) -> Iterator[str]:  # noqa: F811
    port = free_port()
    proc = subprocess.Popen(command("--token", token, "--url", server, "--http", "--port", str(port)), cwd=ROOT,
                            env=env_without_token(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_for_port(port, proc)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        proc.terminate()
        proc.communicate(timeout=20)


def test_streamable_http_needs_the_bearer_token(http_mcp: str, token: str) -> None:  # noqa: F811
    async def session() -> tuple[set[str], CallToolResult, CallToolResult]:
        headers = {"Authorization": f"Bearer {token}"}
        async with httpx2.AsyncClient(headers=headers, timeout=30) as http, \
                Client(streamable_http_client(http_mcp, http_client=http)) as s:
            names = {t.name for t in (await s.list_tools()).tools}
            return (names, await s.call_tool("get_entity", {"ref": "pet:luna"}),
                    await s.call_tool("export_conventions", {"repo": "pet:luna"}))

    names, entity, bad_input = asyncio.run(session())
    assert names == TOOLS and text(entity).startswith("pet:luna — Luna (pet)")
    assert bad_input.is_error and "KIND_MISMATCH" in text(bad_input)
    for headers in ({}, {"Authorization": "Bearer wm_not-a-token"}):
        refused = httpx.post(http_mcp, json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, headers=headers)
        assert refused.status_code == 401


def test_the_transcript_script_records_a_real_session(server: str, coding_token: str) -> None:  # noqa: F811
    from bench.mcp_transcript import CALLS, render, session

    exchanges = asyncio.run(session(server, coding_token))
    assert exchanges[0].request == "tools/list" and len(exchanges) == len(CALLS) + 1
    assert {line.split("(", 1)[0] for line in exchanges[0].answer.splitlines()} == TOOLS
    assert [x.is_error for x in exchanges[1:]] == [False] * 5 + [True] * 3
    assert "shadows global" in exchanges[2].answer and exchanges[3].answer.startswith("# AGENTS.md")
    page = render(exchanges, datetime(2026, 11, 30, 18, 0), "o")
    assert page.count("## → tools/call") == len(CALLS) and page.count("← isError") == 3
