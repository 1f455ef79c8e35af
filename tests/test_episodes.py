"""Episodes: turns stored with when and by whom, imported in bulk (all or nothing, replayable), scrubbed,
found by words at once, and owner-private."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient

from curator import turns as t
from graph.agent import search
from graph.episodes import store
from graph.episodes.model import EpisodeIn, line
from graph.errors import BadInput, Conflict
from graph.finder import reconciler
from graph.finder import search as finder
from graph.finder.answers import WORD_CAP
from graph.finder.embedders import EmbeddingFailed, embedder_for
from graph.platform.db import Database
from graph.settings import Settings
from graph.sql import load
from resolvers.app import create_app
from tests.gql import MakeToken, client, codes, gql, make_token  # noqa: F401

IMPORT = """mutation($chat: String!, $turns: [ImportTurnInput!]!, $curate: Boolean! = false) {
  importConversation(chatId: $chat, turns: $turns, curate: $curate) { chatId imported unchanged curate } }"""
SEARCH = """query($q: String!, $vt: DateTime) { searchWorldMemory(query: $q, validTime: $vt, mode: TEXT) {
  mode waiting validFrom validTo text hits { foundBy text
    episode { chatId externalId occurredAt speaker role text } } } }"""
T0 = datetime(2025, 3, 4, 9, 30, tzinfo=UTC)


def chat() -> str:
    return f"chat-{uuid.uuid4().hex[:8]}"


def ep(i: int, text: str, **kw: Any) -> EpisodeIn:
    return EpisodeIn(external_id=f"m{i}", text=text, occurred_at=T0 + timedelta(minutes=i), **kw)


def wire(i: int, text: str, role: str = "USER", speaker: str | None = "Anna") -> dict[str, Any]:
    return {"externalId": f"m{i}", "role": role, "speaker": speaker, "text": text,
            "occurredAt": (T0 + timedelta(minutes=i)).isoformat()}


def count(admin_conn: psycopg.Connection, owner: str, chat_id: str) -> tuple[int, int]:
    row = admin_conn.execute(
        "SELECT (SELECT count(*) FROM chat_turns WHERE owner_sub = %(o)s AND chat_id = %(c)s), "
        "(SELECT count(*) FROM memory_projections p JOIN chat_turns t ON p.source_key = t.id::text "
        " WHERE p.source_kind = 'episode' AND t.owner_sub = %(o)s AND t.chat_id = %(c)s)",
        {"o": owner, "c": chat_id}).fetchone()
    assert row is not None
    return row[0], row[1]


def test_line_shows_speaker_day_and_words() -> None:
    assert line("Anna", "user", T0, "Ich gehe  dienstags\nins Studio") == \
        "Anna (user) · 2025-03-04: Ich gehe dienstags ins Studio"
    assert line(None, "assistant", T0, "ok") == "assistant · 2025-03-04: ok"


def test_import_is_numbered_projected_and_replayable(db: Database, owner: str,
                                                     admin_conn: psycopg.Connection) -> None:
    c = chat()
    first = store.import_turns(db, owner, c, [ep(0, "Mein Fitnessstudio ist am Marktplatz", speaker="Anna"),
                                              ep(1, "Notiert.", role="assistant")], curate=False)
    assert (first.imported, first.unchanged) == (2, 0)
    assert [e.seq for e in first.episodes] == [1, 2] and first.episodes[0].speaker == "Anna"
    assert first.episodes[0].occurred_at == T0
    assert count(admin_conn, owner, c) == (2, 2)
    again = store.import_turns(db, owner, c, [ep(0, "Mein Fitnessstudio ist am Marktplatz", speaker="Anna"),
                                              ep(1, "Notiert.", role="assistant"), ep(2, "Danke")], curate=False)
    assert (again.imported, again.unchanged) == (1, 2) and again.episodes[0].seq == 3
    assert count(admin_conn, owner, c) == (3, 3)
    with db.owner_tx(owner) as conn:  # curate=False: an archive is not re-curated
        assert t.uncurated(conn, c) == []


def test_curate_true_leaves_the_backlog(db: Database, owner: str) -> None:
    c = chat()
    store.import_turns(db, owner, c, [ep(0, "Luna frisst Lachs"), ep(1, "Und Reis")], curate=True)
    with db.owner_tx(owner) as conn:
        assert [x.text for x in t.uncurated(conn, c)] == ["Luna frisst Lachs", "Und Reis"]


def test_bad_imports_write_nothing(db: Database, owner: str, admin_conn: psycopg.Connection) -> None:
    c = chat()
    store.import_turns(db, owner, c, [ep(0, "erste Fassung")], curate=False)
    with pytest.raises(Conflict) as reused:
        store.import_turns(db, owner, c, [ep(5, "neu"), ep(0, "andere Fassung")], curate=False)
    assert reused.value.code == "EXTERNAL_ID_REUSED"
    with pytest.raises(Conflict) as twice:
        store.import_turns(db, owner, c, [ep(6, "a"), EpisodeIn(external_id="m6", text="b", occurred_at=T0)],
                           curate=False)
    assert twice.value.code == "EXTERNAL_ID_REUSED"
    far = EpisodeIn(external_id="far", text="x", occurred_at=datetime(9999, 12, 31, 12, tzinfo=UTC))
    with pytest.raises(BadInput) as out_of_range:
        store.import_turns(db, owner, c, [ep(7, "ok"), far], curate=False)
    assert out_of_range.value.code == "TIME_OUT_OF_RANGE"
    with pytest.raises(BadInput) as many:
        store.import_turns(db, owner, c, [ep(i, "x") for i in range(10_001)], curate=False)
    assert many.value.code == "TOO_MANY_TURNS"
    assert count(admin_conn, owner, c) == (1, 1)


def test_secrets_are_scrubbed_before_storing(db: Database, owner: str, admin_conn: psycopg.Connection) -> None:
    c, key = chat(), "sk-proj-" + "a1B2" * 8
    store.import_turns(db, owner, c, [ep(0, f"mein key ist {key}")], curate=False)
    call = t.ToolCall(name="vault.read", result={"token": key})
    recorded = t.record_turn(db, owner, t.TurnIn(chat_id=c, text=f"password={key}", thinking=f"use {key}",
                                                 tool_calls=[call]))
    assert key not in recorded.text and key not in str(recorded.thinking) and key not in str(recorded.tool_calls)
    texts = admin_conn.execute("SELECT t.text, p.text FROM chat_turns t JOIN memory_projections p "
                               "ON p.source_key = t.id::text WHERE t.owner_sub = %s AND t.chat_id = %s",
                               (owner, c)).fetchall()
    assert len(texts) == 2 and all(key not in a and key not in b and "REDACTED" in a for a, b in texts)


def test_record_turn_takes_time_speaker_and_external_id(db: Database, owner: str) -> None:
    c = chat()
    said = datetime(2024, 5, 3, tzinfo=UTC)
    first = t.record_turn(db, owner, t.TurnIn(chat_id=c, text="Mamas Geburtstag ist am 12. Juni",
                                              occurred_at=said, speaker="Anna", external_id="x1"))
    assert (first.occurred_at, first.speaker, first.external_id) == (said, "Anna", "x1")
    again = t.record_turn(db, owner, t.TurnIn(chat_id=c, text="Mamas Geburtstag ist am 12. Juni",
                                              external_id="x1"))
    assert again.id == first.id and again.seq == 1
    with pytest.raises(Conflict):
        t.record_turn(db, owner, t.TurnIn(chat_id=c, text="anders", external_id="x1"))
    now = t.record_turn(db, owner, t.TurnIn(chat_id=c, text="ohne Zeit"))
    assert now.occurred_at is not None and now.occurred_at > said


def test_episodes_are_found_by_words_at_once(db: Database, owner: str) -> None:
    c = chat()
    store.import_turns(db, owner, c, [ep(0, "Übrigens, meine Mutter hat am 12. Juni Geburtstag", speaker="Anna"),
                                      ep(1, "I go to the gym on Market Square every Tuesday", speaker="Anna")],
                       curate=False)
    de = search.search_world_memory(db, owner, "Wann hat meine Mutter Geburtstag?")
    assert de.hits and de.hits[0].episode is not None and de.hits[0].episode.external_id == "m0"
    en = search.search_world_memory(db, owner, "Where do I go to the gym?")
    assert en.hits and en.hits[0].episode is not None and en.hits[0].episode.external_id == "m1"
    assert en.mode == "text" and en.waiting is not None


def test_import_and_search_over_graphql(client: TestClient, make_token: MakeToken,  # noqa: F811
                                        admin_conn: psycopg.Connection) -> None:
    token, c = make_token(), chat()
    body = gql(client, token, IMPORT, {"chat": c, "turns": [wire(0, "Luna mag Lachs am liebsten"),
                                                            wire(1, "Gut zu wissen", role="ASSISTANT", speaker=None)]})
    assert body["data"]["importConversation"] == {"chatId": c, "imported": 2, "unchanged": 0, "curate": False}
    embedded = admin_conn.execute(  # after the commit, before the call returned
        "SELECT count(*) FILTER (WHERE NOT p.embedding_pending AND p.embedding IS NOT NULL) FROM memory_projections p "
        "JOIN chat_turns t ON p.source_key = t.id::text AND p.owner_sub = t.owner_sub WHERE t.chat_id = %s",
        (c,)).fetchone()
    assert embedded == (2,)
    found = gql(client, token, SEARCH, {"q": "Lachs"})["data"]["searchWorldMemory"]
    hit = found["hits"][0]
    episode = hit["episode"]
    assert datetime.fromisoformat(episode.pop("occurredAt")) == T0
    assert episode == {"chatId": c, "externalId": "m0", "speaker": "Anna", "role": "USER",
                       "text": "Luna mag Lachs am liebsten"}
    assert "Anna (user) · 2025-03-04: Luna mag Lachs am liebsten" in hit["text"]
    assert "Anna (user) · 2025-03-04" in found["text"]
    around = gql(client, token, SEARCH, {"q": "Lachs", "vt": "2025-03-05T00:00:00Z"})["data"]["searchWorldMemory"]
    assert around["hits"] and around["validFrom"].startswith("2025-02-26")
    later = gql(client, token, SEARCH, {"q": "Lachs", "vt": "2026-03-05T00:00:00Z"})["data"]["searchWorldMemory"]
    assert [h["episode"]["externalId"] for h in later["hits"]] == ["m0"]  # said before the window: still counts
    before = gql(client, token, SEARCH, {"q": "Lachs", "vt": "2024-03-05T00:00:00Z"})["data"]["searchWorldMemory"]
    assert before["hits"] == []
    other = make_token(f"owner-{uuid.uuid4().hex[:8]}")
    assert gql(client, other, SEARCH, {"q": "Lachs"})["data"]["searchWorldMemory"]["hits"] == []


def test_bad_imports_over_graphql_are_typed(client: TestClient, make_token: MakeToken) -> None:  # noqa: F811
    token, c = make_token(), chat()
    assert codes(gql(client, token, IMPORT, {"chat": c, "turns": [wire(0, "x" * 100_001)]})) == ["INVALID_TURN"]
    assert codes(gql(client, token, IMPORT, {"chat": c, "turns": [
        {**wire(0, "x"), "occurredAt": "0001-01-01T00:00:00Z"}]})) == ["TIME_OUT_OF_RANGE"]
    gql(client, token, IMPORT, {"chat": c, "turns": [wire(0, "eins")]})
    assert codes(gql(client, token, IMPORT, {"chat": c, "turns": [wire(0, "zwei")]})) == ["EXTERNAL_ID_REUSED"]
    integration = make_token(integration=True, kind="integration", name="ha")
    assert codes(gql(client, integration, IMPORT, {"chat": c, "turns": [wire(1, "x")]})) == ["FORBIDDEN"]
    agent = make_token(kind="agent")
    assert gql(client, agent, IMPORT, {"chat": c, "turns": [wire(1, "vom Agenten")]})["data"][
        "importConversation"]["imported"] == 1


def test_an_import_is_embedded_by_the_finder_and_found_by_meaning(db: Database, owner: str,
                                                                   admin_conn: psycopg.Connection) -> None:
    model = embedder_for(Settings(embedding_provider="offline"))
    assert model is not None
    c = chat()
    store.import_turns(db, owner, c, [ep(0, "Meine Mutter hat am 12. Juni Geburtstag", speaker="Anna"),
                                      ep(1, "Der Zug nach Hamburg fährt um acht", speaker="Anna"),
                                      ep(2, "Ich gehe dienstags ins Studio am Markt", speaker="Anna")],
                       curate=False)
    # one row a batch: each batch claimed, embedded and written in a transaction of its own, none twice
    progress = reconciler.embed_pending(db, owner, model, batch=1)
    assert (progress.embedded, progress.failed) == (3, 0)
    pending = admin_conn.execute(
        "SELECT count(*) FILTER (WHERE embedding_pending), count(*) FILTER (WHERE embedding IS NOT NULL) "
        "FROM memory_projections WHERE owner_sub = %s AND source_kind = 'episode'", (owner,)).fetchone()
    assert pending == (0, 3)
    found = search.search_world_memory(db, owner, "When is my mom's birthday?", embedder=model)
    assert found.mode == "hybrid" and found.hits[0].episode is not None
    assert found.hits[0].episode.external_id == "m0" and "meaning" in found.hits[0].found_by


def test_a_failing_model_leaves_the_import_pending(db: Database, owner: str, admin_conn: psycopg.Connection) -> None:
    class Down:
        name = "down"

        def embed(self, texts: Sequence[str]) -> list[list[float]]:
            raise EmbeddingFailed("model down")

    store.import_turns(db, owner, chat(), [ep(0, "bleibt auffindbar"), ep(1, "auch das")], curate=False)
    assert reconciler.embed_pending(db, owner, Down(), batch=1).failed == 1  # the run stops at the failure
    rows = admin_conn.execute("SELECT embedding_pending, embedding_error FROM memory_projections "
                              "WHERE owner_sub = %s AND source_kind = 'episode'", (owner,)).fetchall()
    assert sorted(rows, key=str) == sorted([(True, "model down"), (True, None)], key=str)
    assert search.search_world_memory(db, owner, "auffindbar").hits[0].episode is not None


def test_mode_says_hybrid_only_when_meaning_searched_embedded_rows(db: Database, owner: str) -> None:
    model = embedder_for(Settings(embedding_provider="offline"))
    assert model is not None
    store.import_turns(db, owner, chat(), [ep(0, "Der Kletterpark öffnet im Januar")], curate=False)  # no model
    waiting = search.search_world_memory(db, owner, "Kletterpark", embedder=model)
    assert waiting.mode == "text" and waiting.waiting is not None and "nothing is embedded" in waiting.waiting
    assert waiting.hits and waiting.hits[0].episode is not None  # found by words meanwhile
    reconciler.reconcile_owner(db, owner, model)
    assert search.search_world_memory(db, owner, "Kletterpark", embedder=model).mode == "hybrid"


def test_the_context_builders_entity_fallback_never_reads_episodes(db: Database, owner: str) -> None:
    store.import_turns(db, owner, chat(), [ep(0, "Die Fütterungszeiten stehen am Kühlschrank")], curate=False)
    with db.owner_tx(owner, read_only=True) as conn:
        found = finder.search(conn, finder.Query(text="Fütterungszeiten", lists=finder.CONTEXT_LISTS), None,
                              datetime.now(UTC))
        assert found.hits == []
        everything = finder.search(conn, finder.Query(text="Fütterungszeiten"), None, datetime.now(UTC))
        assert everything.hits and everything.hits[0].episode is not None


def test_owner_and_agent_tokens_may_send_an_import_larger_than_an_ordinary_body(
        settings: Settings, app_db_url: str, make_token: MakeToken) -> None:  # noqa: F811
    small = settings.model_copy(update={"max_request_bytes": 20_000, "max_import_request_bytes": 400_000})
    turns = [wire(i, "x" * 200) for i in range(300)]  # ~80 kB
    with TestClient(create_app(small, database_url=app_db_url), raise_server_exceptions=False) as api:
        for token in (make_token(), make_token(kind="agent")):
            body = api.post("/graphql", json={"query": IMPORT, "variables": {"chat": chat(), "turns": turns}},
                            headers={"Authorization": f"Bearer {token}"})
            assert body.status_code == 200 and body.json()["data"]["importConversation"]["imported"] == 300
        anonymous = api.post("/graphql", json={"query": IMPORT, "variables": {"chat": chat(), "turns": turns}})
        assert anonymous.status_code == 413
        huge = [wire(i, "x" * 2000) for i in range(300)]  # ~600 kB: over the import bound
        too_big = api.post("/graphql", json={"query": IMPORT, "variables": {"chat": chat(), "turns": huge}},
                           headers={"Authorization": f"Bearer {make_token()}"})
        assert too_big.status_code == 413


def _scans(plan: Any, relation: str) -> list[dict[str, Any]]:
    """Every plan node that scans `relation` under the alias p (the episode list's own scan)."""
    found = []
    stack = [plan[0]["Plan"]]
    while stack:
        node = stack.pop()
        if node.get("Relation Name") == relation and node.get("Alias") == "p":
            found.append(node)
        stack += node.get("Plans", [])
    return found


def test_the_episode_list_skips_its_word_scans_for_an_owner_without_episodes(
        db: Database, owner: str, admin_conn: psycopg.Connection) -> None:
    admin_conn.execute("INSERT INTO memory_projections (owner_sub, source_kind, source_key, text) "
                       "VALUES (%s, 'summary', 'k1', 'Der Kletterpark öffnet im Januar')", (owner,))
    params = {"words": "kletterpark", "terms": ["kletterpark"], "cap": WORD_CAP, "k": 20, "from": None, "to": None,
              "near": None, "model": None}
    statement = b"EXPLAIN (ANALYZE, FORMAT JSON) " + load("finder_search_episodes").encode()

    def plan() -> list[dict[str, Any]]:
        with db.owner_tx(owner, read_only=True) as conn:
            row = conn.execute(statement, params).fetchone()
        assert row is not None
        return _scans(row["QUERY PLAN"], "memory_projections")

    scans = plan()
    assert scans and all(s["Actual Loops"] == 0 for s in scans)  # a text holds the word, but no episode
    store.import_turns(db, owner, chat(), [ep(0, "Der Kletterpark öffnet im Februar")], curate=False)
    scans = plan()
    assert any(s["Actual Loops"] > 0 for s in scans)
    with db.owner_tx(owner, read_only=True) as conn:
        rows = conn.execute(load("finder_search_episodes"), params).fetchall()
    assert [r["source_kind"] for r in rows] == ["episode"]


def test_a_pool_of_one_connection_embeds_every_batch(app_db_url: str, owner: str) -> None:
    model = embedder_for(Settings(embedding_provider="offline"))
    assert model is not None
    single = Database(app_db_url, max_size=1)  # `worldmem finder reconcile`'s pool
    try:
        store.import_turns(single, owner, chat(), [ep(0, "eins"), ep(1, "zwei"), ep(2, "drei")], curate=False)
        progress = reconciler.embed_pending(single, owner, model, batch=1)
        assert (progress.embedded, progress.failed) == (3, 0)
        assert reconciler.embed_pending(single, owner, model, batch=1).embedded == 0
    finally:
        single.close()
