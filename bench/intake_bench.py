"""Curator intake throughput: the prefilter (pure) and the turn path through the database.

On a scratch database (`worldmem_bench_intake`, migrated, dropped afterwards) as worldmem_app:
prefilter decisions per second over the labelled turns; `record_turn` turns per second from 1 and 4
threads (distinct chats); the curator's read-and-advance (`uncurated` + `advance_watermark` in one owner
transaction) per second; `try_spend` per second.

    python -m bench.intake_bench [--turns 2000]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psycopg
from psycopg import sql

from curator import prefilter, quota
from curator import turns as t
from graph.platform.connect import admin_url, role_url
from graph.platform.db import Database
from graph.platform.migrate import migrate
from graph.settings import get_settings

DB_NAME = "worldmem_bench_intake"
DATA = Path(__file__).resolve().parent.parent / "tests" / "data"


def _texts() -> list[str]:
    lines = [line.partition(" | ")[2] for f in sorted(DATA.glob("prefilter_*.txt"))
             for line in f.read_text(encoding="utf-8").splitlines() if " | " in line and not line.startswith("#")]
    return [x for x in lines if x]


def rate(label: str, n: int, fn: Callable[[], object]) -> None:
    started = time.perf_counter()
    fn()
    elapsed = time.perf_counter() - started
    print(f"{label:<48} {n:>6} in {elapsed:6.2f} s = {n / elapsed:>9.0f}/s")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=2000)
    n = parser.parse_args().turns
    settings = get_settings()
    texts = _texts()
    rate(f"prefilter.decide ({len(texts)} labelled texts x 20)", len(texts) * 20,
         lambda: [prefilter.decide(x) for _ in range(20) for x in texts])
    with psycopg.connect(admin_url(settings, "postgres"), autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(DB_NAME)))
    migrate(settings, admin_url(settings, DB_NAME))
    db = Database(role_url(settings, "app", DB_NAME), max_size=4)
    try:
        rate("record_turn, 1 thread, one chat", n,
             lambda: [t.record_turn(db, "bench", t.TurnIn(chat_id="c0", text=texts[i % len(texts)]))
                      for i in range(n)])
        with ThreadPoolExecutor(max_workers=4) as pool:
            rate("record_turn, 4 threads, 4 chats", n, lambda: list(pool.map(
                lambda i: t.record_turn(db, "bench", t.TurnIn(chat_id=f"c{1 + i % 4}", text=texts[i % len(texts)])),
                range(n))))

        def drain() -> None:
            for _ in range(n // 20):
                with db.owner_tx("bench") as conn:
                    batch = t.uncurated(conn, "c0", limit=20)
                    t.advance_watermark(conn, "c0", batch[-1].seq)

        rate("uncurated(20) + advance_watermark, per batch", n // 20, drain)
        rate("try_spend", n, lambda: [quota.try_spend(db, "bench", 1) for _ in range(n)])
    finally:
        db.close()
        with psycopg.connect(admin_url(settings, "postgres"), autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(DB_NAME)))


if __name__ == "__main__":
    main()
