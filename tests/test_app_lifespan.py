"""The app's start-up undoes what it had started when a later part fails (resolvers/app.py: one AsyncExitStack,
undone in reverse order): the finder's thread stops, the loop's reads are unset, the database pool closes."""

from __future__ import annotations

import asyncio

import pytest

from graph.finder.nudger import Nudger
from graph.platform import db_async
from graph.platform.db import Database
from graph.settings import Settings
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
