"""Episodes: what was said in a chat, as the owner's memory keeps it (the chat_turns rows, migration 0130).

One mapping from a row to an `Episode`, and the one rendering of an episode as text (pure): the speaker, the
day it was said and the words, the way a search hit, the projection the finder embeds and the agent's text
all show it.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field

Role = Literal["user", "assistant", "tool", "system"]
MAX_TEXT = 100_000  # as a recorded turn (curator.turns.MAX_TEXT)
MAX_TURNS = 10_000  # turns in one importConversation
MAX_ID = 200  # externalId, chatId, speaker


class EpisodeIn(BaseModel):
    """One turn of an imported conversation. Its time is checked against the ledger's range by the caller
    (graph.timebounds.check_time), so an out-of-range time is TIME_OUT_OF_RANGE, not a validation error."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    external_id: str = Field(min_length=1, max_length=MAX_ID)
    role: Role = "user"
    speaker: str | None = Field(default=None, min_length=1, max_length=MAX_ID)
    text: str = Field(max_length=MAX_TEXT)
    occurred_at: AwareDatetime


class Episode(BaseModel):
    """A stored turn as a search hit shows it (keep these names: outside acceptance tests read them)."""

    id: str
    chat_id: str
    seq: int
    external_id: str | None = None
    occurred_at: datetime
    speaker: str | None = None
    role: str
    text: str


def from_row(row: dict[str, Any]) -> Episode:
    """The one mapping from a chat_turns row (any statement returning its episode columns)."""
    return Episode(id=str(row["id"]), chat_id=row["chat_id"], seq=row["seq"], external_id=row["external_id"],
                   occurred_at=row["occurred_at"], speaker=row["speaker"], role=row["role"], text=row["text"])


def who(speaker: str | None, role: str) -> str:
    """The name a line gives the speaker: the name given, else the role."""
    return speaker or role


def line(speaker: str | None, role: str, occurred_at: datetime, text: str) -> str:
    """`Anna (user) · 2025-03-04: Ich gehe dienstags ins Studio am Markt` (the day in UTC)."""
    name = who(speaker, role)
    label = name if name == role else f"{name} ({role})"
    return f"{label} · {occurred_at.astimezone(UTC):%Y-%m-%d}: {' '.join(text.split())}"


def episode_line(e: Episode) -> str:
    return line(e.speaker, e.role, e.occurred_at, e.text)
