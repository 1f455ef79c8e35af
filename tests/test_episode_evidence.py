"""Where did you get that? A fact opens the turn its evidence came from: by its evidence.ref, or through the
curator run that wrote it."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from fastapi.testclient import TestClient

from graph.episodes import evidence, store
from graph.episodes.model import Episode, EpisodeIn
from graph.ledger.committer import commit_proposal
from graph.ledger.proposal import AssertFact, Evidence, MemoryMutationProposal, UpsertEntity
from graph.ledger.tokens import owner_principal
from graph.platform.db import Database
from graph.sql import load
from tests.gql import MakeToken, client, gql, make_token  # noqa: F401

T0 = datetime(2025, 3, 4, 9, 30, tzinfo=UTC)
ENTITY = """query($ref: String!) { getEntity(ref: $ref) { facts { fact { predicate
  evidenceEpisode { chatId externalId speaker text } } } } }"""


def turn(seq: int, text: str, role: str = "user") -> Episode:
    return Episode(id=f"id{seq}", chat_id="c", seq=seq, occurred_at=T0, role=role, text=text)


def test_pick_prefers_the_ref_then_the_quote_then_most_shared_words() -> None:
    turns = [turn(1, "Ich bin seit März Vegetarierin."), turn(2, "Gut, ich merke mir: vegetarisch.", "assistant"),
             turn(3, "Und Luna bekommt Lachs.")]
    assert evidence.pick({"ref": "episode:id3", "text": "whatever"}, turns) == turns[2]
    assert evidence.pick({"text": "seit März  Vegetarierin"}, turns) == turns[0]
    assert evidence.pick({"text": "Luna bekommt Lachs mit Reis"}, turns) == turns[2]  # 3 of 5 words
    assert evidence.pick({"text": "etwas ganz anderes"}, turns) is None
    assert evidence.pick({}, turns) is None


def _chat(db: Database, owner: str, chat_id: str) -> list[Episode]:
    done = store.import_turns(db, owner, chat_id, [
        EpisodeIn(external_id="t1", speaker="Anna", text="Ich bin seit März Vegetarierin.", occurred_at=T0),
        EpisodeIn(external_id="t2", role="assistant", text="Notiert.", occurred_at=T0)], curate=True)
    return done.episodes


def test_a_curated_fact_opens_its_turn(db: Database, owner: str, client: TestClient,  # noqa: F811
                                       make_token: MakeToken) -> None:  # noqa: F811
    c = f"chat-{uuid.uuid4().hex[:6]}"
    said = _chat(db, owner, c)
    curated = MemoryMutationProposal(run_id="cur-1", chat_id=c, operations=[
        UpsertEntity(ref="person:anna", kind="person", canonical_name="Anna"),
        AssertFact(subject="person:anna", predicate="prefers", value="vegetarian", valid_from=T0,
                   evidence=Evidence(kind="message", text="seit März Vegetarierin"))])
    assert not commit_proposal(db, owner_principal(owner), curated).rejected
    with db.owner_tx(owner) as conn:  # what the curator records for its run: the chat and the turns it read
        conn.execute(load("curator_run_insert"), {
            "run_id": "cur-1", "chat_id": c, "from_seq": 1, "upto_seq": 2, "status": "committed", "model": "test",
            "retried": False, "proposed": 2, "committed": 2, "pending": 0, "dropped": 0, "error": None})
    facts = gql(client, make_token(), ENTITY, {"ref": "person:anna"})["data"]["getEntity"]["facts"]
    assert [f["fact"]["evidenceEpisode"] for f in facts] == [
        {"chatId": c, "externalId": "t1", "speaker": "Anna", "text": "Ich bin seit März Vegetarierin."}]
    named = MemoryMutationProposal(run_id="api-1", operations=[
        AssertFact(subject="person:anna", predicate="description", value="answers briefly", valid_from=T0,
                   evidence=Evidence(kind="message", text="-", ref=f"episode:{said[1].id}"))])
    assert not commit_proposal(db, owner_principal(owner), named).rejected
    facts = gql(client, make_token(), ENTITY, {"ref": "person:anna"})["data"]["getEntity"]["facts"]
    by_predicate = {f["fact"]["predicate"]: f["fact"]["evidenceEpisode"] for f in facts}
    assert by_predicate["description"] is not None and by_predicate["description"]["externalId"] == "t2"
    other = make_token(f"owner-{uuid.uuid4().hex[:8]}")  # another owner sees neither the fact nor the turn
    assert gql(client, other, ENTITY, {"ref": "person:anna"})["data"]["getEntity"]["facts"] == []
