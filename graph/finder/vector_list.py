"""The finder's meaning list: the query's embedding (remembered, or computed in a worker thread beside the
other lists) and the projections nearest to it, exactly for a small owner and through HNSW for a large one."""

from __future__ import annotations

import contextvars
import logging
import time
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, NamedTuple

from psycopg import sql

from graph.finder import query_vectors, sizes
from graph.finder.embedders import Embedder, EmbeddingFailed
from graph.finder.rounds import OwnerRounds, Round, Rounds
from graph.finder.vector_param import ef_search as ef_search  # re-exported: benches override it here
from graph.finder.vector_param import embedding_param as embedding_param  # the same
from graph.sql import load, trusted

log = logging.getLogger("worldmem.finder")
INDEXED_DIMENSIONS = frozenset({384, 512, 768, 1024, 1536})  # HNSW indexes of migration 0039
EXACT_BELOW = 10_000  # an owner with fewer projections is read exactly (all rows sorted by distance; 0059)
# Query embeddings run here, beside the statements of the same search: measured, it helps the median when
# the cores are busy (26 against 37 ms p50) and not the tail (the offline model holds the GIL for most of a
# query); an OpenAI-compatible endpoint is I/O and overlaps fully. As many at once as the app's pool has
# connections.
EMBEDDING = ThreadPoolExecutor(max_workers=8, thread_name_prefix="finder-embed")


class Near(NamedTuple):
    """The meaning list's rows, nearest first, and the episode list's candidate turns by meaning (empty when
    not asked for)."""

    nearest: list[dict[str, Any]]
    said: list[dict[str, Any]]


def query_vector(embedder: Embedder, text: str) -> Future[list[float]]:
    """The query's embedding: remembered (graph.finder.query_vectors: a finished future, no thread hop) or
    computed in a worker thread beside the statements and then remembered."""
    known = query_vectors.remembered(embedder.name, text)
    if known is not None:
        done: Future[list[float]] = Future()
        done.set_result(known)
        return done
    return EMBEDDING.submit(_embed_query, embedder, text)


def _embed_query(embedder: Embedder, text: str) -> list[float]:
    vector = embedder.embed([text])[0]
    query_vectors.remember(embedder.name, text, vector)
    return vector


def beside(run: OwnerRounds, embedder: Embedder, text: str, params: dict[str, Any],
           said: dict[str, Any] | None = None) -> Future[Near | None]:
    """The meaning list in a worker thread on a pooled connection of its own: the query embedded (or
    remembered), then its nearest projections (and with `said` the episode list's candidates by meaning, in the
    same round: `near`); None when the model failed. For rounds of their own, whose other lists are one
    statement on another connection meanwhile."""
    # in the caller's context: what the request collects (safe_times' notes of clamped times) sees its rows too
    return EMBEDDING.submit(contextvars.copy_context().run, _nearest_beside, run, embedder, text, params, said)


def _nearest_beside(run: OwnerRounds, embedder: Embedder, text: str, params: dict[str, Any],
                    said: dict[str, Any] | None) -> Near | None:
    known = query_vectors.remembered(embedder.name, text)
    try:
        found = known if known is not None else _embed_query(embedder, text)
    except EmbeddingFailed as exc:
        log.warning("query embedding failed, searching by text only: %s", exc)
        return None
    return near(run, found, embedder.name, params, run.owner, said)


def vector(embedding: Future[list[float]]) -> list[float] | None:
    """The query's embedding, or None when the model failed (search then runs on text and names)."""
    try:
        return embedding.result()
    except EmbeddingFailed as exc:
        log.warning("query embedding failed, searching by text only: %s", exc)
        return None


def nearest_to(run: Rounds, vector: list[float], model: str, params: dict[str, Any],
               owner: str | None) -> list[dict[str, Any]]:
    """The k projections nearest to `vector` (`near` without the episodes)."""
    return near(run, vector, model, params, owner, None)[0]


def near(run: Rounds, vector: list[float], model: str, params: dict[str, Any], owner: str | None,
         said: dict[str, Any] | None) -> Near:
    """The k projections nearest to `vector`: exactly for a small owner, through HNSW for a large one (the
    owner's count is remembered for a while, graph.finder.sizes); the indexed path's settings and statement
    go out as one round (and, in a caller's transaction, the reset of its settings; a round of its own ends
    its transaction and the settings with it). With `said` (the episode list's parameters) the same round
    also ranks that list's candidate turns by their meaning (finder_search_episodes with %(near)s): the
    turns holding a word of the question, nearest first, where the episode list ranks them by the words."""
    dim = len(vector)
    size = _owner_size(run, owner)
    indexed = dim in INDEXED_DIMENSIONS and use_index(size.projections)
    name = "finder_search_vector" if indexed else "finder_search_vector_exact"
    query = trusted(sql.SQL(load(name)).format(dim=sql.Literal(dim)).as_string())  # {dim}: an int, never input
    values = {**params, "model": model, "embedding": embedding_param(vector)}
    # the turns first: the index's settings (finder_set_search) are not theirs; in rounds of their own with
    # their generic plan (a caller's transaction keeps its own plan setting)
    turns: Round = [] if said is None or not size.turns else [
        (load("finder_search_episodes"), {**said, "near": values["embedding"], "model": model})]
    plans = bool(turns) and isinstance(run, OwnerRounds)
    first: Round = [(load("finder_set_plans"), ()), *turns, (load("finder_unset_plans"), ())] if plans else turns
    n, said_at = len(first), 1 if plans else 0
    if not indexed:
        got = run([*first, (query, values)])
        return Near(by_score(got[n]), got[said_at] if turns else [])
    settings = (load("finder_set_search"), {"ef": ef_search(int(params["k"]))})
    if isinstance(run, OwnerRounds):
        got = run([*first, settings, (query, values)])
    else:
        got = run([*first, settings, (query, values), (load("finder_reset_search"), ())])
    return Near(by_score(got[n + 1]), got[said_at] if turns else [])


def _owner_size(run: Rounds, owner: str | None) -> sizes.Size:
    now = time.monotonic()
    known = sizes.remembered(owner, now) if owner else None
    return known if known is not None else sizes.counted(owner, run([sizes.count(EXACT_BELOW)])[0], now)


def by_score(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows nearest first (pure). The index scan is iterative with relaxed order (finder_set_search), so it
    may return its k rows slightly out of distance order; fusion counts ranks, so they are put in order."""
    return sorted(rows, key=lambda r: -r["score"])


def use_index(owner_projections: int) -> bool:
    """The HNSW index for an owner with many projections; exact distances for a small one (pure). A small
    owner in a large table would make the index scan wade through other owners' rows (and, capped by
    hnsw.max_scan_tuples, return fewer than k); its exact scan reads fewer than EXACT_BELOW rows."""
    return owner_projections >= EXACT_BELOW
