"""The Cypher console engine: a power user's own Cypher, run read-only and pinned to their owner.

How one query runs (each step is a barrier of the database, not of this module):
1. A connection of the app's pool (logged in as worldmem_app) opens a transaction and makes it
   READ ONLY, pins `app.current_owner` and `statement_timeout` (transaction-local), then
   `SET LOCAL ROLE worldmem_console`.
2. The user's text runs inside `ag_catalog.cypher('worldgraph', $tag$…$tag$, $1)` as worldmem_console:
   SELECT only, row-level security on every table it can read, and no EXECUTE on set_config (migration
   0006), so the query can change neither its owner, nor its role, nor its timeout, nor write.
3. The transaction ends (role and settings revert) and session-level advisory locks the query may
   have taken are released, so the pooled connection goes back clean.
The static check in graph.console.text runs first only to give clear errors early.
"""

from __future__ import annotations

import json
import math
import secrets
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any, LiteralString
from weakref import WeakKeyDictionary

import psycopg
from psycopg import errors as pg_errors
from psycopg import sql
from psycopg.rows import tuple_row

from cypher import parse_agtype
from graph.console.text import (
    CONSOLE_FORBIDDEN,
    CONSOLE_SYNTAX,
    CONSOLE_WRITE_REFUSED,
    ConsoleError,
    NoReturn,
    check,
    mask,
    parameters,
    prepare,
    return_columns,
)
from graph.errors import Unavailable
from graph.platform.db import Database
from graph.platform.pooling import OWNER_PATTERN
from graph.settings import GRAPH_NAME
from graph.sql import load

CONSOLE_TIMEOUT = "CONSOLE_TIMEOUT"
CONSOLE_TOO_LARGE = "CONSOLE_TOO_LARGE"
CONSOLE_BUSY = "CONSOLE_BUSY"
CONSOLE_QUERY_FAILED = "CONSOLE_QUERY_FAILED"

CONCURRENT_RUNS = 2  # per Database: console queries never hold more of the app's pool than this
MAX_RESULT_CHARS = 8_000_000
MAX_TIMEOUT_MS = 60_000

__all__ = ["ConsoleError", "ConsoleResult", "Statement", "execute", "run_console", "statement"]


@dataclass(frozen=True)
class ConsoleResult:
    columns: list[str]
    rows: list[list[Any]]  # one list per row, values decoded from agtype (vertices/edges as maps)
    truncated: bool = False  # more rows than the row limit existed
    warnings: list[str] = field(default_factory=list)  # e.g. a $parameter the params do not set


@dataclass(frozen=True)
class Statement:
    """Cypher text that passed (or, in tests, bypassed) the static check, with its column names."""

    text: str
    columns: list[str]


def statement(query: str) -> Statement:
    """The query as it will run, refused early when it obviously writes or calls SQL functions."""
    text = prepare(query)
    masked = mask(text)
    check(masked)
    return Statement(text, return_columns(masked))


def run_console(db: Database, owner: str, query: str, params: dict[str, Any] | None = None, *,
                row_limit: int, timeout_ms: int) -> ConsoleResult:
    """Run `query` for `owner` (from the caller's token); typed ConsoleError on every expected failure."""
    if not OWNER_PATTERN.match(owner or ""):
        raise ConsoleError("no owner: the console runs only for an authenticated owner", code=CONSOLE_FORBIDDEN)
    try:
        stmt = statement(query)
    except NoReturn as missing:
        raise _parser_says(db, owner, missing, timeout_ms) from None
    result = execute(db, owner, stmt, params, row_limit=row_limit, timeout_ms=timeout_ms)
    unset = [p for p in parameters(mask(stmt.text)) if p not in (params or {})]
    if unset:  # AGE reads an unset parameter as null: every comparison with it is false, 0 rows
        names = ", ".join(f"${p}" for p in unset)
        return replace(result, warnings=[f"{names} {'is' if len(unset) == 1 else 'are'} not set in params "
                                         "(read as null, so comparisons with it match nothing)"])
    return result


