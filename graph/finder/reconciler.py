"""The embedding pipeline: after a commit, asynchronously and best-effort.

`reconcile_owner` sweeps an owner's rag-kind entities into projections (rewriting only changed texts) and
embeds every pending row (or every row embedded by another model: a model change re-embeds incrementally
and never loses a text). An embedding failure is recorded on the rows (`embedding_error`) and retried on
the next run; it never reaches a commit, because the reconciler runs in its own transactions, after them.
`Nudger` is the server's background thread: a commit nudges it with the refs it touched; it also sweeps
every owner now and then. With Temporal configured the same `reconcile_owner` runs as an activity
(`graph/finder/durable.py`, schedule `worldmem-finder`) and the thread only follows the nudges.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from uuid import UUID

from graph.finder.ahead import Ahead
from graph.finder.embedders import Embedder, EmbeddingFailed
from graph.finder.projections import NO_ID, sync_entities
from graph.finder.vector_param import vectors_param
from graph.platform.db import Database
from graph.sql import load

log = logging.getLogger("worldmem.finder")
SWEEP_BATCH = 500


@dataclass
class Progress:
    projected: int = 0  # rows whose text is new or changed
    embedded: int = 0
    failed: int = 0
    swept_to: UUID | None = None  # where the entity sweep stopped (None: it reached the end)


def sweep_entities(db: Database, owner: str, *, refs: list[str] | None = None, after: UUID = NO_ID,
                   batches: int | None = None) -> Progress:
    """Project rag-kind entities: those named by `refs`, or the whole owner from `after` (at most `batches`
    batches of SWEEP_BATCH, one transaction each)."""
    progress = Progress()
    if refs is not None:
        with db.owner_tx(owner) as conn:
            progress.projected, _ = sync_entities(conn, refs=refs, batch=max(1, len(refs)))
        return progress
    cursor: UUID | None = after
    done = 0
    while cursor is not None and (batches is None or done < batches):
        with db.owner_tx(owner) as conn:
            pending, cursor = sync_entities(conn, after=cursor, batch=SWEEP_BATCH)
        progress.projected += pending
        done += 1
    progress.swept_to = cursor
    return progress


def embed_pending(db: Database, owner: str, embedder: Embedder, *, batch: int = 64,
                  max_rows: int | None = None) -> Progress:
    """Embed the owner's pending rows, `batch` texts per model call and one UPDATE per batch, until none is
    left (or about `max_rows`). A failed call marks its rows with the error and stops this run (the next run
    retries). Each batch is claimed in a transaction of its own (FOR UPDATE SKIP LOCKED: two reconcilers
    share the queue). Batch by batch, not the model one batch ahead of the database on a second
    connection: on this 2-core machine, where other work keeps both cores busy, that measured slower, not
    faster (docs/episodes.md, "Episodes at scale")."""
    progress = Progress()
    while max_rows is None or progress.embedded < max_rows:
        with db.owner_tx(owner) as conn:
            rows = conn.execute(load("finder_pending"), {"model": embedder.name, "batch": batch}).fetchall()
            if not rows:
                break
            try:
                vectors = embedder.embed([r["text"] for r in rows])
            except EmbeddingFailed as exc:
                log.warning("embedding failed for %d rows of an owner: %s", len(rows), exc)
                conn.execute(load("finder_embedding_failed"), {"ids": [r["id"] for r in rows], "error": str(exc)})
                progress.failed += len(rows)
                break
            conn.execute(load("finder_embeddings_set"), {
                "ids": [r["id"] for r in rows], "texts": [r["text"] for r in rows],
                "embeddings": vectors_param(conn, vectors), "model": embedder.name})
        progress.embedded += len(rows)
    return progress


def write_ahead(db: Database, owner: str, model: str, ids: Sequence[UUID], ahead: Ahead) -> Progress:
    """Store the vectors `ahead` embeds for the rows `ids` (one a text of `ahead`, in its order): one UPDATE a
    batch, each in a transaction of its own, while the model embeds the next batch. The rows need no claim:
    the statement skips a row whose text changed or that the finder embedded meanwhile. A failed batch marks
    its rows with the error and stops, as embed_pending does; the rows after it stay pending for the finder."""
    progress = Progress()
    texts = ahead.texts
    try:
        for start, vectors in ahead:
            batch = slice(start, start + len(vectors))
            with db.owner_tx(owner) as conn:
                conn.execute(load("finder_embeddings_set"), {
                    "ids": list(ids[batch]), "texts": texts[batch],
                    "embeddings": vectors_param(conn, vectors), "model": model})
            progress.embedded += len(vectors)
    except EmbeddingFailed as exc:
        failed = list(ids[progress.embedded:progress.embedded + ahead.batch])
        log.warning("embedding failed for %d rows of an owner: %s", len(failed), exc)
        with db.owner_tx(owner) as conn:
            conn.execute(load("finder_embedding_failed"), {"ids": failed, "error": str(exc)})
        progress.failed += len(failed)
    return progress


def reconcile_owner(db: Database, owner: str, embedder: Embedder | None, *, refs: list[str] | None = None,
                    batch: int = 64) -> Progress:
    """Sweep (all entities, or `refs`) and embed what is pending. Without an embedder only the texts are
    kept current (full-text search uses them)."""
    progress = sweep_entities(db, owner, refs=refs)
    if embedder is not None:
        embedded = embed_pending(db, owner, embedder, batch=batch)
        progress.embedded, progress.failed = embedded.embedded, embedded.failed
    return progress


def owners(db: Database) -> list[str]:
    with db.connection() as conn:
        return [r["owner_sub"] for r in conn.execute(load("finder_owners")).fetchall()]
