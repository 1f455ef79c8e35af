"""Each owner's share of the server's requests: at most `owner_request_share` of one owner's HTTP requests are
in progress at once in a process; the owner's further requests wait their turn (in arrival order) before
any work is done for them, while other owners' requests start at once.

Why, beside resolvers.fairness (`owner_db_share` slots of the database and worker threads per owner): that
gate bounds the database calls, but not the rest of a request's work, which runs on the one event loop for
everybody: reading and parsing the body, the token check, parsing and validating the document, the answer's
encoding. Eighteen clients of one owner put eighteen requests' worth of that in front of every step of
another owner's request. Admitted here, a flood has at most `owner_request_share` requests anywhere in the
server, so another owner's request finds at most that many in its way (bench/owner_flood.py measures it).

Waiting is an asyncio semaphore per owner with requests, on the event loop: a waiting request holds no
thread, connection or parsed body. The key is the token's owner when the token cache knows it (every token
of one owner shares one gate), else the token's hash (its first request, or an invalid token); a request
without a token (GraphiQL's page, /metrics) is not counted.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from starlette.types import Scope

from graph.ledger.token_cache import TokenCache
from graph.ledger.tokens import MAX_TOKEN_LENGTH, hash_token
from resolvers.context import bearer_token


@dataclass
class _Gate:
    semaphore: asyncio.Semaphore
    users: int = 0


@dataclass
class OwnerAdmission:
    """One semaphore of `share` slots per key with requests in progress or waiting; 0: no bound."""

    share: int
    gates: dict[str, _Gate] = field(default_factory=dict)

    @property
    def unbounded(self) -> bool:
        return self.share <= 0

    @asynccontextmanager
    async def admitted(self, key: str) -> AsyncIterator[None]:
        gate = self.gates.get(key)
        if gate is None:
            gate = self.gates[key] = _Gate(asyncio.Semaphore(self.share))
        gate.users += 1
        try:
            async with gate.semaphore:
                yield
        finally:
            gate.users -= 1
            if gate.users == 0 and self.gates.get(key) is gate:
                del self.gates[key]

    def waiting(self, key: str) -> int:
        """Requests of `key` waiting for their turn now."""
        gate = self.gates.get(key)
        return 0 if gate is None else max(0, gate.users - self.share)


def admission_key(scope: Scope, tokens: TokenCache) -> str | None:
    """Whose share an HTTP request counts against: `owner:<owner>` of a verified token, else `token:<hash>`;
    None without a bearer token."""
    header = next((value for name, value in scope.get("headers") or [] if name == b"authorization"), None)
    token = bearer_token(header.decode("latin-1")) if header is not None else None
    if not token or len(token) > MAX_TOKEN_LENGTH:
        return None
    principal = tokens.cached(token)
    return f"owner:{principal.owner}" if principal is not None else f"token:{hash_token(token)}"
