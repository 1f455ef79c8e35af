"""Contacts against the database: upsert by identity, strong signals (auto-merge for the owner, a
suggestion for other tokens), weak signals (the same name in any German spelling) as merge suggestions in
pendingReview, dismissals, identities as known at a system time, idempotent retries."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from fastapi.testclient import TestClient

from graph.domains import contacts as ct
from graph.errors import BadInput, Conflict
from graph.governance.review import pending_review
from graph.ledger import proposal as p
from graph.ledger.tokens import Principal
from graph.platform.db import Database
from graph.reads.temporal import state_at
from tests.gql import MakeToken, client, codes, gql, make_token  # noqa: F401
from tests.test_governance import commit, entity, ok


def owner_of(owner: str) -> Principal:
    return Principal(owner=owner, kind="owner")


def sync_of(owner: str) -> Principal:
    return Principal(owner=owner, kind="integration", name="carddav")


def values(contact: ct.Contact | None) -> list[str]:
    assert contact is not None
    return sorted(i.identity for i in contact.identities)


def test_upsert_creates_then_finds_the_same_person_by_any_spelling(db: Database, owner: str) -> None:
    first = ct.upsert_contact(db, owner_of(owner), ["email:Anna@Example.org"], "Anna Schmidt")
    assert first.created and first.contact is not None and first.contact.ref == "person:anna-schmidt"
    again = ct.upsert_contact(db, owner_of(owner), ["email:anna@example.ORG", "phone:0049 170 1234567"], "Anna S.")
    assert not again.created and again.contact is not None and again.contact.ref == "person:anna-schmidt"
    assert again.contact.name == "Anna Schmidt"  # the existing name is kept
    assert values(again.contact) == ["email:anna@example.org", "phone:+491701234567"]
    assert [c.ref for c in ct.list_contacts(db, owner)] == ["person:anna-schmidt"]


def test_identities_as_known_at_a_system_time_and_valid_at_a_world_time(db: Database, owner: str) -> None:
    since = datetime(2025, 3, 1, tzinfo=UTC)
    first = ct.upsert_contact(db, owner_of(owner), ["email:anna@example.org"], "Anna")
    ct.upsert_contact(db, owner_of(owner), ["email:anna@example.org", "matrix:@anna:example.org"], observed_at=since)
    at = first.commit.recorded_at
    assert values(ct.get_contact(db, owner, "person:anna", system_time=at)) == ["email:anna@example.org"]
    now = ct.get_contact(db, owner, "anna@example.org")
    assert values(now) == ["email:anna@example.org", "matrix:@anna:example.org"]
    before = ct.get_contact(db, owner, "person:anna", valid_time=datetime(2025, 1, 1, tzinfo=UTC))
    assert values(before) == []  # both were first valid later (the first one from its commit's time)


def test_one_contact_naming_two_persons_merges_them_for_the_owner(db: Database, owner: str) -> None:
    ct.upsert_contact(db, owner_of(owner), ["email:anna@example.org"], "Anna")
    ct.upsert_contact(db, owner_of(owner), ["phone:+491701234567"], "Anni")
    both = ct.upsert_contact(db, owner_of(owner), ["email:anna@example.org", "phone:+491701234567"])
    assert both.merged == ["person:anni"] and both.contact is not None and both.contact.ref == "person:anna"
    assert values(both.contact) == ["email:anna@example.org", "phone:+491701234567"]
    assert [c.ref for c in ct.list_contacts(db, owner)] == ["person:anna"]
    assert ct.get_contact(db, owner, "person:anni") == both.contact  # the merged ref follows to the survivor


def test_an_integration_only_suggests_and_the_owner_answers(db: Database, owner: str) -> None:
    ct.upsert_contact(db, sync_of(owner), ["email:anna@example.org"], "Anna")
    ct.upsert_contact(db, sync_of(owner), ["phone:+491701234567"], "Anni")
    both = ct.upsert_contact(db, sync_of(owner), ["email:anna@example.org", "phone:+491701234567"])
    assert both.merged == [] and both.suggested == ["person:anni"]
    assert values(both.contact) == ["email:anna@example.org"]  # Anni keeps her phone until the owner decides
    [item] = pending_review(db, owner).items
    assert item.kind == "merge_suggestion" and set(item.entity_refs) == {"person:anna", "person:anni"}
    assert item.yes.mutation == "mergeEntities" and item.no is not None
    ok(commit(db, owner, p.DismissMergeSuggestion(entity="person:anni", other="person:anna")))
    assert pending_review(db, owner).items == []
    ct.upsert_contact(db, sync_of(owner), ["email:anna@example.org", "phone:+491701234567"])
    assert pending_review(db, owner).items == []  # dismissed for good


@pytest.mark.parametrize("spelling", ["Juergen Mueller", "JÜRGEN MÜLLER", "Jürgen Müller"])
def test_the_same_name_in_any_german_spelling_is_only_suggested(db: Database, owner: str, spelling: str) -> None:
    ct.upsert_contact(db, owner_of(owner), ["email:juergen@example.org"], "Jürgen Müller")
    other = ct.upsert_contact(db, owner_of(owner), ["email:jm@work.example"], spelling)
    assert other.created and other.merged == [] and other.suggested == ["person:juergen-mueller"]
    assert other.contact is not None and other.contact.ref == "person:juergen-mueller-2"
    [item] = pending_review(db, owner).items
    assert item.yes.args == {"entity": "person:juergen-mueller-2", "into": "person:juergen-mueller"}
    ok(commit(db, owner, p.MergeEntities(entity="person:juergen-mueller-2", into="person:juergen-mueller")))
    assert pending_review(db, owner).items == []
    assert values(ct.get_contact(db, owner, "jm@work.example")) == ["email:jm@work.example",
                                                                    "email:juergen@example.org"]


def test_the_external_id_is_the_same_person(db: Database, owner: str) -> None:
    first = ct.upsert_contact(db, sync_of(owner), ["email:anna@example.org"], "Anna", external_id="carddav:42")
    second = ct.upsert_contact(db, sync_of(owner), ["email:anna.s@example.org"], "Anna", external_id="carddav:42")
    assert first.contact is not None and second.contact is not None and second.contact.ref == first.contact.ref
    assert values(second.contact) == ["email:anna.s@example.org", "email:anna@example.org"]


def test_refusals_write_nothing(db: Database, owner: str) -> None:
    ok(commit(db, owner, entity("organization:acme", "ACME"),
              p.AddAlias(ref="organization:acme", alias="info@acme.example", namespace="email")))
    with pytest.raises(Conflict) as taken:
        ct.upsert_contact(db, owner_of(owner), ["email:info@acme.example"], "Info")
    assert taken.value.code == "ALIAS_TAKEN"
    with pytest.raises(BadInput) as bad:
        ct.upsert_contact(db, owner_of(owner), ["mail anna"], "Anna")
    assert bad.value.code == "BAD_IDENTITY"
    with pytest.raises(BadInput) as empty:
        ct.upsert_contact(db, owner_of(owner), [], "Anna")
    assert empty.value.code == "BAD_IDENTITY"
    assert ct.list_contacts(db, owner) == [] and state_at(db, owner, "person:info", datetime.now(UTC)) is None
    with pytest.raises(BadInput) as kind:
        ct.get_contact(db, owner, "organization:acme")
    assert kind.value.code == "KIND_MISMATCH"


def test_a_retry_with_the_same_run_id_writes_nothing_twice(db: Database, owner: str) -> None:
    first = ct.upsert_contact(db, owner_of(owner), ["email:anna@example.org"], "Anna", run_id="sync-1")
    again = ct.upsert_contact(db, owner_of(owner), ["email:anna@example.org"], "Anna", run_id="sync-1")
    assert first.commit.committed == 2 and again.contact == first.contact
    assert again.unchanged or again.commit.replayed  # known by now, or replayed by the committer
    assert [c.ref for c in ct.list_contacts(db, owner)] == ["person:anna"]


def test_a_resync_of_known_identities_writes_nothing(db: Database, owner: str) -> None:
    first = ct.upsert_contact(db, sync_of(owner), ["email:anna@example.org", "phone:+49 1"], "Anna")
    again = ct.upsert_contact(db, sync_of(owner), ["phone:+491", "email:ANNA@example.org"], "Anna")
    assert again.unchanged and again.commit.recorded_at is None and again.contact == first.contact
    more = ct.upsert_contact(db, sync_of(owner), ["email:anna@example.org", "matrix:@anna:example.org"], "Anna")
    assert not more.unchanged and more.commit.committed == 2  # the upsert (a no-op) and the new identity
    assert values(more.contact) == ["email:anna@example.org", "matrix:@anna:example.org", "phone:+491"]


def test_list_contacts_matches_german_spellings(db: Database, owner: str) -> None:
    ct.upsert_contact(db, owner_of(owner), ["email:a@example.org"], "Jürgen Groß")
    ct.upsert_contact(db, owner_of(owner), ["email:b@example.org"], "Anna Strauss")
    assert [c.name for c in ct.list_contacts(db, owner, "gross")] == ["Jürgen Groß"]
    assert [c.name for c in ct.list_contacts(db, owner, "Strauß")] == ["Anna Strauss"]
    assert [c.name for c in ct.list_contacts(db, owner, "juergen")] == ["Jürgen Groß"]
    assert [c.name for c in ct.list_contacts(db, owner, limit=1, offset=1)] == ["Jürgen Groß"]


UPSERT = """mutation($ids: [String!]!, $name: String) { upsertContact(identities: $ids, name: $name) {
  ok created unchanged merged suggested contact { ref name identities { identity namespace value source } } } }"""


def test_graphql_upsert_and_errors(client: TestClient, make_token: MakeToken, owner: str) -> None:  # noqa: F811
    sync = make_token(kind="integration", name="carddav")
    done = gql(client, sync, UPSERT, {"ids": ["email:Anna@Example.org"], "name": "Anna"})["data"]["upsertContact"]
    assert done["ok"] and done["created"] and done["contact"]["identities"] == [
        {"identity": "email:anna@example.org", "namespace": "email", "value": "anna@example.org",
         "source": "integration:carddav"}]
    again = gql(client, sync, UPSERT, {"ids": ["email:anna@example.org"], "name": "Anna"})["data"]["upsertContact"]
    assert again["unchanged"] and not again["created"]
    assert codes(gql(client, sync, UPSERT, {"ids": ["anna"], "name": "Anna"})) == ["BAD_IDENTITY"]
    missing = gql(client, sync, '{ contact(ref: "person:ana") { ref } }')
    assert codes(missing) == ["UNKNOWN_REF"] and "person:anna" in missing["errors"][0]["message"]
    assert codes(gql(client, sync, "{ contacts(limit: 0) { ref } }")) == ["BAD_LIMIT"]
    long = gql(client, sync, UPSERT, {"ids": ["email:long@example.org"], "name": "Anna " * 80})
    assert codes(long) == ["INVALID_OPERATION"] and "canonical_name" in long["errors"][0]["message"]


def test_suggestions_are_private_and_fail_closed(db: Database, owner: str) -> None:
    ct.upsert_contact(db, owner_of(owner), ["email:a@example.org"], "Anna")
    ct.upsert_contact(db, owner_of(owner), ["email:b@example.org"], "Anna")
    with db.owner_tx(owner, read_only=True) as conn:
        assert len(ct.suggestion_rows(conn, 10)) == 1
    with db.owner_tx(f"{owner}-other", read_only=True) as conn:
        assert ct.suggestion_rows(conn, 10) == []
    with db.connection() as conn, conn.transaction():  # no owner at all: no rows
        assert ct.suggestion_rows(conn, 10) == []


def test_a_number_given_up_goes_to_a_new_contact(db: Database, owner: str) -> None:
    anna = ct.upsert_contact(db, owner_of(owner), ["phone:0049 170 1234567"], "Anna")
    assert anna.contact is not None
    ok(commit(db, owner, p.EndAlias(ref=anna.contact.ref, alias="+491701234567", namespace="phone")))  # now
    bernd = ct.upsert_contact(db, owner_of(owner), ["phone:0049 170 1234567"], "Bernd")
    assert bernd.created and bernd.contact is not None and bernd.contact.ref != anna.contact.ref
    assert values(bernd.contact) == ["phone:+491701234567"]
    again = ct.upsert_contact(db, owner_of(owner), ["phone:+49 170 1234567"], "B.")
    assert again.contact is not None and again.contact.ref == bernd.contact.ref
