"""Database.read_tx: one read-only transaction for the owner whose BEGIN rides with the first statement and
whose COMMIT rides with the last (`ReadTx.last`), so a read of two dependent steps costs two round trips;
errors are translated and roll back; `again` starts a new transaction after the end, for the owner again."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from psycopg import errors as pg_errors
from psycopg.pq import TransactionStatus

from graph.errors import BadInput, Unavailable
from graph.ledger.committer import commit_proposal
from graph.ledger.proposal import MemoryMutationProposal, UpsertEntity
from graph.ledger.tokens import owner_principal
from graph.platform.db import Database
from tests.libpq_trace import of_pool, round_trips

PROBE = "SELECT current_setting('app.current_owner') AS o, current_setting('transaction_read_only') AS ro, now() AS t"


@pytest.fixture
def one(app_db_url: str) -> Iterator[Database]:
    """A pool of one connection, so every block gets the same session."""
    database = Database(app_db_url, max_size=1)
    yield database
    database.close()


def idle_and_ownerless(db: Database) -> None:
    with db.connection() as conn:
        assert conn.autocommit is False and conn.info.transaction_status == TransactionStatus.IDLE
        row = conn.execute("SELECT current_setting('app.current_owner', true) AS o").fetchone()
        assert row is not None and row["o"] in (None, "")
        conn.rollback()


def test_one_transaction_for_the_owner_read_only_in_two_round_trips(one: Database, owner: str) -> None:
    seen: list[Any] = []

    def read() -> None:
        with one.read_tx(owner) as tx:
            seen.append(tx.conn.execute(PROBE).fetchone())
            seen.extend(tx.last([(PROBE, {}), ("SELECT $1::int AS x", (7,))]))

    assert round_trips(of_pool(one, read)) == 2
    first, (last,), (x,) = seen
    assert first == last and first["o"] == owner and first["ro"] == "on"  # one transaction: the same now()
    assert x == {"x": 7}
    idle_and_ownerless(one)

    def three_steps() -> None:  # the counter counts: one more dependent step is one more round trip
        with one.read_tx(owner) as tx:
            tx.conn.execute(PROBE).fetchone()
            tx.conn.execute(PROBE).fetchone()
            tx.last([(PROBE, {})])

    assert round_trips(of_pool(one, three_steps)) == 3

    def without_last() -> None:  # the COMMIT then goes out on its own
        with one.read_tx(owner) as tx:
            tx.conn.execute(PROBE).fetchone()

    assert round_trips(of_pool(one, without_last)) == 2
    idle_and_ownerless(one)


def test_again_begins_a_new_transaction_for_the_owner(one: Database, owner: str) -> None:
    with one.read_tx(owner) as tx:
        (before,) = tx.last([(PROBE, {})])
        with pytest.raises(RuntimeError):
            tx.last([(PROBE, {})])
        tx.again()
        after = tx.conn.execute(PROBE).fetchone()
    assert after is not None and after["o"] == owner and after["ro"] == "on" and after["t"] > before[0]["t"]
    idle_and_ownerless(one)


def test_errors_roll_back_are_translated_and_leave_the_connection_usable(one: Database, owner: str) -> None:
    with pytest.raises(pg_errors.ReadOnlySqlTransaction), one.read_tx(owner) as tx:
        tx.conn.execute("CREATE TEMP TABLE wm_probe (x int)").fetchall()
    idle_and_ownerless(one)
    with pytest.raises(pg_errors.ReadOnlySqlTransaction), one.read_tx(owner) as tx:
        tx.last([("CREATE TEMP TABLE wm_probe (x int)", {})])
    idle_and_ownerless(one)
    with pytest.raises(BadInput), one.read_tx(owner) as tx:
        tx.conn.execute("SELECT %s::text", ("a\x00b",)).fetchall()
    with pytest.raises(Unavailable), one.read_tx(owner) as tx:
        tx.conn.execute("SET LOCAL statement_timeout = 1")
        tx.conn.execute("SELECT pg_sleep(1)").fetchall()
    idle_and_ownerless(one)
    with pytest.raises(KeyError), one.read_tx(owner) as tx:
        tx.conn.execute(PROBE).fetchone()
        raise KeyError("a bug of the caller's")
    idle_and_ownerless(one)
    with pytest.raises(BadInput):
        with one.read_tx("bad owner"):
            pass
    with one.read_tx(owner) as tx:
        assert tx.last([(PROBE, {})])[0][0]["o"] == owner


def test_another_owner_s_rows_stay_invisible(one: Database, owner: str) -> None:
    made = commit_proposal(one, owner_principal(f"{owner}-other"), MemoryMutationProposal(
        run_id="other", operations=[UpsertEntity(ref="person:x", kind="person", canonical_name="X")]))
    assert not made.rejected
    count = "SELECT count(*) AS n FROM entities"
    with one.read_tx(owner) as tx:
        assert tx.conn.execute(count).fetchone() == {"n": 0}
        tx.last([])
        tx.again()
        assert tx.conn.execute(count).fetchone() == {"n": 0}
    with one.read_tx(f"{owner}-other") as tx:
        assert tx.last([(count, {})]) == [[{"n": 1}]]
