"""Contacts, commitments and attribute history over GraphQL (graph/domains/).

Reads answer what the graph says (contacts and identities are person entities and their aliases); writes
go through the committer with the request's principal, so the token decides trust as everywhere else. A
rejected write writes nothing; its result lists the rejections and the response carries a typed error.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

import strawberry
from strawberry.scalars import JSON
from strawberry.types import Info

from graph.domains import commitments as cm
from graph.domains import contacts as ct
from graph.domains import history as hi
from graph.errors import BadInput
from graph.ledger.committer import CommitResult as CommitOutcome
from graph.reads import suggest
from resolvers.context import blocking, database, principal, write_rules
from resolvers.domains_types import AttributeSeries, Commitment, Contact, ContactUpsertResult, HeldFor
from resolvers.ledger_types import CommitResult

MAX_CONTACTS = 500


def _signal(info: Info[Any, Any], field: str, outcome: CommitOutcome) -> None:
    if outcome.rejected:
        first = outcome.rejected[0]
        info.context.reject(field, f"{field} rejected, nothing written: {first.message}", first.code)


async def contacts(info: Info[Any, Any], name: str | None = None, limit: int = 100, offset: int = 0) -> list[Contact]:
    if not 1 <= limit <= MAX_CONTACTS or offset < 0:
        raise BadInput(f"limit must be between 1 and {MAX_CONTACTS}, offset at least 0", code="BAD_LIMIT")
    found = await blocking(ct.list_contacts, database(info), principal(info).owner, name, limit, offset)
    return [c for c in (Contact.from_model(x) for x in found) if c is not None]


async def contact(info: Info[Any, Any], ref: str, valid_time: datetime | None = None,
                  system_time: datetime | None = None) -> Contact | None:
    who = principal(info)
    found = await blocking(ct.get_contact, database(info), who.owner, ref, valid_time, system_time)
    if found is None:
        raise await blocking(suggest.explain_empty_state, database(info), who.owner, ref)
    return Contact.from_model(found)


async def commitments(info: Info[Any, Any], status: str | None = None, due_before: datetime | None = None,
                      limit: int = 200) -> list[Commitment]:
    found = await blocking(cm.commitments, database(info), principal(info).owner, status, due_before, limit)
    return [Commitment.from_model(c) for c in found]


async def attribute_series(info: Info[Any, Any], ref: str, predicate: str,
                           from_: Annotated[datetime, strawberry.argument(name="from")], to: datetime,
                           system_time: datetime | None = None, scope: str | None = None) -> AttributeSeries:
    series = await blocking(hi.attribute_series, database(info), principal(info).owner, ref, predicate, from_, to,
                            system_time=system_time, scope=scope)
    return AttributeSeries.from_model(series)


async def held_for(info: Info[Any, Any], ref: str, predicate: str, value: JSON, minutes: int,
                   as_of: datetime | None = None, system_time: datetime | None = None,
                   scope: str | None = None) -> HeldFor:
    held = await blocking(hi.held, database(info), principal(info).owner, ref, predicate, value, minutes,
                          at=as_of, system_time=system_time, scope=scope)
    return HeldFor.from_model(held)


@strawberry.type
class DomainsQuery:
    contacts: list[Contact] = strawberry.field(
        resolver=contacts, description="Contacts (person entities) by name; `name` matches a part of the name in "
                                       "any German spelling (ä = ae, ß = ss)")
    contact: Contact | None = strawberry.field(
        resolver=contact, description="The contact a ref, alias or identity value names, as known at `systemTime` "
                                      "(default now), with its identities valid at `validTime` (default now)")
    commitments: list[Commitment] = strawberry.field(
        resolver=commitments, description="Tasks with status, due time and blockers as believed now; `status` "
                                          "matches exactly (open = no status), `dueBefore` keeps those due by then; "
                                          "at most `limit` (1-1000), by ref")
    attribute_series: AttributeSeries = strawberry.field(
        resolver=attribute_series, description="An attribute's values over world time [from, to) for a chart, as "
                                               "believed now or as known at `systemTime`; unscoped unless `scope`")
    held_for: HeldFor = strawberry.field(
        resolver=held_for, description="Was (ref, predicate) = value without a gap for at least `minutes` up to "
                                       "`asOf` (world time, default now), as believed now or known at `systemTime`")


@strawberry.type
class DomainsMutation:
    @strawberry.mutation(description="Create or update the contact named by `identities` (email:…, phone:…, "
                                     "matrix:…): the same identity or external id is the same person (merged "
                                     "when several, owner tokens only); the same name alone is a suggestion")
    async def upsert_contact(self, info: Info[Any, Any], identities: list[str], name: str | None = None,
                             external_id: str | None = None, observed_at: datetime | None = None,
                             run_id: str | None = None) -> ContactUpsertResult:
        done = await blocking(ct.upsert_contact, database(info), principal(info), identities, name,
                              external_id=external_id, observed_at=observed_at, run_id=run_id,
                              rules=write_rules(info))
        _signal(info, "upsertContact", done.commit)
        return ContactUpsertResult.from_model(done)

    @strawberry.mutation(description="Believe a commitment's status (e.g. done) from `validFrom` (default now)")
    async def set_commitment_status(self, info: Info[Any, Any], ref: str, status: str,
                                    valid_from: datetime | None = None, run_id: str | None = None) -> CommitResult:
        outcome = await blocking(cm.set_status, database(info), principal(info), ref, status, valid_from, run_id,
                                 rules=write_rules(info))
        _signal(info, "setCommitmentStatus", outcome)
        return CommitResult.from_outcome(outcome)
