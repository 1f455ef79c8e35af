"""Verified tokens, remembered briefly, so a request does not ask the database who its token belongs to.

Looking a token up took one pooled connection and three round trips (BEGIN, SELECT, COMMIT) per request:
most of an authenticated `{ __typename }` (the GraphQL floor, docs/benchmarks.md). A live token's principal is
now kept for `ttl_s` seconds (Settings.token_cache_s, default 2), keyed by the token's sha256 (the cache
never holds a token itself). What is not cached: unknown, revoked and malformed tokens (each is asked
again, so a token created a moment ago works at once) and anything when `ttl_s` is 0.

The price is stated, not hidden: a revoked token keeps working for at most `ttl_s` seconds in each server
process that verified it just before the revocation (tests/test_token_cache.py proves it is refused after).
An entry is never extended by use: it expires `ttl_s` after the database said the token was live.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from graph.errors import Unauthenticated
from graph.ledger.tokens import MALFORMED, MAX_TOKEN_LENGTH, MISSING, TOKEN_RE, Principal, authenticate, hash_token
from graph.platform.db import Database

MAX_ENTRIES = 10_000  # live tokens per process; beyond it the oldest entries go first


class TokenCache:
    """Principals of live tokens, each for `ttl_s` seconds after the database confirmed it."""

    def __init__(self, ttl_s: float, *, max_entries: int = MAX_ENTRIES,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.ttl_s = ttl_s
        self.max_entries = max_entries
        self._clock = clock
        self._lock = threading.Lock()
        self._entries: dict[str, tuple[float, Principal]] = {}

    def cached(self, token: str | None) -> Principal | None:
        """The principal of `token` when the database confirmed it less than `ttl_s` ago, else None.

        Cheap (a hash and a dict lookup), so it runs on the event loop; a miss is `authenticate`'s job."""
        if not token or self.ttl_s <= 0 or len(token) > MAX_TOKEN_LENGTH:
            return None
        key = hash_token(token)
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            if self._clock() >= entry[0]:
                del self._entries[key]
                return None
            return entry[1]

    def remaining(self, token: str) -> float:
        """Seconds until the cached answer for `token` must be asked again (0 when nothing is cached): a live
        subscription checks its token again then, so a revocation ends it within `ttl_s`."""
        with self._lock:
            entry = self._entries.get(hash_token(token))
        return max(0.0, entry[0] - self._clock()) if entry is not None else 0.0

    def authenticate(self, db: Database, token: str | None) -> Principal:
        """Like tokens.authenticate (the same errors), answered from the cache while an entry is fresh."""
        if not token:
            raise Unauthenticated(MISSING)
        if len(token) > MAX_TOKEN_LENGTH or not TOKEN_RE.match(token):
            raise Unauthenticated(MALFORMED)
        found = self.cached(token)
        if found is not None:
            return found
        asked_at = self._clock()  # before asking: a revocation racing the lookup shortens, never extends
        principal = authenticate(db, token)
        if self.ttl_s > 0:
            self._store(hash_token(token), asked_at + self.ttl_s, principal)
        return principal

    def _store(self, key: str, expires: float, principal: Principal) -> None:
        with self._lock:
            if len(self._entries) >= self.max_entries:
                now = self._clock()
                for stale in [k for k, (at, _) in self._entries.items() if at <= now]:
                    del self._entries[stale]
                while len(self._entries) >= self.max_entries:
                    del self._entries[next(iter(self._entries))]
            self._entries.pop(key, None)
            self._entries[key] = (expires, principal)

    def __len__(self) -> int:
        return len(self._entries)
