"""Code mode's queries at scale: their plans and times, and worldContext with and without a repo in scope.

    python -m bench.codemode_plans [--db worldmem_codemode_bench] [--runs 300]

A scratch database of the cluster gets, once, a filler owner written straight in as the admin role (100k
entities, 300k literal facts, 100k `part_of` relationships, 200k events; the AGE mirror is not needed by
these queries) and the code-mode sample (graph.codemode.sample) for the measured owner, through the
committer. Prints, per query, the execution time of EXPLAIN ANALYZE and the indexes its plan uses, as the
app role under row-level security, then p50/p95 of worldContext for a kitchen chat and a coding chat.
"""

from __future__ import annotations

import argparse
import statistics
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg

from bench import load as bench_load
from graph.agent.world_context import ContextRequest, build
from graph.codemode.sample import REPO, load_sample
from graph.platform.connect import admin_url, role_url
from graph.platform.db import Database
from graph.platform.migrate import migrate
from graph.settings import get_settings
from graph.sql import load

FILLER, OWNER = "codemode-filler", "codemode-bench"


def fill(url: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        if conn.execute("SELECT 1 FROM entities WHERE owner_sub = %s LIMIT 1", (FILLER,)).fetchone() is None:
            conn.execute(bench_load("codemode_fill"), {"owner": FILLER})
        conn.execute("ANALYZE entities")
        conn.execute("ANALYZE facts")
        conn.execute("ANALYZE world_events")


def plans(db: Database, at: datetime) -> list[str]:
    chain = [REPO, "project:home", "chat:code1", "person:basti"]
    queries: dict[str, dict[str, Any]] = {
        "codemode_scope_parents": {"refs": [REPO], "at": at},
        "codemode_conventions": {"chain": chain, "at": at, "limit": 200},
        "codemode_build_state": {"refs": [REPO, "project:home"], "at": at, "since": at - timedelta(days=30),
                                 "limit": 20},
        "codemode_answer_language": {"at": at}}
    out = []
    with db.owner_tx(OWNER, read_only=True) as conn:
        for name, params in queries.items():
            for _ in range(5):
                conn.execute(load(name), params).fetchall()
            lines = [next(iter(r.values())) for r in conn.execute(b"EXPLAIN (ANALYZE, COSTS OFF) " +
                                                                  load(name).encode(), params).fetchall()]
            used = sorted({line.split(" using ")[1].split(" ")[0] for line in lines if " using " in line})
            out.append(f"{name}: {lines[-1].strip()}; indexes {', '.join(used)}")
    return out


def timed(db: Database, request: ContextRequest, runs: int) -> str:
    for _ in range(20):
        build(db, OWNER, request)
    ms = []
    for _ in range(runs):
        start = time.perf_counter()
        build(db, OWNER, request)
        ms.append((time.perf_counter() - start) * 1000)
    ms.sort()
    return f"p50 {statistics.median(ms):.1f} ms, p95 {ms[int(runs * 0.95)]:.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default="worldmem_codemode_bench")
    parser.add_argument("--runs", type=int, default=300)
    args = parser.parse_args()
    settings = get_settings()
    migrate(settings, admin_url(settings, args.db))
    fill(admin_url(settings, args.db))
    db = Database(role_url(settings, "app", args.db), max_size=2)
    try:
        at = datetime.now(UTC)
        load_sample(db, OWNER, at)
        for line in plans(db, at):
            print(line)
        kitchen = ContextRequest(chat_id="c1", message="When is the cat fed?")
        coding = ContextRequest(chat_id="code1", message="run the tests", scope_chain=[REPO])
        print(f"worldContext, kitchen chat (no code scope): {timed(db, kitchen, args.runs)}")
        print(f"worldContext, coding chat (scope {REPO}): {timed(db, coding, args.runs)}")
    finally:
        db.close()


if __name__ == "__main__":
    main()
