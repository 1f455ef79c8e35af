"""What a read says when it reaches behind the retention edge: windowed rows older than the edge were
rolled up and pruned, so the answer there is exact only for permanent rows; the rollups of the month asked
about stand in for the rest (de/en, in the owner's answer language)."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

import psycopg
from pydantic import BaseModel, Field

from graph.governance.phrases import Lang, owner_language
from graph.retention.classes import before_edge
from graph.sql import load

MESSAGES: dict[Lang, str] = {
    "en": ("This asks about a time before the retention edge ({edge}): observed values older than that were "
           "rolled up into summaries and their raw rows pruned, so only permanent facts are exact here."),
    "de": ("Gefragt ist eine Zeit vor der Aufbewahrungsgrenze ({edge}): ältere beobachtete Werte wurden zu "
           "Zusammenfassungen verdichtet und ihre Rohdaten gelöscht; genau sind hier nur dauerhafte Fakten."),
}


class RetentionNotice(BaseModel):
    edge: datetime = Field(description="Windowed rows before this instant were rolled up and pruned")
    message: str = Field(description="What this means for the answer, in the owner's language (de/en)")
    summaries: list[str] = Field(default_factory=list,
                                 description="The entity's rollups of the month asked about")


def for_read(conn: psycopg.Connection[Any], entity_id: UUID, valid_time: datetime | None,
             system_time: datetime | None) -> RetentionNotice | None:
    """The notice for a read about valid time V as known at system time R, or None when the read stays
    inside the window (or nothing of this entity was ever rolled up)."""
    if valid_time is None:
        return None
    row = conn.execute(load("retention_notice"), {"subject_id": entity_id, "valid_time": valid_time}).fetchone()
    if row is None or not row["rolled_up"] or not before_edge(row["edge"], valid_time, system_time):
        return None
    lang = owner_language(conn)
    return RetentionNotice(edge=row["edge"], message=MESSAGES[lang].format(edge=row["edge"].date().isoformat()),
                           summaries=list(row["texts"]))
