"""Hybrid search: names and aliases (trigram KNN), fact values (full text), projection texts (German and
English full text) and projection meaning (vector KNN), each a real top-k over all of an owner's rows,
fused by reciprocal rank fusion (RRF: score = sum over lists of 1 / (RRF_K + rank); hits a list scores
equally share the average of their ranks).

Graph = truth, RAG = finder: a projection only points at entities; every entity hit is read from the
ledger (a merged one answers as its survivor), facts are current beliefs, and summaries or rollups are
returned as memories (texts with the time they cover), never as what is true now.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, LiteralString

import psycopg
from psycopg import sql

from graph.agent.render import EntityMatch, MemoryMatch, SearchHit, Statement
from graph.finder import query_vectors, sizes
from graph.finder.embedders import Embedder, EmbeddingFailed
from graph.finder.query_names import name_forms
from graph.finder.rounds import OwnerRounds, Rounds, in_transaction
from graph.finder.vector_param import ef_search as ef_search  # re-exported: benches override it here
from graph.finder.vector_param import embedding_param as embedding_param  # the same
from graph.reads.temporal import FactView
from graph.sql import load, trusted

log = logging.getLogger("worldmem.finder")
# 5, not the customary 60: with lists 20 deep, 60 makes a list's first hit worth 1.3 times its twentieth, so
# fusion counts lists and look-alikes found by two lists anywhere beat the one hit meaning put first; at 5
# it is worth 4 times (bench/README.md, "Why hybrid only tied vector").
RRF_K = 5
LIST_K = 20  # each list's top-k; fusion then keeps `limit`
INDEXED_DIMENSIONS = frozenset({384, 512, 768, 1024, 1536})  # HNSW indexes of migration 0039
EXACT_BELOW = 10_000  # an owner with fewer projections is read exactly (all rows sorted by distance; 0059)
Lists = Literal["name", "fact", "text", "meaning"]
ALL_LISTS: tuple[Lists, ...] = ("name", "fact", "text", "meaning")
# Query embeddings run here, beside the statements of the same search: measured, it helps the median when
# the cores are busy (26 against 37 ms p50) and not the tail (the offline model holds the GIL for most of a
# query); an OpenAI-compatible endpoint is I/O and overlaps fully. As many at once as the app's pool has
# connections.
_EMBEDDING = ThreadPoolExecutor(max_workers=8, thread_name_prefix="finder-embed")


@dataclass(frozen=True)
class Query:
    text: str
    kind: str | None = None
    valid_from: datetime | None = None  # a time range: facts and memories valid during it
    valid_to: datetime | None = None
    limit: int = 10
    lists: tuple[Lists, ...] = ALL_LISTS  # the evaluation runs single lists; search uses all


@dataclass
class _Candidate:
    hit: SearchHit
    score: float = 0.0
    found_by: list[str] = field(default_factory=list)


@dataclass
class Fused:
    hits: list[SearchHit]
    mode: str  # hybrid | text


Ranked = list[tuple[str, float]]  # (fusion key, the list's own score), best first


def rrf(ranked: Iterable[tuple[str, Ranked]], weights: Mapping[str, float] | None = None) -> dict[str, float]:
    """Reciprocal rank fusion of named ranked lists of (key, score) (pure). A key's first place in a list
    counts; keys a list scores equally share the average of their ranks, so the order within a tie (by
    row id) decides nothing. Each list's terms are multiplied by its weight (1 when not named)."""
    scores: dict[str, float] = {}
    for name, items in ranked:
        weight = (weights or {}).get(name, 1.0)
        for key, rank in tied_ranks(items).items():
            scores[key] = scores.get(key, 0.0) + weight / (RRF_K + rank)
    return scores


def tied_ranks(items: Ranked) -> dict[str, float]:
    """Each key's rank from 1 at its first place (pure); a run of equal scores gets its average rank."""
    firsts: Ranked = []
    seen: set[str] = set()
    for key, score in items:
        if key not in seen:
            seen.add(key)
            firsts.append((key, score))
    ranks: dict[str, float] = {}
    start = 0
    while start < len(firsts):
        end = start
        while end + 1 < len(firsts) and firsts[end + 1][1] == firsts[start][1]:
            end += 1
        for key, _ in firsts[start:end + 1]:
            ranks[key] = (start + end) / 2 + 1
        start = end + 1
    return ranks


