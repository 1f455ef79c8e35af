"""Curator intake: chat turns, numbered per chat, and the per-chat watermark of what has been curated.

`record_turn` stores a turn (its own transaction) and gives it the chat's next `seq`; `uncurated` lists
the turns after the watermark; `advance_watermark` moves it forward inside the curator's commit
transaction, so the watermark moves exactly when the commit does. `lagging_chats` finds chats whose
backlog has waited longer than a debounce would (the catch-up reconciler's input).

After a turn is stored, the API tells a `TurnListener` (the curator's debounce runtime); the default
listener does nothing, so the service stores turns without any curator configured.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any, Literal, Protocol

import psycopg
from psycopg.types.json import Jsonb
from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, JsonValue

from graph.episodes import store as episodes
from graph.episodes.model import from_row as episode_from_row
from graph.errors import BadInput, Conflict, Moving
from graph.platform.db import Database, check_owner
from graph.platform.redaction import scrub, scrub_value
from graph.sql import load
from graph.timebounds import check_time

Role = Literal["user", "assistant", "tool", "system"]
MAX_TEXT = 100_000
MAX_TOOL_CALLS = 50
MAX_UNCURATED = 200
MAX_LAGGING = 1000


class ToolCall(BaseModel):
    """One tool call of a turn. `trust_tier` says how far its result may be trusted (stored as trustTier)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, frozen=True)
    name: str = Field(min_length=1, max_length=200)
    args: JsonValue = None
    result: JsonValue = None
    trust_tier: str = Field(default="untrusted", min_length=1, max_length=50, alias="trustTier",
                            description="trusted | untrusted | ...; unknown means untrusted")


class TurnIn(BaseModel):
    """A turn as the chat hands it over."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    chat_id: str = Field(min_length=1, max_length=200)
    run_id: str | None = Field(default=None, min_length=1, max_length=200)
    role: Role = "user"
    text: str = Field(default="", max_length=MAX_TEXT)
    thinking: str | None = Field(default=None, max_length=MAX_TEXT)
    tool_calls: list[ToolCall] = Field(default_factory=list, max_length=MAX_TOOL_CALLS)
    explicit: bool = Field(default=False, description="rememberThis: an explicit act, skips the debounce")
    occurred_at: AwareDatetime | None = Field(default=None, description="When it was said (default: now)")
    speaker: str | None = Field(default=None, min_length=1, max_length=200)
    external_id: str | None = Field(default=None, min_length=1, max_length=200,
                                    description="The caller's id of the turn: one turn per id and chat")


class Turn(TurnIn):
    """A stored turn: `seq` numbers the chat's turns from 1 without gaps."""

    id: str
    owner: str
    seq: int
    created_at: datetime
    occurred_at: datetime | None = None


class TurnListener(Protocol):
    """Told after every stored turn (in the request; must return quickly and never raise)."""

    def on_turn(self, owner: str, chat_id: str, explicit: bool) -> None: ...


class NoListener:
    """The default: nothing reacts to turns (they wait in the backlog; see `curatorStatus`)."""

    def on_turn(self, owner: str, chat_id: str, explicit: bool) -> None:
        return None


NO_LISTENER: TurnListener = NoListener()


def record_turn(db: Database, owner: str, turn: TurnIn) -> Turn:
    """Store `turn` for `owner` as the chat's next turn (one transaction) and return it; it is an episode at
    once (graph.episodes: found by words now and by meaning once embedded). Its text, thinking and tool calls
    are scrubbed of secrets before they are stored.
    A turn whose `external_id` the chat holds already is returned as stored when its text is the same, and
    refused (EXTERNAL_ID_REUSED) when it is not."""
    if turn.occurred_at is not None:
        check_time(turn.occurred_at, "occurredAt")
    text = scrub(turn.text)
    with db.owner_tx(owner) as conn:
        if turn.external_id is not None:
            known = conn.execute(load("curator_turn_by_external_id"),
                                 {"chat_id": turn.chat_id, "external_id": turn.external_id}).fetchone()
            if known is not None:
                if known["text"] != text:
                    raise Conflict(f"chat {turn.chat_id!r} already holds externalId {turn.external_id!r} with "
                                   "other text", code="EXTERNAL_ID_REUSED")
                return turn_from_row(known)
        seq = conn.execute(load("curator_turn_next_seq"), {"chat_id": turn.chat_id}).fetchone()
        assert seq is not None  # INSERT ... ON CONFLICT DO UPDATE ... RETURNING always returns the row
        row = conn.execute(load("curator_turn_insert"), {
            "chat_id": turn.chat_id, "seq": seq["seq"], "run_id": turn.run_id, "role": turn.role,
            "text": text, "thinking": scrub(turn.thinking) if turn.thinking else turn.thinking,
            "explicit": turn.explicit,
            "tool_calls": Jsonb([scrub_value(c.model_dump(mode="json", by_alias=True)) for c in turn.tool_calls]),
            "occurred_at": turn.occurred_at, "speaker": turn.speaker, "external_id": turn.external_id,
        }).fetchone()
        assert row is not None
        episodes.project(conn, [episode_from_row(row)])
    return turn_from_row(row)


