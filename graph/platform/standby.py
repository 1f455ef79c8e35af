"""Reads on streaming-replication standbys, without a stale read after a commit (read-your-writes).

A read may go to a standby only where the caller said it may (`may_lag`: the GraphQL layer sets it for a
query, never for a mutation or background work, whose reads decide writes). It must see every commit it
depends on: the LSN the client sends back (`read_after`, from a commit's answer) and the last commit of
the owner in this process (`Standbys.committed`). A standby that has replayed that far is used at once;
otherwise the read waits up to `wait_ms` for it (asking the standby's pg_last_wal_replay_lsn()), and then
goes to the primary. A standby that cannot lend a connection within BORROW_S leaves that read to the primary;
when it is not merely busy but gone (stopped, unreachable: a connection attempt fails), it is left alone for
DOWN_S.

What is per process here (each owner's last commit LSN, each standby's last seen replay LSN) only makes a
read go to the primary sooner; losing it loses nothing but the process's own commits, and a client of
several processes sends its commit's LSN itself.
"""

from __future__ import annotations

import itertools
import re
import threading
import time
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool, PoolTimeout

from graph.errors import BadInput
from graph.platform.pooling import connect_kwargs, quiet
from graph.platform.reachable import probe
from graph.sql import load

APPLICATION_NAME = "worldmem standby reads"  # how these connections show in the standby's pg_stat_activity
BORROW_S = 0.3
DOWN_S = 5.0
POLL_S = 0.002
LSN = re.compile(r"^([0-9A-Fa-f]{1,8})/([0-9A-Fa-f]{1,8})$")

# Set by the GraphQL layer for one operation (resolvers.read_after): whether its reads may go to a standby,
# the LSN its client has seen, and where the operation's last commit LSN is noted for its answer.
may_lag: ContextVar[bool] = ContextVar("may_lag", default=False)
read_after: ContextVar[int] = ContextVar("read_after", default=0)


@dataclass
class CommitNote:
    """The highest commit LSN of one operation (for the Worldmem-Commit-LSN answer header)."""

    lsn: int = 0


commit_note: ContextVar[CommitNote | None] = ContextVar("commit_note", default=None)


def parse_lsn(text: str) -> int:
    """PostgreSQL's `X/Y` text of a WAL position as one number (positions compare as numbers)."""
    found = LSN.match(text.strip())
    if found is None:
        raise BadInput(f"not a WAL position (LSN) like 0/16B3748: {text[:40]!r}")
    return int(found.group(1), 16) << 32 | int(found.group(2), 16)


def lsn_text(lsn: int) -> str:
    return f"{lsn >> 32:X}/{lsn & 0xFFFFFFFF:X}"


@dataclass
class _Standby:
    url: str
    pool: ConnectionPool[psycopg.Connection[dict[str, Any]]]
    replayed: int = 0  # the highest replay LSN seen; replay only moves forward
    down_until: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock)


Lent = tuple[psycopg.Connection[dict[str, Any]], ConnectionPool[psycopg.Connection[dict[str, Any]]]]


class Standbys:
    """Pools on one or more standbys (app-role URLs), taken in turn, and each owner's last commit here."""

    def __init__(self, urls: list[str], *, wait_ms: float, max_size: int, statement_timeout_ms: int) -> None:
        kwargs = connect_kwargs(statement_timeout_ms)
        kwargs["application_name"] = APPLICATION_NAME
        self.wait_s = wait_ms / 1000
        self._standbys = [_Standby(url, ConnectionPool(url, min_size=1, max_size=max_size, kwargs=kwargs,
                                                  check=_check_idle, open=True, timeout=BORROW_S))
                          for url in urls]
        self._turn = itertools.count()
        self._written: dict[str, int] = {}
        self._lock = threading.Lock()
        # reads a standby served, and reads left to the primary (lagging or down standbys); approximate counts
        self.served = self.to_primary = 0

    def close(self) -> None:
        for standby in self._standbys:
            standby.pool.close()

    def committed(self, owner: str, lsn: int) -> None:
        """`owner` committed at `lsn` in this process: its later reads here wait for it."""
        with self._lock:
            if lsn > self._written.get(owner, 0):
                self._written[owner] = lsn
        note = commit_note.get()
        if note is not None and lsn > note.lsn:
            note.lsn = lsn

    def needed(self, owner: str) -> int:
        """The WAL position a read of `owner` must see: the client's and this process's last commit."""
        return max(read_after.get(), self._written.get(owner, 0))

    def borrow(self, owner: str) -> Lent | None:
        """A standby connection that sees everything `owner`'s read must see; None: read on the primary."""
        needed = self.needed(owner)
        first = next(self._turn)
        for i in range(len(self._standbys)):
            standby = self._standbys[(first + i) % len(self._standbys)]
            if standby.down_until > time.monotonic():
                continue
            try:
                conn = standby.pool.getconn()
            except PoolTimeout:
                if probe(standby.url) is not None:  # not only busy: gone (stopped, unreachable)
                    standby.down_until = time.monotonic() + DOWN_S
                continue
            try:
                if self._caught_up(standby, conn, needed):
                    self.served += 1
                    return conn, standby.pool
            except psycopg.Error:
                standby.down_until = time.monotonic() + DOWN_S
                conn.close()  # the pool replaces a closed connection
            standby.pool.putconn(conn)
        self.to_primary += 1
        return None

    def _caught_up(self, standby: _Standby, conn: psycopg.Connection[dict[str, Any]], needed: int) -> bool:
        """True once the standby has replayed `needed` (asked again every POLL_S, for at most wait_s)."""
        if standby.replayed >= needed:
            return True
        deadline = time.monotonic() + self.wait_s
        conn.autocommit = True
        try:
            while True:
                row = conn.execute(load("standby_replay_lsn"), prepare=True).fetchone()
                replayed = parse_lsn(str(row["lsn"])) if row and row["lsn"] is not None else 0
                with standby.lock:
                    standby.replayed = max(standby.replayed, replayed)
                if replayed >= needed:
                    return True
                if time.monotonic() + POLL_S > deadline:
                    return False
                time.sleep(POLL_S)
        finally:
            conn.autocommit = False


def _check_idle(conn: psycopg.Connection[dict[str, Any]]) -> None:
    """db.check_idle for the standby pools: a round trip only when the socket says something happened."""
    if not quiet(conn):
        ConnectionPool.check_connection(conn)


def from_setting(value: str | None) -> list[str]:
    """The URLs of WORLDMEM_READ_DATABASE_URL: comma-separated, split only before a `postgres[ql]://` (a
    multi-host URL's own commas stay), blanks ignored."""
    return [url.strip() for url in re.split(r",\s*(?=postgres(?:ql)?://)", value or "") if url.strip()]
