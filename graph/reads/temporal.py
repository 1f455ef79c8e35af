"""The four temporal questions: what is true now / as of valid time V / as known at system time R / history."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, LiteralString
from uuid import UUID

from pydantic import BaseModel, Field

from graph.errors import BadInput
from graph.governance.phrases import Lang, owner_language
from graph.ledger import entities, timeline
from graph.platform.db import Database
from graph.retention import notice
from graph.retention.notice import RetentionNotice
from graph.sql import load


class FactView(BaseModel):
    """One fact row as readers see it (the one mapping from a facts row)."""

    id: UUID
    predicate: str
    value: Any = Field(description="The literal value, or the object's ref for a relationship")
    object_ref: str | None = None
    valid_from: datetime = Field(description="World time the value starts to hold (inclusive)")
    valid_to: datetime | None = Field(description="World time it stops holding (exclusive); None = open")
    recorded_at: datetime = Field(description="System time the store started believing this row")
    superseded_at: datetime | None = Field(description="System time the row stopped being believed")
    observed_at: datetime | None = Field(default=None, description="When the source observed it")
    status: str
    source: str
    confidence: float
    scope: str | None = None
    priority: int = 0
    memory_type: str | None = None
    reason: str | None = None
    evidence: dict[str, Any] = Field(default_factory=dict)
    supersedes_fact_id: UUID | None = None
    run_id: str | None = None

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> FactView:
        is_entity = row["object_kind"] == "entity"
        return cls(
            id=row["id"], predicate=row["predicate"],
            value=row["object_ref"] if is_entity else row["object_value"],
            object_ref=row["object_ref"] if is_entity else None,
            valid_from=row["valid_from"], valid_to=row["valid_to"], recorded_at=row["recorded_at"],
            superseded_at=row["superseded_at"], observed_at=row["observed_at"], status=row["status"],
            source=row["source"], confidence=row["confidence"], scope=row["scope_ref"],
            priority=row["priority"], memory_type=row["memory_type"], reason=row["reason"],
            evidence=row["evidence"] or {}, supersedes_fact_id=row["supersedes_fact_id"], run_id=row["run_id"],
        )


class EntityStateView(BaseModel):
    ref: str
    kind: str
    name: str
    facts: list[FactView]
    retention: RetentionNotice | None = Field(
        default=None, description="Set when the read reaches behind the retention edge (graph.retention)")


def aware(t: datetime, name: str) -> datetime:
    if t.tzinfo is None:
        raise BadInput(f"{name} needs a UTC offset", code="BAD_TIME")
    return t


@dataclass(frozen=True)
class Question:
    """One of the four temporal questions, checked once for both renderings (the typed fields here, the
    agent's tools in graph.agent.recall).

    `system_time` None means "as believed now". A ref is resolved as of the question's system time: what
    the ref named then (aliases believed then, merges recorded and not yet split then). History spans
    every system time, so it does not follow merges: a merged entity's history is its own rows (their
    successors on the survivor are linked by supersedesFactId).
    """

    valid_time: datetime | None = None
    system_time: datetime | None = None
    predicate: str | None = None

    @classmethod
    def as_of(cls, valid_time: datetime) -> Question:
        """What is believed now about valid time V (V = now: what is true now)."""
        return cls(valid_time=aware(valid_time, "validTime"))

    @classmethod
    def known_at(cls, system_time: datetime, valid_time: datetime | None = None) -> Question:
        """What was believed at system time R about valid time V (V defaults to R)."""
        r = aware(system_time, "systemTime")
        return cls(valid_time=aware(valid_time, "validTime") if valid_time is not None else r, system_time=r)

    @classmethod
    def history(cls, predicate: str) -> Question:
        """Every row ever recorded for (ref, predicate), superseded and invalidated ones included."""
        return cls(predicate=predicate)

    @property
    def follows_merges(self) -> bool:
        return self.predicate is None

    def sees(self, valid_from: datetime, valid_to: datetime | None, recorded_at: datetime,
             superseded_at: datetime | None) -> bool:
        """Whether a row with these times answers this question: the Python twin of the reads' SQL
        (`wm_during(valid_from, valid_to, V) AND wm_known(recorded_at, superseded_at, R)`, graph/sql/functions/,
        R NULL meaning wm_believed). History sees every row."""
        if self.predicate is not None:
            return True
        valid = self.valid_time is None or timeline.during(valid_from, valid_to, self.valid_time)
        return valid and timeline.known(recorded_at, superseded_at, self.system_time)


def answer_query(ref: str, q: Question) -> tuple[LiteralString, dict[str, Any]]:
    """The one statement answering `q` about `ref`: the one implementation of the reads. It pins the owner
    (Database.read_pinned: its `owner` parameter), resolves the ref itself (wm_resolve, migrations/0074, as
    entities.resolve does) and returns the retention notice's rows with the facts: one row per fact
    (reads_*.sql, the functions of migrations/0080), at least one row (its `outcome` says whether the ref
    named an entity)."""
    if q.predicate is not None:
        return load("reads_fact_history"), {"ref": ref, "predicate": q.predicate}
    if q.system_time is None:
        return load("reads_state_at"), {"ref": ref, "valid_time": q.valid_time}
    return load("reads_state_known_at"), {"ref": ref, "valid_time": q.valid_time, "system_time": q.system_time}


def answer(db: Database, owner: str, ref: str, q: Question) -> list[dict[str, Any]]:
    """The rows of answer_query: one statement, one round trip (Database.read_pinned: no pipeline, no BEGIN
    or COMMIT)."""
    return db.read_pinned(owner, *answer_query(ref, q))


def facts(rows: list[dict[str, Any]]) -> list[FactView]:
    """The facts of `answer`'s rows (an entity without any has one row whose fact id is NULL)."""
    return [FactView.from_row(r) for r in rows if r["id"] is not None]


