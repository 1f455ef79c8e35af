"""Reads per second on a streaming standby vs on the primary, and the standby's lag under a write burst.

On a scratch database of its own (created, migrated, dropped) with a standby of the cluster of its own
(graph/platform/replica.py: pg_basebackup and a slot; stopped, slot dropped and copy removed at the end):

- reads: `--threads` threads run point reads (stateAt's one statement, Database.read_pinned) of an owner's
  300 people for `--seconds` per variant, primary and standby alternating twice (the machine's load drifts);
  reads per second and this process's CPU per read. Both servers run on this machine's cores, so the standby
  adds no capacity here: the numbers show what routing costs, not what a second machine gains.
- lag: one writer commits 500-operation proposals for `--seconds` while the primary's pg_stat_replication is
  sampled every 20 ms: how far the standby's replay trails (bytes of WAL, and replay_lag's time).

    python -m bench.replica [--seconds 10] [--threads 4]
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import sys
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime

import psycopg

from bench.fresh_data import people, ref, scratch
from graph.ledger.committer import commit_proposal
from graph.ledger.tokens import owner_principal
from graph.platform import replica
from graph.platform.connect import admin_url
from graph.platform.db import Database
from graph.platform.standby import Standbys, may_lag
from graph.reads import temporal
from graph.reads.temporal import Question
from graph.settings import get_settings
from graph.sql import load

OWNER = "bench-reader"
PEOPLE = 300


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def reads_per_second(db: Database, threads: int, seconds: float) -> tuple[float, float]:
    """Point reads per second over `threads` threads, and this process's CPU ms per read."""
    at = Question.as_of(datetime.now(UTC))
    counts = [0] * threads
    stop = time.monotonic() + seconds

    def work(k: int) -> None:
        may_lag.set(True)  # what a GraphQL query sets (resolvers.read_after)
        i = k
        while time.monotonic() < stop:
            rows = db.read_pinned(OWNER, *temporal.answer_query(ref(i % PEOPLE), at))
            assert rows, "a read found nothing"
            counts[k] += 1
            i += threads

    cpu = time.process_time()
    started = time.monotonic()
    workers = [threading.Thread(target=work, args=(k,)) for k in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    total = sum(counts)
    return total / (time.monotonic() - started), (time.process_time() - cpu) * 1000 / max(total, 1)


def lag_under_writes(db: Database, admin: str, slot: str, seconds: float) -> dict[str, float]:
    """Commit proposals for `seconds`; the standby's replay lag sampled meanwhile (bytes, ms)."""
    samples: list[tuple[int, float]] = []
    done = threading.Event()

    def sample() -> None:
        with psycopg.connect(admin, autocommit=True) as conn:
            while not done.is_set():
                row = conn.execute(load("replica_slot_state"), {"slot": slot}).fetchone()
                if row is not None and row[5] is not None:
                    samples.append((int(row[5]), float(row[6] or 0.0)))
                time.sleep(0.02)

    sampler = threading.Thread(target=sample)
    sampler.start()
    facts, started, n = 0, time.monotonic(), 0
    try:
        while time.monotonic() - started < seconds:
            for proposal in people(170, f"burst-{n}"):  # one 500-operation proposal (the last one smaller)
                commit_proposal(db, owner_principal("bench-writer"), proposal)
                facts += sum(op.op in ("assert_fact", "assert_relationship") for op in proposal.operations)
            n += 1
    finally:
        done.set()
        sampler.join()
    lag_bytes = sorted(b for b, _ in samples)
    return {"facts_per_s": facts / (time.monotonic() - started), "samples": len(samples),
            "bytes_p50": statistics.median(lag_bytes), "bytes_p99": lag_bytes[int(len(lag_bytes) * 0.99)],
            "bytes_max": lag_bytes[-1], "replay_lag_ms_max": max(ms for _, ms in samples)}


def timed(what: str, fn: Callable[[], object]) -> None:
    started = time.monotonic()
    fn()
    print(f"[replica] {what}: {time.monotonic() - started:.1f} s", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.replica", description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="per read variant, and the write burst")
    parser.add_argument("--threads", type=int, default=4, help="reading threads")
    args = parser.parse_args(argv)
    settings = get_settings()
    print(f"[replica] load average {os.getloadavg()[0]:.2f} (1 min) at the start", flush=True)
    with scratch(settings) as (_admin, app_url):
        dbname = app_url.split("?", 1)[0].rsplit("/", 1)[-1]
        primary = Database(app_url, max_size=args.threads, statement_timeout_ms=60_000)
        routed = Database(app_url, max_size=args.threads, statement_timeout_ms=60_000)
        try:
            timed(f"{PEOPLE} people committed", lambda: [commit_proposal(primary, owner_principal(OWNER), p)
                                                         for p in people(PEOPLE, "reader")])
            standby = replica.Standby(f"bench_{os.getpid()}", free_port())
            timed("standby up (pg_basebackup of the whole cluster, start, catch up)",
                  lambda: replica.up(settings, standby))
            try:
                routed.standbys = Standbys([replica.app_url(settings, standby, dbname)], wait_ms=50,
                                           max_size=args.threads, statement_timeout_ms=60_000)
                rates: dict[str, list[tuple[float, float]]] = {"primary": [], "standby": []}
                for _ in range(2):
                    for variant, db in (("primary", primary), ("standby", routed)):
                        rates[variant].append(reads_per_second(db, args.threads, args.seconds / 2))
                for variant, got in rates.items():
                    print(f"[replica] reads on the {variant}: {statistics.mean(r for r, _ in got):.0f}/s "
                          f"({', '.join(f'{r:.0f}' for r, _ in got)}), {statistics.mean(c for _, c in got):.2f} "
                          "ms CPU of this process per read", flush=True)
                print(f"[replica] routed reads: {routed.standbys.served} on the standby, "
                      f"{routed.standbys.to_primary} on the primary", flush=True)
                lag = lag_under_writes(primary, admin_url(settings, "postgres"), standby.slot, args.seconds)
                print(f"[replica] write burst {lag['facts_per_s']:.0f} facts/s; standby replay lag over "
                      f"{lag['samples']:.0f} samples: p50 {lag['bytes_p50'] / 1024:.0f} KiB, p99 "
                      f"{lag['bytes_p99'] / 1024:.0f} KiB, max {lag['bytes_max'] / 1024:.0f} KiB; replay_lag max "
                      f"{lag['replay_lag_ms_max']:.0f} ms", flush=True)
            finally:
                replica.down(settings, standby)
        finally:
            primary.close()
            routed.close()
    print(f"[replica] load average {os.getloadavg()[0]:.2f} (1 min) at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
