"""How `worldmem serve` runs uvicorn: worker processes and the access log, from the one Settings class.

- `workers` (WORLDMEM_WORKERS, default 1): uvicorn starts that many processes on one socket, each building
  its own app (`create_app` as a factory: its own pool, token and document caches). Python runs one thread
  of Python at a time per process, so on a 2-core machine 2 workers let the two cores serve requests at
  once (bench/README.md, "Mixed load").
- `access_log` (WORLDMEM_ACCESS_LOG, default on): one line per request as before, but the line is
  formatted and written in batches by a background thread (`BackgroundAccessLog`), so a request's path
  only appends the record to a deque; a slow terminal or pipe no longer holds the event loop.
- `gc_gen0` (WORLDMEM_GC_GEN0, default 20,000): each worker builds its app with `served_app`, which then
  freezes everything built so far (the schema, the modules: about 150,000 objects a full collection need
  not visit again) and lets the collector's youngest generation grow to that many objects. With Python's
  700 a request's leftovers (reference cycles of the GraphQL execution) set off a collection every 4-5
  requests and an older one every ~50 (0.8 ms): a tail of the floor (issue 11, bench/README.md).
"""

from __future__ import annotations

import collections
import copy
import gc
import logging
import sys
import threading
from typing import Any

from fastapi import FastAPI
from uvicorn.config import LOGGING_CONFIG
from uvicorn.logging import AccessFormatter

from graph.settings import Settings, get_settings
from resolvers.app import create_app

APP_FACTORY = "resolvers.serving:served_app"
# The older generations as measured with gen0 at 20,000 (Python's defaults are 10 and 10).
GC_OLDER = (20, 100)


def served_app() -> FastAPI:
    """`create_app` for a `worldmem serve` worker, then the garbage collector set for serving (tune_gc)."""
    app = create_app()
    tune_gc(get_settings().gc_gen0)
    return app


def tune_gc(gen0: int) -> None:
    """Freeze what exists (collected first, so no garbage is kept forever) and collect generation 0 only
    after `gen0` new objects; 0 leaves the collector as it is."""
    if gen0 <= 0:
        return
    gc.collect()
    gc.freeze()
    gc.set_threshold(gen0, *GC_OLDER)


class BackgroundAccessLog(logging.Handler):
    """Keeps access records in memory; a thread formats (uvicorn's format) and writes them to stdout in
    batches every `interval_s`, and once more at exit.

    A queue with a listener thread woken per record (logging.handlers.QueueListener) was measured first: the
    wake-up per request took the GIL from the event loop at the wrong moments (floor p95 x2.4 against no
    access log). Appending to a deque wakes nobody; at most `max_pending` lines wait (the oldest are dropped
    beyond that, counted in `dropped`), which at one flush per 0.25 s is far more than the server answers.
    """

    def __init__(self, interval_s: float = 0.25, max_pending: int = 100_000) -> None:
        super().__init__()
        self.interval_s = interval_s
        self.max_pending = max_pending
        self.dropped = 0
        self.pending: collections.deque[logging.LogRecord] = collections.deque()
        self.target = logging.StreamHandler(sys.stdout)
        self.target.setFormatter(AccessFormatter(LOGGING_CONFIG["formatters"]["access"]["fmt"]))
        self._stopped = threading.Event()
        self._writer = threading.Thread(target=self._run, name="access-log", daemon=True)
        self._writer.start()

    def emit(self, record: logging.LogRecord) -> None:
        # uvicorn's arguments are plain values (address, method, path, version, status): safe to format later
        if len(self.pending) >= self.max_pending:
            self.dropped += 1
            return
        self.pending.append(record)

    def write_pending(self) -> None:
        while self.pending:
            self.target.handle(self.pending.popleft())
        self.target.flush()

    def _run(self) -> None:
        while not self._stopped.wait(self.interval_s):
            self.write_pending()

    def close(self) -> None:  # logging.shutdown at exit: what is still pending is written
        self._stopped.set()
        self.write_pending()
        super().close()


def log_config() -> dict[str, Any]:
    """uvicorn's logging configuration with the access handler replaced by BackgroundAccessLog."""
    config = copy.deepcopy(LOGGING_CONFIG)
    config["handlers"]["access"] = {"()": f"{__name__}.BackgroundAccessLog"}
    return config


def uvicorn_options(settings: Settings, host: str | None = None, port: int | None = None) -> dict[str, Any]:
    """The keyword arguments of `uvicorn.run(APP_FACTORY, ...)` for these settings."""
    return {
        "factory": True,
        "host": host or settings.host,
        "port": port or settings.port,
        "workers": settings.workers,
        "access_log": settings.access_log,
        "log_config": log_config(),
    }
