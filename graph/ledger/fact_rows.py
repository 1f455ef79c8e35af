"""The one writer of fact rows: every statement that inserts, closes or links rows of `facts` runs here.

Callers decide what to write (the committer's writers in graph/ledger/writer.py and writer_buffered.py, a sync in
graph/sync/facts.py, governance's accepted successor); this module owns how. Rows travel as one JSON document that
a set-based statement reads with jsonb_to_recordset, whatever their number. tests/test_one_commit_path.py keeps
every fact-writing statement here.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, fields
from datetime import datetime
from typing import Any
from uuid import UUID

import psycopg
from psycopg.rows import class_row, kwargs_row
from pydantic_core import PydanticSerializationError, to_json

from graph.ledger.timeline import Interval
from graph.sql import load

FACT_COLUMNS = ("id", "subject_id", "predicate", "functional", "object_kind", "object_value", "object_entity_id",
                "valid_from", "valid_to", "recorded_at", "observed_at", "believed", "source", "source_trust_tier",
                "changed_by", "caused_by_event_id", "confidence", "memory_type", "status", "scope_entity_id",
                "scope_kind", "priority", "supersedes_fact_id", "run_id", "op_index", "evidence", "reason")
# what facts_replace.sql reads as it is (it numbers the rows and chooses their ids)
_REPLACED = [k for k in FACT_COLUMNS if k not in ("id", "object_value", "evidence")]


# Said and its rows are not frozen: a frozen dataclass sets each of its 20-odd fields through
# object.__setattr__, which made building them a visible share of a bulk commit's client time. No slots either:
# NewFact.columns() copies the instance's __dict__.
@dataclass
class Said:
    """What a fact row says and on what evidence, the columns its three shapes share: a believed row
    (FactRow), a claim not yet placed in time (Claim) and a row to insert (NewFact)."""

    subject_id: UUID
    predicate: str
    functional: bool
    object_kind: str
    object_value: Any
    object_entity_id: UUID | None
    observed_at: datetime | None
    source: str
    source_trust_tier: int
    changed_by: str | None
    caused_by_event_id: UUID | None
    confidence: float
    memory_type: str | None
    scope_entity_id: UUID | None
    scope_kind: str | None
    priority: int | None
    evidence: Any
    reason: str | None

    def said(self) -> dict[str, Any]:
        """The shared columns by name, to build another of the three shapes from this one."""
        return {name: getattr(self, name) for name in SAID_FIELDS}


SAID_FIELDS = tuple(f.name for f in fields(Said))


@dataclass(frozen=True, slots=True)
class Stamp:
    """The proposal writing a row: its one system time, its run, and the operation's index in it."""

    at: datetime
    run_id: str
    op_index: int


@dataclass
class Claim(Said):
    """A claim before a handler places it in time (`placed`): an assertion (graph.ledger.ops), a piece of a
    believed row, a governance copy (graph.governance)."""

    def placed(self, period: Interval, status: str, supersedes: UUID | str | None, stamp: Stamp) -> NewFact:
        """The row to insert: believed over `period` when active; changed by the writing run unless the claim
        names who changed it."""
        said = {**self.said(), "changed_by": self.changed_by or stamp.run_id, "evidence": self.evidence or {}}
        return NewFact(**said, valid_from=period.start, valid_to=period.end, recorded_at=stamp.at,
                       believed=status == "active", status=status, supersedes_fact_id=supersedes,
                       run_id=stamp.run_id, op_index=stamp.op_index)


@dataclass
class FactRow(Said):
    """A fact row believed now, as the time planner and the writers read it (locked for the transaction).

    The columns commit_prefetch.sql reads for it; statements that read `facts.*` go through `believed_row`."""

    id: UUID
    valid_from: datetime
    valid_to: datetime | None

    @classmethod
    def of(cls, columns: dict[str, Any]) -> FactRow:
        """The row of a mapping holding at least its columns (a written row, a `facts.*` row)."""
        return cls(**{name: columns[name] for name in FACT_ROW_FIELDS})

    def claim(self, *, functional: bool | None = None, changed_by: str | None = None) -> Claim:
        """What the row says, to be written again over another period (a piece of it, a copy): `functional`
        as given, else the row's; `changed_by` as given (None: the writing run)."""
        return Claim(**{**self.said(), "functional": self.functional if functional is None else functional,
                        "changed_by": changed_by})


FACT_ROW_FIELDS = tuple(f.name for f in fields(FactRow))


@dataclass
class NewFact(Said):
    """A fact row to insert, as a handler placed it (`Claim.placed`: every column of `facts` a writer sets but
    its id)."""

    valid_from: datetime
    valid_to: datetime | None
    recorded_at: datetime
    believed: bool
    status: str
    supersedes_fact_id: UUID | str | None
    run_id: str
    op_index: int

    @property
    def has_edge(self) -> bool:
        """Only an active relationship row is mirrored as a REL edge."""
        return self.object_kind == "entity" and self.status == "active"

    def columns(self) -> dict[str, Any]:
        """The row as column -> value (for a JSON document, the mirror's edge properties): a copy of the
        instance's fields, which are exactly its columns (a C-level copy; per field it cost 6 % of a bulk commit)."""
        return dict(vars(self))


def _believed(**columns: Any) -> FactRow:
    return FactRow.of(columns)


