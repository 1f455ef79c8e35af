"""Committer throughput for bulk proposals: facts per second, ledger + AGE mirror, one client.

On a scratch database of its own (created, migrated, dropped): an owner imports people in 500-operation
proposals through `commit_proposal` (entity, a description fact, a `knows` relationship each: two facts,
three operations). Rounds alternate between the committer as it is and, with `--baseline`, the committer
with its buffered writer switched off (every write executed at once), each on a fresh
owner, so both see the same database and the same machine load. `--profile` prints cProfile's top
entries of one round instead. `--against DIR` runs one round with another checkout's code (its .venv and
scratch database, `python -m bench.write_bulk --rounds 1` there) before each round of this one, so the two
alternate under the same load; this checkout's rounds then run the same way, each from an empty scratch database.

    python -m bench.write_bulk [--people 3000] [--rounds 3] [--baseline] [--profile] [--against DIR]
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench.fresh_data import people, scratch
from graph.ledger import committer
from graph.ledger.committer import commit_proposal
from graph.ledger.tokens import owner_principal
from graph.platform.db import Database
from graph.settings import get_settings


def import_people(db: Database, owner: str, n: int) -> float:
    """Commit n people for `owner`; asserted facts (literal and relationship) per second."""
    proposals = people(n, f"bulk-{owner}")
    started, facts = time.perf_counter(), 0
    for proposal in proposals:
        result = commit_proposal(db, owner_principal(owner), proposal)
        if result.rejected:
            raise RuntimeError(f"import rejected: {result.rejected[:3]}")
        facts += sum(op.op in ("assert_fact", "assert_relationship") for op in proposal.operations)
    return facts / (time.perf_counter() - started)


HERE = str(Path(__file__).resolve().parent.parent)


def against(tree: str, people: int, python: str | None = None) -> float:
    """One round of the same import with the code of checkout `tree` (its .venv, else `python`), in a process
    and a scratch database of its own: both sides of a comparison start from empty tables."""
    return round_of(tree, ["bench.write_bulk", "--rounds", "1", "--people", str(people)],
                    r"round 0 batched: (\d+) facts/s", python)


def round_of(tree: str, module_args: list[str], figure: str, python: str | None = None) -> float:
    """`python -m <module_args>` with the code of checkout `tree` (its .venv, else `python`), in a process of
    its own; the number the regular expression `figure` finds in what it printed."""
    cmd = [python or os.path.join(tree, ".venv", "bin", "python"), "-m", *module_args]
    run = subprocess.run(cmd, cwd=tree, env={**os.environ, "PYTHONPATH": tree}, capture_output=True, text=True,
                         timeout=900, check=False)
    found = re.search(figure, run.stdout)
    if run.returncode or found is None:
        raise RuntimeError(f"no result from {tree} (exit {run.returncode}): {run.stderr[-800:]}")
    return float(found.group(1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.write_bulk", description=__doc__.split("\n")[0])
    parser.add_argument("--people", type=int, default=3000, help="people per owner (3 operations each)")
    parser.add_argument("--rounds", type=int, default=3, help="owners imported per variant")
    parser.add_argument("--baseline", action="store_true", help="alternate with the one-by-one path")
    parser.add_argument("--profile", action="store_true", help="cProfile one round, print the top entries")
    parser.add_argument("--against", metavar="DIR", help="alternate with the code of another checkout")
    args = parser.parse_args(argv)
    print(f"[write_bulk] load average {os.getloadavg()[0]:.2f} (1 min) at the start", flush=True)
    with scratch(get_settings()) as (_admin, app):
        db = Database(app, max_size=2, statement_timeout_ms=120_000)
        try:
            import_people(db, "warm-up", 300)
            if args.profile:
                profiler = cProfile.Profile()
                profiler.enable()
                rate = import_people(db, "profiled", args.people)
                profiler.disable()
                print(f"[write_bulk] profiled round: {rate:.0f} facts/s")
                pstats.Stats(profiler).sort_stats("cumulative").print_stats(30)
                pstats.Stats(profiler).sort_stats("tottime").print_stats(15)
                return 0
            rates: dict[str, list[float]] = {"batched": [], "one by one": [], "against": []}
            for i in range(args.rounds):
                if args.against:
                    rates["against"].append(against(args.against, args.people))
                    print(f"[write_bulk] round {i} {args.against}: {rates['against'][-1]:.0f} facts/s", flush=True)
                    rates["batched"].append(against(HERE, args.people, sys.executable))
                    print(f"[write_bulk] round {i} batched: {rates['batched'][-1]:.0f} facts/s", flush=True)
                    continue
                for variant in ["batched", "one by one"] if args.baseline else ["batched"]:
                    committer.BATCHED = variant == "batched"
                    rate = import_people(db, f"{variant.replace(' ', '-')}-{i}", args.people)
                    rates[variant].append(rate)
                    print(f"[write_bulk] round {i} {variant}: {rate:.0f} facts/s", flush=True)
            committer.BATCHED = True
        finally:
            db.close()
    for variant, got in rates.items():
        if got:
            name = args.against if variant == "against" else variant
            print(f"[write_bulk] {name}: median {statistics.median(got):.0f} facts/s over {len(got)} rounds "
                  f"({', '.join(f'{r:.0f}' for r in got)})")
    if rates["one by one"]:
        print(f"[write_bulk] ratio batched / one by one: "
              f"{statistics.median(rates['batched']) / statistics.median(rates['one by one']):.1f}x")
    if rates["against"]:
        print(f"[write_bulk] ratio to {args.against}: "
              f"{statistics.median(rates['batched']) / statistics.median(rates['against']):.2f}x")
    print(f"[write_bulk] batched attempts repeated one by one: {dict(committer.BATCH_FALLBACKS) or 0}")
    print(f"[write_bulk] load average {os.getloadavg()[0]:.2f} (1 min) at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
