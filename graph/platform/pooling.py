"""What every pooled connection of the app role shares, sync (db.Database) or asyncio (db_async.LoopReads):
the owner check, how a connection is made, the check before lending, how a lent one is ended and given back,
the pool waits, and the shape of the loop pool that Database holds for its pinned reads."""

from __future__ import annotations

import asyncio
import re
import select
from collections.abc import Mapping
from typing import Any, LiteralString, Protocol

import psycopg
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool

from graph.errors import BadInput
from graph.sql import load

OWNER_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.@:|+\-]{0,199}$")
POOL_TIMEOUT_S = 10.0
# After this long without a pooled connection, ask the server directly whether it is there at all.
FIRST_WAIT_S = 1.0


def check_owner(owner: str) -> str:
    if not OWNER_PATTERN.match(owner):
        raise BadInput("owner must be 1-200 ASCII letters, digits and _.@:|+- (starting with a letter or digit; "
                       f"no spaces, no umlauts), e.g. 'juergen' for Jürgen; got {owner[:60]!r}")
    return owner


def quiet(conn: psycopg.Connection[Any] | psycopg.AsyncConnection[Any]) -> bool:
    """An open connection whose socket has nothing to read: nothing happened to it while idle (db.check_idle)."""
    if conn.closed or conn.pgconn.status != psycopg.pq.ConnStatus.OK:
        return False
    idle = select.poll()
    idle.register(conn.pgconn.socket, select.POLLIN | select.POLLPRI)
    return not idle.poll(0)


def connect_kwargs(statement_timeout_ms: int) -> dict[str, Any]:
    """How every pooled connection of the app role is made (Database's pool, db_async.LoopReads')."""
    return {
        "row_factory": dict_row,
        "options": f"-c statement_timeout={int(statement_timeout_ms)} -c search_path=public,ag_catalog",
        "connect_timeout": 2,
    }


class PinnedReads(Protocol):
    """Database.read_pinned awaited on the event loop that opened the pool (db_async.LoopReads)."""

    loop: asyncio.AbstractEventLoop

    async def read_pinned(self, owner: str, query: LiteralString, params: Mapping[str, Any]
                          ) -> list[dict[str, Any]]: ...


def given_back(conn: psycopg.Connection[Any], pool: ConnectionPool[Any]) -> None:
    """The connection back to the pool that lent it, ended first (`ended`), whatever ending it raised."""
    try:
        ended(conn)
    finally:
        pool.putconn(conn)


def ended(conn: psycopg.Connection[Any]) -> None:
    """Hands the connection back as the pool lent it: no transaction open (one that failed on the server
    stays open until a ROLLBACK outside the aborted pipeline), autocommit off.

    A connection whose server ended it in the middle of a statement (pg_terminate_backend during a commit,
    a crash) is left ACTIVE or UNKNOWN: psycopg refuses to change its autocommit ("can't change 'autocommit'
    now"), and that error would replace the caller's OperationalError (UNAVAILABLE) with an INTERNAL one. Such
    a connection is closed instead, which the pool discards; the caller's own error stands."""
    if conn.closed:
        return
    status = conn.info.transaction_status
    try:
        if status in (psycopg.pq.TransactionStatus.INTRANS, psycopg.pq.TransactionStatus.INERROR):
            conn.execute(load("tx_rollback"), prepare=False)
        elif status != psycopg.pq.TransactionStatus.IDLE:
            conn.close()
            return
        conn.autocommit = False
    except psycopg.Error:
        conn.close()
