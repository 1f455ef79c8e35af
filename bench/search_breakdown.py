"""searchWorldMemory step by step at 6,000 entities of two owners, as worldmem_app under RLS.

The world is bench.fresh_owner's with --finder (owner A imports 3,000 people, projections embedded by the
offline model, ANALYZE; then owner B the same). Each search is replayed in one owner transaction as
graph.finder.search runs it, with a clock around every step: the query embedding, each list's statement,
the projection count, the entity reads, fusion. Prints p50/p95 per step and end to end, and with --explain
EXPLAIN (ANALYZE, BUFFERS) of every statement for a few queries.

    python -m bench.search_breakdown [--people 3000] [--runs 80] [--db NAME] [--keep] [--explain] [--analyze]
                                     [--embed-ab ROUNDS]

--db NAME reuses a database built before with --keep (the build takes a few minutes); --analyze measures
after a plain ANALYZE (default: right after B's import, statistics as A left them).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

import psycopg
from psycopg import sql

from bench import load
from bench.fresh_data import scratch
from bench.fresh_owner import OWNER_A, OWNER_B, analyze, import_people, project, queries
from graph.agent.search import search_world_memory
from graph.finder import hits, query_vectors, vector_list
from graph.finder import search as finder
from graph.finder.answers import WORD_CAP
from graph.finder.embedders import Embedder, embedder_for, vector_literal
from graph.finder.query_names import name_forms
from graph.platform.connect import admin_url, role_url
from graph.platform.db import Database
from graph.settings import Settings, get_settings
from graph.sql import load as load_sql

Steps = dict[str, list[float]]


def build(admin: str, app: str, people: int, model: Embedder) -> None:
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(load("fresh_autovacuum_off"))
    db = Database(app, max_size=2, statement_timeout_ms=120_000)
    try:
        import_people(db, OWNER_A, people)
        project(db, OWNER_A, model)
        analyze(admin)
        import_people(db, OWNER_B, people)
        project(db, OWNER_B, model)
    finally:
        db.close()


@contextmanager
def world(settings: Settings, args: argparse.Namespace, model: Embedder) -> Iterator[tuple[str, str]]:
    if args.db:
        yield admin_url(settings, args.db), role_url(settings, "app", args.db)
        return
    with scratch(settings, keep=args.keep) as (admin, app):
        started = time.perf_counter()
        build(admin, app, args.people, model)
        name = psycopg.conninfo.conninfo_to_dict(admin).get("dbname")
        print(f"[breakdown] world built in {time.perf_counter() - started:.0f} s (database {name})", flush=True)
        yield admin, app


class Clock:
    def __init__(self, steps: Steps) -> None:
        self.steps = steps

    def __call__(self, step: str, fn: Callable[[], Any]) -> Any:
        started = time.perf_counter()
        out = fn()
        self.steps.setdefault(step, []).append((time.perf_counter() - started) * 1000)
        return out


def one_search(db: Database, q: str, model: Embedder, clock: Clock) -> None:
    """Each step of graph.finder.search on its own (one statement per round trip, the embedding in this
    thread), then the search as it runs (pipelined lists, embedding beside them) through search_world_memory."""
    params = {"query": q, "kind": None, "at": datetime.now(UTC), "k": finder.LIST_K, "from": None, "to": None,
              "forms": name_forms(q), "cap": WORD_CAP, "episodes": True}
    with db.owner_tx(OWNER_B, read_only=True) as conn:
        cands: hits.Candidates = {}
        conn.execute(load_sql("finder_set_names"))
        ranked = [("name", clock("names (agent_search_entities)", lambda: hits.names(
                      conn.execute(load_sql("agent_search_entities"), params).fetchall(), cands))),
                  ("fact", clock("facts (agent_search_facts)", lambda: hits.facts(
                      conn.execute(load_sql("agent_search_facts"), params).fetchall(), cands)))]
        text = clock("texts (finder_search_text)",
                     lambda: conn.execute(load_sql("finder_search_text"), params).fetchall())
        vector = clock("query embedding", lambda: model.embed([q])[0])
        owned = clock("owner count (finder_owner_projections)",
                      lambda: conn.execute(load_sql("finder_owner_projections"),
                                           {"cap": finder.EXACT_BELOW}).fetchone())
        assert owned is not None and not finder.use_index(owned["n"])
        query = sql.SQL(load_sql("finder_search_vector_exact")).format(dim=sql.Literal(len(vector)))
        vp = {**params, "model": model.name, "embedding": vector_literal(vector)}
        rows = clock("meaning (finder_search_vector_exact)", lambda: conn.execute(query, vp).fetchall())
        lists = [("text", text), ("meaning", finder.by_score(rows))]
        ranked += clock("projection keys (entities come with the rows)",
                        lambda: hits.projections(lists, None, cands))
        clock("fusion (rrf)", lambda: finder.rrf(ranked))
    query_vectors.forget()  # the query embedded as a new one (graph.finder.query_vectors would remember it)
    clock("searchWorldMemory end to end", lambda: search_world_memory(db, OWNER_B, q, embedder=model))


class _Inline:
    """The query embedded in the request thread (the before of the worker thread), as an executor."""

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future[Any]:
        done: Future[Any] = Future()
        try:
            done.set_result(fn(*args))
        except Exception as exc:  # the search reads it from the future, as from the worker's
            done.set_exception(exc)
        return done


def embedding_ab(db: Database, model: Embedder, qs: list[str], rounds: int) -> None:
    """searchWorldMemory with the query embedded by the worker thread and in the request thread, alternating."""
    worker = vector_list.EMBEDDING
    times: dict[str, list[float]] = {"worker thread": [], "request thread": []}
    try:
        for _ in range(rounds):
            for mode in ("request thread", "worker thread"):
                vector_list.EMBEDDING = worker if mode == "worker thread" else _Inline()  # type: ignore[assignment]
                for q in qs:
                    query_vectors.forget()
                    started = time.perf_counter()
                    search_world_memory(db, OWNER_B, q, embedder=model)
                    times[mode].append((time.perf_counter() - started) * 1000)
    finally:
        vector_list.EMBEDDING = worker
    for mode, t in times.items():
        print(f"[breakdown] {mode}: {len(t)} searches, p50 {statistics.median(t):.2f} / "
              f"p95 {statistics.quantiles(t, n=20)[18]:.2f} ms")


def explain(db: Database, model: Embedder, qs: list[str]) -> None:
    for q in qs:
        params = {"query": q, "kind": None, "at": datetime.now(UTC), "k": finder.LIST_K, "from": None,
                  "to": None, "forms": name_forms(q), "cap": WORD_CAP, "episodes": True, "model": model.name,
                  "embedding": vector_literal(model.embed([q])[0])}
        with db.owner_tx(OWNER_B, read_only=True) as conn:
            for name in ("agent_search_entities", "agent_search_facts", "finder_search_text",
                         "finder_search_vector_exact"):
                text = load_sql(name).replace("{dim}", "512")
                plan = conn.execute("EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) " + text, params).fetchall()
                print(f"\n-- {name} ({q!r})")
                for row in plan:
                    print(row["QUERY PLAN"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.search_breakdown", description=__doc__.split("\n")[0])
    parser.add_argument("--people", type=int, default=3000)
    parser.add_argument("--runs", type=int, default=80)
    parser.add_argument("--db", help="reuse this database (built before with --keep)")
    parser.add_argument("--keep", action="store_true", help="keep the scratch database")
    parser.add_argument("--analyze", action="store_true", help="ANALYZE before measuring")
    parser.add_argument("--explain", action="store_true")
    parser.add_argument("--embed-ab", type=int, default=0, metavar="ROUNDS",
                        help="then the query embedded in a worker thread vs the request thread, alternating")
    args = parser.parse_args(argv)
    settings = get_settings()
    model = embedder_for(Settings(embedding_provider="offline"))
    assert model is not None
    with world(settings, args, model) as (admin, app):
        if args.analyze:
            print(f"[breakdown] ANALYZE {analyze(admin):.1f} s", flush=True)
        db = Database(app, max_size=1, statement_timeout_ms=120_000)
        try:
            qs = queries(args.runs, random.Random(16))
            for q in qs[:10]:  # warm-up: the model, the connection, prepared statements
                one_search(db, q, model, Clock({}))
            steps: Steps = {}
            for q in qs:
                one_search(db, q, model, Clock(steps))
            print(f"| step ({args.runs} searches, {args.people * 2:,} entities) | p50 ms | p95 ms | max ms |")
            print("|---|---:|---:|---:|")
            for step, t in steps.items():
                cuts = statistics.quantiles(t, n=20)
                print(f"| {step} | {statistics.median(t):.2f} | {cuts[18]:.2f} | {max(t):.2f} |")
            if args.embed_ab:
                embedding_ab(db, model, qs, args.embed_ab)
            if args.explain:
                explain(db, model, [qs[0], qs[1], qs[2], qs[3]])
        finally:
            db.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
