"""`WorldmemClient`: the agent's read tools as async methods that return the text the agent reads.

Errors: a tool input the server refuses (a bad time, a malformed ref or id, a kind mismatch, a limit out
of range: every code of category input, state or auth in graph/error_codes.py) raises `ToolInputError`
with the server's code and message, so a model can correct itself; an unreachable or failing server, a
refused token, a timeout or an unknown code raises `MemoryUnavailable`. `world_context` never raises:
it returns "" when memory is unavailable.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from types import TracebackType
from typing import Any

import httpx

from client import queries as q

FIXED_BY_A_PERSON = frozenset({"UNAUTHENTICATED"})  # the model cannot mend a token by calling again
# A server with read replicas answers a commit with its WAL position; sent back, it makes every later read see it.
COMMIT_LSN = "worldmem-commit-lsn"
READ_AFTER = "Worldmem-Read-After"


def later_lsn(seen: str | None, new: str | None) -> str | None:
    """The later of two WAL positions (`X/Y` hex) the server answered with; a malformed one is ignored."""
    def number(text: str | None) -> int:
        try:
            high, low = (text or "").split("/")
            return int(high, 16) << 32 | int(low, 16)
        except ValueError:
            return -1
    return new if number(new) > number(seen) else seen


class MemoryUnavailable(Exception):
    """The server could not be reached, refused the token, or failed."""


class ToolInputError(Exception):
    """The server refused a tool's input; `code` is its error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class WorldmemClient:
    """Calls `POST {url}/graphql` with a bearer token. Use as `async with`, or call `aclose()`."""

    def __init__(self, url: str, token: str, *, timeout: float = 10.0, http: httpx.AsyncClient | None = None) -> None:
        self.endpoint = url.rstrip("/") if url.rstrip("/").endswith("/graphql") else url.rstrip("/") + "/graphql"
        self._headers = {"Authorization": f"Bearer {token}"}
        self._http = http or httpx.AsyncClient(timeout=timeout)
        self._owns_http = http is None
        self.read_after: str | None = None  # the last commit this client made (read-your-writes with replicas)

    async def __aenter__(self) -> WorldmemClient:
        return self

    async def __aexit__(self, *exc: tuple[type[BaseException] | None, BaseException | None, TracebackType | None]
                        ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        if self._owns_http:
            await self._http.aclose()

    async def execute(self, document: str, variables: dict[str, Any] | None = None) -> dict[str, Any]:
        """One GraphQL request; the `data` of the answer, or the first error raised as ours."""
        try:
            headers = self._headers if self.read_after is None else {**self._headers, READ_AFTER: self.read_after}
            response = await self._http.post(self.endpoint, json={"query": document, "variables": variables or {}},
                                             headers=headers)
            self.read_after = later_lsn(self.read_after, response.headers.get(COMMIT_LSN))
            body = response.json()
        except (httpx.HTTPError, ValueError) as exc:
            raise MemoryUnavailable(f"worldmem is unreachable: {exc.__class__.__name__}") from exc
        errors = body.get("errors") if isinstance(body, dict) else None
        if errors:
            extensions = errors[0].get("extensions") or {}
            code = extensions.get("code", "INTERNAL")
            message = errors[0].get("message", "error")
            # the server's classification: input, state or permission; a refused token is the caller's to fix
            # too, but the person configuring the agent must fix it, not the model retrying its call
            if extensions.get("callerMustFix") is True and code not in FIXED_BY_A_PERSON:
                raise ToolInputError(code, message)
            raise MemoryUnavailable(f"worldmem answered {code}: {message}")
        if not isinstance(body, dict) or not isinstance(body.get("data"), dict):
            raise MemoryUnavailable(f"worldmem answered HTTP {response.status_code} without data")
        data: dict[str, Any] = body["data"]
        return data

    async def _text(self, document: str, field: str, variables: dict[str, Any]) -> str:
        data = await self.execute(document, {k: v for k, v in variables.items() if v is not None})
        return str(data[field]["text"])

    async def find_entity(self, query: str, kind: str | None = None) -> str:
        return await self._text(q.FIND_ENTITY, "findEntity", {"query": query, "kind": kind})

    async def get_entity(self, ref: str) -> str:
        return await self._text(q.GET_ENTITY, "getEntity", {"ref": ref})

    async def recall_facts_about(self, entity_or_query: str, predicate: str | None = None,
                                 scope: str | None = None) -> str:
        return await self._text(q.RECALL_FACTS_ABOUT, "recallFactsAbout",
                                {"entityOrQuery": entity_or_query, "predicate": predicate, "scope": scope})

    async def get_fact_history(self, ref: str, predicate: str) -> str:
        return await self._text(q.GET_FACT_HISTORY, "getFactHistory", {"ref": ref, "predicate": predicate})

    async def state_at(self, ref: str, valid_time: datetime | date | None = None) -> str:
        """`valid_time`: a time with an offset, or a date (the server reads midnight UTC); None: now."""
        when = valid_time if valid_time is not None else datetime.now(UTC)
        return await self._text(q.STATE_AT, "getStateAt", {"ref": ref, "validTime": when.isoformat()})

    async def state_as_known_at(self, ref: str, system_time: datetime | date,
                                valid_time: datetime | date | None = None) -> str:
        return await self._text(q.STATE_AS_KNOWN_AT, "getStateAsKnownAt", {
            "ref": ref, "systemTime": system_time.isoformat(),
            "validTime": valid_time.isoformat() if valid_time else None})

    async def get_neighbors(self, ref: str, depth: int = 1) -> str:
        return await self._text(q.GET_NEIGHBORS, "getNeighbors", {"ref": ref, "depth": depth})

    async def effects_of(self, event_or_run: str, depth: int = 3) -> str:
        return await self._text(q.EFFECTS_OF, "getEffectsOf", {"eventOrRun": event_or_run, "depth": depth})

    async def explain_change(self, ref: str | None = None, predicate: str | None = None,
                             fact_id: str | None = None) -> str:
        return await self._text(q.EXPLAIN_CHANGE, "getChangeExplanation",
                                {"ref": ref, "predicate": predicate, "factId": fact_id})

    async def search_world_memory(self, query: str, limit: int = 10) -> str:
        return await self._text(q.SEARCH_WORLD_MEMORY, "searchWorldMemory", {"query": query, "limit": limit})

    async def export_conventions(self, repo: str, language: str | None = None) -> str:
        """Code mode: the AGENTS.md text of the conventions in effect for `repo` (the server writes no file)."""
        data = await self.execute(q.EXPORT_CONVENTIONS, {"repo": repo, "language": language})
        return str(data["exportConventions"]["text"])

    async def record_build_result(self, result: dict[str, Any]) -> str:
        """Code mode: one build or test run (BuildResultInput's fields) as a windowed event; a sentence back."""
        data = (await self.execute(q.RECORD_BUILD_RESULT, {"result": result}))["recordBuildResult"]
        how = "already recorded (same runId), nothing new" if data["replayed"] else "recorded"
        return (f"{result['kind'].lower()} {result['status'].lower()} for {result['repo']} {how}: run {data['runId']}, "
                f"a {data['retentionClass']} event (build state is kept for the recent window, never as a fact)")

    async def world_context(self, message: str, chat_id: str | None = None, scope_chain: list[str] | None = None,
                            budget_tokens: int = 1000, scope: str | None = None) -> str:
        """The Known World State markdown for a turn; "" when memory is unavailable (never raises). `scope` (e.g.
        "repo:home-agent" in a coding session) goes first in the chain."""
        try:
            data = await self.execute(q.WORLD_CONTEXT, {"message": message, "chatId": chat_id, "scope": scope,
                                                        "scopeChain": scope_chain, "budgetTokens": budget_tokens})
        except (MemoryUnavailable, ToolInputError):
            return ""
        return str(data["worldContext"]["markdown"])
