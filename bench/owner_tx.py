"""The fixed cost of an owner transaction, and what it costs the reads.

Interleaved in one process (bench.run's round-robin), on the seeded bench database as worldmem_app:
`Database.owner_tx` as it is (BEGIN and the set-up in one pipelined round trip) against a baseline that
sends them one by one as before (BEGIN, SET TRANSACTION READ ONLY, set owner: three round trips), for an
empty read-only owner transaction, stateAt and neighbours depth 2.

    python -m bench.owner_tx [--runs 2000]
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg

from bench import BENCH_DB
from bench.run import cases, measure_all, samples
from bench.seed import OWNER_A
from graph.platform.connect import role_url
from graph.platform.db import Database
from graph.settings import get_settings
from graph.sql import load

WARMUP = 200
READS = ("stateAt (SQL)", "neighbors depth 2")


class OneByOne(Database):
    """The baseline: each set-up statement its own round trip."""

    @contextmanager
    def owner_tx(self, owner: str, *, read_only: bool = False) -> Iterator[psycopg.Connection[dict[str, Any]]]:
        with self._pool.connection() as conn, conn.transaction():
            if read_only:
                conn.execute(load("tx_read_only"))
            conn.execute(load("tx_set_owner"), (owner,))
            yield conn  # type: ignore[misc]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.owner_tx", description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=2000, help="empty transactions per variant (reads: a fifth)")
    args = parser.parse_args(argv)
    url = role_url(get_settings(), "app", BENCH_DB)
    dbs = {"pipelined": Database(url, max_size=1), "one by one": OneByOne(url, max_size=1)}
    try:
        s = samples(dbs["pipelined"], args.runs // 5 + WARMUP)
        work: dict[str, Any] = {}
        for tag, db in dbs.items():
            def empty(_: Any, db: Database = db) -> int:
                with db.owner_tx(OWNER_A, read_only=True):
                    return 0
            work[f"empty read-only owner_tx | {tag}"] = (empty, list(range(args.runs + WARMUP)))
            work.update({f"{name} | {tag}": case for name, case in cases(db, s).items() if name in READS})
        results = measure_all(work, WARMUP)
    finally:
        for db in dbs.values():
            db.close()
    print(f"{'case | owner_tx set-up':<50} {'n':>5} {'p50 ms':>7} {'p95 ms':>7}")
    for name in sorted(results):
        m = results[name]
        print(f"{name:<50} {m['n']:>5} {m['p50_ms']:>7.2f} {m['p95_ms']:>7.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
