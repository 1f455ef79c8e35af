"""Retrieval quality on the labelled set (bench.retrieval_world: 107 queries, German and English,
cross-lingual both ways, paraphrases, typos, references, over about 2,400 entities): hybrid search is at
least as good as full text alone and vector alone on recall@5 and better on MRR. Deterministic (the same
world, queries and offline model every run), so this is a quality assertion, not a timing one."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bench.retrieval_eval import MODES, Score, evaluate, load_world
from bench.retrieval_world import QUERIES
from graph.finder import reconciler
from graph.finder.embedders import Embedder, embedder_for
from graph.platform.db import Database
from graph.settings import Settings


@pytest.fixture(scope="module")
def world(db: Database) -> Iterator[tuple[str, Embedder]]:
    owner = "retrieval-quality"
    model = embedder_for(Settings(embedding_provider="offline"))
    assert model is not None
    load_world(db, owner, 2400)
    progress = reconciler.reconcile_owner(db, owner, model)
    assert progress.failed == 0 and progress.embedded >= 2400
    yield owner, model


def test_the_set_is_big_enough_and_covers_every_category() -> None:
    assert len(QUERIES) >= 80
    assert {q.category for q in QUERIES} == {"en", "de", "de>en", "en>de", "paraphrase", "typo", "reference"}


def test_hybrid_beats_full_text_and_vector_alone(db: Database, world: tuple[str, Embedder]) -> None:
    owner, model = world
    scores = {mode: evaluate(db, owner, model, lists) for mode, lists in MODES.items()}
    recall = {mode: Score.recall(s.ranks) for mode, s in scores.items()}
    mrr = {mode: Score.mrr(s.ranks) for mode, s in scores.items()}
    for alone in ("full text only", "vector only"):
        assert recall["hybrid"] >= recall[alone], recall
        assert mrr["hybrid"] > mrr[alone], mrr
    assert recall["hybrid"] >= 0.9 and mrr["hybrid"] >= 0.85, (recall, mrr)  # the README's figures
