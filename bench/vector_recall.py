"""How much of the exact top k the HNSW list returns, and what it costs, for several hnsw.ef_search values.

    python -m bench.vector_recall [--set scale|retrieval] [--db NAME] [--owner SUB] [--ef 40,64,100,160,200,400]
                                  [--queries 120] [--k 20]

`--set scale` (default): bench.search_scale's database and owner (bench-a, 74,000 projections) and its query
mix (distinct queries of bench.search_scale.queries). `--set retrieval`: a database kept by
`python -m bench.retrieval_eval --keep` (owner "retrieval", 2,460 projections: below EXACT_BELOW, so the
search reads it exactly, and here the index is forced) and both labelled query sets. Each query is embedded
once by the offline model; the exact top k is finder_search_vector_exact's, and each ef value runs
finder_set_search + finder_search_vector as the finder does, the values in a shuffled order per query
(other processes share the cores). Recall is the share of the exact top k ids in the index's k rows, and
"as near" the share of the index's rows at least as similar as the exact k-th (near-duplicate texts tie,
and which of the tied rows the exact scan keeps is arbitrary); the time is the vector statement's round trip
from psycopg (execution, transfer, the vector in binary).
`--quality` (retrieval set) also scores bench.retrieval_eval's four modes per ef value with the index forced.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from typing import Any

from psycopg import sql

from bench import load as load_bench
from bench.retrieval_eval import SETS, forced_index, report
from bench.retrieval_world import HELD_OUT, QUERIES
from bench.search_scale import SCALE_DB, queries
from graph.finder import search as finder
from graph.finder.embedders import embedder_for
from graph.platform.connect import role_url
from graph.platform.db import Database
from graph.settings import Settings, get_settings
from graph.sql import load, trusted

TIE = 1e-6  # cosine similarities this close to the exact k-th count as ties (float4 arithmetic)


def texts_for(which: str, n: int) -> list[str]:
    if which == "retrieval":
        return list(dict.fromkeys(q.text for q in [*QUERIES, *HELD_OUT]))[:n]
    return list(dict.fromkeys(queries(n * 4, 100_000, random.Random(11))))[:n]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.vector_recall", description=__doc__.split("\n")[0])
    parser.add_argument("--set", choices=("scale", "retrieval"), default="scale")
    parser.add_argument("--db", default=None)
    parser.add_argument("--owner", default=None)
    parser.add_argument("--ef", default="40,64,100,160,200,400")
    parser.add_argument("--queries", type=int, default=120)
    parser.add_argument("--k", type=int, default=finder.LIST_K)
    parser.add_argument("--quality", action="store_true",
                        help="--set retrieval: also bench.retrieval_eval's scores per ef value, the index forced")
    args = parser.parse_args(argv)
    db_name = args.db or (SCALE_DB if args.set == "scale" else None)
    if db_name is None:
        print("--set retrieval needs --db (a database kept by bench.retrieval_eval --keep)", file=sys.stderr)
        return 2
    owner = args.owner or ("bench-a" if args.set == "scale" else "retrieval")
    efs = [int(x) for x in args.ef.split(",")]
    model = embedder_for(Settings(embedding_provider="offline"))
    assert model is not None
    texts = texts_for(args.set, args.queries)
    vectors = model.embed(texts)
    dim = len(vectors[0])
    exact_q = trusted(sql.SQL(load("finder_search_vector_exact")).format(dim=sql.Literal(dim)).as_string())
    index_q = trusted(sql.SQL(load("finder_search_vector")).format(dim=sql.Literal(dim)).as_string())
    base: dict[str, Any] = {"query": "", "kind": None, "k": args.k, "from": None, "to": None, "model": model.name}
    recall: dict[int, list[float]] = {ef: [] for ef in efs}
    times: dict[int, list[float]] = {ef: [] for ef in efs}
    as_near: dict[int, list[float]] = {ef: [] for ef in efs}
    gap: dict[int, list[float]] = {ef: [] for ef in efs}  # exact k-th similarity - the index's k-th
    rng = random.Random(7)
    db = Database(role_url(get_settings(), "app", db_name), max_size=1, statement_timeout_ms=120_000)
    try:
        with db.owner_tx(owner, read_only=True) as conn:
            for round_ in range(2):  # the first round warms the index's pages and the plans
                for vector in vectors:
                    params = {**base, "embedding": finder.embedding_param(vector)}
                    exact_rows = conn.execute(exact_q, params).fetchall()
                    exact = {r["id"] for r in exact_rows}
                    kth = min((r["score"] for r in exact_rows), default=1.0) - TIE
                    for ef in rng.sample(efs, len(efs)):
                        conn.execute(load("finder_set_search"), {"ef": ef})
                        started = time.perf_counter()
                        rows = conn.execute(index_q, params).fetchall()
                        took = (time.perf_counter() - started) * 1000
                        conn.execute(load("finder_reset_search"))
                        if round_:
                            times[ef].append(took)
                            recall[ef].append(len(exact & {r["id"] for r in rows}) / max(len(exact), 1))
                            gap[ef].append(kth + TIE - min((r["score"] for r in rows), default=0.0))
                            as_near[ef].append(sum(1 for r in rows if r["score"] >= kth) / max(len(exact), 1))
            plans = conn.execute(load_bench("prepared_plans")).fetchall()  # psycopg prepares after 5 runs
        if args.quality and args.set == "retrieval":
            for ef in efs:
                with forced_index(ef):
                    for label, labelled in SETS.items():
                        report(db, owner, model, False, labelled, f"{label} (HNSW forced, ef_search {ef})")
    finally:
        db.close()
    print(f"| {args.set}: {owner} on {db_name}, {len(texts)} queries, top {args.k} | ef_search | recall (mean) "
          f"| recall (worst query) | queries with all {args.k} | as near as the exact k-th (mean, worst) "
          f"| p50 ms | p95 ms |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for ef in efs:
        r, t = recall[ef], times[ef]
        full = sum(1 for x in r if x == 1.0)
        near = as_near[ef]
        print(f"| | {ef} | {100 * statistics.mean(r):.1f} % | {100 * min(r):.0f} % | {full} of {len(r)} "
              f"| {100 * statistics.mean(near):.1f} %, {100 * min(near):.0f} % "
              f"| {statistics.median(t):.2f} | {statistics.quantiles(t, n=20)[18]:.2f} |")
    top = max(efs)
    worst = sorted(range(len(texts)), key=lambda i: recall[top][i])[:8]
    print(f"worst at ef_search {top}: " + "; ".join(f"{texts[i]!r} {100 * recall[top][i]:.0f} % "
                                                    f"(k-th similarity {gap[top][i]:.4f} short)" for i in worst))
    for ef in efs:
        print(f"ef_search {ef}: the index's k-th is short of the exact k-th by {statistics.mean(gap[ef]):.4f} "
              f"on average, at most {max(gap[ef]):.4f} (cosine similarity)")
    for p in plans:
        print(f"prepared {p['statement']!r}: {p['generic_plans']} generic, {p['custom_plans']} custom plans")
    return 0


if __name__ == "__main__":
    sys.exit(main())
