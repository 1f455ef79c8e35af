"""GraphQL types of governance: the review message and its items, correction notices, merge results.

Entities an item is about are loaded through one DataLoader per request (`state_loader`), so a review of
N items costs the same few statements as a review of one.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from enum import Enum
from typing import Any, cast
from weakref import WeakKeyDictionary

import strawberry
from strawberry.dataloader import DataLoader
from strawberry.scalars import JSON
from strawberry.types import Info

from graph.governance import review as rv
from graph.governance.merge import MergeRecord
from resolvers.context import blocking, database, principal
from resolvers.ledger_types import CommitResult, EntityState

# One loader per request context; the weak keys drop it with the request.
_LOADERS: WeakKeyDictionary[Any, DataLoader[str, EntityState | None]] = WeakKeyDictionary()


def state_loader(info: Info[Any, Any]) -> DataLoader[str, EntityState | None]:
    """The request's loader of entity states (believed now), batching every ref asked for."""
    loader = _LOADERS.get(info.context)
    if loader is None:
        db, owner = database(info), principal(info).owner

        async def load(refs: Sequence[str]) -> list[EntityState | None]:
            states = await blocking(rv.states_now, db, owner, list(refs), datetime.now(UTC))
            return [EntityState.from_view(states.get(ref)) for ref in refs]

        loader = DataLoader(load_fn=load)
        _LOADERS[info.context] = loader
    return loader


@strawberry.enum(description="What a review item asks")
class ReviewItemKind(Enum):
    PENDING_FACT = "pending_fact"
    CONFLICT = "conflict"
    OVERDUE = "overdue"
    BLOCKED = "blocked"
    MERGE_SUGGESTION = "merge_suggestion"


@strawberry.type(description="The mutation an answer maps to, with its arguments")
class ReviewAction:
    mutation: str
    args: JSON
    call: str = strawberry.field(description="The same, written out as in the message")

    @classmethod
    def from_model(cls, a: rv.Action | None) -> ReviewAction | None:
        return None if a is None else cls(mutation=a.mutation, args=cast(JSON, a.args), call=a.call())


@strawberry.type(description="One numbered question of the review message")
class ReviewItem:
    number: int
    kind: ReviewItemKind
    question: str
    yes: ReviewAction = strawberry.field(description="What answering yes does")
    no: ReviewAction | None = strawberry.field(description="What answering no does (null: nothing)")
    fact_id: strawberry.ID | None = strawberry.field(description="The pending fact asked about")
    conflicting_fact_id: strawberry.ID | None = strawberry.field(
        description="The active fact it would replace (conflicts)")
    entity_refs: list[str]

    @strawberry.field(description="What is believed now about the entities the item is about")
    async def entities(self, info: Info[Any, Any]) -> list[EntityState]:
        states = await state_loader(info).load_many(self.entity_refs)
        return [s for s in states if s is not None]

    @classmethod
    def from_model(cls, item: rv.ReviewItem) -> ReviewItem:
        yes = ReviewAction.from_model(item.yes)
        assert yes is not None
        return cls(number=item.number, kind=ReviewItemKind(item.kind), question=item.question, yes=yes,
                   no=ReviewAction.from_model(item.no), entity_refs=item.entity_refs,
                   fact_id=strawberry.ID(str(item.fact_id)) if item.fact_id else None,
                   conflicting_fact_id=strawberry.ID(str(item.conflicting_fact_id))
                   if item.conflicting_fact_id else None)


@strawberry.type(description="Everything waiting for the owner, as ONE chat-ready message and its items")
class PendingReview:
    message: str = strawberry.field(description="The bundled message; answers name the item's number")
    items: list[ReviewItem]

    @classmethod
    def from_model(cls, r: rv.Review) -> PendingReview:
        return cls(message=r.message, items=[ReviewItem.from_model(i) for i in r.items])


@strawberry.type(description="A value the chat knew was replaced: tell the owner")
class CorrectionNotice:
    fact_id: strawberry.ID = strawberry.field(description="The new row")
    previous_fact_id: strawberry.ID = strawberry.field(description="The row it replaced")
    subject_ref: str
    predicate: str
    previous: JSON
    current: JSON
    recorded_at: datetime
    text: str = strawberry.field(description='"you said X before, now Y — updating"')

    @classmethod
    def from_model(cls, n: rv.Notice) -> CorrectionNotice:
        return cls(fact_id=strawberry.ID(str(n.fact_id)), previous_fact_id=strawberry.ID(str(n.previous_fact_id)),
                   subject_ref=n.subject_ref, predicate=n.predicate, previous=n.previous, current=n.current,
                   recorded_at=n.recorded_at, text=n.text)


@strawberry.type(description="A merge of one entity into another, and its split if it was undone")
class EntityMerge:
    id: strawberry.ID
    merged: str = strawberry.field(description="Ref of the entity merged away")
    into: str = strawberry.field(description="Ref of the survivor")
    reason: str | None
    recorded_at: datetime
    split_at: datetime | None

    @classmethod
    def from_record(cls, m: MergeRecord) -> EntityMerge:
        return cls(id=strawberry.ID(str(m.id)), merged=m.merged_ref, into=m.into_ref, reason=m.reason,
                   recorded_at=m.recorded_at, split_at=m.split_at)


@strawberry.type(description="What a governance action did; nothing is written when it was rejected")
class GovernanceResult:
    ok: bool = strawberry.field(description="True when the action was applied (or replayed)")
    run_id: str = strawberry.field(description="Pass it again to retry without doing anything twice")
    commit: CommitResult
    merges: list[EntityMerge] = strawberry.field(description="The merge made or split (merge/split only)")
