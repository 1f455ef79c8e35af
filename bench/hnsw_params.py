"""The HNSW index's build parameters on real vectors: what a row's insert costs and what recall the finder's
ef_search keeps, for the index as migration 0039 builds it (m 16, ef_construction 64) and for m 8,
ef_construction 32.

    python -m bench.hnsw_params [--rows 8000] [--queries 150]

On a scratch database: the offline model embeds `--rows` generated turns (bench.episodes_bench's and
bench.recall_scale's, half each); for each variant a table with its index, the vectors inserted row by row
(COPY into the indexed table, as the finder's writes do), then per query the exact top 20 (index scans off)
against the index's 20 at the finder's ef_search. Queries: turn texts cut short, and bench.recall_scale's.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import psycopg
from psycopg import sql

from bench.episodes_bench import turns
from bench.fresh_data import scratch
from bench.recall_scale import QUERIES
from bench.recall_scale import turns as scale_turns
from graph.episodes.model import line
from graph.finder.embedders import embedder_for, vector_literal
from graph.finder.vector_list import ef_search
from graph.settings import Settings, get_settings

K = 20
VARIANTS = {"m 16, ef_construction 64": sql.SQL(""),
            "m 8, ef_construction 32": sql.SQL("WITH (m = 8, ef_construction = 32)")}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.hnsw_params", description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=8000)
    parser.add_argument("--queries", type=int, default=150)
    args = parser.parse_args(argv)
    model = embedder_for(Settings(embedding_provider="offline"))
    assert model is not None
    half = args.rows // 2
    texts = [line(t.speaker, t.role, t.occurred_at, t.text) for t in turns(half, seed=11)]
    texts += [t["text"] for _, t in scale_turns(args.rows - half)]
    vectors = [vector_literal(v) for v in model.embed(texts)]
    rng = random.Random(3)
    asked = [rng.choice(texts).split(": ", 1)[-1][:40] for _ in range(max(0, args.queries - len(QUERIES)))]
    queries = [vector_literal(v) for v in model.embed(asked + QUERIES)]
    ef = ef_search(K)
    with scratch(get_settings()) as (admin, _app), psycopg.connect(admin, autocommit=True) as conn:
        for n, (name, options) in enumerate(VARIANTS.items()):
            table = sql.Identifier(f"hnsw_variant_{n}")
            conn.execute(sql.SQL("CREATE TABLE {} (id int, e vector(512))").format(table))
            conn.execute(sql.SQL("CREATE INDEX ON {} USING hnsw (e vector_cosine_ops) {}").format(table, options))
            started = time.perf_counter()
            with conn.cursor().copy(sql.SQL("COPY {} (id, e) FROM STDIN").format(table)) as copy:
                for i, v in enumerate(vectors):
                    copy.write_row((i, v))
            insert = (time.perf_counter() - started) / len(vectors) * 1000
            nearest = sql.SQL("SELECT id FROM {} ORDER BY e <=> %s::vector LIMIT {}").format(table, sql.Literal(K))
            recalls = []
            for q in queries:
                conn.execute("SET enable_indexscan = off")
                exact = {r[0] for r in conn.execute(nearest, (q,))}
                conn.execute("RESET enable_indexscan")
                conn.execute(sql.SQL("SET hnsw.ef_search = {}").format(sql.Literal(ef)))
                recalls.append(len(exact & {r[0] for r in conn.execute(nearest, (q,))}) / K)
            print(f"| {name} | {insert:.2f} ms | {statistics.mean(recalls):.3f} ({min(recalls):.2f}) |", flush=True)
    print(f"\n{args.rows} vectors, {len(queries)} queries, recall@{K} at ef_search {ef}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
