"""Contacts: person entities whose identities (e-mail, phone, chat handles) are namespaced, bitemporal
aliases. The facade (list, get, upsert by identity) reads and writes the graph itself, nothing else:
`upsert_contact` writes through the committer's public `commit_proposal`, the reads are the ledger's
aliases and entities, so its answers are what getEntity / findEntity / stateAt say (tests/test_contacts_*).

Resolution (`plan_upsert`, pure): a contact is the person already holding one of its identities, or carrying
its external id (strong signals). When the identities point at several persons, they are one: an owner
token merges them into the oldest (the committer's merge_entities); any other token may not govern, so the
pair is recorded as a merge suggestion for the owner instead. A person with the same name (umlauts and
ae/oe/ue/ss spellings alike) but no shared identity is a weak signal: never merged, always suggested.
Suggestions appear in pendingReview (graph/governance/review.py) with the same yes/no actions as the
name-alike ones, and a dismissed pair is not suggested again.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

import psycopg
from psycopg.rows import class_row
from pydantic import BaseModel, Field, ValidationError

from graph.agent.german import ascii_slug, fold
from graph.domains.identities import Identity, parse_all
from graph.errors import BadInput, Conflict
from graph.governance.review_rows import MergeCandidate
from graph.ledger import entities
from graph.ledger import proposal as p
from graph.ledger.committer import CommitResult, commit_proposal
from graph.ledger.op_context import WriteRules
from graph.ledger.registries import describe
from graph.ledger.tokens import Principal
from graph.platform.db import Database
from graph.sql import load

MAX_IDENTITIES = 50
MAX_REF_TRIES = 20
MAX_SLUG = 200  # a ref holds 300 characters: room for the kind and a suffix


class ContactIdentity(BaseModel):
    namespace: str
    value: str
    valid_from: datetime = Field(description="World time the identity starts to name the contact")
    valid_to: datetime | None = Field(description="World time it stops (exclusive); None = open")
    recorded_at: datetime = Field(description="System time the store learned it")
    source: str

    @property
    def identity(self) -> str:
        return f"{self.namespace}:{self.value}"


class Contact(BaseModel):
    ref: str
    name: str
    identities: list[ContactIdentity] = Field(default_factory=list)


class ContactUpsert(BaseModel):
    contact: Contact | None
    created: bool = False
    unchanged: bool = Field(default=False, description="Everything was known: nothing written")
    merged: list[str] = Field(default_factory=list, description="Refs merged into the contact")
    suggested: list[str] = Field(default_factory=list, description="Refs suggested to the owner as the same")
    run_id: str
    commit: CommitResult


@dataclass(frozen=True)
class Person:
    id: UUID
    ref: str
    name: str
    created_at: datetime

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Person:
        return cls(row["id"], row["ref"], row["canonical_name"], row["created_at"])


@dataclass
class Plan:
    target: Person | None  # None: a new person
    merge: list[Person] = field(default_factory=list)
    suggest: list[tuple[Person, str, str]] = field(default_factory=list)  # (other, signal, detail)
    add: list[Identity] = field(default_factory=list)


def plan_upsert(identities: list[Identity], holders: dict[Identity, Person], by_external: Person | None,
                same_name: list[Person], may_merge: bool) -> Plan:
    """Who the contact is and what to write (pure): see the module's docstring."""
    strong = {h.id: h for h in holders.values()}
    if by_external is not None:
        strong[by_external.id] = by_external
    ranked = sorted(strong.values(), key=lambda x: (x.created_at, x.ref))
    plan = Plan(target=ranked[0] if ranked else None)
    for other in ranked[1:]:
        if may_merge:
            plan.merge.append(other)
        else:
            shared = sorted(str(i) for i, h in holders.items() if h.id == other.id) or ["the external id"]
            plan.suggest.append((other, "shared_identity", ", ".join(shared)))
    # held ones stay where they are: the target's own, a merged person's (the merge moves them), and those of
    # a person only suggested (the owner decides)
    plan.add = [i for i in identities if i not in holders]
    linked = {x.id for x in ranked}
    plan.suggest += [(x, "same_name", x.name) for x in same_name if x.id not in linked]
    return plan


