"""How `worldmem serve` runs uvicorn: worker processes and the access log, from the one Settings class.

- `workers` (WORLDMEM_WORKERS, default 1): uvicorn starts that many processes on one socket, each building
  its own app (`create_app` as a factory: its own pool, token and document caches). Python runs one thread
  of Python at a time per process, so on a 2-core machine 2 workers let the two cores serve requests at
  once.
- `access_log` (WORLDMEM_ACCESS_LOG, default on): one line per request in uvicorn's format, written by
  the app (resolvers.access_log: a request's path appends its scope and status to a deque, a background
  thread writes the lines in batches), not by uvicorn, whose access log stays off: it built a log record on
  every request's path.
"""

from __future__ import annotations

from typing import Any

from graph.settings import Settings, get_settings
from resolvers.access_log import AccessLog
from resolvers.app import WorldmemApp, create_app

APP_FACTORY = "resolvers.serving:served_app"


def served_app() -> WorldmemApp:
    """`create_app` for a `worldmem serve` worker, with its access log (`access_log_for`)."""
    settings = get_settings()
    app = create_app(settings)
    app.access = access_log_for(settings)
    return app


def access_log_for(settings: Settings) -> AccessLog | None:
    """The access log a served app writes (None when `access_log` is off); the app's lifespan closes it."""
    return AccessLog() if settings.access_log else None


def uvicorn_options(settings: Settings, host: str | None = None, port: int | None = None) -> dict[str, Any]:
    """The keyword arguments of `uvicorn.run(APP_FACTORY, ...)` for these settings."""
    return {
        "factory": True,
        "host": host or settings.host,
        "port": port or settings.port,
        "workers": settings.workers,
        "access_log": False,  # the app writes it (served_app)
    }
