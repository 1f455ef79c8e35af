"""The GraphQL type of an episode (a chat turn as memory keeps it) and the field that opens a fact's source."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

import strawberry
from strawberry.types import Info

from graph.episodes import evidence
from graph.episodes.model import Episode as EpisodeView
from resolvers.context import blocking, database, principal
from resolvers.curator_types import TurnRole


@strawberry.type(description="A chat turn as memory keeps it: who said what, when, in which chat")
class Episode:
    id: strawberry.ID
    chat_id: str
    seq: int = strawberry.field(description="The turn's number in its chat")
    external_id: str | None = strawberry.field(description="The caller's id of the turn (importConversation, "
                                                           "recordTurn)")
    occurred_at: datetime = strawberry.field(description="When it was said")
    speaker: str | None
    role: TurnRole
    text: str

    @classmethod
    def from_view(cls, e: EpisodeView) -> Episode:
        return cls(id=strawberry.ID(e.id), chat_id=e.chat_id, seq=e.seq, external_id=e.external_id,
                   occurred_at=e.occurred_at, speaker=e.speaker, role=TurnRole(e.role), text=e.text)


async def evidence_episode(info: Info[Any, Any], fact_id: str) -> Episode | None:
    """The episode a fact's evidence came from (graph.episodes.evidence), for Fact.evidenceEpisode."""
    found = await blocking(evidence.evidence_episode, database(info), principal(info).owner, UUID(fact_id))
    return Episode.from_view(found) if found else None
