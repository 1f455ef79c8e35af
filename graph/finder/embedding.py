"""Embedding an owner's pending projections, the model one batch ahead of the database.

The model (this process's core) and the HNSW index insert of the vectors written (the database's core) cost
about the same per row, so they overlap: while batch k's vectors are written, batch k+1 is embedded in a
worker thread. Each batch is claimed in a transaction of its own (FOR UPDATE SKIP LOCKED, so a second
reconciler, or the next batch's claim while this one is open, passes over its rows) and its vectors are
written by one statement before that transaction commits. A pool of one connection embeds batch by batch.
"""

from __future__ import annotations

import logging
import sys
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any

import psycopg

from graph.finder.embedders import Embedder, EmbeddingFailed, vector_literal
from graph.platform.db import Database
from graph.sql import load

log = logging.getLogger("worldmem.finder")
# One worker: two embeddings of this process never compete for the two cores.
AHEAD = ThreadPoolExecutor(max_workers=1, thread_name_prefix="finder-embed-ahead")


@dataclass
class Claim:
    """One batch of pending rows, locked in its own open transaction, its vectors being computed."""

    block: ExitStack
    conn: psycopg.Connection[Any]
    rows: list[dict[str, Any]]
    vectors: Future[list[list[float]]]

    def write(self, model: str) -> bool:
        """Store the vectors and commit; False (the rows marked with the error, committed) when the model
        failed. Any other error rolls the batch back and is raised."""
        try:
            try:
                vectors = self.vectors.result()
            except EmbeddingFailed as exc:
                log.warning("embedding failed for %d rows of an owner: %s", len(self.rows), exc)
                self.conn.execute(load("finder_embedding_failed"),
                                  {"ids": [r["id"] for r in self.rows], "error": str(exc)})
                ok = False
            else:
                self.conn.execute(load("finder_embeddings_set"), {
                    "ids": [r["id"] for r in self.rows], "texts": [r["text"] for r in self.rows],
                    "embeddings": [vector_literal(v) for v in vectors], "model": model})
                ok = True
        except BaseException:
            self.abandon()
            raise
        self.block.close()  # COMMIT
        return ok

    def abandon(self) -> None:
        """End the batch's transaction without writing (rolled back when an exception is being handled): its
        rows stay pending."""
        self.vectors.cancel()
        self.block.__exit__(*sys.exc_info())


def claim(db: Database, owner: str, embedder: Embedder, batch: int) -> Claim | None:
    """The owner's next `batch` pending rows, locked, their embedding started; None when none is left."""
    block = ExitStack()
    try:
        conn = block.enter_context(db.owner_tx(owner))
        rows = conn.execute(load("finder_pending"), {"model": embedder.name, "batch": batch}).fetchall()
    except BaseException:
        block.__exit__(*sys.exc_info())
        raise
    if not rows:
        block.close()
        return None
    return Claim(block, conn, rows, AHEAD.submit(embedder.embed, [r["text"] for r in rows]))


def embed_rows(db: Database, owner: str, embedder: Embedder, *, batch: int, max_rows: int | None,
               ahead_ok: bool = True) -> tuple[int, int]:
    """Embed pending rows until none is left (or about `max_rows`), the next batch claimed and embedded
    while the current one is written when `ahead_ok` and the pool has more than one connection (the claim
    ahead holds a second one). A failed model call marks its rows and stops the run (the next run retries).
    Returns (rows embedded, rows failed)."""
    embedded = failed = 0
    current = claim(db, owner, embedder, batch)
    ahead: Claim | None = None
    try:
        while current is not None:
            more = max_rows is None or embedded + len(current.rows) < max_rows
            ahead = claim(db, owner, embedder, batch) if more and ahead_ok and db.max_size > 1 else None
            if not current.write(embedder.name):
                failed += len(current.rows)
                break
            embedded += len(current.rows)
            current, ahead = (ahead if ahead is not None else
                              claim(db, owner, embedder, batch) if more else None), None
    finally:
        if ahead is not None:
            ahead.abandon()
    return embedded, failed
