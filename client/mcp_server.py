"""`worldmem mcp`: the agent tools over MCP (the official `mcp` SDK), stdio or streamable HTTP.

One implementation of each tool: the MCP server registers the functions of `client.toolset.worldmem_toolset`
(which call `WorldmemClient`, i.e. GraphQL) plus `world_context`, so an MCP host reads exactly the texts the
GraphQL tools return. Coding agents (MCP's main hosts) also get code mode's two explicit writes,
`export_conventions` (the AGENTS.md text; the host decides whether to write the file) and
`record_build_result` (a windowed event, never a fact); the pydantic-ai toolset stays read-only. A refused
input (a time without a UTC offset, an unknown ref kind, ...) comes back as a tool error (`isError`) with the
server's code and message; an unavailable memory says so in the tool's text.

The token: `--token` (or WORLDMEM_TOKEN) is checked against the GraphQL server before serving; a missing,
refused or unverifiable token stops the command with exit code 2 and nothing is served. Over HTTP every
request must also carry `Authorization: Bearer <the same token>`, else it is answered 401.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from functools import wraps
from typing import TYPE_CHECKING, Any, Literal

from pydantic import AwareDatetime
from pydantic_ai import ModelRetry
from starlette.types import ASGIApp, Receive, Scope, Send

from client.http import MemoryUnavailable, ToolInputError, WorldmemClient
from client.toolset import UNAVAILABLE, guarded, worldmem_toolset

if TYPE_CHECKING:  # the SDK is imported when `worldmem mcp` runs, not by every worldmem command
    from mcp.server.mcpserver import MCPServer

INSTRUCTIONS = ("worldmem: the owner's bitemporal world memory. Start a turn with world_context; refs "
                "(`kind:slug`) printed by one tool are what the others take; times are ISO 8601 with a UTC offset.")
PROBE = '{ findEntity(query: "worldmem") { text } }'


class NotServing(Exception):
    """The token is missing, refused, or could not be checked: nothing is served."""


async def check_token(url: str, token: str) -> None:
    """Raise NotServing unless the server at `url` accepts `token`."""
    async with WorldmemClient(url, token, timeout=10) as probe:
        try:
            await probe.execute(PROBE)
        except ToolInputError as exc:
            raise NotServing(f"not serving MCP: {url} did not accept the token ({exc.code}: {exc})") from exc
        except MemoryUnavailable as exc:  # a refused token (UNAUTHENTICATED) or a server that cannot answer
            reason = "did not accept the token" if "UNAUTHENTICATED" in str(exc) else "could not check the token"
            raise NotServing(f"not serving MCP: {url} {reason} ({exc})") from exc


def _as_tool_error(tool: Callable[..., Awaitable[str]]) -> Callable[..., Awaitable[str]]:
    """The toolset's retry (a refused input, "CODE: message") becomes MCP's ToolError: the call answers
    isError with that text. Any other exception would reach the host only as "Error executing tool"."""
    from mcp.server.mcpserver.exceptions import ToolError

    @wraps(tool)
    async def run(*args: Any, **kwargs: Any) -> str:
        try:
            return await tool(*args, **kwargs)
        except ModelRetry as exc:
            raise ToolError(exc.message) from exc

    return run


def build_server(client: WorldmemClient) -> MCPServer:
    """An MCPServer with the toolset's tools and world_context, all bound to `client`."""
    from mcp.server.mcpserver import MCPServer

    server = MCPServer("worldmem", instructions=INSTRUCTIONS, log_level="WARNING")
    for name, tool in worldmem_toolset(client).tools.items():
        server.add_tool(_as_tool_error(tool.function), name=name, structured_output=False)

    async def world_context(message: str, chat_id: str | None = None, scope: str | None = None,
                            scope_chain: list[str] | None = None, budget_tokens: int = 1000) -> str:
        """The Known World State for a turn: the entities and current facts that matter to the message,
        as markdown within a token budget. Call it first, with the user's message.

        Args:
            message: the user's message
            chat_id: the chat, for scoped facts (e.g. "c1")
            scope: the session's scope; in a coding session its repo (e.g. "repo:home-agent"), which brings
                the repo's conventions, decisions and build state
            scope_chain: further scope refs, most specific first (e.g. ["chat:c1"])
            budget_tokens: the size of the block, in tokens
        """
        block = await client.world_context(message, chat_id=chat_id, scope_chain=scope_chain,
                                           budget_tokens=budget_tokens, scope=scope)
        return block or UNAVAILABLE.format(reason="no Known World State came back")

    server.add_tool(world_context, structured_output=False)
    for write in codemode_tools(client):
        server.add_tool(_as_tool_error(guarded(write)), structured_output=False)
    return server


