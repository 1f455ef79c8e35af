"""searchWorldMemory at 100,000 entities, the vector list's old and new settings alternating query by query in
one process (other sessions share the two cores, so runs minutes apart are not comparable).

    python -m bench.search_ab [--runs 200] [--db worldmem_search_scale] [--ef 400,160] [--statement]

On bench.search_scale's database (prepare it there first: `python -m bench.search_scale --reproject`). Each
query runs once per variant, the variants in a shuffled order, every query embedded anew (hybrid, the
offline model). Variants: the query vector as pgvector text (embedders.vector_literal, what the finder sent
before) or binary (vector_param), and hnsw.ef_search fixed (each `--ef` value) or the finder's rule
(search.ef_search). Prints p50 / p95 / p99 per variant. `--statement`: the vector statement alone (its round
trip from psycopg, the parameter's formatting included), text against binary at the rule's ef_search, in one
owner transaction, 3 passes over up to 150 distinct queries (the first pass not counted).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from psycopg import sql

from bench.search_scale import SCALE_DB, queries
from bench.seed import OWNER_A
from graph.agent.search import search_world_memory
from graph.finder import query_vectors, vector_list
from graph.finder import search as finder
from graph.finder.embedders import Embedder, embedder_for, vector_literal
from graph.platform.connect import role_url
from graph.platform.db import Database
from graph.settings import Settings, get_settings
from graph.sql import load, trusted

Variant = tuple[Callable[[list[float]], Any], Callable[[int], int]]


@contextmanager
def variant(v: Variant) -> Iterator[None]:
    saved = vector_list.embedding_param, vector_list.ef_search
    vector_list.embedding_param, vector_list.ef_search = v  # type: ignore[assignment]  # bench-only override
    try:
        yield
    finally:
        vector_list.embedding_param, vector_list.ef_search = saved


def fixed(ef: int) -> Callable[[int], int]:
    return lambda k: ef


def variants(efs: list[int]) -> dict[str, Variant]:
    rule = finder.ef_search
    out: dict[str, Variant] = {}
    for ef in efs:
        out[f"text vector, ef_search {ef}"] = (vector_literal, fixed(ef))
        out[f"binary vector, ef_search {ef}"] = (finder.embedding_param, fixed(ef))
    out[f"binary vector, ef_search rule ({rule(finder.LIST_K)} at k {finder.LIST_K})"] = (finder.embedding_param, rule)
    return out


def statement_only(db: Database, model: Embedder, qs: list[str]) -> dict[str, list[float]]:
    texts = list(dict.fromkeys(qs))[:150]
    vectors = model.embed(texts)
    query = trusted(sql.SQL(load("finder_search_vector")).format(dim=sql.Literal(len(vectors[0]))).as_string())
    base = {"query": "", "kind": None, "k": finder.LIST_K, "from": None, "to": None, "model": model.name}
    forms: dict[str, Callable[[list[float]], Any]] = {"text vector": vector_literal,
                                                      "binary vector": finder.embedding_param}
    times: dict[str, list[float]] = {name: [] for name in forms}
    rng = random.Random(3)
    with db.owner_tx(OWNER_A, read_only=True) as conn:
        conn.execute(load("finder_set_search"), {"ef": finder.ef_search(finder.LIST_K)})
        for pass_ in range(3):
            for vector in vectors:
                for name in rng.sample(list(forms), len(forms)):
                    started = time.perf_counter()
                    conn.execute(query, {**base, "embedding": forms[name](vector)}).fetchall()
                    if pass_:
                        times[name].append((time.perf_counter() - started) * 1000)
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.search_ab", description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--db", default=SCALE_DB)
    parser.add_argument("--ef", default="400", help="fixed ef_search values to compare with the rule")
    parser.add_argument("--statement", action="store_true", help="the vector statement alone, text vs binary")
    args = parser.parse_args(argv)
    model = embedder_for(Settings(embedding_provider="offline"))
    assert model is not None
    chosen = variants([int(x) for x in args.ef.split(",") if x])
    times: dict[str, list[float]] = {name: [] for name in chosen}
    rng = random.Random(5)
    db = Database(role_url(get_settings(), "app", args.db), max_size=2, statement_timeout_ms=60_000)
    try:
        qs = queries(args.runs, 100_000, random.Random(11))
        if args.statement:
            times = statement_only(db, model, queries(args.runs * 4, 100_000, random.Random(11)))
            qs = []
        for q in qs[:20]:  # warm-up: the model's weights, the pool, the caches, each variant's prepared plans
            for v in chosen.values():
                with variant(v):
                    search_world_memory(db, OWNER_A, q, embedder=model)
        for q in qs:
            for name in rng.sample(list(chosen), len(chosen)):
                with variant(chosen[name]):
                    query_vectors.forget()
                    started = time.perf_counter()
                    search_world_memory(db, OWNER_A, q, embedder=model)
                    times[name].append((time.perf_counter() - started) * 1000)
    finally:
        db.close()
    what = "finder_search_vector alone" if args.statement else "hybrid searchWorldMemory"
    print(f"| {what}, {args.runs} queries, alternating | p50 ms | p95 ms | p99 ms |")
    print("|---|---:|---:|---:|")
    for name, t in times.items():
        cuts = statistics.quantiles(t, n=100)
        print(f"| {name} | {statistics.median(t):.2f} | {cuts[94]:.2f} | {cuts[98]:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
