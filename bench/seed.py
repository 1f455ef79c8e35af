"""Load the benchmark database: 100k entities and 1M facts (300k of them REL edges) in a few minutes.

Writes straight into a separate database (`worldmem_bench`, migrated like any other) as the admin role,
with set-based INSERT ... SELECT over generate_series: ledger rows and AGE label rows from the same
scratch map (row number -> uuid -> graphid), so the graph mirror agrees with the ledger exactly.

    python -m bench.seed [--entities 100000] [--other 10000] [--if-missing]
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from datetime import UTC, datetime

import psycopg
from psycopg import sql

from bench import BENCH_DB, load
from graph.platform.connect import admin_url
from graph.platform.migrate import migrate
from graph.settings import Settings, get_settings

OWNER_A = "bench-a"
OWNER_B = "bench-b"
RELS_PER_ENTITY = 3
EVENTS_PER_RUN = 5
ENTITIES_PER_RUN = 5
# Planner statistics after each map step: the later joins go badly wrong on a freshly filled table.
STEPS = ("seed_ent_map", "seed_analyze", "seed_entities", "seed_entity_vertices", "seed_ev_map", "seed_analyze",
         "seed_events", "seed_merges", "seed_event_vertices", "seed_caused", "seed_rel_facts", "seed_literal_facts",
         "seed_owner")


@dataclass(frozen=True)
class Slice:
    """One owner's share of the graph and where its graphids start."""

    owner: str
    n: int
    goff: int
    voff: int
    roff: int
    coff: int

    @property
    def runs(self) -> int:
        return max(1, self.n // ENTITIES_PER_RUN)


def slices(entities: int, other: int) -> list[Slice]:
    a = Slice(OWNER_A, entities, 0, 0, 0, 0)
    b = Slice(OWNER_B, other, entities, a.runs * EVENTS_PER_RUN, entities * RELS_PER_ENTITY,
              a.runs * (EVENTS_PER_RUN - 1))
    return [a, b]


def bench_url(settings: Settings, db: str = BENCH_DB) -> str:
    return admin_url(settings, db)


def seeded(settings: Settings, db: str = BENCH_DB) -> list[tuple[str, int]]:
    """Owners and entity counts already in the bench database ([] when absent or unseeded)."""
    try:
        with psycopg.connect(bench_url(settings, db), connect_timeout=10) as conn:
            return [(r[0], r[1]) for r in conn.execute(load("seed_seeded")).fetchall()]
    except psycopg.Error:
        return []


def recreate(settings: Settings, db: str = BENCH_DB) -> None:
    with psycopg.connect(admin_url(settings, "postgres"), autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(db)))
    migrate(settings, bench_url(settings, db))


def _step(conn: psycopg.Connection, name: str, params: dict[str, object]) -> None:
    started = time.perf_counter()
    with conn.transaction():
        cur = conn.execute(load(name), params)
    rows = f"{cur.rowcount:>9} rows" if cur.rowcount >= 0 else " " * 14
    print(f"  {name:<22} {rows} {time.perf_counter() - started:7.1f} s", flush=True)


def seed(settings: Settings, entities: int, other: int, db: str = BENCH_DB) -> None:
    """Seed database `db` (bench.http_scale seeds its own)."""
    started = time.perf_counter()
    recreate(settings, db)
    t0 = datetime.now(UTC).replace(microsecond=0)
    parts = slices(entities, other)
    with psycopg.connect(bench_url(settings, db), autocommit=True,
                         options="-c search_path=public,ag_catalog -c synchronous_commit=off "
                                 "-c maintenance_work_mem=256MB -c jit=off") as conn:
        conn.execute(load("seed_schema"))
        for part in parts:
            print(f"[bench] owner {part.owner}: {part.n} entities, {part.runs} runs", flush=True)
            params = {"owner": part.owner, "n": part.n, "runs": part.runs, "t0": t0, "goff": part.goff,
                      "voff": part.voff, "roff": part.roff, "coff": part.coff}
            for name in STEPS:
                _step(conn, name, params)
        total = sum(p.n for p in parts)
        runs = sum(p.runs for p in parts)
        conn.execute(load("seed_finish"), {"entities": total, "rels": total * RELS_PER_ENTITY,
                                           "events": runs * EVENTS_PER_RUN,
                                           "caused": runs * (EVENTS_PER_RUN - 1)})
        analyze = time.perf_counter()
        conn.execute("VACUUM ANALYZE")
        print(f"  vacuum analyze {time.perf_counter() - analyze:27.1f} s")
    print(f"[bench] seeded {db} in {time.perf_counter() - started:.0f} s", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.seed", description=__doc__.split("\n")[0])
    parser.add_argument("--entities", type=int, default=100_000, help="entities of the measured owner")
    parser.add_argument("--other", type=int, default=10_000, help="entities of a second owner (RLS)")
    parser.add_argument("--if-missing", action="store_true", help="keep an existing seed of this size")
    args = parser.parse_args(argv)
    settings = get_settings()
    if args.if_missing and (OWNER_A, args.entities) in seeded(settings):
        print(f"[bench] {BENCH_DB} already holds {args.entities} entities; not reseeding")
        return 0
    seed(settings, args.entities, args.other)
    return 0


if __name__ == "__main__":
    sys.exit(main())
