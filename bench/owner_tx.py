"""The fixed cost of an owner transaction: an empty read-only `Database.owner_tx`, p50/p95 in ms.

    python -m bench.owner_tx [--runs 2000]
"""

from __future__ import annotations

import argparse
import statistics
import time

from bench import BENCH_DB
from bench.seed import OWNER_A
from graph.db import Database
from graph.platform.connect import role_url
from graph.settings import get_settings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=2000)
    args = parser.parse_args(argv)
    db = Database(role_url(get_settings(), "app", BENCH_DB), max_size=1)
    try:
        for _ in range(200):  # warm-up
            with db.owner_tx(OWNER_A, read_only=True):
                pass
        times = []
        for _ in range(args.runs):
            started = time.perf_counter()
            with db.owner_tx(OWNER_A, read_only=True):
                pass
            times.append((time.perf_counter() - started) * 1000)
    finally:
        db.close()
    cuts = statistics.quantiles(times, n=100)
    print(f"empty read-only owner_tx, {args.runs} runs: p50 {statistics.median(times):.3f} ms, "
          f"p95 {cuts[94]:.3f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
