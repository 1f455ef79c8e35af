"""Session advisory locks for background work shared by several server processes (graph/platform/session_locks.py):
one leader at a time, a leader whose session ends hands over, per-item claims exclude each other."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator

import psycopg
import pytest

from graph.platform.session_locks import CURATOR_CHAT, FINDER_OWNER, SessionLocks


@pytest.fixture
def two(app_db_url: str) -> Iterator[tuple[SessionLocks, SessionLocks]]:
    a, b = SessionLocks(app_db_url, wait_s=0.3), SessionLocks(app_db_url, wait_s=0.3)
    yield a, b
    a.close()
    b.close()


def name() -> str:
    return f"job-{uuid.uuid4().hex[:8]}"


@pytest.mark.parametrize("job", ["job-b", "job-c"])  # hashtext negative, positive (pg_locks shows them as oids)
def test_one_leader_and_it_stays_leader(two: tuple[SessionLocks, SessionLocks], job: str) -> None:
    a, b = two
    assert [a.leads(job), b.leads(job), a.leads(job), b.leads(job)] == [True, False, True, False]


def test_a_leader_whose_session_ends_hands_over(two: tuple[SessionLocks, SessionLocks],
                                                 admin_conn: psycopg.Connection) -> None:
    """As when its process is killed: the server ends the session, its locks go with it."""
    a, b = two
    job = name()
    assert a.leads(job) and not b.leads(job)
    pid = a._connected().info.backend_pid  # the test ends exactly this session
    admin_conn.execute("SELECT pg_terminate_backend(%s, 5000)", (pid,))
    assert b.leads(job)
    assert not a.leads(job)  # a notices it lost the lock, reconnects, and finds it taken


def test_leads_says_false_once_the_lock_is_gone_even_with_the_session_alive(
        two: tuple[SessionLocks, SessionLocks], app_db_url: str) -> None:
    a, b = two
    job = name()
    assert a.leads(job)
    with psycopg.connect(app_db_url, autocommit=True) as other:
        assert other.execute("SELECT pg_try_advisory_lock(40001, hashtext(%s))", (job,)).fetchone() == (False,)
    a._connected().execute("SELECT pg_advisory_unlock_all()")  # lost behind its back
    assert b.leads(job) and not a.leads(job)


def test_claims_exclude_each_other_and_are_not_reentrant(two: tuple[SessionLocks, SessionLocks]) -> None:
    a, b = two
    chat = f"owner\n{name()}"  # any text, negative hashes included
    assert a.try_lock(CURATOR_CHAT, chat)
    assert not a.try_lock(CURATOR_CHAT, chat)
    assert not b.try_lock(CURATOR_CHAT, chat)
    assert b.try_lock(FINDER_OWNER, chat)  # another kind of work is another lock
    a.release(CURATOR_CHAT, chat)
    assert b.try_lock(CURATOR_CHAT, chat)


def test_wait_lock_waits_for_the_holder_within_its_bound(two: tuple[SessionLocks, SessionLocks]) -> None:
    a, b = two
    owner = name()
    assert a.wait_lock(FINDER_OWNER, owner)
    started = time.monotonic()
    assert not b.wait_lock(FINDER_OWNER, owner)  # lock_timeout 0.3 s
    assert 0.25 < time.monotonic() - started < 3
    a.release(FINDER_OWNER, owner)
    assert b.wait_lock(FINDER_OWNER, owner)


def test_an_unreachable_database_is_no_lock_and_no_error() -> None:
    locks = SessionLocks("postgresql://nobody@127.0.0.1:1/none")
    assert not locks.leads("x") and not locks.try_lock(CURATOR_CHAT, "x") and not locks.wait_lock(FINDER_OWNER, "x")
    locks.release(CURATOR_CHAT, "x")
    locks.close()
