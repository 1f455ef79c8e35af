"""Scale rows: the same reads at 50k facts and at 1M facts, interleaved in one process (library level).

    python -m bench.http_scale [--reps 300] [--seed] [--db NAME] [--plot bench/scale.png]

`--seed` (re)creates the database with bench.seed's set-based loader under this bench's own name
(`worldmem_perf_scale`, so it never touches `worldmem_bench`): owner bench-a with 100,000 entities / 1M
facts and owner bench-b with 5,000 entities / 50k facts, the same shapes per entity. Then stateAt (now),
getEntity, neighbors depth 1 and worldContext run round-robin: input i of every read for the small owner,
then for the large one, then input i + 1 (30 warm-up inputs, then `--reps`), as worldmem_app under RLS
through the public functions (pool, owner transaction, decoding). Prints p50/p95/p99 per read and size,
the ratio 1M / 50k, and writes the latency-vs-size plot.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import bench.seed
from bench import load as bench_sql
from bench.http_server import Summary, load_average
from graph.agent.recall import get_entity
from graph.agent.world_context import ContextRequest, world_context
from graph.platform.connect import admin_url, role_url
from graph.platform.db import Database
from graph.platform.migrate import migrate
from graph.reads.temporal import state_at
from graph.reads.traversal import NeighborQuery, neighbors
from graph.settings import get_settings

DB = "worldmem_perf_scale"
SMALL, LARGE = (bench.seed.OWNER_B, 50_000), (bench.seed.OWNER_A, 1_000_000)
WARM = 30
READS: dict[str, Callable[[Database, str, dict[str, str]], int]] = {
    "stateAt(now)": lambda db, o, e: len(v.facts) if (v := state_at(db, o, e["ref"], datetime.now(UTC))) else -1,
    "getEntity": lambda db, o, e: len(get_entity(db, o, e["ref"]).statements),
    "neighbors depth 1": lambda db, o, e: len(h.hops) if (h := neighbors(db, o, NeighborQuery(ref=e["ref"]))) else -1,
    "worldContext": lambda db, o, e: world_context(
        db, o, ContextRequest(message=f"What about {e['name']}?", budget_tokens=1000)).tokens,
}


def seed(name: str) -> None:
    bench.seed.seed(get_settings(), LARGE[1] // 10, SMALL[1] // 10, name)


def sample(db: Database, owner: str, n: int) -> list[dict[str, str]]:
    with db.owner_tx(owner, read_only=True) as conn:
        return [dict(r) for r in conn.execute(bench_sql("scale_sample"), {"n": n}).fetchall()]


def measure(db: Database, reps: int) -> dict[str, dict[str, Any]]:
    owners = (SMALL, LARGE)
    inputs = {o: sample(db, o, WARM + reps) for o, _ in owners}
    lat: dict[tuple[str, int], list[float]] = {(r, size): [] for r in READS for _, size in owners}
    rows: dict[tuple[str, int], int] = dict.fromkeys(lat, 0)
    for i in range(WARM + reps):
        for read, fn in READS.items():
            for owner, size in owners:
                started = time.perf_counter()
                n = fn(db, owner, inputs[owner][i % len(inputs[owner])])
                if i >= WARM:
                    lat[(read, size)].append(time.perf_counter() - started)
                    rows[(read, size)] += n
    return {read: {str(size): {**vars(Summary.of(lat[(read, size)])), "avg_rows": round(rows[(read, size)] / reps, 1)}
                   for _, size in owners} for read in READS}


def plot(result: dict[str, dict[str, Any]], out: Path, title: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.2))
    sizes = [SMALL[1], LARGE[1]]
    for n, (read, by_size) in enumerate(result.items()):
        for stat, style in (("p50_ms", "-o"), ("p95_ms", "--s")):
            ax.plot(sizes, [by_size[str(s)][stat] for s in sizes], style, color=f"C{n}", label=f"{read} {stat[:3]}")
    ax.set_xscale("log")
    ax.set_xticks(sizes, ["50k facts", "1M facts"])
    ax.set_ylabel("ms")
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=7, ncol=2)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reps", type=int, default=300)
    parser.add_argument("--seed", action="store_true", help="(re)create the database first")
    parser.add_argument("--db", default=DB, help=f"the scratch database (default {DB})")
    parser.add_argument("--plot", type=Path, default=Path(__file__).resolve().parent / "scale.png")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--replot", type=Path, help="only draw the plot from a JSON written by --out")
    args = parser.parse_args()
    if args.replot:
        saved = json.loads(args.replot.read_text())
        plot(saved["results"], args.plot, f"worldmem library, p50 solid, p95 dashed\n{saved['at']}")
        return
    settings = get_settings()
    if args.seed:
        seed(args.db)
    migrate(settings, admin_url(settings, args.db))  # this checkout's indexes (e.g. 0046), when seeded before
    db = Database(role_url(settings, "app", args.db), max_size=2, statement_timeout_ms=60_000)
    start = load_average()
    try:
        result = measure(db, args.reps)
    finally:
        db.close()
    stamp = f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, load average {start} -> {load_average()}"
    print(stamp)
    print(f"{'read':<20} {'50k p50':>8} {'p95':>7} {'1M p50':>8} {'p95':>7} {'p95 ratio':>9}")
    for read, r in result.items():
        small, large = r[str(SMALL[1])], r[str(LARGE[1])]
        print(f"{read:<20} {small['p50_ms']:>8.2f} {small['p95_ms']:>7.2f} {large['p50_ms']:>8.2f} "
              f"{large['p95_ms']:>7.2f} {large['p95_ms'] / small['p95_ms']:>9.2f}")
    plot(result, args.plot, f"worldmem library, {args.reps} inputs per point, p50 solid, p95 dashed\n{stamp}")
    if args.out:
        args.out.write_text(json.dumps({"at": stamp, "results": result}, indent=1))


if __name__ == "__main__":
    main()