def owner_language_now(db: Database, owner: str) -> Lang:
    """The owner's answer language, read on its own (only for a notice, after the read's round)."""
    with db.read_tx(owner) as tx:
        return owner_language(tx.conn)


def language_reader(db: Database, owner: str) -> Callable[[], Lang]:
    """`retention`'s `language`: the owner's answer language, read only when asked (owner_language_now)."""
    return functools.partial(owner_language_now, db, owner)


def retention(rows: list[dict[str, Any]], q: Question, language: Callable[[], Lang]) -> RetentionNotice | None:
    """The retention notice of `answer`'s rows (their edge / rolled_up / rollups columns); `language` is asked
    only when there is a notice (notice_due)."""
    if q.predicate is not None:
        return notice.series(rows[0], q.predicate, "history", language)
    return notice.as_of(rows[:1], _valid_time(q), q.system_time, language)


def notice_due(rows: list[dict[str, Any]], q: Question) -> bool:
    """Whether `answer`'s rows carry a retention notice, so that `retention` will read the owner's language."""
    if q.predicate is not None:
        return notice.series_due(rows[0])
    return notice.as_of_due(rows[:1], _valid_time(q), q.system_time)


def _valid_time(q: Question) -> datetime:
    if q.valid_time is None:
        raise ValueError("a state read needs a valid time")
    return q.valid_time


def state_view(ref: str, q: Question, rows: list[dict[str, Any]], language: Callable[[], Lang]
               ) -> EntityStateView | None:
    """The state `answer`'s rows tell (None: `ref` names no entity); `language` as in `retention`."""
    if not entities.found(rows[0], ref):
        return None
    head = rows[0]
    return EntityStateView(ref=head["entity_ref"], kind=head["entity_kind"], name=head["entity_name"],
                           facts=facts(rows), retention=retention(rows, q, language))


def _state(db: Database, owner: str, ref: str, q: Question) -> EntityStateView | None:
    """One round trip, one statement after the owner (answer)."""
    return state_view(ref, q, answer(db, owner, ref, q), language_reader(db, owner))


def state_at(db: Database, owner: str, ref: str, valid_time: datetime) -> EntityStateView | None:
    """What is believed now about valid time V."""
    return _state(db, owner, ref, Question.as_of(valid_time))


def state_as_known_at(db: Database, owner: str, ref: str, system_time: datetime,
                      valid_time: datetime | None = None) -> EntityStateView | None:
    """What was believed at system time R about valid time V (V defaults to R)."""
    return _state(db, owner, ref, Question.known_at(system_time, valid_time))


def fact_history(db: Database, owner: str, ref: str, predicate: str) -> list[FactView]:
    """Every row ever recorded for (ref, predicate), superseded and invalidated ones included."""
    return history_view(ref, answer(db, owner, ref, Question.history(predicate)))


def history_view(ref: str, rows: list[dict[str, Any]]) -> list[FactView]:
    """The history `answer`'s rows of a Question.history tell (empty: `ref` names no entity)."""
    return facts(rows) if entities.found(rows[0], ref) else []


def fact_history_retention(db: Database, owner: str, ref: str, predicate: str) -> RetentionNotice | None:
    """What factHistory(ref, predicate) lacks: the notice when rows of the series were rolled up and pruned
    (factHistory is a list, fixed by the public contract, so the notice is its own field beside it)."""
    q = Question.history(predicate)
    rows = answer(db, owner, ref, q)
    return retention(rows, q, language_reader(db, owner)) if entities.found(rows[0], ref) else None