# psycopg row factory for statements that read `facts.*` (facts_believed_for_update, batch_believed_*).
believed_row = kwargs_row(_believed)


@dataclass(frozen=True)
class Closed:
    """A row whose system time a close ended (facts_close.sql); only a believed relationship has an edge."""

    id: UUID
    object_kind: str
    believed: bool


@dataclass(frozen=True)
class Replaced:
    """What facts_replace.sql did: the new rows' ids in the order given, and how many rows it closed."""

    ids: list[UUID]
    closed: int


def replace(conn: psycopg.Connection[Any], close: Sequence[UUID], successor: Sequence[int | None], at: datetime,
            rows: Sequence[NewFact]) -> psycopg.Cursor[Replaced]:
    """Close the believed rows `close` as superseded at `at`, each naming `rows[successor[i]]` as its successor,
    and insert `rows`: one statement, fetched by the caller
    only when it needs the ids (a refusal then surfaces at the next fetch or at COMMIT)."""
    cursor = conn.cursor(row_factory=class_row(Replaced))
    return cursor.execute(load("facts_replace"), {"close": list(close), "successor": list(successor), "at": at,
                                                   "rows": numbered_facts_json(rows)})


def close(conn: psycopg.Connection[Any], ids: Sequence[UUID], at: datetime, status: str,
          invalidated_by: UUID | None = None) -> list[Closed]:
    """End the system time of the rows in `ids` still believed; the rows closed."""
    cursor = conn.cursor(row_factory=class_row(Closed))
    return cursor.execute(load("facts_close"), {"ids": list(ids), "at": at, "status": status,
                                                "invalidated_by": invalidated_by}).fetchall()


def close_each(conn: psycopg.Connection[Any], closes: Sequence[tuple[UUID, datetime, str, UUID | None]]
               ) -> psycopg.Cursor[Any]:
    """Close many rows, each (id, at, status, invalidated_by), in one statement; its one row counts them."""
    return conn.execute(load("batch_facts_close"), {
        "id": [c[0] for c in closes], "at": [c[1] for c in closes], "status": [c[2] for c in closes],
        "invalidated_by": [c[3] for c in closes]})


def insert_with_ids(conn: psycopg.Connection[Any], rows: Sequence[tuple[UUID, NewFact]]) -> None:
    """Insert rows whose ids were chosen before, (id, row), in one statement."""
    conn.execute(load("batch_facts_insert"), {"rows": facts_json(rows)})


def insert_synced(conn: psycopg.Connection[Any], rows_document: str, params: dict[str, Any]
                  ) -> psycopg.Cursor[Any]:
    """A sync's literal rows (sync_facts_insert.sql: its defaults for what a row leaves out), unprepared: a
    generic plan guesses the size of the document wrong (graph/sync/store.py batch)."""
    return conn.execute(load("sync_facts_insert"), {**params, "rows": rows_document}, prepare=False)


def set_successors(conn: psycopg.Connection[Any], links: Sequence[tuple[UUID, UUID]], *,
                   prepare: bool | None = None) -> None:
    """Name the row that replaced each closed one, (closed, successor): set once (a trigger refuses a change)."""
    conn.execute(load("batch_facts_set_successor"), {"id": [c for c, _ in links], "successor": [s for _, s in links]},
                 prepare=prepare)


def set_accepted_successor(conn: psycopg.Connection[Any], pending_id: UUID) -> None:
    """Name, as the successor of an accepted pending row, the believed row that now says what it said."""
    conn.execute(load("gov_accepted_successor"), {"id": pending_id})


def rows_json(rows: list[dict[str, Any]]) -> str:
    """Rows as one JSON document for jsonb_to_recordset: times as ISO 8601 with their offset (UTC as Z), ids as
    text, written by pydantic-core (Rust): the standard library took 26 ms for 1,000 fact rows, 8 % of a bulk
    commit, pydantic-core 4 ms. What it cannot write (text with a lone surrogate, not UTF-8) is
    written by json.dumps, which escapes it, so the database refuses it."""
    try:
        return to_json(rows, fallback=_json_default, inf_nan_mode="constants").decode()
    except PydanticSerializationError:
        return json.dumps(rows, default=_json_default, separators=(",", ":"))


def facts_json(rows: Sequence[tuple[UUID, NewFact]]) -> str:
    """Rows with their ids for batch_facts_insert.sql."""
    return rows_json([{**row.columns(), "id": fact_id, "object_value": None, "object_value_text": _literal(row)}
                      for fact_id, row in rows])


def numbered_facts_json(rows: Sequence[NewFact]) -> str:
    """Rows, each with its index `n` and without an id, for facts_replace.sql."""
    out = []
    for n, row in enumerate(rows):
        item = {k: getattr(row, k) for k in _REPLACED}
        item["object_value_text"] = _literal(row)
        item["evidence"] = row.evidence
        item["n"] = n
        out.append(item)
    return rows_json(out)


def _json_default(value: Any) -> str:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, UUID):
        return str(value)
    raise TypeError(f"cannot send {type(value).__name__} in a batched row")


def _literal(row: NewFact) -> str | None:
    """A literal's value as JSON text (a JSON null stays jsonb 'null'); a relationship has none (SQL NULL)."""
    return json.dumps(row.object_value) if row.object_kind == "literal" else None
