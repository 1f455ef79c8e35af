"""The application's connection pool and owner-scoped transactions.

Every request runs inside one transaction that first sets `app.current_owner` (transaction-local), so
row-level security in the database decides what the request sees. With no owner set, it sees nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import psycopg
from psycopg import errors as pg_errors
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool, PoolTimeout

from graph.errors import BadInput, Unavailable
from graph.platform import safe_times
from graph.sql import load

OWNER_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.@:|+\-]{0,199}$")


def check_owner(owner: str) -> str:
    if not OWNER_PATTERN.match(owner):
        raise BadInput("owner must be 1-200 characters of letters, digits and _.@:|+-")
    return owner


class Database:
    """A pool of connections as one database role (normally worldmem_app)."""

    def __init__(self, url: str, *, max_size: int = 8, statement_timeout_ms: int = 5000) -> None:
        safe_times.install()  # one stored time out of range must not fail a whole answer
        self._pool = ConnectionPool(
            url,
            min_size=1,
            max_size=max_size,
            kwargs={
                "row_factory": dict_row,
                "options": f"-c statement_timeout={int(statement_timeout_ms)} -c search_path=public,ag_catalog",
            },
            open=True,
            timeout=10,
        )

    def close(self) -> None:
        self._pool.close()

    @contextmanager
    def owner_tx(self, owner: str, *, read_only: bool = False) -> Iterator[psycopg.Connection[dict[str, Any]]]:
        """One explicit transaction (BEGIN ... COMMIT) pinned to `owner`; rolled back on any error.

        The set-up is one round trip: BEGIN and one statement that sets the owner transaction-locally (and
        for `read_only` also `transaction_read_only`, which is what SET TRANSACTION READ ONLY sets) go out
        together in a pipeline, and are done before the caller's first query. `conn.transaction()` would
        sync after its BEGIN, and psycopg outside autocommit would send a BEGIN of its own before the first
        statement, so the block is a `psycopg.Transaction` entered inside the pipeline while the connection
        is in autocommit (client-side only). The block still ends with COMMIT or ROLLBACK; nested
        `conn.transaction()` blocks are savepoints as before; the pool gets the connection back with
        autocommit off.
        """
        check_owner(owner)
        try:
            with self._pool.connection() as conn:
                conn.autocommit = True
                try:
                    with ExitStack() as block:
                        with conn.pipeline():
                            block.enter_context(psycopg.Transaction(conn))
                            conn.execute(load("tx_set_owner_read_only" if read_only else "tx_set_owner"), (owner,))
                        yield conn  # type: ignore[misc]
                finally:
                    if not conn.closed:
                        conn.autocommit = False
        except pg_errors.QueryCanceled as exc:
            raise Unavailable("the database took too long to answer") from exc
        except (psycopg.DataError, UnicodeEncodeError, PoolTimeout) as exc:
            raise _translated(exc) from exc
        except psycopg.OperationalError as exc:
            raise Unavailable("the database is not reachable") from exc

    @contextmanager
    def connection(self) -> Iterator[psycopg.Connection[dict[str, Any]]]:
        """A pooled connection without an owner (registries and tokens only; RLS tables stay empty)."""
        try:
            with self._pool.connection() as conn:
                yield conn  # type: ignore[misc]
        except psycopg.DataError as exc:
            if exc.sqlstate is not None:  # the server's own (e.g. the console's), left to the caller
                raise
            raise _translated(exc) from exc  # a value psycopg could not even send, e.g. text with NUL
        except (UnicodeEncodeError, PoolTimeout) as exc:
            raise _translated(exc) from exc


def _translated(exc: Exception) -> BadInput | Unavailable:
    """Our error for bad text (NUL, a lone surrogate, a value out of range) or a pool that is busy."""
    if isinstance(exc, PoolTimeout):  # every connection in use: busy, not down; retry shortly
        return Unavailable("the database is busy; retry shortly", code="BUSY")
    if isinstance(exc, UnicodeEncodeError):
        return BadInput("invalid value: text with a lone surrogate (not valid Unicode)")
    return BadInput(f"invalid value: {str(exc).strip().splitlines()[0]}")
