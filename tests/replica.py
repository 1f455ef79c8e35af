"""A streaming standby of the shared cluster for one pytest process (graph/platform/replica.py), and what the
tests and the bench need around it: its URLs, and pausing its replay to tell its answers from the primary's."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg

from graph.platform import replica
from graph.platform.connect import admin_url
from graph.settings import Settings

TEST_NAME = re.compile(r"^(?:test|bench)_(\d+)$")  # tests/replica.py's and bench/replica.py's


def remove_stale(settings: Settings) -> None:
    """Standbys of test and bench processes that no longer run: stopped, their slots dropped, their copies
    removed (a slot without its standby would keep WAL on the primary for good)."""
    parent = settings.root_dir / replica.PARENT
    for path in parent.iterdir() if parent.exists() else ():
        found = TEST_NAME.match(path.name)
        if found and not os.path.exists(f"/proc/{found.group(1)}"):
            replica.down(settings, replica.Standby(path.name, 0))


@contextmanager
def running_standby(settings: Settings, port: int) -> Iterator[replica.Standby]:
    """A standby of this process's own, removed (slot and copy) when the block ends."""
    remove_stale(settings)
    standby = replica.Standby(f"test_{os.getpid()}", port)
    replica.up(settings, standby)
    try:
        yield standby
    finally:
        replica.down(settings, standby)


def standby_admin_url(settings: Settings, standby: replica.Standby, dbname: str) -> str:
    return replica.with_port(admin_url(settings, dbname), standby.port)


@contextmanager
def replay_paused(settings: Settings, standby: replica.Standby, dbname: str) -> Iterator[None]:
    """The standby's replay paused (what it answers stays as it was), resumed when the block ends."""
    with psycopg.connect(standby_admin_url(settings, standby, dbname), autocommit=True) as conn:
        conn.execute("SELECT pg_wal_replay_pause()")
        try:
            yield
        finally:
            conn.execute("SELECT pg_wal_replay_resume()")