def _parser_says(db: Database, owner: str, missing: NoReturn, timeout_ms: int) -> ConsoleError:
    """AGE's own parse error for text our RETURN analysis could not read, else our message.

    The text already passed the static check, and runs behind the same database barriers as any query.
    """
    try:
        execute(db, owner, Statement(missing.text, ["c0"]), None, row_limit=1, timeout_ms=min(timeout_ms, 2000))
    except ConsoleError as age:
        if age.code == CONSOLE_SYNTAX and "syntax error" in age.message:
            hint = "" if missing.has_return else "; the console's query must end with RETURN"
            return ConsoleError(f"Cypher syntax error (AGE): {age.message}{hint}", code=CONSOLE_SYNTAX)
    return missing


def execute(db: Database, owner: str, stmt: Statement, params: dict[str, Any] | None = None, *,
            row_limit: int, timeout_ms: int) -> ConsoleResult:
    """Run a statement with no checks of its text; the database alone enforces read-only and the owner.

    Called directly only by tests that prove the database refuses what the static check would.
    """
    if row_limit < 1 or not 0 < timeout_ms <= MAX_TIMEOUT_MS:
        raise ConsoleError(f"row limit must be >= 1 and timeout 1..{MAX_TIMEOUT_MS} ms", code=CONSOLE_SYNTAX)
    query = _compose(stmt, row_limit)
    args = _params(params)
    try:
        with _slot(db, timeout_ms), db.read_connection(owner) as conn:
            try:
                raw = _run(conn, owner, query, args, timeout_ms)
            finally:
                _release(conn)
    except psycopg.Error as exc:
        raise _translate(exc, timeout_ms) from exc
    if sum(len(v) for row in raw for v in row if isinstance(v, str)) > MAX_RESULT_CHARS:
        raise ConsoleError(f"the result is larger than {MAX_RESULT_CHARS} characters: return less or add LIMIT",
                           code=CONSOLE_TOO_LARGE)
    rows = [[_json_safe(parse_agtype(v)) for v in row] for row in raw[:row_limit]]
    return ConsoleResult(list(stmt.columns), rows, truncated=len(raw) > row_limit)