def codemode_tools(client: WorldmemClient) -> list[Callable[..., Awaitable[str]]]:
    """export_conventions and record_build_result, bound to `client`."""

    async def export_conventions(repo: str, language: Literal["de", "en"] | None = None) -> str:
        """The conventions and decisions in effect for a repo (its own, then its project's or folder's, then
        global ones it does not override) as AGENTS.md markdown. Only when the user asks for it: the text is
        returned, nothing is written; write the file yourself if asked to.

        Args:
            repo: the repo's ref, e.g. "repo:home-agent" (a project or folder works too)
            language: "de" or "en" headings; default: the owner's language in that repo
        """
        return await client.export_conventions(repo, language)

    async def record_build_result(repo: str, kind: Literal["build", "test"],
                                  status: Literal["passed", "failed", "error", "cancelled", "running"],
                                  summary: str | None = None, suite: str | None = None, commit: str | None = None,
                                  branch: str | None = None, occurred_at: AwareDatetime | None = None,
                                  run_id: str | None = None) -> str:
        """Record how a build or test run of a repo ended, as a status line (never logs or file contents).
        It is kept for a recent window as the repo's build state and shown in world_context.

        Args:
            repo: the repo's ref, e.g. "repo:home-agent"
            kind: "build" or "test"
            status: passed, failed, error, cancelled or running
            summary: one line, at most 300 characters, e.g. "3 of 812 failed"
            suite: e.g. "unit", "e2e", "mypy"
            commit: the commit hash
            branch: the branch
            occurred_at: when it ended, ISO 8601 with a UTC offset; default now
            run_id: an idempotency key (a retry with the same run_id records nothing new)
        """
        result = {"repo": repo, "kind": kind.upper(), "status": status.upper(), "summary": summary, "suite": suite,
                  "commit": commit, "branch": branch, "runId": run_id,
                  "occurredAt": (occurred_at or datetime.now(UTC)).isoformat()}
        return await client.record_build_result({k: v for k, v in result.items() if v is not None})

    return [export_conventions, record_build_result]


class BearerGate:
    """ASGI middleware: HTTP requests without `Authorization: Bearer <token>` are answered 401."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app, self._expected = app, f"Bearer {token}".encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            given = dict(scope.get("headers") or []).get(b"authorization", b"")
            if not secrets.compare_digest(given, self._expected):
                await send({"type": "http.response.start", "status": 401,
                            "headers": [(b"content-type", b"text/plain"), (b"www-authenticate", b"Bearer")]})
                await send({"type": "http.response.body", "body": b"worldmem mcp: bearer token required\n"})
                return
        await self.app(scope, receive, send)


def serve(url: str, token: str, *, http: bool = False, host: str = "127.0.0.1", port: int = 8765) -> None:
    """Check the token, then serve on stdio (or streamable HTTP at http://host:port/mcp) until stopped."""
    import asyncio

    asyncio.run(check_token(url, token))
    server = build_server(WorldmemClient(url, token))
    if not http:
        server.run("stdio")
        return
    import uvicorn

    app = BearerGate(server.streamable_http_app(host=host), token)
    uvicorn.run(app, host=host, port=port, log_level="warning")
