"""What every pooled connection of the app role shares, sync (db.Database) or asyncio (db_async.LoopReads):
the owner check, how a connection is made, the check before lending, the pool waits, and the shape of the
loop pool that Database holds for its pinned reads."""

from __future__ import annotations

import asyncio
import re
import select
from collections.abc import Mapping
from typing import Any, LiteralString, Protocol

import psycopg
from psycopg.rows import dict_row

from graph.errors import BadInput

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
