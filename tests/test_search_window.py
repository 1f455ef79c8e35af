"""A time written into a search ("im März 2025", "in July 2025") is the search's window: the result names it,
turns said before it still count (those within it rank higher), and an explicit validTime wins over the words."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

from fastapi.testclient import TestClient

from graph.agent import search
from graph.episodes import store
from graph.episodes.model import EpisodeIn
from graph.finder import search as finder
from graph.platform.db import Database
from tests.gql import MakeToken, client, gql, make_token  # noqa: F401

NOW = datetime(2026, 12, 6, 12, tzinfo=UTC)
SEARCH = """query($q: String!, $vt: DateTime) { searchWorldMemory(query: $q, validTime: $vt, mode: TEXT) {
  query validFrom validTo window { words labelDe labelEn } hits { episode { externalId } } } }"""


def turns(db: Database, owner: str) -> None:
    said = [("feb", datetime(2025, 2, 10, tzinfo=UTC), "Mia übernimmt ab jetzt die Leitung von Projekt Aurora"),
            ("mar", datetime(2025, 3, 12, tzinfo=UTC), "Projekt Aurora hat heute den Meilenstein Alpha erreicht"),
            ("jul", datetime(2025, 7, 3, tzinfo=UTC), "My knee hurt after the run, the doctor said rest"),
            ("dec", datetime(2026, 11, 20, tzinfo=UTC), "Tom leads project Aurora from now on")]
    store.import_turns(db, owner, f"chat-{uuid.uuid4().hex[:8]}",
                       [EpisodeIn(external_id=x, text=text, occurred_at=at, speaker="Lena") for x, at, text in said],
                       curate=False)


def ids(result: Any) -> list[str]:
    return [h.episode.external_id for h in result.hits if h.episode is not None]


def test_read_window_in_german_and_english() -> None:
    w = search.read_window("Wer leitete Aurora im März 2025?", NOW)
    assert w is not None and w.read is not None and w.as_of is None
    assert (w.valid_from, w.valid_to) == (datetime(2025, 3, 1, tzinfo=UTC), datetime(2025, 4, 1, tzinfo=UTC))
    assert (w.read.words, w.read.label_de, w.read.label_en) == ("im März 2025", "März 2025", "March 2025")
    w = search.read_window("What did I say about my knee last July?", NOW)
    assert w is not None and w.read is not None
    assert w.read.label_en == "July 2026" and w.valid_from == datetime(2026, 7, 1, tzinfo=UTC)
    assert search.read_window("Wer leitet Aurora?", NOW) is None
    assert search.read_window("Who is in room 2025?", NOW) is None


def test_boosted_moves_rows_within_the_window_up_and_keeps_memories_to_it() -> None:
    start, end = datetime(2025, 3, 1, tzinfo=UTC), datetime(2025, 4, 1, tzinfo=UTC)
    rows = [{"id": i, "valid_from": datetime(2025, 2, 1, tzinfo=UTC)} for i in range(8)]
    rows.append({"id": 8, "valid_from": datetime(2025, 3, 5, tzinfo=UTC)})
    rows += [{"id": i, "valid_from": datetime(2025, 2, 1, tzinfo=UTC)} for i in range(9, 12)]
    order = [r["id"] for r in finder.boosted(rows, start, end)]
    assert finder.WINDOW_BOOST == 10 and order == [8, 0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11]
    earlier = finder.boosted(rows, datetime(2024, 1, 1, tzinfo=UTC), datetime(2024, 6, 1, tzinfo=UTC))
    assert [r["id"] for r in earlier] == list(range(12))
    january = {"id": "rollup", "source_kind": "rollup", "valid_from": datetime(2025, 1, 1, tzinfo=UTC),
            "valid_to": datetime(2025, 2, 1, tzinfo=UTC)}
    said = {"id": "turn", "source_kind": "episode", "valid_from": datetime(2025, 1, 2, tzinfo=UTC), "valid_to": None}
    assert [r["id"] for r in finder.boosted([january, said], start, end)] == ["turn"]  # a memory ended before it


def test_a_time_in_the_words_is_the_window_and_looks_back(db: Database, owner: str) -> None:
    turns(db, owner)
    de = search.search_world_memory(db, owner, "Wer leitete Projekt Aurora im März 2025?", read_time=True)
    assert de.window is not None and de.window.label_de == "März 2025"
    assert de.query == "Wer leitete Projekt Aurora im März 2025?"
    assert de.valid_from == datetime(2025, 3, 1, tzinfo=UTC)
    found = ids(de)
    assert "feb" in found and "mar" in found  # said before the window, and within it
    assert "dec" not in found  # said after it
    en = search.search_world_memory(db, owner, "What did the doctor say in July 2025?", read_time=True)
    assert en.window is not None and en.window.label_en == "July 2025" and ids(en)[:1] == ["jul"]


def test_without_time_words_nothing_changes(db: Database, owner: str) -> None:
    turns(db, owner)
    read = search.search_world_memory(db, owner, "Who leads project Aurora?", read_time=True)
    plain = search.search_world_memory(db, owner, "Who leads project Aurora?")
    assert read.window is None and read.valid_from is None and plain.window is None
    assert ids(read) == ids(plain) and "dec" in ids(read)
    kept = search.search_world_memory(db, owner, "Wer leitete Projekt Aurora im März 2025?")  # not asked to read
    assert kept.window is None and kept.valid_from is None and "dec" in ids(kept)


def test_graphql_reads_the_window_and_an_explicit_valid_time_wins(client: TestClient,  # noqa: F811
                                                                     make_token: MakeToken) -> None:  # noqa: F811
    token = make_token()
    body = gql(client, token, """mutation($turns: [ImportTurnInput!]!) { importConversation(chatId: "c1",
        turns: $turns) { imported } }""", {"turns": [
        {"externalId": "feb", "role": "USER", "speaker": "Lena", "text": "Mia übernimmt die Leitung von Aurora",
         "occurredAt": "2025-02-10T09:00:00Z"}]})
    assert body["data"]["importConversation"]["imported"] == 1
    read = gql(client, token, SEARCH, {"q": "Wer leitete Aurora im März 2025?"})["data"]["searchWorldMemory"]
    assert read["window"] == {"words": "im März 2025", "labelDe": "März 2025", "labelEn": "March 2025"}
    assert read["validFrom"].startswith("2025-03-01") and read["validTo"].startswith("2025-04-01")
    assert [h["episode"]["externalId"] for h in read["hits"] if h["episode"]] == ["feb"]
    given = gql(client, token, SEARCH, {"q": "Wer leitete Aurora im März 2025?", "vt": "2025-01-01T00:00:00Z"})
    result = given["data"]["searchWorldMemory"]
    assert result["window"] is None and result["validFrom"].startswith("2024-12-25") and result["hits"] == []
    plain = gql(client, token, SEARCH, {"q": "Wer leitete Aurora?"})["data"]["searchWorldMemory"]
    assert plain["window"] is None and plain["validFrom"] is None
