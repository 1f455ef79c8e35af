"""What a read says when it reaches behind the retention edge: windowed rows older than the edge were
rolled up and pruned, so the answer there is exact only for permanent rows; the rollups stand in for the
rest and the notice points at them (their memory_projections ids, as searchWorldMemory returns them).

Three reads reach there: an as-of read (stateAt, stateAsKnownAt and the agent's twins) about a time before
the edge, for an entity with rollups (the rollups of the month asked about); a history of a series with
rollups (factHistory, getFactHistory: every rollup of the series); an explanation whose supersedes chain
ends at a row naming no predecessor in a series with rollups (pruning sets that link to NULL). Reads about
now (getEntity, recallFactsAbout, stateAt without a time) never reach behind the edge: the current value of
a series is never pruned. Every message in the owner's answer language (de/en)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime
from typing import Any, Literal
from uuid import UUID

import psycopg
from pydantic import BaseModel, Field

from graph.governance.phrases import Lang, owner_language
from graph.retention.classes import before_edge, month_of, month_start
from graph.sql import load

Reason = Literal["as_of", "history", "chain"]
MESSAGES: dict[Reason, dict[Lang, str]] = {
    "as_of": {
        "en": ("This asks about a time before the retention edge ({edge}): observed values older than that were "
               "rolled up into summaries and their raw rows pruned, so only permanent facts are exact here."),
        "de": ("Gefragt ist eine Zeit vor der Aufbewahrungsgrenze ({edge}): ältere beobachtete Werte wurden zu "
               "Zusammenfassungen verdichtet und ihre Rohdaten gelöscht; genau sind hier nur dauerhafte Fakten."),
    },
    "history": {
        "en": ("Observed values of {predicate} older than the retention edge ({edge}) were rolled up into the "
               "monthly summaries below and their raw rows pruned: this history lists only the rows kept."),
        "de": ("Beobachtete Werte von {predicate} vor der Aufbewahrungsgrenze ({edge}) wurden zu den "
               "Monatszusammenfassungen unten verdichtet und ihre Rohdaten gelöscht: diese Historie zeigt nur "
               "die erhaltenen Zeilen."),
    },
    "chain": {
        "en": ("The values of {predicate} this one replaced before the retention edge ({edge}) were rolled up "
               "into the summaries below and their raw rows pruned: the chain shown ends there."),
        "de": ("Die Werte von {predicate}, die dieser vor der Aufbewahrungsgrenze ({edge}) ersetzte, wurden zu "
               "den Zusammenfassungen unten verdichtet und ihre Rohdaten gelöscht: die gezeigte Kette endet dort."),
    },
}


class Rollup(BaseModel):
    """A rollup a notice points at: its text, the series it summarises and where the finder holds it."""

    projection_id: UUID = Field(description="The memory_projections row (a searchWorldMemory memory hit's id)")
    predicate: str | None = None
    month: date = Field(description="The UTC month it summarises")
    text: str


class RetentionNotice(BaseModel):
    reason: Reason = Field(default="as_of", description="as_of: a time before the edge; history: a series with "
                                                        "pruned rows; chain: a supersedes chain cut by pruning")
    edge: datetime = Field(description="Windowed rows before this instant were rolled up and pruned")
    message: str = Field(description="What this means for the answer, in the owner's language (de/en)")
    summaries: list[str] = Field(default_factory=list, description="The texts of `rollups`")
    rollups: list[Rollup] = Field(default_factory=list, description="The rollups standing in for the pruned rows")

    @property
    def text(self) -> str:
        """The chat-ready rendering: the message, then one indented line per summary."""
        return "\n".join([self.message, *(f"  {s}" for s in self.summaries)])


def _notice(lang: Lang, reason: Reason, edge: datetime, rollups: list[dict[str, Any]],
            predicate: str | None = None) -> RetentionNotice:
    found = [Rollup.model_validate(r) for r in rollups]
    message = MESSAGES[reason][lang].format(edge=edge.date().isoformat(), predicate=predicate)
    return RetentionNotice(reason=reason, edge=edge, message=message, summaries=[r.text for r in found],
                           rollups=found)


def as_of(rows: list[dict[str, Any]], valid_time: datetime, system_time: datetime | None,
          language: Callable[[], Lang]) -> RetentionNotice | None:
    """The notice of an as-of read from its rows' edge / rolled_up / rollups columns (wm_notice_as_of,
    migrations/0075, inside the read's own statement: graph/sql/reads_state_at.sql); `language` is asked only
    for a notice."""
    if not as_of_due(rows, valid_time, system_time):
        return None
    return _notice(language(), "as_of", rows[0]["edge"], rows[0]["rollups"])


def as_of_due(rows: list[dict[str, Any]], valid_time: datetime, system_time: datetime | None) -> bool:
    """Whether as_of has a notice for these rows (and will ask for the owner's language)."""
    row = rows[0] if rows else None
    return row is not None and bool(row["rolled_up"]) and before_edge(row["edge"], valid_time, system_time)


def for_series(conn: psycopg.Connection[Any], entity_id: UUID, predicate: str,
               reason: Reason = "history") -> RetentionNotice | None:
    """The notice for a read of the whole series (entity, predicate): None unless some of it was rolled up."""
    row = conn.execute(load("retention_notice_series"), {"subject_id": entity_id, "predicate": predicate}).fetchone()
    return series(row, predicate, reason, lambda: owner_language(conn))


def series(row: dict[str, Any] | None, predicate: str, reason: Reason, language: Callable[[], Lang]
           ) -> RetentionNotice | None:
    """The notice of a series read from a row with its edge and rollups columns (retention_notice_series, or
    a read's own statement: graph/sql/reads_fact_history.sql); `language` is asked only for a notice."""
    if row is None or not series_due(row):
        return None
    return _notice(language(), reason, row["edge"], row["rollups"], predicate)


def series_due(row: dict[str, Any]) -> bool:
    """Whether series has a notice for this row (and will ask for the owner's language)."""
    return row["edge"] is not None and bool(row["rollups"])


def for_span(conn: psycopg.Connection[Any], entity_id: UUID, predicate: str, span: tuple[datetime, datetime],
             system_time: datetime | None = None) -> RetentionNotice | None:
    """The notice for a read of the series (entity, predicate) over valid time [start, end) (attributeSeries,
    heldFor): the rollups of the months it covers, when it reaches behind the edge."""
    row = conn.execute(load("retention_notice_series"), {"subject_id": entity_id, "predicate": predicate}).fetchone()
    if row is None or not before_edge(row["edge"], span[0], system_time):
        return None
    first = month_of(span[0])
    covered = [r for r in row["rollups"] if first <= date.fromisoformat(r["month"]) and
               month_start(date.fromisoformat(r["month"])) < span[1]]
    return _notice(owner_language(conn), "as_of", row["edge"], covered) if covered else None
