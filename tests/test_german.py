"""German users: possessive -s and ae/oe/ue spellings link and find, refs and owners with umlauts are
refused with what is allowed, and chat-ready texts follow the owner's answer_language."""

# ruff: noqa: F811  (pytest fixtures imported from tests.gql are test arguments by design)

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from fastapi.testclient import TestClient

from graph.agent.german import ascii_slug, possessive, spellings, variants
from graph.agent.search import find_entity
from graph.agent.world_context import ContextRequest, world_context
from graph.demo import load_demo
from graph.errors import BadInput
from graph.governance.phrases import genitive, language_of
from graph.governance.review import correction_notices, pending_review
from graph.ledger import proposal as p
from graph.ledger.tokens import create_token
from graph.platform.db import Database
from tests.gql import MakeToken, client, gql, make_token  # noqa: F401 (fixtures)
from tests.test_governance import commit, entity, fact, ok

NOW = datetime.now(UTC).replace(second=0, microsecond=0)


def test_spellings_possessives_and_slugs() -> None:
    assert spellings("juergen") == ["jürgen"] and spellings("jürgen") == ["juergen"]
    assert "müller" in spellings("mueller") and spellings("luna") == []
    assert possessive("lunas") == "luna" and possessive("sebastians") == "sebastian"
    assert possessive("max") is None and possessive("boss") is None and possessive("ms") is None
    assert variants("müllers") == ["muellers", "müller", "mueller"]
    assert ascii_slug("Jürgen Groß") == "juergen-gross" and ascii_slug("José") == "jose"
    assert [genitive(n) for n in ("Luna", "Sebastian", "Klaus", "Max")] == ["Lunas", "Sebastians", "Klaus'", "Max'"]
    assert [language_of(v) for v in ("de", "de-DE", "Deutsch", "en", None, "fr")] == ["de", "de", "de", "en",
                                                                                     "en", "en"]


@pytest.fixture
def people(db: Database, owner: str) -> str:
    load_demo(db, owner, now=NOW)
    ok(commit(db, owner, entity("person:juergen", "Jürgen"), entity("person:mueller", "Anna Müller"),
              entity("person:martin", "Martin"), entity("pet:mimi", "Mimi"),
              p.AssertRelationship(subject="person:martin", predicate="owns", object="pet:mimi",
                                   valid_from=NOW - timedelta(days=1))))
    return owner


def linked(db: Database, owner: str, message: str) -> list[str]:
    view = world_context(db, owner, ContextRequest(chat_id="c9", message=message))
    return [m.entity.ref for m in view.linked]


def test_possessive_s_links(db: Database, people: str) -> None:
    assert linked(db, people, "Wann bekommt Luna ihr Frühstück?") == ["pet:luna"]
    assert linked(db, people, "Wann gibt es Lunas Frühstück?") == ["pet:luna"]
    assert linked(db, people, "Füttert jemand Martins Katze?") == ["person:martin"]
    assert linked(db, people, "Sebastians Katze") == ["person:basti"]  # the demo's Basti, alias Sebastian


def test_written_out_umlauts_link_and_find(db: Database, people: str) -> None:
    assert linked(db, people, "Hat Juergen angerufen?") == ["person:juergen"]
    assert linked(db, people, "Und Anna Mueller?") == ["person:mueller"]
    found = find_entity(db, people, "Juergen")
    assert found.unique is not None and found.unique.ref == "person:juergen"
    found = find_entity(db, people, "Anna Mueller")
    assert found.unique is not None and found.unique.ref == "person:mueller"


def test_refs_and_owners_with_umlauts_say_what_is_allowed(db: Database, owner: str, test_db_url: str) -> None:
    result = commit(db, owner, entity("person:jürgen", "Jürgen"))
    [rejected] = result.rejected
    assert rejected.code == "BAD_REF" and "person:juergen" in rejected.message and "ASCII" in rejected.message
    result = commit(db, owner, fact("person:jürgen", "birthday", "1990-01-01"))
    assert result.rejected[0].code == "UNKNOWN_ENTITY" and "person:juergen" in result.rejected[0].message
    with pytest.raises(BadInput, match="ASCII letters") as caught:
        create_token(test_db_url, "Jürgen")
    assert "'juergen'" in str(caught.value)


def test_review_and_notices_in_the_owners_language(db: Database, people: str, client: TestClient,
                                                   make_token: MakeToken) -> None:
    review = pending_review(db, people)  # the demo owner Basti answers in German
    assert review.message.startswith("Ich möchte eine Sache mit dir klären — antworte mit der Nummer und ja oder nein")
    assert "Lunas birthday: 2021-04-01? (agent, " in review.message and "% sicher)" in review.message
    assert "ja → acceptProposal(" in review.message and "nein → rejectProposal(" in review.message
    start = datetime.now(UTC) - timedelta(seconds=1)
    ok(commit(db, people, fact("pet:mimi", "birthday", "2019-04-01"), chat_id="c9"))
    ok(commit(db, people, fact("pet:mimi", "birthday", "2019-05-01"), chat_id="c9"))
    [notice] = correction_notices(db, people, "c9", start)
    assert notice.text == ("Mimis birthday: du hattest vorher 2019-04-01 gesagt, jetzt 2019-05-01 "
                           "— ich aktualisiere das.")
    body = gql(client, make_token(), "{ pendingReview { message } }")
    assert body["data"]["pendingReview"]["message"].startswith("Ich möchte")
    ok(commit(db, people, fact("person:basti", "answer_language", "en", valid_from=NOW - timedelta(hours=1))))
    assert pending_review(db, people).message.startswith("I'd like to check one thing with you")
