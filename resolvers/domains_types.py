"""GraphQL types of the contacts facade, commitments and attribute history (graph/domains/)."""

from __future__ import annotations

from datetime import datetime
from typing import cast

import strawberry
from strawberry.scalars import JSON

from graph.domains import commitments as cm
from graph.domains import contacts as ct
from graph.domains import history as hi
from resolvers.ledger_types import CommitResult, RetentionNotice


@strawberry.type(description="One identity of a contact: a namespaced, bitemporal alias (email, phone, matrix, …)")
class ContactIdentity:
    namespace: str
    value: str = strawberry.field(description="Normalised: lower case; a phone number as digits with +")
    identity: str = strawberry.field(description="namespace:value, as upsertContact takes it")
    valid_from: datetime = strawberry.field(description="World time it starts to name the contact")
    valid_to: datetime | None = strawberry.field(description="World time it stops (exclusive); null = open")
    recorded_at: datetime = strawberry.field(description="System time the store learned it")
    source: str

    @classmethod
    def from_model(cls, i: ct.ContactIdentity) -> ContactIdentity:
        return cls(namespace=i.namespace, value=i.value, identity=i.identity, valid_from=i.valid_from,
                   valid_to=i.valid_to, recorded_at=i.recorded_at, source=i.source)


@strawberry.type(description="A contact: a person entity and its identities")
class Contact:
    ref: str
    name: str
    identities: list[ContactIdentity]

    @classmethod
    def from_model(cls, c: ct.Contact | None) -> Contact | None:
        return None if c is None else cls(ref=c.ref, name=c.name,
                                           identities=[ContactIdentity.from_model(i) for i in c.identities])


@strawberry.type(description="What upsertContact did")
class ContactUpsertResult:
    ok: bool
    contact: Contact | None
    created: bool = strawberry.field(description="A new person entity was made")
    unchanged: bool = strawberry.field(description="Everything was known already: nothing written")
    merged: list[str] = strawberry.field(description="Refs merged into the contact (shared identity, owner token)")
    suggested: list[str] = strawberry.field(description="Refs suggested to the owner as the same (pendingReview)")
    run_id: str
    commit: CommitResult

    @classmethod
    def from_model(cls, u: ct.ContactUpsert) -> ContactUpsertResult:
        return cls(ok=not u.commit.rejected, contact=Contact.from_model(u.contact), created=u.created,
                   unchanged=u.unchanged,
                   merged=u.merged, suggested=u.suggested, run_id=u.run_id,
                   commit=CommitResult.from_outcome(u.commit))


@strawberry.type(description="A commitment that blocks another one")
class CommitmentBlocker:
    ref: str
    name: str
    status: str


@strawberry.type(description="A task with its status, due time and blockers as believed now")
class Commitment:
    ref: str
    name: str
    status: str = strawberry.field(description="Lower case; open when no status is known")
    due: datetime | None = strawberry.field(description="When it is due (a date alone: the end of that day, UTC)")
    due_value: JSON | None = strawberry.field(description="The due fact's value as stored")
    overdue: bool
    blocked: bool = strawberry.field(description="At least one blocker is still open")
    blocked_by: list[CommitmentBlocker]

    @classmethod
    def from_model(cls, c: cm.Commitment) -> Commitment:
        return cls(ref=c.ref, name=c.name, status=c.status, due=c.due, due_value=cast(JSON, c.due_value),
                   overdue=c.overdue, blocked=c.blocked,
                   blocked_by=[CommitmentBlocker(ref=b.ref, name=b.name, status=b.status) for b in c.blocked_by])


@strawberry.type(description="One segment of an attribute's series: a value over [validFrom, validTo)")
class SeriesPoint:
    value: JSON
    valid_from: datetime
    valid_to: datetime | None = strawberry.field(description="Exclusive; null = still open")
    fact_ids: list[strawberry.ID]


@strawberry.type(description="An attribute's values over a world-time range, clipped to it")
class AttributeSeries:
    ref: str
    predicate: str
    points: list[SeriesPoint]
    truncated: bool = strawberry.field(description="More rows than one answer holds: the earliest are left out")
    retention: RetentionNotice | None = strawberry.field(description="Set when [from, to) reaches behind the "
                                                                     "retention edge: the months' rollups")

    @classmethod
    def from_model(cls, s: hi.Series) -> AttributeSeries:
        points = [SeriesPoint(value=cast(JSON, p["value"]), valid_from=p["valid_from"], valid_to=p["valid_to"],
                              fact_ids=[strawberry.ID(str(i)) for i in p["fact_ids"]]) for p in s.points]
        return cls(ref=s.ref, predicate=s.predicate, points=points, truncated=s.truncated,
                   retention=RetentionNotice.from_model(s.retention))


@strawberry.type(description="Whether a value held without a gap for at least the minutes asked, up to asOf")
class HeldFor:
    held: bool
    since: datetime | None = strawberry.field(description="Start of the value's unbroken run containing asOf")
    until: datetime | None = strawberry.field(description="End of that run (exclusive); null = still open")
    minutes_held: float = strawberry.field(description="Minutes from since to asOf (0 when it does not hold)")
    retention: RetentionNotice | None = strawberry.field(description="Set when the minutes asked about reach "
                                                                     "behind the retention edge (the answer may "
                                                                     "miss pruned rows)")

    @classmethod
    def from_model(cls, h: hi.Held) -> HeldFor:
        return cls(held=h.held, since=h.since, until=h.until, minutes_held=h.minutes_held,
                   retention=RetentionNotice.from_model(h.retention))
