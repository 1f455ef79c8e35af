"""What the HTTP benchmarks share: a scratch database, a real `worldmem serve` process, keep-alive clients.

The server is the command users run (`worldmem serve`, with `WORLDMEM_DB_NAME` pointing at the bench's own
database and any other `WORLDMEM_*` overrides), in its own process, so the numbers include uvicorn, the
middleware, the token check, Strawberry and the JSON on the wire, as a client of a deployment sees them.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql

from graph.ledger.tokens import create_token
from graph.platform.connect import admin_url
from graph.platform.migrate import migrate
from graph.settings import Settings
from tests.hostile_http import ConnectionClosed, RawConnection, free_port, graphql_body


def fresh_database(settings: Settings, name: str, *, keep: bool = False) -> bool:
    """Migrate database `name` (dropped first unless `keep`); True when it existed and was kept."""
    with psycopg.connect(admin_url(settings, "postgres"), autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone() is not None
        if exists and not keep:
            conn.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name)))
    migrate(settings, admin_url(settings, name))
    return exists and keep


def drop_database(settings: Settings, name: str) -> None:
    with psycopg.connect(admin_url(settings, "postgres"), autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


@contextmanager
def serve(db_name: str, env: dict[str, str] | None = None,
          code_dir: Path | None = None) -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    """`worldmem serve` on a free port against `db_name`; yields (process, port); stopped afterwards.

    `code_dir`: serve another checkout's code with its own .venv (e.g. main, for a before/after)."""
    with serve_many(db_name, 1, env, code_dir) as started:
        yield started[0]


@contextmanager
def serve_many(db_name: str, n: int, env: dict[str, str] | None = None,
               code_dir: Path | None = None) -> Iterator[list[tuple[subprocess.Popen[bytes], int]]]:
    """`n` separate `worldmem serve` processes on free ports against `db_name`, started side by side (as several
    API processes behind a load balancer); yields [(process, port)]; each stopped afterwards."""
    full_env = {**os.environ, "WORLDMEM_DB_NAME": db_name, **(env or {})}
    python = sys.executable
    if code_dir is not None:
        python = str(code_dir / ".venv" / "bin" / "python")
        full_env["PYTHONPATH"] = str(code_dir)
    started: list[tuple[subprocess.Popen[bytes], int]] = []
    try:
        for _ in range(n):
            port = free_port()
            started.append((subprocess.Popen([python, "-m", "cli.main", "serve", "--port", str(port)],
                                             env=full_env, cwd=code_dir, stdout=subprocess.DEVNULL,
                                             stderr=subprocess.DEVNULL), port))
        deadline = time.monotonic() + 60
        for proc, port in started:
            while True:
                try:
                    with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                        break
                except OSError:
                    if proc.poll() is not None or time.monotonic() > deadline:
                        raise SystemExit("the server did not start") from None
                    time.sleep(0.1)
        yield started
    finally:
        for proc, _ in started:
            if proc.poll() is None:
                proc.terminate()
        for proc, _ in started:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


class Client:
    """One keep-alive connection sending GraphQL for one token; `ask` returns the decoded JSON."""

    def __init__(self, port: int, token: str) -> None:
        self.port = port
        self.conn = RawConnection(port, timeout=60)
        self.token = token

    def ask(self, query: str, variables: dict[str, Any] | None = None) -> Any:
        body = graphql_body(query, variables)
        try:
            response = self.conn.request(body, token=self.token)
        except ConnectionClosed:  # idle longer than uvicorn's keep-alive (5 s): a new connection
            self.conn = RawConnection(self.port, timeout=60)
            response = self.conn.request(body, token=self.token)
        if response.status != 200:
            raise RuntimeError(f"HTTP {response.status}: {response.body[:300]!r}")
        return json.loads(response.body)

    def close(self) -> None:
        self.conn.close()


def make_tokens(settings: Settings, db_name: str, owners: dict[int, str]) -> dict[int, str]:
    """A fresh owner token per key. Retried: the shared cluster now and then refuses a new connection with
    "failed to re-find shared lock object" under load (a cluster condition, reported, not ours to fix)."""
    tokens: dict[int, str] = {}
    for key, owner in owners.items():
        for attempt in range(5):
            try:
                tokens[key] = create_token(admin_url(settings, db_name), owner)
                break
            except psycopg.OperationalError:
                if attempt == 4:
                    raise
                time.sleep(1)
    return tokens


def pct(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@dataclass
class Summary:
    n: int
    p50_ms: float
    p95_ms: float
    p99_ms: float

    @classmethod
    def of(cls, seconds: Sequence[float]) -> Summary:
        ms = [s * 1000 for s in seconds]
        return cls(len(ms), round(pct(ms, 0.50), 3), round(pct(ms, 0.95), 3), round(pct(ms, 0.99), 3))


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) process `pid` has used so far, from /proc (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())