def _base(name: str) -> str:
    return f"person:{ascii_slug(name)[:MAX_SLUG].rstrip('-') or 'x'}"


def new_ref(name: str, taken: set[str]) -> str:
    """`person:<slug>`, or `person:<slug>-2` … when taken."""
    base = _base(name)
    for n in range(1, MAX_REF_TRIES + 1):
        ref = base if n == 1 else f"{base}-{n}"
        if ref not in taken:
            return ref
    return f"{base}-{uuid.uuid4().hex[:8]}"


def _candidates(name: str) -> list[str]:
    base = _base(name)
    return [base, *(f"{base}-{n}" for n in range(2, MAX_REF_TRIES + 1))]


def _holders(conn: psycopg.Connection[Any], identities: list[Identity]) -> dict[Identity, Person]:
    rows = conn.execute(load("contacts_holders"), {"namespaces": [i.namespace for i in identities],
                                                   "aliases": [i.value for i in identities]}).fetchall()
    found: dict[Identity, Person] = {}
    for row in rows:
        identity = Identity(row["namespace"], row["alias_norm"])
        if row["kind"] != "person":
            raise Conflict(f"{identity} already names {row['ref']}, which is not a person", code="ALIAS_TAKEN")
        found[identity] = Person.from_row(row)
    return found


def _plan(conn: psycopg.Connection[Any], identities: list[Identity], name: str, external_id: str | None,
          may_merge: bool) -> tuple[Plan, str, bool]:
    """The plan, the contact's ref, and whether anything is to be written."""
    holders = _holders(conn, identities)
    row = conn.execute(load("contacts_by_external_id"), {"external_id": external_id}).fetchone() \
        if external_id else None
    ext = Person.from_row(row) if row else None
    same = [Person.from_row(r) for r in conn.execute(load("contacts_same_name"), {"folded": fold(name)})]
    plan = plan_upsert(identities, holders, ext, same, may_merge)
    if plan.target is not None:
        new_ext = external_id is not None and (ext is None or ext.id != plan.target.id)
        return plan, plan.target.ref, bool(plan.add or plan.merge or plan.suggest or new_ext)
    taken = {r["ref"] for r in conn.execute(load("contacts_refs_taken"), {"refs": _candidates(name)})}
    return plan, new_ref(name, taken), True


