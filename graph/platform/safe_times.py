"""Loading timestamptz so that one stored time outside the accepted range never fails a whole answer.

psycopg cannot represent a time after year 9999 or before year 1 (in the connection's time zone) and
raised DataError for the whole result; one such row made stateAt, factHistory, the agent tools and
`worldmem doctor` fail for everything around it. Migration 0021 keeps such rows out; should one exist
anyway, this loader clamps it to the nearest accepted instant (graph.timebounds) and notes it, and the
GraphQL layer reports the notes as one typed error (STORED_TIME_OUT_OF_RANGE) beside the data.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime
from typing import Any

import psycopg
from graphql import GraphQLError
from psycopg.abc import AdaptContext, Buffer
from psycopg.adapt import Loader
from psycopg.pq import Format

from graph.timebounds import LATEST, MIN_TIME

log = logging.getLogger("worldmem.db")
STORED_TIME_OUT_OF_RANGE = "STORED_TIME_OUT_OF_RANGE"
MAX_NOTES = 20
_NOTES: ContextVar[list[str] | None] = ContextVar("worldmem_clamped_times", default=None)
_OID = psycopg.adapters.types["timestamptz"].oid
_DEFAULT = psycopg.adapters.get_loader(_OID, Format.TEXT)


def note(text: str) -> None:
    """Record that a reader met (and clamped) a stored time outside the range."""
    log.warning("stored time out of range (clamped): %s", text)
    notes = _NOTES.get()
    if notes is not None and len(notes) < MAX_NOTES and text not in notes:
        notes.append(text)


@contextmanager
def collecting() -> Iterator[list[str]]:
    """Collect the notes of everything run inside (worker threads inherit the context)."""
    notes: list[str] = []
    token = _NOTES.set(notes)
    try:
        yield notes
    finally:
        _NOTES.reset(token)


def report(notes: list[str]) -> GraphQLError:
    return GraphQLError(
        f"{len(notes)} stored time(s) lie outside 0001-9999 and are shown at the nearest bound: "
        + ", ".join(notes) + "; run `worldmem doctor`", extensions={"code": STORED_TIME_OUT_OF_RANGE})


class SafeTimestamptzLoader(Loader):
    def __init__(self, oid: int, context: AdaptContext | None = None) -> None:
        super().__init__(oid, context)
        assert _DEFAULT is not None
        self._inner = _DEFAULT(oid, context)

    def load(self, data: Buffer) -> datetime:
        try:
            value: Any = self._inner.load(data)
            return value  # type: ignore[no-any-return]
        except psycopg.DataError:
            text = bytes(data).decode("ascii", "replace")
            note(text)
            return MIN_TIME if text.endswith("BC") or text[:4] < "0002" else LATEST


def install(context: AdaptContext | None = None) -> None:
    """Use the safe loader for `context` (a connection) or, by default, for every new connection."""
    (context.adapters if context is not None else psycopg.adapters).register_loader("timestamptz",
                                                                                    SafeTimestamptzLoader)
