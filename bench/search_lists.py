"""The finder's text search in the library, this checkout against another, alternating: what the search costs
with the lists both checkouts have, and with all of each one's own lists.

    python -m bench.search_lists --baseline DIR [--reps 300] [--rounds 3]

Over HTTP a search of this checkout runs more lists than one of an older checkout (the answer and episode
lists of the recall work), so `bench.one_path`'s search figure mixes two things: what the added lists cost,
and what the rest of the code costs. This separates them. One worker process per checkout (DIR's code with
DIR's .venv), each with a one-connection pool as the app makes it, reads the comparison world of
`bench.http_reads` (`worldmem_perf_cmp`, loaded there; nothing is written) and runs `graph.finder.search`
in TEXT mode (no model) for `bench.http_reads`' search words, in batches of 50 queries that alternate
between the sides (in turns first), so load drifts hit both alike:

- "shared lists": name, fact and text, the lists both checkouts have;
- "own lists": each checkout's default lists (TEXT mode: without the meaning list).

Prints p50 / p95 per side and variant, the ratios, and the load average.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
from pathlib import Path

from bench import cmp_world
from bench.http_server import load_average, pct

BATCH = 50
WARM = 2  # batches per side run before the measured rounds (pools, prepared statements, caches)
WORKER = """
import json, sys, time
from datetime import UTC, datetime
from bench.cmp_load import owner
from graph.finder import search as finder
from graph.finder.rounds import owner_rounds
from graph.platform.connect import role_url
from graph.platform.db import Database
from graph.settings import get_settings

db = Database(role_url(get_settings(), "app", "worldmem_perf_cmp"), max_size=2, statement_timeout_ms=60_000)
own = tuple(name for name in finder.ALL_LISTS if name != "meaning")
variants = {"shared lists": ("name", "fact", "text"), "own lists": own}
print(json.dumps(own), flush=True)
for line in sys.stdin:
    out = {name: [] for name in variants}
    for gi, words in json.loads(line):
        for name, lists in variants.items():
            query = finder.Query(text=words, limit=10, lists=lists)
            started = time.perf_counter()
            finder.search(owner_rounds(db, owner(gi), spare=False), query, None, datetime.now(UTC))
            out[name].append(time.perf_counter() - started)
    print(json.dumps(out), flush=True)
"""


def start(code_dir: Path) -> tuple[subprocess.Popen[str], list[str]]:
    python = str(code_dir / ".venv" / "bin" / "python")
    proc = subprocess.Popen([python, "-c", WORKER], cwd=code_dir, env={**os.environ, "PYTHONPATH": str(code_dir)},
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    return proc, json.loads(proc.stdout.readline())


def ask(proc: subprocess.Popen[str], batch: list[tuple[int, str]]) -> dict[str, list[float]]:
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(json.dumps(batch) + "\n")
    proc.stdin.flush()
    answer: dict[str, list[float]] = json.loads(proc.stdout.readline())
    return answer


def ms(values: list[float], q: float) -> float:
    return pct(values, q) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.search_lists", description=__doc__.split("\n")[0])
    parser.add_argument("--baseline", type=Path, required=True, help="another checkout, with its .venv")
    parser.add_argument("--reps", type=int, default=300, help="queries per side and variant and round")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    _, keywords = cmp_world.picks(cmp_world.world())
    before_load = load_average()
    sides = {"after": start(Path(__file__).resolve().parent.parent), "before": start(args.baseline.resolve())}
    lat: dict[tuple[str, str], list[float]] = {}
    batches = [keywords[i % len(keywords): i % len(keywords) + BATCH] for i in range(0, args.reps, BATCH)]
    for warm in range(WARM):
        for proc, _ in sides.values():
            ask(proc, batches[warm % len(batches)])
    for r in range(args.rounds):
        for i, batch in enumerate(batches):
            for side in (("after", "before") if (r + i) % 2 else ("before", "after")):
                for variant, seconds in ask(sides[side][0], batch).items():
                    lat.setdefault((variant, side), []).extend(seconds)
    for proc, _ in sides.values():
        proc.terminate()
    print(f"load average {before_load} -> {load_average()}; lists: before {sides['before'][1]}, "
          f"after {sides['after'][1]}")
    print("| search (TEXT, library) | before p50 / p95 | after p50 / p95 | after / before p50 |")
    print("|---|---|---|---|")
    for variant in ("shared lists", "own lists"):
        b, a = lat[variant, "before"], lat[variant, "after"]
        print(f"| {variant} | {ms(b, 0.5):.3f} / {ms(b, 0.95):.3f} ms | {ms(a, 0.5):.3f} / {ms(a, 0.95):.3f} ms "
              f"| {statistics.median(a) / statistics.median(b):.2f} |")


if __name__ == "__main__":
    main()
