"""An import's vectors: the model embeds the new turns while they commit and each batch is written while it
embeds the next (graph.finder.ahead, graph.finder.reconciler.write_ahead); a failing model leaves the turns
stored and found by words."""

from __future__ import annotations

import time
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import psycopg
import pytest

from graph.agent import search
from graph.episodes import store
from graph.episodes.model import EpisodeIn
from graph.errors import Conflict, WorldmemError
from graph.finder.ahead import Ahead
from graph.finder.embedders import EmbeddingFailed
from graph.platform.db import Database

T0 = datetime(2025, 3, 4, 9, 30, tzinfo=UTC)


class Counting:
    """A model that gives every text the same unit vector and fails from call `fails_at` on."""

    name = "counting"

    def __init__(self, fails_at: int | None = None, pause_s: float = 0.0) -> None:
        self.calls: list[int] = []
        self.fails_at, self.pause_s = fails_at, pause_s

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls.append(len(texts))
        time.sleep(self.pause_s)
        if self.fails_at is not None and len(self.calls) > self.fails_at:
            raise EmbeddingFailed("model down")
        return [[1.0] + [0.0] * 511 for _ in texts]


def turns(n: int, word: str = "Kletterhalle") -> list[EpisodeIn]:
    return [EpisodeIn(external_id=f"m{i}", text=f"{word} Nummer {i}", speaker="Anna",
                      occurred_at=T0 + timedelta(minutes=i)) for i in range(n)]


def states(admin_conn: psycopg.Connection, owner: str) -> dict[str, int]:
    row = admin_conn.execute(
        "SELECT count(*) FILTER (WHERE embedding IS NOT NULL AND NOT embedding_pending), "
        "count(*) FILTER (WHERE embedding_pending AND embedding_error IS NOT NULL), "
        "count(*) FILTER (WHERE embedding_pending AND embedding_error IS NULL) "
        "FROM memory_projections WHERE owner_sub = %s AND source_kind = 'episode'", (owner,)).fetchone()
    assert row is not None
    return {"embedded": row[0], "failed": row[1], "pending": row[2]}


def settled(model: Counting) -> int:
    """The model's calls once they stopped growing for 0.3 s (the worker notices a stop within one batch)."""
    deadline, last = time.monotonic() + 5, -1
    while len(model.calls) != last and time.monotonic() < deadline:
        last = len(model.calls)
        time.sleep(0.3)
    return len(model.calls)


def test_ahead_yields_every_batch_in_order_then_the_failure() -> None:
    model = Counting(fails_at=2)
    texts = [f"t{i}" for i in range(7)]
    got: list[int] = []
    with Ahead(model, texts, batch=3, depth=1) as ahead, pytest.raises(EmbeddingFailed, match="model down"):
        for start, vectors in ahead:
            got.append(start)
            assert vectors == [[1.0] + [0.0] * 511] * len(texts[start:start + 3])
    assert got == [0, 3] and model.calls == [3, 3, 1]


def test_leaving_the_block_stops_the_model_before_its_next_batch() -> None:
    model = Counting(pause_s=0.05)
    with Ahead(model, [f"t{i}" for i in range(100)], batch=1, depth=1) as ahead:
        next(iter(ahead))
    assert settled(model) < 10


def test_an_import_returns_with_every_new_turn_embedded(db: Database, owner: str,
                                                        admin_conn: psycopg.Connection,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store, "EMBED_BATCH", 4)
    model = Counting()
    done = store.import_turns(db, owner, "c1", turns(10), curate=False, embedder=model)
    assert (done.imported, done.embedded) == (10, 10) and model.calls == [4, 4, 2]
    assert states(admin_conn, owner) == {"embedded": 10, "failed": 0, "pending": 0}
    replay = store.import_turns(db, owner, "c1", turns(12), curate=False, embedder=model)
    assert (replay.imported, replay.unchanged, replay.embedded) == (2, 10, 2)
    assert model.calls == [4, 4, 2, 2]  # only the new turns went to the model


def test_a_model_failing_midway_leaves_the_rest_pending_and_found_by_words(
        db: Database, owner: str, admin_conn: psycopg.Connection, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store, "EMBED_BATCH", 4)
    done = store.import_turns(db, owner, "c1", turns(10), curate=False, embedder=Counting(fails_at=1))
    assert (done.imported, done.embedded) == (10, 4)
    assert states(admin_conn, owner) == {"embedded": 4, "failed": 4, "pending": 2}
    found = search.search_world_memory(db, owner, "Kletterhalle", limit=20)
    assert len([h for h in found.hits if h.episode is not None]) == 10


def test_a_refused_import_writes_nothing_and_stops_the_model(db: Database, owner: str,
                                                             admin_conn: psycopg.Connection,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store, "EMBED_BATCH", 1)
    store.import_turns(db, owner, "c1", turns(1), curate=False)
    model = Counting(pause_s=0.05)
    changed = [*turns(40)[1:], turns(1, word="anders")[0]]  # m0 again, with other text: refused
    with pytest.raises(Conflict):
        store.import_turns(db, owner, "c1", changed, curate=False, embedder=model)
    assert len(model.calls) == 0  # refused before the model started
    nul = [*turns(40)[1:], EpisodeIn(external_id="nul", text="a\x00b", occurred_at=T0)]
    with pytest.raises(WorldmemError):  # refused by the database after the model started: it stops too
        store.import_turns(db, owner, "c1", nul, curate=False, embedder=model)
    assert settled(model) < 39
    assert states(admin_conn, owner) == {"embedded": 0, "failed": 0, "pending": 1}


def test_one_connection_is_enough(app_db_url: str, owner: str, admin_conn: psycopg.Connection) -> None:
    single = Database(app_db_url, max_size=1)  # `worldmem finder reconcile`'s pool: the writes follow the commit
    try:
        done = store.import_turns(single, owner, f"c-{uuid.uuid4().hex[:6]}", turns(5), curate=False,
                                  embedder=Counting())
        assert done.embedded == 5
    finally:
        single.close()
    assert states(admin_conn, owner)["embedded"] == 5
