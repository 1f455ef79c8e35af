"""An MCP session with `worldmem mcp`, recorded against a real server: client/MCP_TRANSCRIPT.md.

    python -m bench.mcp_transcript [--out client/MCP_TRANSCRIPT.md] [--db worldmem_transcript]

Migrates a scratch database of the cluster (default `worldmem_transcript`, never the configured one), loads
the demo world and the code-mode sample (graph.codemode.sample) for a fresh owner, creates an agent token,
serves GraphQL on a free loopback port and runs `worldmem mcp --token T --url U` as a subprocess over stdio,
driven by the official MCP SDK's `Client`: tools/list, then calls that answer and calls that are refused.
Every request and answer is written as it went over the wire (text content, isError). tests/test_mcp.py runs
`session` against the test server, so the transcript's shape is tested.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import sys
import threading
import time
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tests.hostile_http import free_port

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "client" / "MCP_TRANSCRIPT.md"
CALLS: list[tuple[str, dict[str, Any]]] = [
    ("find_entity", {"query": "Luni"}),
    ("world_context", {"message": "Please run the tests before you commit", "chat_id": "code1",
                       "scope": "repo:home-agent", "budget_tokens": 600}),
    ("export_conventions", {"repo": "repo:home-agent"}),
    ("record_build_result", {"repo": "repo:home-agent", "kind": "test", "status": "passed", "suite": "unit",
                             "summary": "812 passed", "commit": "5b7e0aa1", "branch": "main",
                             "run_id": "transcript-ci-2"}),
    ("explain_change", {"ref": "pet:luna", "predicate": "feeding_time"}),
    ("export_conventions", {"repo": "pet:luna"}),
    ("record_build_result", {"repo": "repo:home-agent", "kind": "test", "status": "failed",
                             "summary": "FAILED tests/test_x.py::test_y\nE   assert 1 == 2"}),
    ("state_at", {"ref": "pet:luna", "valid_time": "2026-01-01T08:00:00"}),
]


@dataclass
class Exchange:
    request: str
    answer: str
    is_error: bool = False


async def session(url: str, token: str) -> list[Exchange]:
    """tools/list and CALLS through `worldmem mcp` over stdio (the SDK's client), as exchanges."""
    from mcp import Client, StdioServerParameters
    from mcp.types import TextContent

    env = {k: v for k, v in os.environ.items() if k != "WORLDMEM_TOKEN"}
    argv = [sys.executable, "-m", "cli.main", "mcp", "--token", token, "--url", url]
    params = StdioServerParameters(command=argv[0], args=argv[1:], env=env, cwd=str(ROOT))
    out: list[Exchange] = []
    async with Client(params) as client:
        tools = (await client.list_tools()).tools
        listed = [f"{t.name}({', '.join(_args(t.input_schema))}) — {_first_sentence(t.description or '')}"
                  for t in tools]
        out.append(Exchange("tools/list", "\n".join(listed)))
        for name, args in CALLS:
            result = await client.call_tool(name, args)
            text = "".join(c.text for c in result.content if isinstance(c, TextContent))
            out.append(Exchange(f"tools/call {name} {json.dumps(args, ensure_ascii=False)}", text,
                                result.is_error))
    return out


def _first_sentence(text: str) -> str:
    words = " ".join(text.split("\n\n")[0].split())
    return re.split(r"(?<=\.) (?=[A-Z])", words)[0]


def _args(schema: dict[str, Any]) -> list[str]:
    required = set(schema.get("required", []))
    return [p if p in required else f"{p}?" for p in schema.get("properties", {})]


def render(exchanges: list[Exchange], when: datetime, owner: str) -> str:
    lines = ["# An MCP session with `worldmem mcp`", "",
             f"Recorded by `python -m bench.mcp_transcript` on {when:%Y-%m-%d %H:%M} UTC: the MCP SDK's own `Client` "
             "runs `worldmem mcp --token T --url U` over stdio against a real GraphQL server (the demo world and "
             f"the code-mode sample, owner `{owner}`, an agent token). Answers are the servers' text, verbatim; "
             "`isError` marks a tool error.", ""]
    for x in exchanges:
        lines += [f"## → {x.request}", "", "← isError" if x.is_error else "←", "", "```text", x.answer, "```", ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    import uvicorn

    from graph.codemode.sample import load_sample
    from graph.ledger.tokens import create_token
    from graph.platform.connect import admin_url, role_url
    from graph.platform.db import Database
    from graph.platform.migrate import migrate
    from graph.settings import get_settings
    from resolvers.app import create_app

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--db", default="worldmem_transcript", help="a scratch database of the cluster")
    args = parser.parse_args(argv)
    settings = get_settings()
    migrate(settings, admin_url(settings, args.db))
    app_url = role_url(settings, "app", args.db)
    owner, now = f"transcript-{uuid.uuid4().hex[:8]}", datetime.now(UTC)
    database = Database(app_url, max_size=2)
    try:
        load_sample(database, owner, now)
    finally:
        database.close()
    token = create_token(admin_url(settings, args.db), owner, kind="agent")
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(settings, database_url=app_url), host="127.0.0.1", port=port,
                                           log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    try:
        exchanges = asyncio.run(session(f"http://127.0.0.1:{port}", token))
    finally:
        server.should_exit = True
        thread.join(timeout=10)
    args.out.write_text(render(exchanges, now, owner))
    print(f"wrote {args.out} ({len(exchanges)} exchanges)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
