"""`worldmem serve`'s uvicorn options come from Settings (workers, access log), the access log's lines
are written by its background thread, none lost at exit, and the garbage collector is set for serving."""

from __future__ import annotations

import gc
import io
import logging

import pytest

from graph.settings import Settings
from resolvers.serving import APP_FACTORY, GC_OLDER, BackgroundAccessLog, log_config, tune_gc, uvicorn_options


def test_workers_and_access_log_come_from_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WORLDMEM_WORKERS", "2")
    monkeypatch.setenv("WORLDMEM_ACCESS_LOG", "false")
    options = uvicorn_options(Settings(), None, 9123)
    assert (options["workers"], options["access_log"], options["port"], options["factory"]) == (2, False, 9123, True)
    assert APP_FACTORY == "resolvers.serving:served_app"


def test_defaults_are_one_worker_with_an_access_log() -> None:
    options = uvicorn_options(Settings(host="127.0.0.2", port=8001))
    assert (options["workers"], options["access_log"], options["host"], options["port"]) == (1, True, "127.0.0.2",
                                                                                            8001)
    assert log_config()["handlers"]["access"] == {"()": "resolvers.serving.BackgroundAccessLog"}


def test_workers_are_bounded() -> None:
    with pytest.raises(ValueError):
        Settings(workers=0)


def test_the_access_log_writes_every_line_in_uvicorns_format() -> None:
    handler = BackgroundAccessLog(interval_s=3600)  # no periodic flush during the test: close() must write
    out = io.StringIO()
    handler.target.setStream(out)
    logger = logging.getLogger("test.access")
    logger.addHandler(handler)
    logger.propagate = False
    logger.setLevel(logging.INFO)
    try:
        for i in range(3):
            logger.info('%s - "%s %s HTTP/%s" %d', "127.0.0.1:5000", "POST", f"/graphql?{i}", "1.1", 200)
        assert out.getvalue() == ""  # nothing formatted on the caller's path
    finally:
        logger.removeHandler(handler)
        handler.close()
    lines = out.getvalue().splitlines()
    assert len(lines) == 3 and '"POST /graphql?2 HTTP/1.1" 200' in lines[2], lines


def test_the_access_log_drops_beyond_its_bound() -> None:
    handler = BackgroundAccessLog(interval_s=3600, max_pending=2)
    handler.target.setStream(io.StringIO())
    record = logging.LogRecord("a", logging.INFO, __file__, 1, "x", None, None)
    for _ in range(5):
        handler.emit(record)
    assert (len(handler.pending), handler.dropped) == (2, 3)
    handler.close()


def test_serving_freezes_what_exists_and_collects_later() -> None:
    before = gc.get_threshold()
    try:
        tune_gc(0)
        assert gc.get_threshold() == before and gc.get_freeze_count() == 0  # 0: Python's collector untouched
        tune_gc(20_000)
        assert gc.get_threshold() == (20_000, *GC_OLDER)
        assert gc.get_freeze_count() > 1000  # the test process's modules at least
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