def uncurated(conn: psycopg.Connection[dict[str, Any]], chat_id: str, limit: int = 20) -> list[Turn]:
    """The chat's turns after its watermark, oldest first, at most `limit` (in the caller's owner tx)."""
    if not 1 <= limit <= MAX_UNCURATED:
        raise BadInput(f"limit must be between 1 and {MAX_UNCURATED}", code="BAD_LIMIT")
    rows = conn.execute(load("curator_turns_uncurated"), {"chat_id": chat_id, "limit": limit}).fetchall()
    return [turn_from_row(r) for r in rows]


def advance_watermark(conn: psycopg.Connection[dict[str, Any]], chat_id: str, upto_seq: int) -> None:
    """Mark the chat's turns up to `upto_seq` as curated. Monotonic: a lower value changes nothing.

    Call it inside the curator's commit transaction: if that rolls back, so does the watermark.
    Raises BadInput when the chat has no turn `upto_seq`.
    """
    if upto_seq < 0:
        raise BadInput("upto_seq must not be negative", code="BAD_WATERMARK")
    row = conn.execute(load("curator_watermark_advance"), {"chat_id": chat_id, "upto": upto_seq}).fetchone()
    if row is None:
        raise BadInput(f"chat {chat_id!r} has no turn {upto_seq}", code="BAD_WATERMARK")


def lagging_chats(db: Database, owner: str | None, older_than: timedelta,
                  where: Callable[[str], Database] | None = None) -> list[tuple[str, str]]:
    """(owner, chat) pairs with un-curated turns whose last turn is older than `older_than`, oldest first.

    `owner=None` visits every owner that has (or had) a token, each in its own read-only transaction:
    the app role cannot read across owners, and this needs no privilege beyond what it has. The tokens are
    in `db` (the directory) for owners of every cluster; `where` (owner -> its database, graph.routing) reads
    each owner's turns on its cluster, so the catch-up covers every cluster.
    """
    if older_than < timedelta(0):
        raise BadInput("older_than must not be negative")
    owners = [check_owner(owner)] if owner is not None else _owners(db)
    found: list[tuple[str, str]] = []
    for who in owners:
        try:
            at = db if where is None else where(who)
        except Moving:  # its turns are curated on the cluster it moves to, by a later catch-up
            continue
        with at.owner_tx(who, read_only=True) as conn:
            rows = conn.execute(load("curator_lagging"), {"older_than": older_than, "limit": MAX_LAGGING})
            found.extend((r["owner_sub"], r["chat_id"]) for r in rows)
    return found


def _owners(db: Database) -> list[str]:
    with db.connection() as conn, conn.transaction():
        return [r["owner_sub"] for r in conn.execute(load("curator_owners"))]


def turn_from_row(row: dict[str, Any]) -> Turn:
    """The one mapping from a chat_turns row to a Turn."""
    return Turn(
        id=str(row["id"]), owner=row["owner_sub"], chat_id=row["chat_id"], seq=row["seq"], run_id=row["run_id"],
        role=row["role"], text=row["text"], thinking=row["thinking"], explicit=row["explicit"],
        tool_calls=[ToolCall.model_validate(c) for c in row["tool_calls"]], created_at=row["created_at"],
        occurred_at=row["occurred_at"], speaker=row["speaker"], external_id=row["external_id"],
    )
