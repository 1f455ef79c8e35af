"""The GraphQL type of an episode (a chat turn as memory keeps it) and the field that opens a fact's source."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any
from uuid import UUID
from weakref import WeakKeyDictionary

import strawberry
from strawberry.dataloader import DataLoader
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


# One loader per request context (the weak keys drop it with the request): a page of facts asking for their
# evidence costs one statement, not one per fact.
_LOADERS: WeakKeyDictionary[Any, DataLoader[UUID, Episode | None]] = WeakKeyDictionary()


def _loader(info: Info[Any, Any]) -> DataLoader[UUID, Episode | None]:
    loader = _LOADERS.get(info.context)
    if loader is None:
        db, owner = database(info), principal(info).owner

        async def load(ids: Sequence[UUID]) -> list[Episode | None]:
            found = await blocking(evidence.evidence_episodes, db, owner, list(ids))
            return [Episode.from_view(e) if (e := found.get(i)) else None for i in ids]

        loader = DataLoader(load_fn=load)
        _LOADERS[info.context] = loader
    return loader


async def evidence_episode(info: Info[Any, Any], fact_id: str) -> Episode | None:
    """The episode a fact's evidence came from (graph.episodes.evidence), for Fact.evidenceEpisode."""
    return await _loader(info).load(UUID(fact_id))
