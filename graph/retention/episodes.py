"""Episodes under retention: raw turns live for the owner's episode window (class 'episodic'), then each
chat's month is rolled up into one memory (source_kind 'rollup', found by words and meaning like every
rollup) and its turns are pruned. Only curated turns are pruned (at or below the chat's watermark): the
curator's facts stay permanent, and what it has not read yet stays too. `digest` (pure) is the rollup text:
the month, the number of turns and each turn's opening words, within the projection's size.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

import psycopg
from pydantic import BaseModel

from graph.episodes.model import Episode, from_row, line
from graph.finder.projections import MAX_TEXT
from graph.retention.classes import month_start, next_month
from graph.sql import load

PER_TURN = 160  # characters of each turn the digest keeps


class EpisodeMonth(BaseModel):
    chat_id: str
    month: date
    n: int

    @property
    def key(self) -> str:
        return f"episodes:{self.chat_id}:{self.month:%Y-%m}"


def plan(conn: psycopg.Connection[Any], edge: datetime) -> list[EpisodeMonth]:
    return [EpisodeMonth.model_validate(r) for r in conn.execute(load("retention_episode_months"), {"edge": edge})]


def digest(chat_id: str, month: date, turns: list[Episode], before: str | None = None) -> str:
    """The rollup text of one chat's month (pure): a heading, the lines of an earlier rollup of the month (a
    late turn merges in), then one line per turn, cut to MAX_TEXT."""
    kept = before.split("\n")[1:] if before else []
    head = (f"Chat {chat_id}, {month:%Y-%m}: {len(kept) + len(turns)} turns (rolled up; the turns themselves "
            "were pruned)")
    lines = [head, *kept]
    size = sum(len(x) + 1 for x in lines)
    for t in turns:
        text = line(t.speaker, t.role, t.occurred_at, t.text)
        text = text if len(text) <= PER_TURN else text[:PER_TURN - 1] + "…"
        if size + len(text) + 1 > MAX_TEXT:
            break
        lines.append(text)
        size += len(text) + 1
    return "\n".join(lines)


def roll_up_and_prune(conn: psycopg.Connection[Any], m: EpisodeMonth, edge: datetime) -> int:
    """Write the month's rollup and prune its turns (the caller's transaction: both or neither)."""
    bounds = {"month_start": month_start(m.month), "month_end": month_start(next_month(m.month))}
    rows = conn.execute(load("retention_episode_rows"), {"chat_id": m.chat_id, "edge": edge, **bounds}).fetchall()
    if not rows:
        return 0
    turns = [from_row(r) for r in rows]
    before = conn.execute(load("retention_episode_rollup_text"), {"source_key": m.key}).fetchone()
    conn.execute(load("retention_projection_put"), {
        "source_key": m.key, "text": digest(m.chat_id, m.month, turns, before["text"] if before else None),
        "entity_ids": [], "importance": 0.3,
        "valid_from": bounds["month_start"], "valid_to": bounds["month_end"]})
    gone = conn.execute(load("retention_episode_prune"), {"ids": [t.id for t in turns]}).fetchone()
    return int(gone["n"]) if gone else 0
