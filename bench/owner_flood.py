"""One owner's flood beside another owner's quiet use: the quiet owner's p95 with and without the flood.

    python -m bench.owner_flood [--code-dir DIR] [--clients 18] [--seconds 15]

Migrates a scratch database (`worldmem_owner_flood`), seeds a flooding owner (150 facts, some pending) and a
quiet one, starts uvicorn from `--code-dir` (default: this checkout; another checkout measures the code
before a change). The quiet owner sends one request at a time on a keep-alive connection (stateAt and
searchWorldMemory in turn), first alone for `--seconds`, then while `--clients` keep-alive clients of the
flooding owner send theirs as fast as they are answered (`--flood point`: stateAt; `mixed`: stateAt,
searchWorldMemory and pendingReview). Prints both p50/p95, the
ratio of the p95s and how the flood's requests were answered (data, BUSY, ...).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import threading
import time
from collections import Counter
from pathlib import Path

import psycopg
from psycopg import sql

from bench.starvation import seed, start
from graph.ledger.tokens import create_token
from graph.platform.connect import admin_url, role_url
from graph.platform.migrate import migrate
from graph.settings import Settings, get_settings
from tests.hostile_http import RawConnection, graphql_body

DB = "worldmem_owner_flood"
QUIET = [graphql_body('{ stateAt(ref: "person:vic", validTime: "2024-01-01T00:00:00Z") { facts { value } } }'),
         graphql_body('{ searchWorldMemory(query: "green colour", limit: 5, mode: TEXT) { query } }')]
FLOODS = {"point": [graphql_body('{ stateAt(ref: "person:alex-smithson-7", validTime: "2024-01-01T00:00:00Z") '
                                  '{ facts { value } } }')]}
FLOODS["mixed"] = [graphql_body('{ stateAt(ref: "person:alex-smithson-7", validTime: "2024-01-01T00:00:00Z") '
                                '{ facts { value } } }'),
                   graphql_body('{ searchWorldMemory(query: "alex smithson colour", limit: 10, mode: TEXT) '
                                '{ query } }'),
                   graphql_body("{ pendingReview(limit: 20) { message } }")]


def p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def quiet(port: int, token: str, seconds: float) -> list[float]:
    conn = RawConnection(port, timeout=60)
    latencies: list[float] = []
    try:
        end = time.monotonic() + seconds
        i = 0
        while time.monotonic() < end:
            started = time.perf_counter()
            answer = conn.request(QUIET[i % len(QUIET)], token=token)
            latencies.append(time.perf_counter() - started)
            assert answer.status == 200 and not answer.codes, answer.body[:300]
            i += 1
    finally:
        conn.close()
    return latencies


def flood(port: int, token: str, mix: list[bytes], stop: threading.Event, outcomes: Counter[str]) -> None:
    conn = RawConnection(port, timeout=60)
    i = 0
    try:
        while not stop.is_set():
            answer = conn.request(mix[i % len(mix)], token=token)
            outcomes[",".join(sorted({c or "-" for c in answer.codes})) or "data"] += 1
            i += 1
    finally:
        conn.close()


def drop(settings: Settings) -> None:
    with psycopg.connect(admin_url(settings, "postgres"), autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(DB)))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--code-dir", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--clients", type=int, default=18)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--flood", choices=sorted(FLOODS), default="point",
                        help="point: stateAt only (cheap requests, as many as the server answers); mixed: "
                             "stateAt, searchWorldMemory and pendingReview")
    args = parser.parse_args()
    settings = get_settings()
    drop(settings)
    migrate(settings, admin_url(settings, DB))
    suffix = os.urandom(3).hex()
    flooder = create_token(admin_url(settings, DB), f"flooder-{suffix}", can_integrate=True)
    victim = create_token(admin_url(settings, DB), f"quiet-{suffix}", can_integrate=True)
    proc, port = start(args.code_dir, role_url(settings, "app", DB))
    try:
        seed(port, flooder, victim)
        quiet(port, victim, 2.0)  # warm: plans, caches, the embedder
        alone = quiet(port, victim, args.seconds)
        stop, outcomes = threading.Event(), Counter[str]()
        threads = [threading.Thread(target=flood, args=(port, flooder, FLOODS[args.flood], stop, outcomes), daemon=True)
                   for _ in range(args.clients)]
        for t in threads:
            t.start()
        time.sleep(1.0)
        flooded = quiet(port, victim, args.seconds)
        stop.set()
        for t in threads:
            t.join(timeout=60)
        ratio = p(flooded, 0.95) / p(alone, 0.95)
        print(json.dumps({
            "code": str(args.code_dir), "clients": args.clients, "flood": args.flood,
            "quiet_alone_ms": {"p50": round(statistics.median(alone) * 1000, 2), "p95": round(p(alone, 0.95), 2),
                               "n": len(alone)},
            "quiet_under_flood_ms": {"p50": round(statistics.median(flooded) * 1000, 2),
                                     "p95": round(p(flooded, 0.95), 2), "n": len(flooded)},
            "p95_ratio": round(ratio, 2), "flood_answers": dict(outcomes)}, indent=1))
    finally:
        proc.terminate()
        proc.wait(timeout=20)
        drop(settings)


if __name__ == "__main__":
    main()
