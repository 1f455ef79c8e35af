"""Storing episodes: an imported conversation in one transaction, and the finder projection of every turn.

An import is all or nothing and replayable: every turn is checked before anything is written (size, time,
externalId), the chat's turn numbers are reserved at once, and the new turns and their projections are
written by set-based statements. A turn whose externalId the chat already holds with the same text is left
as it is; with other text the whole import is refused (EXTERNAL_ID_REUSED). Texts are scrubbed of secrets
first, so neither the store nor the embedding ever holds one.

The import commits the turns found by words and leaves their embedding to the finder, after the commit
(graph.finder.reconciler.embed_pending): the model and the vectors' HNSW index inserts take most of an
import's time, and inside the import's transaction they would hold the turns invisible (and the chat's row
locked) for all of it, while after it the turns are found by words meanwhile.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import psycopg
from psycopg import errors

from graph.episodes.model import MAX_TURNS, Episode, EpisodeIn, from_row, line
from graph.errors import BadInput, Conflict
from graph.finder.projections import MAX_TEXT as MAX_PROJECTION
from graph.platform.db import Database
from graph.platform.redaction import scrub
from graph.sql import load
from graph.timebounds import check_time

PER_STATEMENT = 2000  # turns (and projections) per insert statement, each well within the statement timeout


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


def import_turns(db: Database, owner: str, chat_id: str, turns: Sequence[EpisodeIn], *,
                 curate: bool) -> Imported:
    """Store the turns of one chat (one transaction), found by words once it commits; the finder embeds them
    after it (graph.finder.reconciler.embed_pending). `curate` False: the curator's watermark moves past them
    when it was caught up (an archive is found, not re-curated); True: they wait as the chat's backlog."""
    fresh = cleaned(turns)
    with db.owner_tx(owner) as conn:
        stored = {r["external_id"]: r["text"] for r in conn.execute(
            load("episodes_existing"), {"chat_id": chat_id, "ids": [t.external_id for t in fresh]})}
        for t in fresh:
            if t.external_id in stored and stored[t.external_id] != t.text:
                raise Conflict(f"chat {chat_id!r} already holds externalId {t.external_id!r} with other text",
                               code="EXTERNAL_ID_REUSED")
        new = [t for t in fresh if t.external_id not in stored]
        episodes = _insert(conn, chat_id, new, curate) if new else []
        for k in range(0, len(episodes), PER_STATEMENT):
            project(conn, episodes[k:k + PER_STATEMENT])
    return Imported(chat_id=chat_id, imported=len(new), unchanged=len(fresh) - len(new), episodes=episodes)


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


def project(conn: psycopg.Connection[Any], episodes: Sequence[Episode]) -> None:
    """The finder projections of stored episodes (in the caller's transaction), in one statement: found by
    words at once, by meaning once the finder has embedded them (graph.finder.reconciler)."""
    rows = [{"key": e.id, "text": _text(e.speaker, e.role, e.occurred_at, e.text),
             "at": e.occurred_at.isoformat()} for e in episodes if e.text.strip()]
    if rows:
        conn.execute(load("episodes_project"), {"rows": json.dumps(rows)})
