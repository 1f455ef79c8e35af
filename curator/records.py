"""What the curator did, for the owner to read: its runs with the operations they dropped (and why), and the
vocabulary it proposed (pending registry entries). Read-only; every row is the owner's (row-level security)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from curator.batch import Dropped
from curator.model_errors import shown
from graph.errors import BadInput
from graph.platform.db import Database
from graph.sql import load

MAX_RUNS = 200


class RunRecord(BaseModel):
    run_id: str
    chat_id: str
    from_seq: int
    upto_seq: int
    status: str
    model: str | None = None
    retried: bool = False
    proposed: int = 0
    committed: int = 0
    pending: int = 0
    dropped: int = 0
    error: str | None = None
    recorded_at: datetime
    dropped_ops: list[Dropped] = Field(default_factory=list)


class VocabularyProposal(BaseModel):
    item: str
    key: str
    state: str
    uses: int
    example: Any
    run_id: str
    recorded_at: datetime


def runs(db: Database, owner: str, chat_id: str, limit: int = 20) -> list[RunRecord]:
    """The chat's curator runs, newest first, each with its dropped operations (two statements)."""
    if not 1 <= limit <= MAX_RUNS:
        raise BadInput(f"limit must be between 1 and {MAX_RUNS}", code="BAD_LIMIT")
    with db.owner_tx(owner, read_only=True) as conn:
        rows = conn.execute(load("curator_runs_for_chat"), {"chat_id": chat_id, "limit": limit}).fetchall()
        ids = sorted({r["run_id"] for r in rows})
        dropped = conn.execute(load("curator_dropped_for_runs"), {"run_ids": ids}).fetchall() if ids else []
    by_run: dict[str, list[Dropped]] = {}
    for d in dropped:
        by_run.setdefault(d["run_id"], []).append(Dropped(op_index=d["op_index"], op=d["op"], code=d["code"],
                                                          reason=d["reason"]))
    # shown(): a row stored before errors were classified may still quote a provider's body
    return [RunRecord.model_validate({
        **r, "error": shown(r["error"]),
        "dropped_ops": by_run.get(r["run_id"], []) if r["status"] == "committed" else []}) for r in rows]


def vocabulary(db: Database, owner: str, state: str = "pending") -> list[VocabularyProposal]:
    with db.owner_tx(owner, read_only=True) as conn:
        rows = conn.execute(load("curator_vocabulary_list"), {"state": state}).fetchall()
    return [VocabularyProposal.model_validate(r) for r in rows]
