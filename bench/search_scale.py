"""searchWorldMemory at scale (issues 11 and 13): p50 / p95 / p99 at the bench seed's 100,000 entities and
1,000,000 facts (owner bench-a), hybrid (the offline model embeds each query) and text only.

    python -m bench.search_scale [--runs 200] [--seed] [--explain] [--kinds] [--reproject [--random-vectors]]
        [--db worldmem_search_scale]

Runs on a database of its own (default worldmem_search_scale; seeded by bench.seed's steps with --seed, then
migrated with this checkout's migrations), never on the shared bench database. Adds entity projections for
bench-a once, set-based (bench/sql/scale_projections.sql: the sweep's texts with the offline model's embeddings
of them, batched by bench/scale_vectors.py; `--random-vectors` loads random unit vectors instead), with
the HNSW indexes dropped during the load and built afterwards from their own definitions (inserting 74,000
rows one by one into the graph took 1,318 s), VACUUM ANALYZEs, then calls search_world_memory end to end as
worldmem_app under row-level security.
A new owner read right after a bulk import is `python -m bench.fresh_owner`.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

import psycopg
from psycopg import sql

from bench import load, scale_vectors
from bench.seed import OWNER_A, seed, seeded
from graph.agent.search import search_world_memory
from graph.finder import query_vectors
from graph.finder.embedders import Embedder, embedder_for
from graph.platform.connect import admin_url, role_url
from graph.platform.db import Database
from graph.platform.migrate import migrate
from graph.settings import Settings, get_settings
from graph.sql import load as load_sql
from graph.sql import trusted

SCALE_DB = "worldmem_search_scale"


KINDS = ("Entity N", "Entty N", "generated entity number N", "aktiver Status", "draft", "eN@example.org",
         "who is blocked by the test", "Entwurf")  # queries() in this order, round after round


def queries(n: int, entities: int, rng: random.Random) -> list[str]:
    """Names, misspelt names, words of values, German and English phrases, and words shared by all."""
    out = []
    for _ in range(n):
        i = rng.randrange(1, entities)
        out += [f"Entity {i}", f"Entty {i}", f"generated entity number {i}", "aktiver Status", "draft",
                f"e{i}@example.org", "who is blocked by the test", "Entwurf"]
    return out[:n]


def by_kind(db: Database, model: Embedder | None, qs: list[str]) -> dict[str, dict[str, float]]:
    """p50 / p95 per query kind (KINDS), end to end: which kind of query decides the overall p95."""
    times: dict[str, list[float]] = {}
    for n, q in enumerate(qs):
        query_vectors.forget()
        started = time.perf_counter()
        search_world_memory(db, OWNER_A, q, embedder=model)
        times.setdefault(KINDS[n % len(KINDS)], []).append((time.perf_counter() - started) * 1000)
    return {kind: {"p50": statistics.median(t), "p95": statistics.quantiles(t, n=20)[18] if len(t) > 1 else t[0]}
            for kind, t in times.items()}


def prepare(settings: Settings, db: str, model: Embedder, *, again: bool = False, random_vectors: bool = False) -> None:
    """This checkout's migrations, then (once, or `again`) the projections: HNSW indexes dropped, rows inserted
    with the model's embeddings of their texts (or random unit vectors), indexes built from their saved
    definitions, VACUUM ANALYZE (visibility map and statistics as in steady state)."""
    migrate(settings, admin_url(settings, db))
    with psycopg.connect(admin_url(settings, db), autocommit=True) as conn:
        if again:
            gone = conn.execute(load("scale_unproject"), {"owner": OWNER_A}).rowcount
            print(f"[scale] {gone} projections of {OWNER_A} deleted", flush=True)
        have = conn.execute(load("scale_projected"), {"owner": OWNER_A}).fetchone()
        if have is not None and have[0]:
            print(f"[scale] {have[0]} projections of {OWNER_A} already loaded", flush=True)
            return
        started = time.perf_counter()
        conn.execute("SET maintenance_work_mem = '1GB'")
        defs = conn.execute(load("scale_hnsw_defs")).fetchall()
        for name, _ in defs:
            conn.execute(sql.SQL("DROP INDEX {}").format(sql.Identifier(name)))
        added, embedding_s = scale_vectors.insert(conn, OWNER_A, model, random_vectors=random_vectors)
        loaded = time.perf_counter()
        for _, definition in defs:
            conn.execute(trusted(definition))  # pg_indexes' text of an index this database had
        built = time.perf_counter()
        conn.execute("VACUUM ANALYZE memory_projections")
        how = "random vectors" if random_vectors else "embedded"
        print(f"[scale] {added} projections ({how} in {embedding_s:.0f} s) inserted in {loaded - started:.0f} s, "
              f"{len(defs)} HNSW indexes built "
              f"in {built - loaded:.0f} s, vacuumed in {time.perf_counter() - built:.0f} s", flush=True)


def measure(db: Database, model: Embedder | None, qs: list[str]) -> dict[str, float]:
    times = []
    for q in qs:
        query_vectors.forget()  # every query embedded as a new one (the queries repeat; see query_vectors)
        started = time.perf_counter()
        search_world_memory(db, OWNER_A, q, embedder=model)
        times.append((time.perf_counter() - started) * 1000)
    cuts = statistics.quantiles(times, n=100)
    return {"p50": statistics.median(times), "p95": cuts[94], "p99": cuts[98]}


def explain(db: Database, model: Embedder, q: str) -> None:
    """EXPLAIN ANALYZE of each list for one query, as the app role under RLS."""
    from graph.finder import search as finder
    from graph.finder.embedders import vector_literal
    from graph.finder.query_names import name_forms

    params = {"query": q, "kind": None, "at": "now", "k": finder.LIST_K, "from": None, "to": None,
              "forms": name_forms(q), "cap": finder.answers.WORD_CAP, "episodes": True,
              "model": model.name, "embedding": vector_literal(model.embed([q])[0])}
    with db.owner_tx(OWNER_A, read_only=True) as conn:
        conn.execute(load_sql("finder_set_names"))
        for name in ("agent_search_entities", "agent_search_facts", "finder_search_text", "finder_search_vector"):
            text = load_sql(name).replace("{dim}", "512")
            if name == "finder_search_vector":  # as the search runs it: only this statement without sorting
                conn.execute(load_sql("finder_set_search"), {"ef": finder.ef_search(finder.LIST_K)})
            plan = conn.execute("EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, SUMMARY ON) " + text, params).fetchall()
            print(f"\n-- {name} ({q!r})")
            for row in plan:
                print(row["QUERY PLAN"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.search_scale", description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--entities", type=int, default=100_000)
    parser.add_argument("--seed", action="store_true", help="seed the bench database when it is missing")
    parser.add_argument("--explain", action="store_true", help="EXPLAIN ANALYZE each list for sample queries")
    parser.add_argument("--kinds", action="store_true", help="also p50 / p95 per query kind, hybrid and text mode")
    parser.add_argument("--db", default=SCALE_DB, help="the bench's own database (never the shared one)")
    parser.add_argument("--reproject", action="store_true",
                        help="delete the owner's projections and load them again (after a change of their text)")
    parser.add_argument("--random-vectors", action="store_true",
                        help="with --reproject: random unit vectors instead of the model's embeddings of the texts")
    args = parser.parse_args(argv)
    settings = get_settings()
    if (OWNER_A, args.entities) not in seeded(settings, args.db):
        if not args.seed:
            print(f"[scale] {args.db} does not hold {args.entities} entities: run with --seed", file=sys.stderr)
            return 2
        seed(settings, args.entities, args.entities // 10, db=args.db)
    model = embedder_for(Settings(embedding_provider="offline"))
    assert model is not None
    prepare(settings, args.db, model, again=args.reproject, random_vectors=args.random_vectors)
    db = Database(role_url(settings, "app", args.db), max_size=2, statement_timeout_ms=60_000)
    try:
        qs = queries(args.runs, args.entities, random.Random(11))
        for q in qs[:20]:  # warm-up: the model's weights, the pool, the caches
            search_world_memory(db, OWNER_A, q, embedder=model)
        rows = {"hybrid": measure(db, model, qs), "text only (no model)": measure(db, None, qs)}
        print(f"| searchWorldMemory at {args.entities:,} entities, {args.runs} queries | p50 ms | p95 ms | p99 ms |")
        print("|---|---:|---:|---:|")
        for mode, r in rows.items():
            print(f"| {mode} | {r['p50']:.1f} | {r['p95']:.1f} | {r['p99']:.1f} |")
        if args.kinds:
            hybrid, text = by_kind(db, model, qs), by_kind(db, None, qs)
            print("\n| query kind | hybrid p50 / p95 ms | text p50 / p95 ms |\n|---|---:|---:|")
            for kind, r in text.items():
                h = hybrid[kind]
                print(f"| {kind} | {h['p50']:.1f} / {h['p95']:.1f} | {r['p50']:.1f} / {r['p95']:.1f} |")
        if args.explain:
            for q in ("Entty 4242", "generated entity number 4242", "aktiver Status"):
                explain(db, model, q)
    finally:
        db.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
