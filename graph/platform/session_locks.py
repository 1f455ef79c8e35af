"""Background work that must run in one server process at a time, when several share one database.

Postgres decides, not the processes: each holder keeps a session advisory lock on a connection of its own
(never a pooled one, which another caller would borrow while the lock is held; never through a transaction-
mode connection pooler such as PgBouncer's, which would hand the session to someone else). A lock lives as
long as its session, so a process that is killed, or whose connection drops, hands its work over without any
message: the server ends the session and the next `try_lock` anywhere takes it.

Two uses:
- a leader (`leads`): the finder's sweep of every owner runs only in the process that holds `LEADER`;
  each call checks the lock is still held (pg_locks: also a proof the session is alive) and otherwise tries to
  take it, so a standby takes over at its next check after the leader's session ended;
- per-item claims (`try_lock` / `wait_lock` / `release`): one owner's reconcile, one chat's curator run.

The keys are the two-integer form (a kind of work, then `hashtext` of the item's name), a space apart from
the one-key `pg_advisory_xact_lock(hashtext(...))` locks elsewhere. Two names with the same hash share a lock:
they then take turns, which is slower, never wrong. Thread-safe: one connection, one lock around it.
"""

from __future__ import annotations

import logging
import threading
from typing import Any, LiteralString

import psycopg
from psycopg.rows import dict_row

from graph.sql import load

log = logging.getLogger("worldmem.locks")

# Kinds of work (the first key). Fixed numbers: every process of a deployment must use the same.
LEADER = 40_001  # name: what the leader does ("finder-sweep")
FINDER_OWNER = 40_002  # name: the owner being reconciled
CURATOR_CHAT = 40_003  # name: "<owner>\n<chat id>"


class SessionLocks:
    """Session advisory locks on one connection of this process's own, reconnected after it is lost (and with
    it every lock it held: `held` says which this object still believes it has)."""

    def __init__(self, url: str, *, wait_s: float = 30.0) -> None:
        self._url, self._wait_ms = url, max(1, int(wait_s * 1000))
        self._lock = threading.Lock()
        self._conn: psycopg.Connection[Any] | None = None
        self.held: set[tuple[int, str]] = set()

    def leads(self, name: str) -> bool:
        """Whether this process is the leader for `name` now: it still holds the lock, or took it just now."""
        key = (LEADER, name)
        with self._lock:
            if key in self.held:
                if self._ask("lock_held", key, "held"):
                    return True
                self.held.discard(key)
            return self._take(key)

    def try_lock(self, kind: int, name: str) -> bool:
        """Take the lock if no session holds it (this one included: a claim is not re-entrant)."""
        key = (kind, name)
        with self._lock:
            return key not in self.held and self._take(key)

    def wait_lock(self, kind: int, name: str) -> bool:
        """Take the lock, waiting up to `wait_s` for its holder to release it; False when that did not
        happen (the wait ran out, or the database could not be reached)."""
        key = (kind, name)
        with self._lock:
            if key in self.held:
                return False
            try:
                self._connected().execute(load("lock_wait"), _params(key))
            except psycopg.errors.LockNotAvailable:
                return False
            except psycopg.Error:
                self._lost()
                return False
            self.held.add(key)
            return True

    def release(self, kind: int, name: str) -> None:
        key = (kind, name)
        with self._lock:
            if key in self.held:
                self.held.discard(key)
                self._ask("lock_release", key, "released")

    def close(self) -> None:
        with self._lock:
            self._lost()

    def _take(self, key: tuple[int, str]) -> bool:
        got = self._ask("lock_try", key, "got")
        if got:
            self.held.add(key)
        return got

    def _ask(self, query: LiteralString, key: tuple[int, str], column: str) -> bool:
        """One statement's boolean answer; False (and every lock counted lost) when the session is gone."""
        try:
            row = self._connected().execute(load(query), _params(key)).fetchone()
        except psycopg.Error:
            log.warning("the session holding background-work locks was lost; reconnecting", exc_info=True)
            self._lost()
            return False
        return bool(row and row[column])

    def _connected(self) -> psycopg.Connection[Any]:
        if self._conn is None or self._conn.closed:
            self._conn = psycopg.connect(self._url, autocommit=True, connect_timeout=2,
                                         options=f"-c lock_timeout={self._wait_ms}",
                                         row_factory=dict_row)
        return self._conn

    def _lost(self) -> None:
        self.held.clear()
        if self._conn is not None:
            try:
                self._conn.close()
            finally:
                self._conn = None


def _params(key: tuple[int, str]) -> dict[str, Any]:
    return {"kind": key[0], "name": key[1]}
