"""Pruning at scale: the retention job on a sensor feed and on months of observed events.

On a scratch database of its own (created, migrated and dropped here): one owner with `--sensors` devices,
hourly readings for `--days` days (two ledger rows per reading, as the committer leaves a functional feed),
and `--events` observed events in each of three old months. Then, as worldmem_app under row-level security:
the dry run, the facts part of the job (rows rolled up and pruned per second), and for the events one month
rolled up + dropped as a partition against one month deleted row by row; stateAt inside the window before
and after pruning (it must not get slower).

    python -m bench.retention_bench [--sensors 20] [--days 150] [--events 300000]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from datetime import UTC, date, datetime, timedelta

import psycopg

from bench import load
from bench.fresh_data import scratch
from graph.ledger.registries import register_relation_types
from graph.platform.db import Database
from graph.reads.temporal import state_at
from graph.retention import facts, job, observed
from graph.retention.classes import month_start, next_month
from graph.settings import get_settings

OWNER = "retention-bench"
WINDOW = 90
MONTHS = [date(2025, 1, 1), date(2025, 2, 1), date(2025, 3, 1)]


def _seed(admin: str, db: Database, sensors: int, days: int, events: int, now: datetime) -> int:
    register_relation_types(db, [{"key": "temperature", "name": "temperature", "cardinality": "functional"}])
    start = (now - timedelta(days=days)).replace(minute=0, second=0, microsecond=0)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(load("retention_seed_sensors"), {"owner": OWNER, "n": sensors, "start": start})
        conn.execute(load("retention_seed_readings"), {"owner": OWNER, "start": start, "hours": days * 24})
        for m in MONTHS:
            conn.execute("SELECT wm_observed_partition(%s)", [month_start(m)])
            conn.execute(load("retention_seed_events"), {"owner": OWNER, "month": month_start(m), "n": events})
        conn.execute("ANALYZE")
        row = conn.execute("SELECT count(*) FROM facts WHERE owner_sub = %s", [OWNER]).fetchone()
    return int(row[0]) if row else 0


def _reads(db: Database, now: datetime, sensors: int) -> float:
    times = []
    for i in range(60):
        t0 = time.perf_counter()
        state_at(db, OWNER, f"device:sensor-{1 + i % sensors}", now - timedelta(days=1 + i % 30, hours=i % 24))
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sensors", type=int, default=20)
    parser.add_argument("--days", type=int, default=150)
    parser.add_argument("--events", type=int, default=300_000)
    args = parser.parse_args(argv)
    now = datetime.now(UTC)
    with scratch(get_settings()) as (admin, app):
        db = Database(app, max_size=2, statement_timeout_ms=600_000)
        try:
            t0 = time.perf_counter()
            rows = _seed(admin, db, args.sensors, args.days, args.events, now)
            print(f"seeded {rows:,} fact rows ({args.sensors} sensors x {args.days} days hourly x 2) and "
                  f"{3 * args.events:,} observed events in {time.perf_counter() - t0:.1f} s")
            read_before = _reads(db, now, args.sensors)
            options = job.Options(owner=OWNER, window_days=WINDOW, dry_run=True, now=now)
            t0 = time.perf_counter()
            dry = job.run(db, options)
            print(f"dry run: {len(dry.owners[0].series)} series-months, {dry.owners[0].windowed_rows:,} rows "
                  f"to prune in {time.perf_counter() - t0:.2f} s")

            first, second = MONTHS[0], MONTHS[1]
            t0 = time.perf_counter()
            with db.owner_tx(OWNER) as conn:
                rolled = observed.roll_up_month(conn, first, "en")
            t_rollup = time.perf_counter() - t0
            t0 = time.perf_counter()
            with db.connection() as conn, conn.transaction():
                dropped = observed.drop_month(conn, first)
            t_drop = time.perf_counter() - t0
            with psycopg.connect(admin, autocommit=True) as conn:
                t0 = time.perf_counter()
                deleted = conn.execute(load("retention_delete_month"), {
                    "start": month_start(second), "end": month_start(next_month(second))}).rowcount
                t_delete = time.perf_counter() - t0
            print(f"observed events, one month: roll-up of {rolled:,} events {t_rollup:.2f} s; dropping its "
                  f"partition ({dropped:,} rows) {t_drop * 1000:.0f} ms; deleting {deleted:,} rows instead "
                  f"{t_delete * 1000:.0f} ms ({t_delete / max(t_drop, 1e-6):.0f}x)")

            t0 = time.perf_counter()
            report = job.run(db, options.model_copy(update={"dry_run": False}))
            took = time.perf_counter() - t0
            pruned = report.owners[0].pruned
            print(f"job: pruned {pruned:,} fact rows in {len(report.owners[0].series)} series-months and "
                  f"dropped {sum(report.dropped.values()):,} events in {took:.1f} s ({pruned / took:,.0f} rows/s)")
            with db.owner_tx(OWNER, read_only=True) as conn:
                left = facts.plan(conn, report.edge)
            again = job.run(db, options.model_copy(update={"dry_run": False}))
            read_after = _reads(db, now, args.sensors)
            print(f"left to prune: {len(left)} series; second run pruned {again.owners[0].pruned}")
            print(f"stateAt inside the window, p50: {read_before:.2f} ms before, {read_after:.2f} ms after")
        finally:
            db.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
