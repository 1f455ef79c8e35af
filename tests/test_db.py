"""Database.owner_tx: an explicit transaction, owner and READ ONLY set before the caller's first query,
rolled back on error, errors translated, and the pooled connection handed back as it was; read_round: one
round trip, one implicit transaction; the pool's check without a round trip for a quiet connection."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, LiteralString

import psycopg
import pytest
from psycopg import errors as pg_errors
from psycopg.pq import TransactionStatus
from psycopg_pool import ConnectionPool

from graph.errors import BadInput, Unavailable
from graph.platform.db import Database, check_idle
from tests.libpq_trace import of_connection, sent


@pytest.fixture
def one(app_db_url: str) -> Iterator[Database]:
    """A pool of one connection, so every block gets the same session."""
    database = Database(app_db_url, max_size=1)
    yield database
    database.close()


def _setting(conn: psycopg.Connection[Any], name: str) -> str | None:
    row = conn.execute("SELECT current_setting(%s, true) AS v", (name,)).fetchone()
    return None if row is None else row["v"]


@pytest.mark.parametrize("read_only", [True, False])
def test_explicit_transaction_with_owner_and_mode_before_the_first_query(one: Database, owner: str,
                                                                         read_only: bool) -> None:
    with one.owner_tx(owner, read_only=read_only) as conn:
        assert conn.info.transaction_status == TransactionStatus.INTRANS  # BEGIN already ran
        row = conn.execute("SELECT current_setting('app.current_owner') AS o,"
                           " current_setting('transaction_read_only') AS ro,"
                           " now() = statement_timestamp() AS first").fetchone()
        assert row == {"o": owner, "ro": "on" if read_only else "off", "first": False}
    with one.connection() as conn:
        assert conn.autocommit is False
        assert conn.info.transaction_status == TransactionStatus.IDLE
        assert _setting(conn, "app.current_owner") in (None, "")  # transaction-local, gone
        conn.rollback()


def test_read_only_refuses_writes(one: Database, owner: str) -> None:
    with pytest.raises(pg_errors.ReadOnlySqlTransaction), one.owner_tx(owner, read_only=True) as conn:
        conn.execute("SELECT set_config('app.probe', 'x', false)")
        conn.execute("CREATE TEMP TABLE wm_probe (x int)")


def test_commits_on_success_and_rolls_back_on_error(one: Database, owner: str) -> None:
    with one.owner_tx(owner) as conn:
        conn.execute("SELECT set_config('app.probe', 'kept', false)")  # session-level, but transactional
    with pytest.raises(RuntimeError), one.owner_tx(owner) as conn:
        conn.execute("SELECT set_config('app.probe', 'dropped', false)")
        raise RuntimeError("boom")
    with one.owner_tx(owner) as conn:
        assert _setting(conn, "app.probe") == "kept"
        conn.execute("SELECT set_config('app.probe', '', false)")


def test_nested_blocks_are_savepoints(one: Database, owner: str) -> None:
    with one.owner_tx(owner) as conn:
        conn.execute("SELECT set_config('app.probe', 'outer', true)")
        with conn.transaction(force_rollback=True):
            conn.execute("SELECT set_config('app.probe', 'inner', true)")
        assert _setting(conn, "app.probe") == "outer"
        assert _setting(conn, "app.current_owner") == owner


def test_errors_are_translated_and_the_connection_is_reusable(one: Database, owner: str) -> None:
    with pytest.raises(Unavailable), one.owner_tx(owner, read_only=True) as conn:
        conn.execute("SET LOCAL statement_timeout = 1")
        conn.execute("SELECT pg_sleep(1)")
    with pytest.raises(BadInput), one.owner_tx(owner, read_only=True) as conn:
        conn.execute("SELECT %s::text", ("a\x00b",))
    with pytest.raises(BadInput):
        with one.owner_tx("bad owner"):
            pass
    with one.owner_tx(owner, read_only=True) as conn:
        assert _setting(conn, "app.current_owner") == owner
    with one.connection() as conn:
        assert conn.autocommit is False


def _aborted_after(failure: psycopg.Error) -> None:
    """The shape psycopg leaves when a pipeline ends: the results not fetched yet are processed in a
    `finally`, so the aborted statements' error is raised while the failure itself is being raised."""
    try:
        raise failure
    finally:
        raise pg_errors.PipelineAborted("pipeline aborted")  # as psycopg's _exit_gen does