def search(where: psycopg.Connection[Any] | Rounds, q: Query, embedder: Embedder | None, at: datetime) -> Fused:
    """One search: in the caller's owner transaction (a connection) or in rounds of its own (graph.finder.rounds;
    there the first round plans generically, finder_set_plans). The query is embedded in a worker thread while
    the name, fact and text lists go out as one round; the vector list is a second one (running it beside the
    first on a second connection measured no gain: the embedding is the longer branch; bench/README.md, "The
    text list keeps the owner out of the word scan"). Projection rows bring the entities they point at."""
    run = in_transaction(where) if isinstance(where, psycopg.Connection) else where
    params = {"query": q.text, "kind": q.kind, "at": at, "k": LIST_K, "from": q.valid_from, "to": q.valid_to}
    embedding = query_vector(embedder, q.text) if "meaning" in q.lists and embedder else None
    cands: dict[str, _Candidate] = {}
    lists = [(name, load(statement_for(statement, q))) for statement, name in
             (("agent_search_entities", "name"), ("agent_search_facts", "fact"), ("finder_search_text", "text"))
             if name in q.lists]
    named = {**params, "forms": name_forms(q.text)}
    first: list[tuple[str, LiteralString, Mapping[str, Any] | tuple[()]]] = []  # (label, statement, params)
    if isinstance(run, OwnerRounds) and statement_for("agent_search_facts", q) == "agent_search_facts":
        first.append(("set plans", load("finder_set_plans"), ()))
    if "name" in q.lists:
        first.append(("set names", load("finder_set_names"), ()))
    if embedding:
        first.append(("owner", load("finder_current_owner"), ()))
    first += [(name, text, named if name == "name" else params) for name, text in lists]
    rows = dict(zip([label for label, _, _ in first], run([(text, p) for _, text, p in first]), strict=True))
    owned = rows.get("owner", [])
    owner: str | None = owned[0]["owner"] if owned else None
    ranked: list[tuple[str, Ranked]] = []
    if "name" in rows:
        ranked.append(("name", _names(rows["name"], cands)))
    if "fact" in rows:
        ranked.append(("fact", _facts(rows["fact"], cands)))
    projections: list[tuple[str, list[dict[str, Any]]]] = [("text", rows["text"])] if "text" in rows else []
    mode = "text"
    if embedding is not None and embedder is not None and (vector := _vector(embedding)) is not None:
        mode = "hybrid"
        projections.append(("meaning", _nearest_to(run, vector, embedder.name, params, owner)))
    ranked += _projection_lists(projections, q.kind, cands)
    scores = rrf(ranked)  # equal weights: the evaluation found none better (bench/README.md)
    for name, items in ranked:
        for key in dict.fromkeys(key for key, _ in items):
            cands[key].found_by.append(name)
    best = sorted(scores, key=lambda key: (-scores[key], key))[: q.limit]
    hits = []
    for key in best:
        c = cands[key]
        hits.append(c.hit.model_copy(update={"score": round(scores[key], 6), "found_by": c.found_by}))
    return Fused(hits=hits, mode=mode)


def statement_for(name: str, q: Query) -> str:
    """The named statement a list runs (pure): the fact list has its own for a time range, whose start may
    reach far back (agent_search_facts bounds its rows by "valid now or later", migration 0069)."""
    if name == "agent_search_facts" and (q.valid_from is not None or q.valid_to is not None):
        return "agent_search_facts_during"
    return name


def _names(rows: list[dict[str, Any]], cands: dict[str, _Candidate]) -> Ranked:
    keys = []
    for r in rows:
        key = f"entity:{r['id']}"
        cands.setdefault(key, _Candidate(SearchHit(score=0, entity=EntityMatch.model_validate(r),
                                                   matched=r["matched"])))
        keys.append((key, float(r["score"])))
    return keys


def _facts(rows: list[dict[str, Any]], cands: dict[str, _Candidate]) -> Ranked:
    keys = []
    for r in rows:
        key = f"fact:{r['id']}"
        st = Statement(subject=r["subject_ref"], functional=r["functional"], fact=FactView.from_row(r))
        cands.setdefault(key, _Candidate(SearchHit(score=0, statement=st, matched=_text(st.fact.value))))
        keys.append((key, float(r["score"])))
    return keys


def _text(value: Any) -> str:
    return value if isinstance(value, str) else str(value)


def query_vector(embedder: Embedder, text: str) -> Future[list[float]]:
    """The query's embedding: remembered (graph.finder.query_vectors: a finished future, no thread hop) or
    computed in a worker thread beside the statements and then remembered."""
    known = query_vectors.remembered(embedder.name, text)
    if known is not None:
        done: Future[list[float]] = Future()
        done.set_result(known)
        return done
    return _EMBEDDING.submit(_embed_query, embedder, text)


def _embed_query(embedder: Embedder, text: str) -> list[float]:
    vector = embedder.embed([text])[0]
    query_vectors.remember(embedder.name, text, vector)
    return vector


def _vector(embedding: Future[list[float]]) -> list[float] | None:
    """The query's embedding, or None when the model failed (search then runs on text and names)."""
    try:
        return embedding.result()
    except EmbeddingFailed as exc:
        log.warning("query embedding failed, searching by text only: %s", exc)
        return None


