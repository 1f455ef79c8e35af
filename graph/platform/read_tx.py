"""The transaction of Database.read_tx (a read-only owner transaction in pipeline mode), and how a round's
statements are queued on one connection (Database.read_round, ReadTx.last)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import ExitStack
from typing import Any, LiteralString

import psycopg

from graph.sql import load


class ReadTx:
    """The transaction of Database.read_tx: `conn` for statements, `last` (or `finish`) for the final ones,
    `again` for a rare statement after the end (a new transaction, its BEGIN riding with that statement)."""

    def __init__(self, conn: psycopg.Connection[dict[str, Any]], owner: str, pipeline: ExitStack) -> None:
        self.conn = conn
        self._owner = owner
        self._pipeline = pipeline
        self.ended = True
        self.again()

    def again(self) -> None:
        """Start the transaction again after `last`/`finish` (nothing is sent until the next fetch)."""
        if self.ended:
            self._pipeline.enter_context(self.conn.pipeline())
            self.conn.execute(load("tx_begin"), prepare=False)
            self.conn.execute(load("tx_set_owner_read_only"), (self._owner,))
            self.ended = False

    def finish(self) -> None:
        """COMMIT after the statements queued so far, all sent with one Sync (leaving pipeline mode); their
        cursors hold their rows afterwards."""
        if self.ended:
            raise RuntimeError("ReadTx.finish: the transaction has ended")
        self.ended = True
        self.conn.execute(load("tx_commit"), prepare=False)
        self._pipeline.close()  # one Sync, every result fetched

    def last(self, queries: Sequence[tuple[LiteralString, Mapping[str, Any] | Sequence[Any]]]
             ) -> list[list[dict[str, Any]]]:
        """The rows of `queries`, sent with the COMMIT: the transaction's last round trip. Parameters as
        in Database.read_round."""
        cursors = queued(self.conn, queries)
        self.finish()
        return [cur.fetchall() for cur in cursors]


def queued(conn: psycopg.Connection[dict[str, Any]],
            queries: Sequence[tuple[LiteralString, Mapping[str, Any] | Sequence[Any]]]
            ) -> list[psycopg.Cursor[dict[str, Any]]]:
    """Each query sent on its own cursor (in the caller's pipeline): `%(name)s` parameters from a mapping,
    `$1, $2, ...` from a sequence with the text sent as is (psycopg.RawCursor)."""
    return [(conn.cursor() if isinstance(params, Mapping) else psycopg.RawCursor(conn)).execute(query, params)
            for query, params in queries]
