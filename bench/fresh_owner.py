"""A new owner's bulk import, read at once: are the reads as fast as after ANALYZE?

On a scratch database of its own (created, migrated and dropped here; autovacuum off on its tables, so
no background ANALYZE hides the case): owner A imports 3,000 people with two facts each in 500-operation
proposals, the database is analyzed, then owner B imports the same and is read immediately:
searchWorldMemory, stateAt, neighbors, getEntity and worldContext, round-robin, as worldmem_app under
row-level security. Then a plain ANALYZE and the same reads again. Prints p50/p95 per read in both
states, their ratio (target: within 2x) and statement timeouts (target: none).

    python -m bench.fresh_owner [--people 3000] [--runs 40] [--baseline] [--trigram-ab ROUNDS] [--finder]

--finder: each import is followed by the reconciler (projections, embedded by the offline model) and
searchWorldMemory embeds its query: all four lists of the hybrid search, as the server runs it.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import psycopg

from bench import load
from bench.fresh_data import CITIES, JOBS, description, name, people, ref, scratch
from graph.agent.recall import get_entity
from graph.agent.search import search_world_memory
from graph.agent.world_context import ContextRequest, world_context
from graph.finder.embedders import Embedder, embedder_for
from graph.finder.reconciler import reconcile_owner
from graph.ledger.committer import commit_proposal
from graph.ledger.tokens import owner_principal
from graph.platform.db import Database
from graph.reads.temporal import state_at
from graph.reads.traversal import NeighborQuery, neighbors
from graph.settings import Settings, get_settings

OWNER_A, OWNER_B = "fresh-a", "fresh-b"
BENCH_TIMEOUT_MS = 120_000
Case = tuple[Callable[[Any], int], list[Any]]


def import_people(db: Database, owner: str, n: int) -> float:
    """Commit n people for `owner`; facts (and relationships) per second."""
    started, facts = time.perf_counter(), 0
    for proposal in people(n, f"fresh-{owner}"):
        result = commit_proposal(db, owner_principal(owner), proposal)
        if result.rejected:
            raise RuntimeError(f"import rejected: {result.rejected[:3]}")
        facts += result.committed - len(proposal.operations) // 3
    return facts / (time.perf_counter() - started)


def queries(n: int, rng: random.Random) -> list[str]:
    """What a user asks: a full name, a misspelt one (trigram), a job and a city, a word of a description."""
    out = []
    for _ in range(n):
        i = rng.randrange(n)
        words = description(i).split()
        out += [name(i), name(i).replace("a", "e", 1) + "x",
                f"{rng.choice(JOBS)} {rng.choice(CITIES)}", words[-1]]
    return out[:n]


def cases(db: Database, owner: str, n: int, runs: int, model: Embedder | None = None) -> dict[str, Case]:
    rng = random.Random(16)
    refs = [ref(rng.randrange(n)) for _ in range(runs)]
    now = datetime.now(UTC)

    def search(q: str) -> int:
        return len(search_world_memory(db, owner, q, embedder=model).hits)

    def state(r: str) -> int:
        found = state_at(db, owner, r, now)
        return len(found.facts) if found else 0

    def hood(r: str) -> int:
        found = neighbors(db, owner, NeighborQuery(ref=r, depth=2))
        return len(found.hops) if found else 0

    def entity(r: str) -> int:
        return len(get_entity(db, owner, r).statements)

    def context(i: int) -> int:
        message = f"Did {name(i)} and {name(i + 1)} talk about {description(i).split()[-1]}?"
        return len(world_context(db, owner, ContextRequest(message=message)).linked)

    return {"searchWorldMemory": (search, queries(runs, rng)), "stateAt (now)": (state, refs),
            "neighbors depth 2": (hood, refs), "getEntity": (entity, refs),
            "worldContext": (context, [rng.randrange(n - 1) for _ in range(runs)])}


def timed(work: dict[str, Case]) -> dict[str, list[float]]:
    """Round-robin over the cases (input i of every case, then i + 1): ms per call."""
    times: dict[str, list[float]] = {k: [] for k in work}
    for i in range(max(len(inputs) for _, inputs in work.values())):
        for key, (fn, inputs) in work.items():
            if i < len(inputs):
                started = time.perf_counter()
                fn(inputs[i])
                times[key].append((time.perf_counter() - started) * 1000)
    return times


def summary(t: list[float]) -> dict[str, float]:
    """A call slower than the app's statement timeout counts as a timeout (the bench's own timeout is
    far longer: a statement cancelled inside an owner transaction upset this server)."""
    limit = get_settings().statement_timeout_ms
    return {"p50": statistics.median(t), "p95": statistics.quantiles(t, n=20)[18],
            "timeouts": sum(ms > limit for ms in t)}


def measure(work: dict[str, Case]) -> dict[str, dict[str, float]]:
    return {k: summary(t) for k, t in timed(work).items()}


def trigram_ab(admin: str, db: Database, people: int, runs: int, rounds: int) -> None:
    """searchWorldMemory with and without 0037's GiST indexes, alternating round by round on the same data."""
    search = {"searchWorldMemory": cases(db, OWNER_B, people, runs)["searchWorldMemory"]}
    times: dict[str, list[float]] = {"with 0037": [], "without 0037": []}
    for _ in range(rounds):
        for variant, ddl in (("without 0037", "fresh_trigram_drop"), ("with 0037", "fresh_trigram_create")):
            with psycopg.connect(admin, autocommit=True) as conn:
                conn.execute(load(ddl))
            times[variant] += timed(search)["searchWorldMemory"]
    got = {k: summary(t) for k, t in times.items()}
    print(f"searchWorldMemory, {rounds} alternating rounds of {runs}: " + "; ".join(
        f"{k} p50 {v['p50']:.2f} / p95 {v['p95']:.2f} ms" for k, v in got.items())
        + f"; p95 ratio without/with {got['without 0037']['p95'] / got['with 0037']['p95']:.2f}")