def upsert_contact(db: Database, principal: Principal, identities: list[str], name: str | None = None, *,
                   external_id: str | None = None, observed_at: datetime | None = None,
                   run_id: str | None = None, rules: WriteRules | None = None) -> ContactUpsert:
    """Create or update the person named by `identities` (`email:…`, `phone:…`, …); callable from Python
    (the sync API's contacts go through here). A retry with the same `run_id` writes nothing twice."""
    parsed = parse_all(identities)
    if not parsed and not external_id:
        raise BadInput("a contact needs at least one identity or an external id", code="BAD_IDENTITY")
    if len(parsed) > MAX_IDENTITIES:
        raise BadInput(f"at most {MAX_IDENTITIES} identities per contact", code="BAD_IDENTITY")
    label = (name or "").strip() or (parsed[0].value if parsed else str(external_id))
    run = run_id or f"contacts:{uuid.uuid4().hex}"
    with db.owner_tx(principal.owner, read_only=True) as conn:
        plan, ref, writes = _plan(conn, parsed, label, external_id, may_merge=principal.kind == "owner")
    if not writes:  # a re-sync of what is known: no proposal, no system time spent
        return ContactUpsert(contact=get_contact(db, principal.owner, ref), run_id=run, commit=CommitResult(),
                             unchanged=True)
    try:
        ops: list[Any] = [p.MergeEntities(entity=o.ref, into=ref, reason="same contact identity")
                          for o in plan.merge]
        ops.append(p.UpsertEntity(ref=ref, kind="person", canonical_name=plan.target.name if plan.target else label,
                                  external_id=external_id))
        ops += [p.AddAlias(ref=ref, alias=i.value, namespace=i.namespace, valid_from=observed_at) for i in plan.add]
        proposal = p.MemoryMutationProposal(run_id=run, proposed_by="contacts", operations=ops)
    except ValidationError as exc:  # a name, external id or run id too long
        raise BadInput(describe(exc), code="INVALID_OPERATION") from None

    def suggest(conn: psycopg.Connection[Any], result: CommitResult) -> None:
        target = entities.resolve(conn, ref, follow=False)
        assert target is not None, "the proposal upserted it"
        for other, signal, detail in plan.suggest:
            conn.execute(load("contacts_suggestion_insert"), {"a": target.id, "b": other.id, "signal": signal,
                                                              "detail": detail, "at": result.recorded_at,
                                                              "run_id": run})

    outcome = commit_proposal(db, principal, proposal, on_commit=suggest, rules=rules)
    contact = None if outcome.rejected else get_contact(db, principal.owner, ref)
    return ContactUpsert(contact=contact, created=plan.target is None and not outcome.replayed,
                         merged=[o.ref for o in plan.merge], suggested=[o.ref for o, _, _ in plan.suggest],
                         run_id=run, commit=outcome)


def _identities(conn: psycopg.Connection[Any], ids: list[UUID], valid_time: datetime | None,
                system_time: datetime | None) -> dict[UUID, list[ContactIdentity]]:
    at = valid_time or system_time or datetime.now(UTC)
    out: dict[UUID, list[ContactIdentity]] = {i: [] for i in ids}
    for row in conn.execute(load("contacts_identities"), {"ids": ids, "valid_time": at,
                                                          "system_time": system_time}).fetchall():
        out[row["entity_id"]].append(ContactIdentity(value=row["alias"], **{
            k: row[k] for k in ("namespace", "valid_from", "valid_to", "recorded_at", "source")}))
    return out


def get_contact(db: Database, owner: str, ref: str, valid_time: datetime | None = None,
                system_time: datetime | None = None) -> Contact | None:
    """The contact a ref, alias or identity (`anna@example.org`) names, as of `system_time` (merges and
    aliases known then; now when None), with the identities valid at `valid_time` (default: now, or the
    system time)."""
    with db.owner_tx(owner, read_only=True) as conn:
        entity = entities.resolve(conn, ref, system_time=system_time)
        if entity is None:
            return None
        if entity.kind != "person":
            raise BadInput(f"{entity.ref} is a {entity.kind}, not a contact (a person)", code="KIND_MISMATCH")
        found = _identities(conn, [entity.id], valid_time, system_time)
    return Contact(ref=entity.ref, name=entity.canonical_name, identities=found[entity.id])


def list_contacts(db: Database, owner: str, name: str | None = None, limit: int = 100,
                  offset: int = 0) -> list[Contact]:
    """Active persons by name (a part of the name matches in any German spelling), identities valid now."""
    folded = fold(name.strip()) if name and name.strip() else None
    with db.owner_tx(owner, read_only=True) as conn:
        rows = conn.execute(load("contacts_list"), {"folded": folded, "limit": limit, "offset": offset}).fetchall()
        found = _identities(conn, [r["id"] for r in rows], None, None)
    return [Contact(ref=r["ref"], name=r["canonical_name"], identities=found[r["id"]]) for r in rows]


def suggestion_rows(conn: psycopg.Connection[Any], limit: int) -> list[MergeCandidate]:
    """Open contact merge suggestions, as the review's name-alike merge candidates (with why they were made)."""
    cursor = conn.cursor(row_factory=class_row(MergeCandidate))
    return cursor.execute(load("contacts_suggestions"), {"limit": limit}).fetchall()