def _nearest(where: psycopg.Connection[Any] | Rounds, text: str, embedder: Embedder,
             params: dict[str, Any]) -> list[dict[str, Any]] | None:
    """The vector list for `text`, or None when it cannot be embedded (the evaluation runs lists alone)."""
    run = in_transaction(where) if isinstance(where, psycopg.Connection) else where
    vector = _vector(query_vector(embedder, text))
    if vector is None:
        return None
    owned = run([(load("finder_current_owner"), ())])[0]
    return _nearest_to(run, vector, embedder.name, params, owned[0]["owner"] if owned else None)


def _nearest_to(run: Rounds, vector: list[float], model: str, params: dict[str, Any],
                owner: str | None) -> list[dict[str, Any]]:
    """The k projections nearest to `vector`: exactly for a small owner, through HNSW for a large one (the
    owner's count is remembered for a while, graph.finder.sizes); the indexed path's settings, statement
    and reset go out as one round."""
    dim = len(vector)
    indexed = dim in INDEXED_DIMENSIONS and use_index(_owner_projections(run, owner))
    name = "finder_search_vector" if indexed else "finder_search_vector_exact"
    query = trusted(sql.SQL(load(name)).format(dim=sql.Literal(dim)).as_string())  # {dim}: an int, never input
    values = {**params, "model": model, "embedding": embedding_param(vector)}
    if not indexed:
        return by_score(run([(query, values)])[0])
    found = run([(load("finder_set_search"), {"ef": ef_search(int(params["k"]))}), (query, values),
                 (load("finder_reset_search"), ())])
    return by_score(found[1])


def _owner_projections(run: Rounds, owner: str | None) -> int:
    now = time.monotonic()
    known = sizes.remembered(owner, now) if owner else None
    if known is not None:
        return known
    counted = run([(load("finder_owner_projections"), {"cap": EXACT_BELOW})])[0]
    count = counted[0]["n"] if counted else 0
    if owner:
        sizes.remember(owner, count, now)
    return count


def by_score(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows nearest first (pure). The index scan is iterative with relaxed order (finder_set_search), so it
    may return its k rows slightly out of distance order; fusion counts ranks, so they are put in order."""
    return sorted(rows, key=lambda r: -r["score"])


def use_index(owner_projections: int) -> bool:
    """The HNSW index for an owner with many projections; exact distances for a small one (pure). A small
    owner in a large table would make the index scan wade through other owners' rows (and, capped by
    hnsw.max_scan_tuples, return fewer than k); its exact scan reads fewer than EXACT_BELOW rows."""
    return owner_projections >= EXACT_BELOW


def _projection_lists(lists: list[tuple[str, list[dict[str, Any]]]], kind: str | None,
                      cands: dict[str, _Candidate]) -> list[tuple[str, Ranked]]:
    """Projection rows as fusion keys: an entity projection is its entity as the ledger has it now (the
    survivor of a merge; each row brings its `entities`, none when of another kind than asked); other rows
    are memories."""
    out = []
    for name, rows in lists:
        keys = []
        for r in rows:
            key = _projection_key(r, kind, cands)
            if key is not None:
                keys.append((key, float(r["score"])))
        out.append((name, keys))
    return out


def _projection_key(r: dict[str, Any], kind: str | None, cands: dict[str, _Candidate]) -> str | None:
    about: list[dict[str, Any]] = r["entities"]
    snippet = " ".join(r["text"].split())[:300]
    if r["source_kind"] == "entity":
        if not about:
            return None
        e = about[0]
        key = f"entity:{e['id']}"
        match = EntityMatch(id=e["id"], ref=e["ref"], kind=e["kind"], name=e["name"], score=0.0, via="text",
                            matched=snippet)
        cands.setdefault(key, _Candidate(SearchHit(score=0, entity=match, matched=snippet)))
        return key
    if kind is not None and not about:
        return None
    key = f"memory:{r['id']}"
    memory = MemoryMatch(id=r["id"], source_kind=r["source_kind"], text=r["text"], valid_from=r["valid_from"],
                         valid_to=r["valid_to"], about=[e["ref"] for e in about])
    cands.setdefault(key, _Candidate(SearchHit(score=0, memory=memory, matched=snippet)))
    return key


CONTEXT_LISTS: tuple[Lists, ...] = ("name", "text")
MAX_CONTEXT = 3


def context_entities(conn: psycopg.Connection[Any], message: str, at: datetime) -> list[EntityMatch]:
    """The context builder's fallback when deterministic linking found nothing: the entities that names and
    projection texts point at (no model call: the hot path stays fast), at most MAX_CONTEXT, via "finder"."""
    fused = search(conn, Query(text=" ".join(message.split())[:300], limit=MAX_CONTEXT, lists=CONTEXT_LISTS),
                   None, at)
    return [h.entity.model_copy(update={"via": "finder", "score": h.score}) for h in fused.hits if h.entity]
