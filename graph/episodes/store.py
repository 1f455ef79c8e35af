"""Storing episodes: an imported conversation in one transaction, and the finder projection of every turn.

An import is all or nothing and replayable: every turn is checked before anything is written (size, time,
externalId), the chat's turn numbers are reserved at once, and the new turns and their projections are
written by set-based statements. A turn whose externalId the chat already holds with the same text is left
as it is; with other text the whole import is refused (EXTERNAL_ID_REUSED). Texts are scrubbed of secrets
first, so neither the store nor the embedding ever holds one.

The import commits the turns found by words, and their vectors are written after the commit: the vectors'
HNSW index inserts take most of the database's part, and inside the import's transaction they would hold
the turns invisible (and the chat's row locked) for all of it. The model does not wait for the commit: it
embeds the new turns' texts in a worker thread from the moment they are known (graph.finder.ahead), and
each batch's vectors are written while it embeds the next (graph.finder.reconciler.write_ahead), so the
model's core and the database's work at the same time. What the model could not embed stays pending for
the finder's own runs.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

import psycopg
from psycopg import errors

from graph.episodes.model import MAX_TURNS, Episode, EpisodeIn, from_row, line
from graph.errors import BadInput, Conflict
from graph.finder.ahead import Ahead
from graph.finder.embedders import Embedder
from graph.finder.projections import MAX_TEXT as MAX_PROJECTION
from graph.finder.projections import NO_ID
from graph.finder.reconciler import write_ahead
from graph.platform.db import Database
from graph.platform.redaction import scrub
from graph.sql import load
from graph.timebounds import check_time

log = logging.getLogger("worldmem.episodes")
PER_STATEMENT = 2000  # turns (and projections) per insert statement, each well within the statement timeout
EMBED_BATCH = 256  # texts per model call and vectors per UPDATE: the model's speed is flat from about 20 up


@dataclass(frozen=True)
class Imported:
    chat_id: str
    imported: int  # new turns stored
    unchanged: int  # turns the chat already held (a replay)
    episodes: list[Episode]  # the new ones, in the order given
    embedded: int = 0  # new turns whose vectors were stored before the import returned


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


def import_turns(db: Database, owner: str, chat_id: str, turns: Sequence[EpisodeIn], *,
                 curate: bool, embedder: Embedder | None = None) -> Imported:
    """Store the turns of one chat (one transaction), found by words once it commits; with an `embedder`
    also their vectors, written after the commit and before returning. `curate` False: the curator's
    watermark moves past them when it was caught up (an archive is found, not re-curated); True: they wait
    as the chat's backlog."""
    fresh = cleaned(turns)
    with ExitStack() as model:
        with db.owner_tx(owner) as conn:
            stored = {r["external_id"]: r["text"] for r in conn.execute(
                load("episodes_existing"), {"chat_id": chat_id, "ids": [t.external_id for t in fresh]})}
            for t in fresh:
                if t.external_id in stored and stored[t.external_id] != t.text:
                    raise Conflict(f"chat {chat_id!r} already holds externalId {t.external_id!r} with other "
                                   "text", code="EXTERNAL_ID_REUSED")
            new = [t for t in fresh if t.external_id not in stored]
            texts = [_text(t.speaker, t.role, t.occurred_at, t.text) for t in new if t.text.strip()]
            # started before the inserts, stopped if they fail: the model's head start is the commit's time
            ahead = model.enter_context(Ahead(embedder, texts, batch=EMBED_BATCH)) if embedder and texts else None
            episodes = _insert(conn, chat_id, new, curate) if new else []
            rows: dict[str, UUID] = {}
            for k in range(0, len(episodes), PER_STATEMENT):
                rows.update(project(conn, episodes[k:k + PER_STATEMENT]))
        embedded = 0
        if ahead is not None and embedder is not None:
            # a row the text guard of the UPDATE skips if it ever were missing (new turns' rows are new)
            ids = [rows.get(e.id, NO_ID) for e in episodes if e.text.strip()]
            embedded = _vectors(db, owner, embedder.name, ids, ahead)
    return Imported(chat_id=chat_id, imported=len(new), unchanged=len(fresh) - len(new), episodes=episodes,
                    embedded=embedded)


def _vectors(db: Database, owner: str, model: str, ids: list[UUID], ahead: Ahead) -> int:
    try:
        return write_ahead(db, owner, model, ids, ahead).embedded
    except Exception:  # the turns are committed and found by words; the finder embeds what is left
        log.exception("storing an import's vectors failed")
        return 0


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


def project(conn: psycopg.Connection[Any], episodes: Sequence[Episode]) -> dict[str, UUID]:
    """The finder projections of stored episodes (in the caller's transaction), in one statement: found by
    words at once, by meaning once embedded. Returns the new projections' ids by episode id."""
    rows = [{"key": e.id, "text": _text(e.speaker, e.role, e.occurred_at, e.text),
             "at": e.occurred_at.isoformat()} for e in episodes if e.text.strip()]
    if not rows:
        return {}
    return {r["source_key"]: r["id"] for r in conn.execute(load("episodes_project"), {"rows": json.dumps(rows)})}
