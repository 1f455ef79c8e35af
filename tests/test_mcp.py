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
from pathlib import Path
from typing import Any

import httpx
import httpx2
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.types import CallToolResult, TextContent

from client import WorldmemClient
from tests.gql import make_token  # noqa: F401
from tests.test_client import SCRIPT, free_port, server, token  # noqa: F401

ROOT = Path(__file__).resolve().parents[1]
TOOLS = {"find_entity", "get_entity", "recall_facts_about", "get_fact_history", "get_neighbors", "state_at",
         "state_as_known_at", "effects_of", "explain_change", "search_world_memory", "world_context"}


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "cli.main", "mcp", *args]


def env_without_token() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != "WORLDMEM_TOKEN"}


def text(result: CallToolResult) -> str:
    return "".join(c.text for c in result.content if isinstance(c, TextContent))


async def stdio_session(url: str, token_: str) -> dict[str, Any]:
    argv = command("--token", token_, "--url", url)
    params = StdioServerParameters(command=argv[0], args=argv[1:], env=env_without_token(), cwd=str(ROOT))
    async with Client(params) as session:
        listed = await session.list_tools()
        calls = {name: await session.call_tool(name, args) for name, args in SCRIPT}
        calls["world_context"] = await session.call_tool("world_context", {"message": "When is the cat fed?",
                                                                           "chat_id": "c1"})
        naive = await session.call_tool("state_at", {"ref": "pet:luna", "valid_time": "2026-01-01T00:00:00"})
        missing = await session.call_tool("get_entity", {})
        unnamed = await session.call_tool("explain_change", {})  # refused by the GraphQL server
        return {"tools": listed.tools, "calls": calls, "naive": naive, "missing": missing, "unnamed": unnamed}


def test_stdio_lists_and_calls_every_tool_with_the_graphql_texts(server: str, token: str) -> None:  # noqa: F811
    out = asyncio.run(stdio_session(server, token))
    assert {t.name for t in out["tools"]} == TOOLS
    state_at = next(t for t in out["tools"] if t.name == "state_at")
    assert state_at.input_schema["required"] == ["ref", "valid_time"] and state_at.description

    calls: dict[str, CallToolResult] = out["calls"]
    assert not any(r.is_error for r in calls.values()), {n: text(r) for n, r in calls.items() if r.is_error}

    async def direct() -> dict[str, str]:  # the same tools through the GraphQL client: the same texts
        async with WorldmemClient(server, token) as memory:
            return {"get_entity": await memory.get_entity("pet:luna"),
                    "get_fact_history": await memory.get_fact_history("pet:luna", "feeding_time"),
                    "search_world_memory": await memory.search_world_memory("vet advice"),
                    "explain_change": await memory.explain_change("pet:luna", "feeding_time")}

    for name, expected in asyncio.run(direct()).items():
        assert text(calls[name]) == expected, name
    assert text(calls["find_entity"]).startswith('"Luna" is pet:luna')  # the later of SCRIPT's two
    assert "Effects of demo-2-breakfast" in text(calls["effects_of"])
    assert text(calls["world_context"]).startswith("## Known World State")

    for refused in (out["naive"], out["missing"], out["unnamed"]):
        assert refused.is_error
    assert "valid_time" in text(out["missing"]) or "ref" in text(out["missing"])
    assert "timezone" in text(out["naive"]).lower()
    assert text(out["unnamed"]).endswith("BAD_INPUT: give factId, or ref and predicate")  # the server's code


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
    async def session() -> tuple[set[str], CallToolResult]:
        headers = {"Authorization": f"Bearer {token}"}
        async with httpx2.AsyncClient(headers=headers, timeout=30) as http, \
                Client(streamable_http_client(http_mcp, http_client=http)) as s:
            names = {t.name for t in (await s.list_tools()).tools}
            return names, await s.call_tool("get_entity", {"ref": "pet:luna"})

    names, entity = asyncio.run(session())
    assert names == TOOLS and text(entity).startswith("pet:luna — Luna (pet)")
    for headers in ({}, {"Authorization": "Bearer wm_not-a-token"}):
        refused = httpx.post(http_mcp, json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, headers=headers)
        assert refused.status_code == 401