def test_a_pipeline_aborted_by_a_failed_statement_reports_that_failure(one: Database) -> None:
    with pytest.raises(pg_errors.CheckViolation, match="probe"), one.translating():
        _aborted_after(pg_errors.CheckViolation("probe"))  # a constraint: left to the caller, as without a pipeline
    with pytest.raises(BadInput), one.translating():
        _aborted_after(pg_errors.InvalidTextRepresentation("bad"))  # a DataError: translated as without one
    with pytest.raises(Unavailable), one.translating():  # nothing failed before it: as any OperationalError
        raise pg_errors.PipelineAborted("pipeline aborted")


def test_a_pipelined_block_refused_by_a_constraint_is_that_refusal_every_time(one: Database, owner: str) -> None:
    """Whether the failure or the aborted statements behind it come back first depends on timing (a loaded
    machine made test_committer_single's refused write fail now and then; the test above pins the shape);
    the caller sees the failure either way."""
    for _ in range(30):
        with pytest.raises(pg_errors.CheckViolation, match="probe"), one.owner_tx(owner, pipelined=True) as conn:
            conn.execute("DO $$ BEGIN RAISE check_violation USING MESSAGE = 'probe'; END $$")
            for _ in range(5):
                conn.execute("SELECT 1")
    with one.owner_tx(owner, read_only=True) as conn:
        assert _setting(conn, "app.current_owner") == owner  # the connection is reusable


def test_the_pool_check_skips_the_round_trip_for_a_quiet_connection(app_db_url: str, test_db_url: str) -> None:
    with psycopg.connect(app_db_url, autocommit=True) as conn:
        quiet = of_connection(conn, lambda: check_idle(conn))
        assert [m for m in quiet if m.side == "F"] == []  # nothing sent: the socket was quiet
        assert sent(of_connection(conn, lambda: ConnectionPool.check_connection(conn)))["Query"]  # the counter counts
        pid = conn.info.backend_pid
        with psycopg.connect(test_db_url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s, 5000)", (pid,))
        with pytest.raises(psycopg.OperationalError):  # the server's goodbye made the socket readable: checked
            check_idle(conn)


def test_a_round_is_one_implicit_read_only_transaction_for_the_owner(one: Database, owner: str) -> None:
    rows = one.read_round(owner, [
        ("SELECT current_setting('app.current_owner') AS o, current_setting('transaction_read_only') AS ro,"
         " now() AS t, now() = statement_timestamp() AS first", {}),
        ("SELECT now() AS t, %(x)s::int AS x", {"x": 7}),
    ])
    assert rows[0][0]["o"] == owner and rows[0][0]["ro"] == "on" and rows[0][0]["first"] is False
    assert rows[1] == [{"t": rows[0][0]["t"], "x": 7}]  # the same transaction: the same now()
    with one.connection() as conn:
        assert conn.autocommit is False
        assert _setting(conn, "app.current_owner") in (None, "")  # ended with the round
        conn.rollback()
    with pytest.raises(pg_errors.ReadOnlySqlTransaction):
        one.read_round(owner, [("CREATE TEMP TABLE wm_probe (x int)", {})])
    with pytest.raises(BadInput):
        one.read_round(owner, [("SELECT %(x)s::text", {"x": "a\x00b"})])
    with pytest.raises(Unavailable):
        one.read_round(owner, [("SET LOCAL statement_timeout = 1", {}), ("SELECT pg_sleep(1)", {})])
    assert one.read_round(owner, [("SELECT 1 AS one", {})]) == [[{"one": 1}]]  # the connection is reusable


def test_a_round_with_generic_plans_sets_them_for_itself_only(one: Database, owner: str) -> None:
    """generic_plans: the round's first statement also forces generic plans (the context builder's rounds),
    still for the owner and read-only, and nothing of it outlives the round."""
    probe: tuple[LiteralString, dict[str, Any]] = (
        "SELECT current_setting('app.current_owner') AS o, current_setting('transaction_read_only') AS ro,"
        " current_setting('plan_cache_mode') AS plans", {})
    assert one.read_round(owner, [probe], generic_plans=True) == [[{"o": owner, "ro": "on",
                                                                     "plans": "force_generic_plan"}]]
    assert one.read_round(owner, [probe]) == [[{"o": owner, "ro": "on", "plans": "auto"}]]
    with pytest.raises(pg_errors.ReadOnlySqlTransaction):
        one.read_round(owner, [("CREATE TEMP TABLE wm_probe (x int)", {})], generic_plans=True)
    with one.connection() as conn:
        assert _setting(conn, "plan_cache_mode") == "auto" and _setting(conn, "app.current_owner") in (None, "")
        conn.rollback()
