"""causedBy's event lookup at scale: the old `id::text = key OR external_ref = key` against events.lookup
(parse, then the primary key or the world_events_external index).

Makes its own database (worldmem_bench_events), migrates it, records 200,000 events for one owner, then
times misses and hits of both, interleaved, as worldmem_app under the owner's row-level security.

    python -m bench.event_lookup [--events 200000] [--runs 200]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import psycopg
from psycopg.rows import dict_row

from graph.ledger.events import lookup
from graph.platform.connect import admin_url, role_url
from graph.platform.migrate import migrate
from graph.settings import get_settings
from graph.sql import trusted

DB, OWNER = "worldmem_bench_events", "bench-events"
# The query this replaced (graph/sql/event_lookup.sql's earlier form), kept here to compare against.
OLD = trusted("SELECT id, occurred_at, correlation_id FROM world_events WHERE owner_sub = wm_owner() "
              "AND (id::text = %(key)s OR external_ref = %(key)s) LIMIT 1")
SEED = trusted("INSERT INTO world_events (owner_sub, event_type, occurred_at, recorded_at, external_ref) "
               "SELECT %(owner)s, 'user_message', now(), now(), 'ext-' || g FROM generate_series(1, %(n)s) g")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=200_000)
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()
    settings = get_settings()
    migrate(settings, admin_url(settings, DB))
    with psycopg.connect(admin_url(settings, DB), autocommit=True) as admin:
        have = admin.execute("SELECT count(*) FROM world_events WHERE owner_sub = %s", (OWNER,)).fetchone()
        if have is None or have[0] < args.events:
            admin.execute(SEED, {"owner": OWNER, "n": args.events})
            admin.execute("ANALYZE world_events")
    with psycopg.connect(role_url(settings, "app", DB), row_factory=dict_row) as conn:
        conn.execute("SELECT set_config('app.current_owner', %s, false)", (OWNER,))
        cases: dict[str, Callable[[], Any]] = {
            "old, miss": lambda: conn.execute(OLD, {"key": "no-such-event"}).fetchall(),
            "old, hit by external ref": lambda: conn.execute(OLD, {"key": "ext-123456"}).fetchall(),
            "new, miss (external ref)": lambda: lookup(conn, "no-such-event"),
            "new, miss (a UUID: id, then external ref)": lambda: lookup(conn, "0190b8d2-0000-7000-8000-00000000000f"),
            "new, hit by external ref": lambda: lookup(conn, "ext-123456"),
        }
        times: dict[str, list[float]] = {name: [] for name in cases}
        for run in range(args.runs):
            for name, case in cases.items():
                if name.startswith("old") and run >= 20:
                    continue  # a sequential scan each: 20 runs are enough
                started = time.perf_counter()
                case()
                times[name].append((time.perf_counter() - started) * 1000)
    for name, samples in times.items():
        print(f"{name:45s} p50 {statistics.median(samples):8.3f} ms  ({len(samples)} runs)")


if __name__ == "__main__":
    main()
