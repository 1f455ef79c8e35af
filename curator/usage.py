"""What each curator LLM call cost: one row per call, queryable per owner (curatorUsage)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import psycopg
from pydantic import BaseModel, Field

from graph.errors import BadInput
from graph.platform import metrics
from graph.platform.db import Database
from graph.sql import load

MAX_RECORDS = 500


class UsageRecord(BaseModel):
    id: str
    run_id: str
    model: str
    input_tokens: int
    output_tokens: int
    trigger_source: str
    recorded_at: datetime
    turns: int = 0


class UsageReport(BaseModel):
    since: datetime
    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    turns: int = Field(default=0, description="Chat turns the calls read (calls that know their turns)")
    input_per_turn: float | None = None
    output_per_turn: float | None = None
    records: list[UsageRecord] = Field(default_factory=list, description="Newest first, at most the limit")


def record_usage(conn: psycopg.Connection[dict[str, Any]], owner: str, run_id: str, model: str,
                 input_tokens: int, output_tokens: int, trigger_source: str, turns: int = 0) -> UsageRecord:
    """Record one LLM call in the caller's transaction of `owner` (the row policy refuses any other owner).

    Counts the tokens in the Prometheus metrics too, once the row is written.
    """
    if input_tokens < 0 or output_tokens < 0 or turns < 0:
        raise BadInput("token and turn counts must not be negative")
    row = conn.execute(load("curator_usage_insert"), {
        "owner": owner, "run_id": run_id, "model": model, "input_tokens": input_tokens,
        "output_tokens": output_tokens, "trigger_source": trigger_source, "turns": turns}).fetchone()
    assert row is not None
    metrics.count_tokens(input_tokens, output_tokens)
    return UsageRecord(id=str(row["id"]), run_id=run_id, model=model, input_tokens=input_tokens,
                       output_tokens=output_tokens, trigger_source=trigger_source, recorded_at=row["recorded_at"],
                       turns=turns)


def usage_since(db: Database, owner: str, since: datetime, limit: int = 100) -> UsageReport:
    if not 1 <= limit <= MAX_RECORDS:
        raise BadInput(f"limit must be between 1 and {MAX_RECORDS}", code="BAD_LIMIT")
    with db.owner_tx(owner, read_only=True) as conn:
        totals = conn.execute(load("curator_usage_totals"), {"since": since}).fetchone()
        rows = conn.execute(load("curator_usage_since"), {"since": since, "limit": limit}).fetchall()
    assert totals is not None
    turns = totals["turns"]
    return UsageReport(since=since, calls=totals["calls"], input_tokens=totals["input_tokens"],
                       output_tokens=totals["output_tokens"], turns=turns,
                       input_per_turn=per_turn(totals["counted_input_tokens"], turns),
                       output_per_turn=per_turn(totals["counted_output_tokens"], turns),
                       records=[UsageRecord(**{**r, "id": str(r["id"])}) for r in rows])


def per_turn(tokens: int, turns: int) -> float | None:
    return round(tokens / turns, 1) if turns else None
