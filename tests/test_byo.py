"""Bring your own PostgreSQL: with WORLDMEM_DATABASE_URL set, worldmem provisions nothing and uses that
server and database for everything (migrate, status, demo, token, doctor, serve's check).

The "own server" here is a second database on the test cluster, named by a URL of another spelling
(localhost instead of 127.0.0.1) and another database name: nothing reaches the embedded defaults.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest

from graph.platform.connect import admin_url
from graph.settings import Settings
from tests.conftest import drop_database

WORLDMEM = Path(sys.executable).with_name("worldmem")


@pytest.fixture(scope="module")
def byo_url(settings: Settings) -> Iterator[str]:
    name = f"worldmem_byo_{os.getpid()}"
    drop_database(settings, name)
    parts = urlsplit(admin_url(settings, name))
    netloc = parts.netloc.replace("@127.0.0.1:", "@localhost:")
    yield urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))
    drop_database(settings, name)


def cli(url: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "WORLDMEM_DATABASE_URL": url, "WORLDMEM_DB_PORT": "1"}  # the embedded port is wrong
    env.pop("WORLDMEM_DB_NAME", None)
    return subprocess.run([str(WORLDMEM), *args], capture_output=True, text=True, timeout=300, env=env, check=False)


def test_own_server_end_to_end(byo_url: str) -> None:
    up = cli(byo_url, "db", "up")
    assert up.returncode == 0, up.stderr
    assert "debootstrap" not in up.stderr and "migrations applied now: ['0001'" in up.stderr
    status = json.loads(cli(byo_url, "db", "status").stdout)
    assert status["mode"] == "external" and status["migrations"][0] == "0001" and "root" not in status
    demo = cli(byo_url, "demo", "--owner", "byo")
    assert demo.returncode == 0, demo.stderr
    token = cli(byo_url, "token", "create", "--owner", "byo")
    assert token.returncode == 0 and token.stdout.strip().splitlines()[-1].startswith("wm_")
    doctor = cli(byo_url, "doctor")
    assert doctor.returncode == 0 and "graph == ledger" in doctor.stdout and doctor.stdout.startswith("AGE 1.")
    down = cli(byo_url, "db", "down")
    assert down.returncode == 0 and "nothing of ours to stop" in down.stderr
    with psycopg.connect(byo_url) as conn:  # the data went to that database, not the embedded default
        row = conn.execute("SELECT count(*) FROM entities WHERE owner_sub = 'byo'").fetchone()
    assert row is not None and row[0] >= 5


def test_an_unreachable_own_server_says_so(byo_url: str) -> None:
    parts = urlsplit(byo_url)
    dead = urlunsplit((parts.scheme, parts.netloc.rsplit(":", 1)[0] + ":1", parts.path, "", ""))
    for args in (("demo",), ("serve",), ("token", "create", "--owner", "x")):
        result = cli(dead, *args)
        assert result.returncode == 2 and "WORLDMEM_DATABASE_URL" in result.stderr, result.stderr
