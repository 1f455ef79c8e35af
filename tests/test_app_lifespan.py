"""The app's start-up undoes what it had started when a later part fails (resolvers/app.py: one AsyncExitStack,
undone in reverse order): the finder's thread stops, the loop's reads are unset, the database pool closes, the
access log writes what is pending. The offline model is loaded before the app serves."""

from __future__ import annotations

import asyncio
import io

import pytest
from fastapi.testclient import TestClient

from graph.finder.embedders import OFFLINE_DIMENSIONS, OfflineEmbedder
from graph.finder.nudger import Nudger
from graph.platform import db_async
from graph.platform.db import Database
from graph.settings import Settings
from resolvers import app as app_module
from resolvers.access_log import AccessLog
from resolvers.app import create_app


def test_a_start_that_fails_half_way_undoes_what_it_started(settings: Settings, app_db_url: str,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    async def refuse(self: db_async.LoopReads) -> None:
        raise OSError("the loop's pool cannot open")

    monkeypatch.setattr(db_async.LoopReads, "open", refuse)  # after the database, the live hub and the finder
    app = create_app(settings.model_copy(update={"finder_background": True}), database_url=app_db_url)

    async def start() -> None:
        async with app.router.lifespan_context(app):
            pytest.fail("the app started although its loop's pool did not open")

    with pytest.raises(OSError, match="cannot open"):
        asyncio.run(start())
    finder, database = app.state.finder, app.state.database
    assert isinstance(finder, Nudger) and isinstance(database, Database)
    assert not finder._thread.is_alive()  # started before the failure, stopped by it
    assert database.loop_reads is None
    assert database._pool.closed


def test_a_start_that_succeeds_leaves_everything_running_until_the_end(settings: Settings, app_db_url: str) -> None:
    """The same app started normally: the parts the failed start undid are up while it runs, down after."""
    app = create_app(settings.model_copy(update={"finder_background": True}), database_url=app_db_url)

    async def run() -> None:
        async with app.router.lifespan_context(app):
            assert app.state.finder._thread.is_alive()
            assert app.state.database.loop_reads is not None and not app.state.database._pool.closed

    asyncio.run(run())
    assert not app.state.finder._thread.is_alive() and app.state.database._pool.closed


def test_the_access_log_writes_what_is_pending_when_the_app_stops(settings: Settings, app_db_url: str) -> None:
    """A served app's access log (resolvers.access_log, set by resolvers.serving) is closed by the lifespan:
    lines its thread had not written yet (here: never, its interval is an hour) are written at shutdown."""
    app = create_app(settings, database_url=app_db_url)
    out = io.StringIO()
    app.access = AccessLog(interval_s=3600, stream=out)
    with TestClient(app, client=("127.0.0.1", 50000)) as client:  # runs the lifespan
        assert client.get("/metrics").status_code == 200
        assert out.getvalue() == ""
    assert out.getvalue().endswith('"GET /metrics HTTP/1.1" 200 OK\n'), out.getvalue()


def test_the_offline_model_is_loaded_before_the_app_serves(settings: Settings, app_db_url: str,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    model = OfflineEmbedder()  # a fresh one: the process's own may be loaded by an earlier test
    monkeypatch.setattr(app_module, "embedder_for", lambda _settings: model)
    app = create_app(settings.model_copy(update={"embedding_provider": "offline"}), database_url=app_db_url)
    assert model._model is None
    with TestClient(app):
        assert model._model is not None  # started: no commit or search had to load it
        assert len(model.embed(["Luna frisst um acht"])[0]) == OFFLINE_DIMENSIONS