def project(db: Database, owner: str, model: Embedder | None) -> None:
    """With --finder: the reconciler's sweep and embedding for `owner` (what the server's nudger does)."""
    if model is not None:
        started = time.perf_counter()
        done = reconcile_owner(db, owner, model)
        print(f"[fresh] {owner}: {done.embedded} projections embedded in {time.perf_counter() - started:.0f} s",
              flush=True)


def analyze(admin: str) -> float:
    started = time.perf_counter()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute("ANALYZE")
    return time.perf_counter() - started


def report(fresh: dict[str, dict[str, float]], analyzed: dict[str, dict[str, float]]) -> bool:
    print("| read | right after the import p50 / p95 ms | after ANALYZE p50 / p95 ms | p95 ratio | timeouts |")
    print("|---|---:|---:|---:|---:|")
    ok = True
    for key, a in fresh.items():
        b = analyzed[key]
        ratio = a["p95"] / b["p95"]
        ok = ok and ratio <= 2 and not a["timeouts"] and not b["timeouts"]
        print(f"| {key} | {a['p50']:.2f} / {a['p95']:.2f} | {b['p50']:.2f} / {b['p95']:.2f} | {ratio:.2f} "
              f"| {a['timeouts']} / {b['timeouts']} |")
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.fresh_owner", description=__doc__.split("\n")[0])
    parser.add_argument("--people", type=int, default=3000)
    parser.add_argument("--runs", type=int, default=40, help="calls per read and state")
    parser.add_argument("--baseline", action="store_true",
                        help="owner_sub statistics as before migration 0036 (plans that flip)")
    parser.add_argument("--finder", action="store_true", help="project and embed after each import, hybrid search")
    parser.add_argument("--trigram-ab", type=int, default=0, metavar="ROUNDS",
                        help="then searchWorldMemory with and without 0037's indexes, alternating")
    args = parser.parse_args(argv)
    with scratch(get_settings()) as (admin, app):
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(load("fresh_autovacuum_off"))
            if args.baseline:
                conn.execute(load("fresh_owner_stats_default"))
        db = Database(app, max_size=2, statement_timeout_ms=BENCH_TIMEOUT_MS)
        model = embedder_for(Settings(embedding_provider="offline")) if args.finder else None
        try:
            rate_a = import_people(db, OWNER_A, args.people)
            project(db, OWNER_A, model)
            analyze(admin)
            rate_b = import_people(db, OWNER_B, args.people)
            project(db, OWNER_B, model)
            print(f"[fresh] imports: A {rate_a:.0f} facts/s, B {rate_b:.0f} facts/s", flush=True)
            fresh = measure(cases(db, OWNER_B, args.people, args.runs, model))
            print(f"[fresh] ANALYZE took {analyze(admin):.2f} s", flush=True)
            analyzed = measure(cases(db, OWNER_B, args.people, args.runs, model))
            ok = report(fresh, analyzed)
            if args.trigram_ab:
                trigram_ab(admin, db, args.people, args.runs, args.trigram_ab)
        finally:
            db.close()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