def _json_safe(value: Any) -> Any:
    """NaN and ±Infinity (valid agtype floats) as the strings "NaN", "Infinity", "-Infinity": JSON has none."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value).replace("inf", "Infinity").replace("nan", "NaN")
    if isinstance(value, list):
        return [_json_safe(v) for v in value]
    if isinstance(value, dict):
        return {k: _json_safe(v) for k, v in value.items()}
    return value


def _run(conn: psycopg.Connection[Any], owner: str, query: sql.Composed, args: str,
         timeout_ms: int) -> list[tuple[Any, ...]]:
    # The transaction is one pipeline in autocommit (an implicit transaction), not BEGIN ... ROLLBACK.
    # AGE 1.8 bug: when a cypher() call is cancelled by the statement timeout inside an explicit
    # transaction block, the later ROLLBACK fails with "ResourceOwnerEnlarge called after release
    # started" and leaves the server's shared lock table corrupt ("failed to re-find shared lock
    # object" for new connections) until a restart; observed in about 1 of 20 timeouts. In an implicit
    # transaction abort and cleanup happen together: 0 in 180 timeouts (see tests/test_console_timeouts.py).
    conn.autocommit = True
    try:
        with conn.cursor(row_factory=tuple_row) as cur:
            with conn.pipeline():
                conn.execute(load("tx_read_only"))
                conn.execute(load("console_pin"), (owner, str(timeout_ms)))
                conn.execute(load("console_role"))  # from here on the session acts as worldmem_console
                cur.execute(query, (args,), prepare=False)
            return cur.fetchall()
    finally:
        if not conn.closed:
            conn.autocommit = False


def _compose(stmt: Statement, row_limit: int) -> sql.Composed:
    """SELECT * FROM cypher('worldgraph', $tag$<text>$tag$, %s) AS (c0 agtype, …) LIMIT row_limit+1."""
    columns = sql.SQL(", ").join(
        sql.SQL("{} ag_catalog.agtype").format(sql.Identifier(f"c{i}")) for i in range(len(stmt.columns)))
    return sql.SQL(load("console_cypher")).format(
        graph=sql.Literal(GRAPH_NAME), query=_dollar_quoted(stmt.text), columns=columns,
        limit=sql.Literal(row_limit + 1))


def _dollar_quoted(text: str) -> sql.SQL:
    """The user's text as a dollar-quoted string constant: the one place user text enters SQL.

    AGE takes the Cypher text only as a string constant (not a bind parameter), so it must be spliced.
    Inside `$tag$…$tag$` PostgreSQL copies everything up to the first exact `$tag$` verbatim, with no
    escapes. The tag is random per call and chosen so that it occurs nowhere in the text, nor across the
    text's end (text `…$wm_x` + closing `$wm_x$` would end the quote early). `%` is doubled because
    psycopg reads `%s` placeholders in the whole query string; the server sees the single `%` again.
    Values never travel here, only in the bound parameter map.
    """
    if "\x00" in text:
        raise ConsoleError("the query contains a NUL character", code=CONSOLE_SYNTAX)
    while True:
        tag = f"$wm_{secrets.token_hex(8)}$"
        if (text + tag).find(tag) == len(text):
            return sql.SQL(_spliceable(tag + text.replace("%", "%%") + tag))


def _spliceable(quoted: str) -> LiteralString:
    # mypy treats LiteralString as str; this vouches only for the dollar-quoted constant built above.
    return quoted


def _params(params: dict[str, Any] | None) -> str:
    if params is None:
        return "{}"
    if not isinstance(params, dict) or not all(isinstance(k, str) for k in params):
        raise ConsoleError("params must be a JSON object with string keys", code=CONSOLE_SYNTAX)
    try:
        return json.dumps(params, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise ConsoleError(f"params are not JSON: {exc}", code=CONSOLE_SYNTAX) from exc


def _release(conn: psycopg.Connection[Any]) -> None:
    """Drop session advisory locks the query took; a connection that cannot is closed, not reused."""
    try:
        if not conn.closed:
            conn.execute(load("console_release"))
    except psycopg.Error:
        conn.close()


_SLOTS: WeakKeyDictionary[Database, threading.BoundedSemaphore] = WeakKeyDictionary()
_SLOTS_LOCK = threading.Lock()


@contextmanager
def _slot(db: Database, timeout_ms: int) -> Iterator[None]:
    with _SLOTS_LOCK:
        sem = _SLOTS.setdefault(db, threading.BoundedSemaphore(CONCURRENT_RUNS))
    if not sem.acquire(timeout=timeout_ms / 1000 + 1):
        raise ConsoleError("the console is busy with other queries; try again", code=CONSOLE_BUSY)
    try:
        yield
    finally:
        sem.release()


def _translate(exc: psycopg.Error, timeout_ms: int) -> Exception:
    """A database error as a typed console error, with the server's one-line message at most."""
    primary = ((exc.diag.message_primary if exc.diag else None) or "the query failed").strip()[:300]
    state = exc.sqlstate or ""
    if isinstance(exc, pg_errors.QueryCanceled):
        return ConsoleError(f"the query ran longer than {timeout_ms} ms and was stopped", code=CONSOLE_TIMEOUT)
    if isinstance(exc, pg_errors.ReadOnlySqlTransaction):
        return ConsoleError("the console is read-only: writes are refused", code=CONSOLE_WRITE_REFUSED)
    if "row-level security" in primary or (state == "42P01" and primary.startswith("graphid")):
        # Same answer whether the id is another owner's or does not exist: no existence oracle.
        return ConsoleError("no such vertex or edge", code=CONSOLE_FORBIDDEN)
    if isinstance(exc, pg_errors.InsufficientPrivilege):
        return ConsoleError(f"not allowed in the console: {primary}", code=CONSOLE_FORBIDDEN)
    if state.startswith("42"):
        return ConsoleError(primary, code=CONSOLE_SYNTAX)
    if isinstance(exc, psycopg.OperationalError) and not state:  # no connection (or none free in time)
        return Unavailable("the database is not reachable")
    return ConsoleError(primary, code=CONSOLE_QUERY_FAILED)
