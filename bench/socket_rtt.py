"""One round trip of the application role over TCP loopback and over the embedded cluster's Unix socket.

    python -m bench.socket_rtt [--calls 4000] [--rounds 2] [--db worldmem_perf_cmp]

Two connections as worldmem_app to the same database (`role_url` with `db_socket` off and on), used in
alternating batches of 500 calls so load drifts hit both alike. Three calls: a bare `SELECT 1`, the shape of
an owner transaction's set-up (set_config of the owner and read-only, then a statement, in one pipeline), and
one 8 kB row (the wire cost of a point read's answer).
Prints p50/p95 per call and the client's CPU per call (time.process_time), with the load average. Reads
nothing from the database's tables.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import psycopg

from bench.http_server import Summary, load_average
from graph.platform.connect import app_socket_dir, role_url
from graph.settings import get_settings

BATCH = 500
OWNER = "SELECT set_config('app.current_owner', %s, true), set_config('transaction_read_only', 'on', true)"


def calls(conn: psycopg.Connection) -> dict[str, Callable[[], object]]:
    def plain() -> object:
        return conn.execute("SELECT 1").fetchall()

    def owner_pipeline() -> object:
        with conn.pipeline():
            conn.execute(OWNER, ("bench-socket",))
            cur = conn.execute("SELECT 1")
        return cur.fetchall()

    def wide() -> object:  # about the size of a point read's answer (stateAt of a person: 2-8 kB of JSON)
        return conn.execute("SELECT repeat('x', 8000)").fetchall()

    return {"SELECT 1": plain, "owner + statement, pipelined": owner_pipeline, "8 kB row": wide}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=4000, help="measured calls per side, call and round")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--db", default="worldmem_perf_cmp")
    args = parser.parse_args()
    settings = get_settings()
    if app_socket_dir(settings.model_copy(update={"db_socket": True})) is None:
        raise SystemExit("no Unix socket here (WORLDMEM_DATABASE_URL, or a data directory too deep)")
    urls = {"tcp": role_url(settings.model_copy(update={"db_socket": False}), "app", args.db),
            "unix": role_url(settings.model_copy(update={"db_socket": True}), "app", args.db)}
    conns = {side: psycopg.connect(url, autocommit=True) for side, url in urls.items()}
    loadavg = load_average()
    lat: dict[tuple[str, str], list[float]] = {}
    cpu: dict[tuple[str, str], float] = {}
    try:
        for conn in conns.values():  # warm: psycopg prepares after five runs
            for fn in calls(conn).values():
                for _ in range(300):
                    fn()
        for r in range(args.rounds):
            for start in range(0, args.calls, BATCH):
                order = list(conns.items()) if (start // BATCH + r) % 2 == 0 else list(conns.items())[::-1]
                for side, conn in order:
                    for name, fn in calls(conn).items():
                        values = lat.setdefault((side, name), [])
                        began = time.process_time()
                        for _ in range(min(BATCH, args.calls - start)):
                            t = time.perf_counter()
                            fn()
                            values.append(time.perf_counter() - t)
                        cpu[(side, name)] = cpu.get((side, name), 0.0) + time.process_time() - began
    finally:
        for conn in conns.values():
            conn.close()
    print(f"load average {loadavg} -> {load_average()}; {args.rounds} x {args.calls} calls per side, "
          f"batches of {BATCH} alternating")
    print(f"{'call':<30} {'side':<5} {'p50 us':>7} {'p95 us':>7} {'cpu us':>7}")
    for (side, name), values in sorted(lat.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        s = Summary.of(values)
        print(f"{name:<30} {side:<5} {s.p50_ms * 1000:>7.0f} {s.p95_ms * 1000:>7.0f} "
              f"{cpu[(side, name)] / len(values) * 1e6:>7.0f}")


if __name__ == "__main__":
    main()
