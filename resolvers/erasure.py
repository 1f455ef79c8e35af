"""Erasure over GraphQL: `eraseEntity`, `eraseFacts` (owner tokens only) and `erasures` (the receipts).

The receipt names the token that asked by its id (api_tokens.id), found from the request's bearer token;
the token itself is never stored.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import strawberry
from strawberry.scalars import JSON
from strawberry.types import Info

from graph.erasure.erase import Cut, Receipt, erase, receipts
from graph.erasure.owner import delete_own
from graph.errors import Forbidden
from graph.ledger.tokens import hash_token
from resolvers import document_cache
from resolvers.context import bearer_token, blocking, database, principal


@strawberry.type(description="What one erasure did, never what it erased: counts per table and graph label "
                             "(graph:<Label>), when, by which token, and a SHA-256 over all of it")
class ErasureReceipt:
    id: strawberry.ID
    kind: str = strawberry.field(description="entity or facts")
    predicate: str | None = strawberry.field(description="For eraseFacts: the predicate erased")
    token_id: strawberry.ID | None = strawberry.field(description="The api token that asked (null: the admin CLI)")
    token_kind: str
    reason: str = strawberry.field(description="The reason given, every erased name or value replaced by [erased]")
    erased_at: datetime
    counts: JSON = strawberry.field(description="Rows removed per table, vertices and edges per graph label")
    receipt_hash: str

    @classmethod
    def from_model(cls, r: Receipt) -> ErasureReceipt:
        return cls(id=strawberry.ID(str(r.id)), kind=r.kind, predicate=r.predicate,
                   token_id=strawberry.ID(str(r.token_id)) if r.token_id else None, token_kind=r.token_kind,
                   reason=r.reason, erased_at=r.erased_at, counts=JSON(r.counts), receipt_hash=r.receipt_hash)


@strawberry.type(description="Where a chain (a cause, a predecessor, a successor) was cut by an erasure")
class ErasureCut:
    row_id: strawberry.ID = strawberry.field(description="The surviving fact or event whose link was cut")
    link: str = strawberry.field(description="cause, supersedes, superseded_by or invalidated_by")
    erasure_id: strawberry.ID = strawberry.field(description="The erasure's receipt")
    erased_at: datetime
    message: str = strawberry.field(description="In the owner's language")

    @classmethod
    def from_model(cls, c: Cut) -> ErasureCut:
        return cls(row_id=strawberry.ID(str(c.row_id)), link=c.link, erasure_id=strawberry.ID(str(c.erasure_id)),
                   erased_at=c.erased_at, message=c.message)


def _token_hash(info: Info[Any, Any]) -> str | None:
    request = getattr(info.context, "request", None)
    token = bearer_token(request.headers.get("authorization")) if request is not None else None
    return hash_token(token) if token else None


async def _erase(info: Info[Any, Any], ref: str, reason: str, predicate: str | None) -> ErasureReceipt:
    who = principal(info)
    if not who.is_owner:
        raise Forbidden("only the owner's own token may erase (not an agent or integration token)",
                        code="OWNER_ONLY")
    done = await blocking(erase, database(info), who, ref, reason=reason, predicate=predicate,
                          token_hash=_token_hash(info))
    document_cache.forget_all()  # remembered GraphQL documents may spell the erased ref out
    return ErasureReceipt.from_model(done)


@strawberry.type
class ErasureMutation:
    @strawberry.mutation(description="Erase an entity for good (owner tokens only): its facts and their history, "
                                     "aliases, the events and chat turns naming it, projections, rollups, graph "
                                     "vertices and edges. One transaction; a later read of the ref answers ERASED. "
                                     "Refusals: OWNER_ONLY, UNKNOWN_REF, ALREADY_ERASED")
    async def erase_entity(self, info: Info[Any, Any], ref: str, reason: str = "") -> ErasureReceipt:
        return await _erase(info, ref, reason, None)

    @strawberry.mutation(description="Erase every row (history included) of one predicate of an entity, and "
                                     "what mentions their values (owner tokens only). Refusals: OWNER_ONLY, "
                                     "UNKNOWN_REF, NOTHING_TO_ERASE, ALREADY_ERASED")
    async def erase_facts(self, info: Info[Any, Any], ref: str, predicate: str, reason: str = "") -> ErasureReceipt:
        return await _erase(info, ref, reason, predicate)


    @strawberry.mutation(description="Delete this owner entirely, tokens included, in one step (owner tokens "
                                     "only; `confirm` repeats the owner's name). Returns the receipt's id; the "
                                     "receipt (counts, a hash, no content) is kept for the administrator")
    async def delete_owner(self, info: Info[Any, Any], confirm: str) -> strawberry.ID:
        who = principal(info)
        return strawberry.ID(str(await blocking(delete_own, database(info), who, confirm)))


@strawberry.type
class ErasureQuery:
    @strawberry.field(description="The owner's erasure receipts, newest first (owner tokens only)")
    async def erasures(self, info: Info[Any, Any], limit: int = 100) -> list[ErasureReceipt]:
        who = principal(info)
        if not who.is_owner:
            raise Forbidden("only the owner's own token may list erasures", code="OWNER_ONLY")
        return [ErasureReceipt.from_model(r) for r in await blocking(receipts, database(info), who.owner,
                                                                     limit=limit)]
