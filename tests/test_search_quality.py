"""Retrieval quality on the labelled sets (bench.retrieval_world: 107 queries, German and English,
cross-lingual both ways, paraphrases, typos, references, over about 2,400 entities, and 102 held-out
queries written before the fusion was tuned): hybrid search beats full text alone and vector alone on
recall@5 and on MRR, on both sets. Deterministic (the same world, queries and offline model every run), so
this is a quality assertion, not a timing one."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from psycopg import sql

from bench.retrieval_eval import MODES, Score, evaluate, load_world
from bench.retrieval_world import HELD_OUT, QUERIES, LabelledQuery
from graph.finder import reconciler, vector_list
from graph.finder import search as finder_search
from graph.finder.embedders import Embedder, embedder_for, vector_literal
from graph.finder.rounds import in_transaction
from graph.platform.connect import admin_url, role_url
from graph.platform.db import Database
from graph.platform.migrate import migrate
from graph.settings import Settings
from graph.sql import load
from tests.conftest import drop_database


@pytest.fixture(scope="module")
def quality_db(settings: Settings) -> Iterator[Database]:
    """A database of this module's own. The index path's agreement with the exact scan depends on what else
    the HNSW index holds: in the shared test database, whose index by then holds every earlier test's
    vectors (inserted, updated and erased while the graph was built), the indexed list came back short of
    20 rows in 2 of 4 full runs and never alone. Here the index holds this world only, in every run."""
    name = f"worldmem_test_quality_{os.getpid()}"  # ends in the pid: a killed run's copy is dropped as stale
    drop_database(settings, name)
    migrate(settings, admin_url(settings, name))
    database = Database(role_url(settings, "app", name), max_size=2)
    yield database
    database.close()
    drop_database(settings, name)


@pytest.fixture(scope="module")
def world(quality_db: Database) -> Iterator[tuple[Database, str, Embedder]]:
    owner = "retrieval-quality"
    model = embedder_for(Settings(embedding_provider="offline"))
    assert model is not None
    load_world(quality_db, owner, 2400)
    progress = reconciler.reconcile_owner(quality_db, owner, model)
    assert progress.failed == 0 and progress.embedded >= 2400
    yield quality_db, owner, model


CATEGORIES = {"en", "de", "de>en", "en>de", "paraphrase", "typo", "reference"}


def test_the_sets_are_big_enough_cover_every_category_and_do_not_overlap() -> None:
    assert len(QUERIES) >= 80 and len(HELD_OUT) >= 30
    assert {q.category for q in QUERIES} == CATEGORIES == {q.category for q in HELD_OUT}
    assert not {q.text.lower() for q in QUERIES} & {q.text.lower() for q in HELD_OUT}


# (queries, hybrid recall@5 and MRR at least): the figures of docs/concepts/finder.md, "Retrieval quality"
SETS = {"main": (QUERIES, 0.93, 0.88), "held out": (HELD_OUT, 0.97, 0.87)}


@pytest.mark.parametrize("name", list(SETS))
def test_hybrid_beats_full_text_and_vector_alone(world: tuple[Database, str, Embedder], name: str) -> None:
    db, owner, model = world
    queries, min_recall, min_mrr = SETS[name]
    recall, mrr = _measure(db, owner, model, queries)
    for alone in ("full text only", "vector only"):
        assert recall["hybrid"] > recall[alone], recall
        assert mrr["hybrid"] > mrr[alone], mrr
    assert recall["hybrid"] >= min_recall and mrr["hybrid"] >= min_mrr, (recall, mrr)


def _measure(db: Database, owner: str, model: Embedder,
             queries: list[LabelledQuery]) -> tuple[dict[str, float], dict[str, float]]:
    scores = {mode: evaluate(db, owner, model, lists, queries) for mode, lists in MODES.items()}
    return ({mode: Score.recall(s.ranks) for mode, s in scores.items()},
            {mode: Score.mrr(s.ranks) for mode, s in scores.items()})


def test_the_index_path_finds_what_the_exact_scan_finds(world: tuple[Database, str, Embedder],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """This world (about 2,460 projections) is below EXACT_BELOW, so search reads it exactly and the scores
    above are deterministic. An owner with more is searched through the approximate HNSW index: here, on
    the same rows, it must agree with the exact top 20 (ef_search(LIST_K) = 400: 99.9 % measured) and return them
    nearest first although the iterative scan runs in relaxed order. Each query is embedded once, so both
    sides search with the same vector."""
    db, owner, model = world
    params = {"query": "", "kind": None, "at": datetime.now(UTC), "k": finder_search.LIST_K, "from": None,
              "to": None}
    vectors = model.embed([q.text for q in QUERIES])
    with db.owner_tx(owner, read_only=True) as conn:
        run = in_transaction(conn)
        exact = [vector_list.nearest_to(run, v, model.name, params, None) for v in vectors]
        monkeypatch.setattr(vector_list, "EXACT_BELOW", 1)
        indexed = [vector_list.nearest_to(run, v, model.name, params, None) for v in vectors]
        exact_sql = sql.SQL("EXPLAIN (FORMAT JSON) " + load("finder_search_vector_exact")).format(dim=sql.Literal(512))
        vector = vector_literal([1.0] + [0.0] * 511)
        plan = json.dumps(conn.execute(exact_sql, {**params, "model": model.name, "embedding": vector}).fetchone())
    assert [len(rows) for rows in exact] == [finder_search.LIST_K] * len(QUERIES)
    assert [len(rows) for rows in indexed] == [finder_search.LIST_K] * len(QUERIES)
    shared = sum(len({r["id"] for r in a} & {r["id"] for r in b}) for a, b in zip(exact, indexed, strict=True))
    assert shared / (finder_search.LIST_K * len(QUERIES)) >= 0.97
    for rows in exact + indexed:
        assert [r["score"] for r in rows] == sorted((r["score"] for r in rows), reverse=True)
    assert "hnsw" not in plan  # the exact statement cannot become an index scan, whatever plan is cached
