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
from dataclasses import dataclass, field

from starlette.types import Scope

from graph.ledger.token_cache import TokenCache
from graph.ledger.tokens import MAX_TOKEN_LENGTH, hash_token
from resolvers.context import VERIFIED, bearer_token


@dataclass
class _Gate:
    semaphore: asyncio.Semaphore
    users: int = 0


class _Admitted:
    """One request's place in its key's gate (a class, not a generator-based context manager: every request
    with a token enters one, and the generator's set-up was a measurable part of the floor's server time)."""

    __slots__ = ("admission", "gate", "key")

    def __init__(self, admission: OwnerAdmission, key: str, gate: _Gate) -> None:
        self.admission, self.key, self.gate = admission, key, gate

    async def __aenter__(self) -> None:
        self.gate.users += 1
        try:
            await self.gate.semaphore.acquire()
        except BaseException:  # cancelled while waiting: never held a slot
            self._leave()
            raise

    async def __aexit__(self, *exc: object) -> None:
        self.gate.semaphore.release()
        self._leave()

    def _leave(self) -> None:
        self.gate.users -= 1
        if self.gate.users == 0 and self.admission.gates.get(self.key) is self.gate:
            del self.admission.gates[self.key]


@dataclass
class OwnerAdmission:
    """One semaphore of `share` slots per key with requests in progress or waiting; 0: no bound."""

    share: int
    gates: dict[str, _Gate] = field(default_factory=dict)

    @property
    def unbounded(self) -> bool:
        return self.share <= 0

    def admitted(self, key: str) -> _Admitted:
        """The request's turn in `key`'s share (`async with`): it waits while `share` of the key's requests
        are in progress."""
        gate = self.gates.get(key)
        if gate is None:
            gate = self.gates[key] = _Gate(asyncio.Semaphore(self.share))
        return _Admitted(self, key, gate)

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
    if principal is None:
        return f"token:{hash_token(token)}"
    scope[VERIFIED] = (token, principal)  # the context getter takes it from here instead of asking the cache again
    return f"owner:{principal.owner}"
