"""The application's connection pool and owner-scoped transactions.

Every request runs inside one transaction that first sets `app.current_owner` (transaction-local), so
row-level security in the database decides what the request sees. With no owner set, it sees nothing.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from typing import Any, LiteralString

import psycopg
from psycopg import errors as pg_errors
from psycopg_pool import ConnectionPool, PoolTimeout

from graph.errors import BadInput, Unavailable
from graph.platform import json_rows, safe_times
from graph.platform.pooling import FIRST_WAIT_S, POOL_TIMEOUT_S, PinnedReads, connect_kwargs, given_back, quiet
from graph.platform.pooling import check_owner as check_owner
from graph.platform.reachable import probe
from graph.platform.read_tx import ReadTx, queued
from graph.platform.standby import Standbys, may_lag, parse_lsn
from graph.sql import load

PROBE_TTL_S = 1.0


def check_idle(conn: psycopg.Connection[Any]) -> None:
    """The pool's check before lending a connection: a round trip only when the socket says something happened.

    An idle connection has nothing to read. A server that ended it (restart, pg_terminate_backend, idle
    timeout) sent a FATAL message and closed the socket, which makes it readable (or hung up); then the
    pool's own check (an empty query) runs and fails, and the pool replaces the connection. A quiet socket
    skips that round trip, which was one of every read's few. The window is the same as with the
    full check: a kill after the check and before the first statement fails that statement either way.
    """
    if not quiet(conn):
        ConnectionPool.check_connection(conn)


class Database:
    """A pool of connections as one database role (normally worldmem_app)."""

    def __init__(self, url: str, *, max_size: int = 8, statement_timeout_ms: int = 5000) -> None:
        safe_times.install()  # one stored time out of range must not fail a whole answer
        json_rows.install()  # jsonb values parsed by pydantic-core: most of a read's row decoding
        self.url, self.max_size, self.statement_timeout_ms = url, max_size, statement_timeout_ms
        self._probe_lock = threading.Lock()
        self._probed: tuple[float, str | None] = (0.0, None)
        # read_pinned's statements on an event loop (db_async): the app's lifespan opens and sets it
        self.loop_reads: PinnedReads | None = None
        # standbys for the reads that may go there (graph/platform/standby.py); set by the app when configured
        self.standbys: Standbys | None = None
        self._pool = ConnectionPool(
            url,
            min_size=1,
            max_size=max_size,
            kwargs=connect_kwargs(statement_timeout_ms),
            # A connection killed while idle (a database restart, pg_terminate_backend) is replaced before
            # use, so the first request afterwards succeeds instead of failing on a dead socket.
            check=check_idle,
            open=True,
            timeout=POOL_TIMEOUT_S,
        )

    def close(self) -> None:
        if self.standbys is not None:
            self.standbys.close()
        self._pool.close()

    @contextmanager
    def owner_tx(self, owner: str, *, read_only: bool = False,
                 pipelined: bool = False) -> Iterator[psycopg.Connection[dict[str, Any]]]:
        """One explicit transaction (BEGIN ... COMMIT) pinned to `owner`; rolled back on any error.

        The set-up is one round trip: BEGIN and one statement that sets the owner transaction-locally (and
        for `read_only` also `transaction_read_only`, which is what SET TRANSACTION READ ONLY sets) go out
        together in a pipeline, and are done before the caller's first query. `conn.transaction()` would
        sync after its BEGIN, and psycopg outside autocommit would send a BEGIN of its own before the first
        statement, so the block is a `psycopg.Transaction` entered inside the pipeline while the connection
        is in autocommit (client-side only). The block still ends with COMMIT or ROLLBACK; nested
        `conn.transaction()` blocks are savepoints as before; the pool gets the connection back with
        autocommit off.

        With `pipelined` the whole block runs in that pipeline: BEGIN and the owner go out with the caller's
        first statements, COMMIT with its last ones, and only a fetch waits for the server (the committer's
        single-operation proposals). A statement whose result is never fetched reports its error at
        the next fetch or at the end of the block (the transaction is then rolled back, never committed); a
        nested `conn.pipeline()` there would sync.
        """
        # pipelined: a statement that failed before the COMMIT or ROLLBACK queued behind it made the server
        # skip that; the failed transaction is rolled back when the connection goes back (_lent)
        with self._lent(owner, reading=read_only) as conn:
            with ExitStack() as block:
                with ExitStack() as setup:
                    (block if pipelined else setup).enter_context(conn.pipeline())
                    block.enter_context(psycopg.Transaction(conn))
                    conn.execute(load("tx_set_owner_read_only" if read_only else "tx_set_owner"), (owner,))
                yield conn
            if not read_only and self.standbys is not None:  # committed: the owner's reads wait for it
                row = conn.execute(load("commit_lsn"), prepare=True).fetchone()
                self.standbys.committed(owner, parse_lsn(row["lsn"]) if row else 0)

    def idle(self) -> bool:
        """Whether the primary's pool has a connection no one holds (a read beside another may take it without
        making a request wait for one)."""
        return self._pool.get_stats().get("pool_available", 0) > 0

    def read_round(self, owner: str, queries: Sequence[tuple[LiteralString, Mapping[str, Any] | Sequence[Any]]],
                   *, generic_plans: bool = False) -> list[list[dict[str, Any]]]:
        """The rows of read-only `queries` for `owner`, in ONE round trip to the server.

        One pipeline, one Sync: the owner (and READ ONLY) is set transaction-locally by the first statement
        and every query runs after it in the same implicit transaction, which the Sync ends (the extended
        protocol's rule: without BEGIN, the statements before a Sync are one transaction). So there is no
        BEGIN or COMMIT to wait for, and nothing of the owner outlives the round. Any error aborts the rest
        of the round and is translated like owner_tx's. For reads whose statements do not depend on each
        other's rows (graph.agent.world_context); a read that must decide between statements uses owner_tx.
        Parameters as a mapping fill `%(name)s` placeholders; as a sequence, `$1, $2, ...` placeholders, and
        the text is sent as is (psycopg.RawCursor: no client-side parse of a long statement on every call).
        With `generic_plans` the same first statement also makes the round's prepared statements use generic
        plans (tx_set_owner_generic_plans.sql: the context builder's).
        """
        with self._lent(owner, reading=True) as conn:
            with conn.pipeline():
                first = load("tx_set_owner_generic_plans") if generic_plans else load("tx_set_owner_read_only")
                conn.execute(first, (owner,))
                cursors = queued(conn, queries)
            return [cur.fetchall() for cur in cursors]

    def read_pinned(self, owner: str, query: LiteralString, params: Mapping[str, Any]) -> list[dict[str, Any]]:
        """The rows of ONE read-only statement that pins `owner` itself: one message, one round trip, no
        pipeline. The statement calls a function whose first statement pins its `%(owner)s`
        parameter (wm_pin_reader, migrations/0080: app.current_owner and READ ONLY, transaction-locally)
        and whose second is the read; the statement is its own transaction (autocommit), so nothing of the
        owner outlives it, and a statement that did not pin would read nothing (the policies fail closed).
        For the point reads (stateAt, stateAsKnownAt, factHistory, getEntity); errors as owner_tx's."""
        with self._lent(owner, reading=True) as conn:
            return conn.execute(query, {**params, "owner": owner}).fetchall()

    @contextmanager
    def read_tx(self, owner: str) -> Iterator[ReadTx]:
        """An explicit read-only transaction pinned to `owner` whose set-up and end cost no round trip of
        their own: the connection stays in pipeline mode for the whole block, so BEGIN and the
        owner (with READ ONLY) go out with the caller's first statement, every fetch is one round trip (a
        Flush, not a Sync: the transaction goes on), and `ReadTx.last` sends its statements with the COMMIT.
        Without `last`, the block ends with COMMIT as one more round trip; on any error it is rolled back.

        For reads whose statements depend on each other's rows (resolve a ref, then read its facts); what
        code runs on `tx.conn` must not open transactions or use what pipeline mode lacks (COPY, server-side
        cursors). Statements see what owner_tx's would: both are READ COMMITTED, a snapshot per statement.
        """
        with self._lent(owner, reading=True) as conn, ExitStack() as pipeline:  # BEGIN and COMMIT in the pipeline
            tx = ReadTx(conn, owner, pipeline)
            try:
                yield tx
            except BaseException:
                if not tx.ended:
                    tx.ended = True
                    conn.execute(load("tx_rollback"), prepare=False)
                raise
            if not tx.ended:
                tx.finish()

    @contextmanager
    def _lent(self, owner: str, *, reading: bool = False) -> Iterator[psycopg.Connection[dict[str, Any]]]:
        """A pooled connection for one block of `owner`'s (owner_tx, read_round, read_pinned, read_tx): the
        owner checked, errors translated, autocommit while lent (each block sends its own BEGIN or Sync, and
        its owner statement), and handed back as the pool lent it, whatever happened (pooling.ended). Taken and given
        back with getconn / putconn, not the pool's context manager, whose commit on leaving `ended` makes moot:
        three context managers fewer per read. A read (`reading`) goes to a standby where it may (_standby)."""
        check_owner(owner)
        with self.translating():
            conn, pool = self._standby(owner, reading) or (self._borrow(), self._pool)
            try:
                conn.autocommit = True
                yield conn
            finally:
                given_back(conn, pool)

    def _standby(self, owner: str, reading: bool) -> tuple[psycopg.Connection[dict[str, Any]],
                                                            ConnectionPool[psycopg.Connection[dict[str, Any]]]] | None:
        """A standby's connection for a read of `owner`'s that may lag (standby.may_lag) and that the standby
        has caught up with (standby.Standbys.borrow); None: the primary's pool."""
        if not reading or self.standbys is None or not may_lag.get():
            return None
        return self.standbys.borrow(owner)

    @contextmanager
    def read_connection(self, owner: str) -> Iterator[psycopg.Connection[dict[str, Any]]]:
        """connection() for a read of `owner`'s that pins the owner itself (the console): on a standby where
        it may go (_standby), handed back as the pool lent it."""
        lent = self._standby(owner, True)  # the owner is not checked here: the read pins it, the database checks
        if lent is None:
            with self.connection() as conn:
                yield conn
            return
        conn, pool = lent
        try:
            yield conn
        finally:
            given_back(conn, pool)

    @contextmanager
    def translating(self) -> Iterator[None]:
        try:
            yield
        except pg_errors.PipelineAborted as exc:
            # The statements queued behind a failed one answer "pipeline aborted". When a pipeline ends,
            # psycopg processes the results it had not fetched yet in a `finally`, so, depending on how many
            # had arrived, the aborted ones' error replaces the failure itself (which stays its __context__):
            # a pipelined commit refused by a constraint then read as "database not reachable". The failure
            # is what happened, so it is what is translated (or left to the caller, as an IntegrityError is).
            failed = exc.__context__
            if isinstance(failed, psycopg.Error) and not isinstance(failed, pg_errors.PipelineAborted):
                with self.translating():
                    raise failed from None
            raise Unavailable("the database is not reachable") from exc
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
            with self._pooled() as conn:
                yield conn
        except psycopg.DataError as exc:
            if exc.sqlstate is not None:  # the server's own (e.g. the console's), left to the caller
                raise
            raise _translated(exc) from exc  # a value psycopg could not even send, e.g. text with NUL
        except (UnicodeEncodeError, PoolTimeout) as exc:
            raise _translated(exc) from exc

    @contextmanager
    def _pooled(self) -> Iterator[psycopg.Connection[dict[str, Any]]]:
        """A pooled connection (_borrow), with the pool's own ending: commit on success, else roll back."""
        conn = self._borrow()
        try:
            with conn:
                yield conn
        finally:
            self._pool.putconn(conn)

    def _borrow(self) -> psycopg.Connection[dict[str, Any]]:
        """A connection from the pool; when the database is down, Unavailable after about a second.

        The pool alone would wait its whole timeout for a connection it can never open (and then call it
        busy). So after FIRST_WAIT_S the server is asked directly (one probe per PROBE_TTL_S, shared by all
        waiters): unreachable means Unavailable now; reachable means the pool is only busy, and we wait the
        rest (a PoolTimeout then is BUSY, see _translated).
        """
        try:
            return self._pool.getconn(timeout=FIRST_WAIT_S)
        except PoolTimeout:
            self.refuse_if_down()
            return self._pool.getconn(timeout=POOL_TIMEOUT_S - FIRST_WAIT_S)

    def refuse_if_down(self) -> None:
        """After FIRST_WAIT_S without a pooled connection (this pool's or db_async.LoopReads'): Unavailable now
        when the server itself is not there; otherwise the pool is only busy and the caller waits the rest."""
        if self.server_down():
            raise Unavailable("the database is not reachable") from None

    def server_down(self) -> bool:
        with self._probe_lock:
            at, reason = self._probed
            if time.monotonic() - at > PROBE_TTL_S:
                reason = probe(self.url)
                self._probed = (time.monotonic(), reason)
            return reason is not None


def _translated(exc: Exception) -> BadInput | Unavailable:
    """Our error for bad text (NUL, a lone surrogate, a value out of range) or a pool that is busy."""
    if isinstance(exc, PoolTimeout):  # every connection in use: busy, not down; retry shortly
        return Unavailable("the database is busy; retry shortly", code="BUSY")
    if isinstance(exc, UnicodeEncodeError):
        return BadInput("invalid value: text with a lone surrogate (not valid Unicode)")
    return BadInput(f"invalid value: {str(exc).strip().splitlines()[0]}")
