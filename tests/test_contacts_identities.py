"""Contact identities normalised (pure) and who a contact is (plan_upsert, pure)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import pytest

from graph.domains.contacts import Person, new_ref, plan_upsert
from graph.domains.identities import Identity, parse, parse_all
from graph.errors import BadInput


@pytest.mark.parametrize(("text", "stored"), [
    ("email:Anna@Example.ORG", "email:anna@example.org"),
    (" email: mailto:anna@example.org ", "email:anna@example.org"),
    ("phone:+49 (170) 123-45/67", "phone:+491701234567"),
    ("phone:0049 170 1234567", "phone:+491701234567"),
    ("phone:0170 1234567", "phone:01701234567"),  # national: the country is never guessed
    ("matrix:@Anna:Matrix.org", "matrix:@anna:matrix.org"),
    ("matrix:anna:matrix.org", "matrix:@anna:matrix.org"),
    ("telegram:@AnnaS", "telegram:annas"),
    ("Email:anna@example.org", "email:anna@example.org"),
])
def test_identities_are_normalised(text: str, stored: str) -> None:
    assert str(parse(text)) == stored


@pytest.mark.parametrize("text", ["anna@example.org", "email:anna", "phone:call me", "matrix:@anna",
                                  "core:anna", "chat:c1", "name:Anna", "x:y", "email:", "telegram:a b"])
def test_bad_identities_are_refused_with_their_code(text: str) -> None:
    with pytest.raises(BadInput) as caught:
        parse(text)
    assert caught.value.code == "BAD_IDENTITY" and text[:10].strip() in caught.value.message


def test_parse_all_dedupes_spellings() -> None:
    assert parse_all(["email:A@b.de", "email:a@B.de", "phone:+49 1"]) == [Identity("email", "a@b.de"),
                                                                          Identity("phone", "+491")]


T = datetime(2024, 1, 1, tzinfo=UTC)


def person(ref: str, days: int = 0, name: str | None = None) -> Person:
    return Person(uuid.uuid5(uuid.NAMESPACE_URL, ref), ref, name or ref.split(":")[1].title(), T + timedelta(days))


EMAIL, PHONE = Identity("email", "anna@example.org"), Identity("phone", "+491")


def test_a_held_identity_is_the_contact_and_only_new_ones_are_added() -> None:
    anna = person("person:anna")
    plan = plan_upsert([EMAIL, PHONE], {EMAIL: anna}, None, [anna], may_merge=True)
    assert plan.target == anna and plan.add == [PHONE] and plan.merge == [] and plan.suggest == []


def test_identities_of_two_persons_merge_into_the_older_for_the_owner() -> None:
    old, new = person("person:anna", 0), person("person:anna-2", 5)
    plan = plan_upsert([EMAIL, PHONE], {EMAIL: new, PHONE: old}, None, [], may_merge=True)
    assert plan.target == old and plan.merge == [new] and plan.suggest == []


def test_other_tokens_only_suggest_and_leave_the_others_identities_alone() -> None:
    old, new = person("person:anna", 0), person("person:anna-2", 5)
    plan = plan_upsert([EMAIL, PHONE], {EMAIL: new, PHONE: old}, None, [], may_merge=False)
    assert plan.target == old and plan.merge == [] and plan.add == []
    assert plan.suggest == [(new, "shared_identity", "email:anna@example.org")]


def test_the_external_id_is_a_strong_signal_and_the_same_name_a_weak_one() -> None:
    by_ext, namesake = person("person:a-schmidt", 1), person("person:anna-schmidt", 0, "Anna Schmidt")
    plan = plan_upsert([EMAIL], {}, by_ext, [namesake], may_merge=True)
    assert plan.target == by_ext and plan.merge == [] and plan.suggest == [(namesake, "same_name", "Anna Schmidt")]
    fresh = plan_upsert([EMAIL], {}, None, [namesake], may_merge=True)
    assert fresh.target is None and fresh.add == [EMAIL] and [s[1] for s in fresh.suggest] == ["same_name"]


def test_new_refs_are_ascii_and_unique() -> None:
    assert new_ref("Jürgen Müller", set()) == "person:juergen-mueller"
    assert new_ref("Jürgen Müller", {"person:juergen-mueller"}) == "person:juergen-mueller-2"
    assert new_ref("anna@example.org", set()) == "person:anna@example.org"
