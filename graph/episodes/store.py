"""Storing episodes: an imported conversation in one transaction, and the finder projection of every turn.

An import is all or nothing and replayable: every turn is checked before anything is written (size, time,
externalId), the chat's turn numbers are reserved at once, and the new turns and their projections are
written by one set-based statement each. A turn whose externalId the chat already holds with the same text
is left as it is; with other text the whole import is refused (EXTERNAL_ID_REUSED). Texts are scrubbed of
secrets first, so neither the store nor the embedding ever holds one.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import psycopg
from psycopg import errors

from graph.episodes.model import MAX_TURNS, Episode, EpisodeIn, from_row, line
from graph.errors import BadInput, Conflict
from graph.finder.embedders import Embedder, EmbeddingFailed, vector_literal
from graph.finder.projections import MAX_TEXT as MAX_PROJECTION
from graph.platform.db import Database
from graph.platform.redaction import scrub
from graph.sql import load
from graph.timebounds import check_time

log = logging.getLogger("worldmem.episodes")
BATCH = 256  # texts per model call, and projections per statement
PER_STATEMENT = 2000  # turns per insert statement
# Imports embed here, beside the database storing the turns: one worker, so two imports never run two
# models on the server's two cores at once.
EMBEDDING = ThreadPoolExecutor(max_workers=1, thread_name_prefix="episodes-embed")
Embedded = tuple[str, list[list[float]]]  # (model name, one vector per new turn)


@dataclass(frozen=True)
class Imported:
    chat_id: str
    imported: int  # new turns stored
    unchanged: int  # turns the chat already held (a replay)
    episodes: list[Episode]  # the new ones, in the order given


def cleaned(turns: Sequence[EpisodeIn]) -> list[EpisodeIn]:
    """The turns as they will be stored (pure): scrubbed, times checked, a repeated externalId with the same
    text kept once; the same externalId with other text is EXTERNAL_ID_REUSED, more than MAX_TURNS is
    TOO_MANY_TURNS."""
    if len(turns) > MAX_TURNS:
        raise BadInput(f"an import takes at most {MAX_TURNS} turns, not {len(turns)}", code="TOO_MANY_TURNS")
    seen: dict[str, EpisodeIn] = {}
    for i, turn in enumerate(turns):
        check_time(turn.occurred_at, f"turns[{i}].occurredAt")
        clean = turn.model_copy(update={"text": scrub(turn.text)})
        known = seen.get(clean.external_id)
        if known is not None and known.text != clean.text:
            raise Conflict(f"externalId {clean.external_id!r} appears twice with different text",
                           code="EXTERNAL_ID_REUSED")
        seen.setdefault(clean.external_id, clean)
    return list(seen.values())


def import_turns(db: Database, owner: str, chat_id: str, turns: Sequence[EpisodeIn], *, curate: bool,
                 embedder: Embedder | None = None) -> Imported:
    """Store the turns of one chat (one transaction). `curate` False: the curator's watermark moves past them
    when it was caught up (an archive is found, not re-curated); True: they wait as the chat's backlog.
    With an `embedder` the new turns are embedded meanwhile, BATCH at a time in a worker thread while the
    database stores the turns and the projections of the batches before, each projection written once with
    its vector; without one, or for a batch the model fails, they wait for the reconciler."""
    fresh = cleaned(turns)
    with db.owner_tx(owner) as conn:
        stored = {r["external_id"]: r["text"] for r in conn.execute(
            load("episodes_existing"), {"chat_id": chat_id, "ids": [t.external_id for t in fresh]})}
        for t in fresh:
            if t.external_id in stored and stored[t.external_id] != t.text:
                raise Conflict(f"chat {chat_id!r} already holds externalId {t.external_id!r} with other text",
                               code="EXTERNAL_ID_REUSED")
        new = [t for t in fresh if t.external_id not in stored]
        chunks = [new[i:i + BATCH] for i in range(0, len(new), BATCH)]
        # queued in order on one worker: chunk k+1 is embedded while chunk k's rows are written
        vectors = [EMBEDDING.submit(_embedded, embedder, c) for c in chunks] if embedder is not None else []
        try:
            episodes = _insert(conn, chat_id, new, curate) if new else []
            for k in range(len(chunks)):
                project(conn, episodes[k * BATCH:(k + 1) * BATCH], vectors[k].result() if vectors else None)
        finally:
            for future in vectors:  # a refused import stops embedding what it will never write
                future.cancel()
    return Imported(chat_id=chat_id, imported=len(new), unchanged=len(fresh) - len(new), episodes=episodes)


def _embedded(embedder: Embedder, chunk: list[EpisodeIn]) -> Embedded | None:
    try:
        return embedder.name, embedder.embed([_text(t.speaker, t.role, t.occurred_at, t.text) for t in chunk])
    except EmbeddingFailed as exc:
        log.warning("embedding %d imported turns failed (the reconciler retries): %s", len(chunk), exc)
        return None


def _text(speaker: str | None, role: str, at: datetime, text: str) -> str:
    return line(speaker, role, at, text)[:MAX_PROJECTION]


def _insert(conn: psycopg.Connection[Any], chat_id: str, new: list[EpisodeIn], curate: bool) -> list[Episode]:
    state = conn.execute(load("episodes_reserve"), {"chat_id": chat_id, "n": len(new)}).fetchone()
    assert state is not None  # INSERT ... ON CONFLICT DO UPDATE ... RETURNING always returns the row
    first = state["last_seq"] - len(new) + 1
    rows = [{"ord": i, "role": t.role, "speaker": t.speaker, "text": t.text,
             "occurred_at": t.occurred_at.isoformat(), "external_id": t.external_id} for i, t in enumerate(new)]
    stored: list[dict[str, Any]] = []
    try:
        for k in range(0, len(rows), PER_STATEMENT):  # each statement well within the statement timeout
            stored += conn.execute(load("episodes_insert"), {"chat_id": chat_id, "first": first,
                                                             "turns": json.dumps(rows[k:k + PER_STATEMENT])})
    except errors.UniqueViolation:  # a concurrent import of the same ids won the race
        raise Conflict(f"another import of chat {chat_id!r} stored some of these externalIds meanwhile; "
                       "replay the import", code="EXTERNAL_ID_REUSED") from None
    episodes = [from_row(r) for r in stored]
    if not curate and state["watermark_seq"] == first - 1:
        conn.execute(load("curator_watermark_advance"), {"chat_id": chat_id, "upto": state["last_seq"]})
    return episodes


def project(conn: psycopg.Connection[Any], episodes: Sequence[Episode], vectors: Embedded | None = None) -> None:
    """The finder projections of stored episodes (in the caller's transaction): found by words at once; by
    meaning once embedded, at once when `vectors` (the model's name and one vector per episode, in order)
    came with them, else later by the reconciler (graph.finder.reconciler). Without vectors one set-based
    statement; with them one pipeline of single-row inserts (pgvector values have no array form to unnest)."""
    if vectors is None:
        rows = [{"key": e.id, "text": _text(e.speaker, e.role, e.occurred_at, e.text),
                 "at": e.occurred_at.isoformat()} for e in episodes if e.text.strip()]
        if rows:
            conn.execute(load("episodes_project"), {"rows": json.dumps(rows)})
        return
    model, embeddings = vectors
    with conn.cursor() as cur:
        cur.executemany(load("episodes_project_one"), [
            {"key": e.id, "text": _text(e.speaker, e.role, e.occurred_at, e.text), "at": e.occurred_at,
             "embedding": vector_literal(v), "model": model}
            for e, v in zip(episodes, embeddings, strict=True) if e.text.strip()])
