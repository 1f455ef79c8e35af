"""How `worldmem serve` runs uvicorn: worker processes and the access log, from the one Settings class.

- `workers` (WORLDMEM_WORKERS, default 1): uvicorn starts that many processes on one socket, each building
  its own app (`create_app` as a factory: its own pool, token and document caches). Python runs one thread
  of Python at a time per process, so on a 2-core machine 2 workers let the two cores serve requests at
  once (bench/README.md, "Mixed load").
- `access_log` (WORLDMEM_ACCESS_LOG, default on): one line per request in uvicorn's format, written by
  the app (resolvers.access_log: a request's path appends its scope and status to a deque, a background
  thread writes the lines in batches), not by uvicorn, whose access log stays off: it built a log record on
  every request's path.
- `gc_gen0` (WORLDMEM_GC_GEN0, default 20,000): each worker builds its app with `served_app`, which then
  freezes everything built so far (the schema, the modules: about 150,000 objects a full collection need
  not visit again) and lets the collector's youngest generation grow to that many objects. With Python's
  700 a request's leftovers (reference cycles of the GraphQL execution) set off a collection every 4-5
  requests and an older one every ~50 (0.8 ms): a tail of the floor (issue 11, bench/README.md).
- `loop_idle_spin_us` (WORLDMEM_LOOP_IDLE_SPIN_US, default 1,000): once no request is in flight, the loop
  polls that long before it sleeps (resolvers.idle_spin).
"""

from __future__ import annotations

import gc
from typing import Any

from graph.settings import Settings, get_settings
from resolvers.access_log import AccessLog
from resolvers.app import WorldmemApp, create_app
from resolvers.idle_spin import IdleSpin

APP_FACTORY = "resolvers.serving:served_app"
# The older generations as measured with gen0 at 20,000 (Python's defaults are 10 and 10).
GC_OLDER = (20, 100)


def served_app() -> WorldmemApp:
    """`create_app` for a `worldmem serve` worker with its access log (`access_log_for`), then the garbage
    collector set for serving (tune_gc)."""
    settings = get_settings()
    app = create_app(settings)
    app.access = access_log_for(settings)
    app.idle = idle_spin_for(settings)
    tune_gc(settings.gc_gen0)
    return app


def access_log_for(settings: Settings) -> AccessLog | None:
    """The access log a served app writes (None when `access_log` is off); the app's lifespan closes it."""
    return AccessLog() if settings.access_log else None


def idle_spin_for(settings: Settings) -> IdleSpin | None:
    """The polling after the last request in flight (resolvers.idle_spin); None when loop_idle_spin_us is 0."""
    return IdleSpin(settings.loop_idle_spin_us / 1_000_000) if settings.loop_idle_spin_us else None


def tune_gc(gen0: int) -> None:
    """Freeze what exists (collected first, so no garbage is kept forever) and collect generation 0 only
    after `gen0` new objects; 0 leaves the collector as it is."""
    if gen0 <= 0:
        return
    gc.collect()
    gc.freeze()
    gc.set_threshold(gen0, *GC_OLDER)


def uvicorn_options(settings: Settings, host: str | None = None, port: int | None = None) -> dict[str, Any]:
    """The keyword arguments of `uvicorn.run(APP_FACTORY, ...)` for these settings."""
    return {
        "factory": True,
        "host": host or settings.host,
        "port": port or settings.port,
        "workers": settings.workers,
        "access_log": False,  # the app writes it (served_app)
    }
