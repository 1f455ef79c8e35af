"""Pinned reads on the event loop: Database.read_pinned's statements without a worker thread.

A GraphQL point read handed to a worker thread costs two wake-ups across threads, which on a small machine
cost about as much CPU as the read itself. Here the same statement goes out on an asyncio connection of its
own pool, opened by the app's lifespan on the app's loop; the loop serves other requests while the server
answers. What is the same as Database.read_pinned, because it is the same code: the owner check, the
connection's settings (pooling.connect_kwargs), the check before lending (pooling.quiet), the translated errors and
"database down" within about a second (Database.translating, Database.refuse_if_down). These connections
are in autocommit for good: a pinned statement is its own transaction.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any, LiteralString

import psycopg
from psycopg.rows import DictRow
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from graph.platform.db import Database
from graph.platform.pooling import FIRST_WAIT_S, POOL_TIMEOUT_S, check_owner, connect_kwargs, quiet

APPLICATION_NAME = "worldmem loop reads"  # how these connections show in pg_stat_activity


async def check_idle(conn: psycopg.AsyncConnection[Any]) -> None:
    """db.check_idle for the asyncio pool: a round trip only when the socket says something happened."""
    if not quiet(conn):
        await AsyncConnectionPool.check_connection(conn)


class LoopReads:
    """An asyncio pool for Database.read_pinned's statements, bound to the loop that opened it."""

    def __init__(self, db: Database) -> None:
        """As many connections at most as `db`'s pool, made the same way (in autocommit); call on the loop."""
        self._db = db
        self.loop = asyncio.get_running_loop()
        kwargs = connect_kwargs(db.statement_timeout_ms)
        kwargs.update(autocommit=True, application_name=APPLICATION_NAME)
        self._pool: AsyncConnectionPool[psycopg.AsyncConnection[DictRow]] = AsyncConnectionPool(
            db.url, min_size=1, max_size=db.max_size, kwargs=kwargs, check=check_idle, open=False,
            timeout=POOL_TIMEOUT_S)

    async def open(self) -> None:
        await self._pool.open()

    async def close(self) -> None:
        await self._pool.close()

    async def __aenter__(self) -> LoopReads:
        await self.open()
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.close()

    async def read_pinned(self, owner: str, query: LiteralString, params: Mapping[str, Any]
                          ) -> list[dict[str, Any]]:
        """Database.read_pinned, awaited on the loop."""
        check_owner(owner)
        with self._db.translating():
            conn = await self._lent()
            try:
                cursor = await conn.execute(query, {**params, "owner": owner})
                return await cursor.fetchall()
            finally:
                await self._pool.putconn(conn)

    async def _lent(self) -> psycopg.AsyncConnection[DictRow]:
        """A pooled connection (give it back with putconn); Unavailable after about a second when the server is
        down (Database._pooled). getconn / putconn rather than the pool's context manager: fewer awaits."""
        try:
            return await self._pool.getconn(timeout=FIRST_WAIT_S)
        except PoolTimeout:
            await asyncio.to_thread(self._db.refuse_if_down)  # the probe may take up to its connect timeout
            return await self._pool.getconn(timeout=POOL_TIMEOUT_S - FIRST_WAIT_S)
