"""Committer throughput with concurrent writers: single-operation proposals per second.

On a scratch database of its own (created, migrated, dropped): 8 writer processes (separate clients, each
with its own connection, as worldmem_app under row-level security) commit one-operation proposals through
`commit_proposal` as fast as they can: each asserts a new `description` (functional, so the believed row
is closed and replaced) of one of 50 people of its owner. By default every writer has its own owner;
with `--same-owner` all eight write for one owner (the owner's clock serialises them). Rounds alternate
the committer as it is and, with `--baseline`, the one-by-one path, on fresh owners.

    python -m bench.write_concurrent [--writers 8] [--proposals 150] [--rounds 3] [--same-owner] [--baseline]
                                     [--against /path/to/other/checkout]

`--against DIR` runs the same round with another checkout's code before each round of this one (its own
.venv and scratch database, `python -m bench.write_concurrent --rounds 1` there), so the two alternate under
the same load; both figures are printed with the load average.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import random
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta

from bench.fresh_data import scratch
from bench.write_bulk import round_of
from graph.ledger import committer
from graph.ledger.committer import commit_proposal
from graph.ledger.proposal import AssertFact, MemoryMutationProposal, UpsertEntity
from graph.ledger.tokens import owner_principal
from graph.platform.db import Database
from graph.settings import get_settings

PEOPLE = 50
SINCE = datetime(2024, 1, 1, tzinfo=UTC)


def seed(app: str, owner: str) -> None:
    db = Database(app, max_size=1, statement_timeout_ms=60_000)
    try:
        ops = [UpsertEntity(ref=f"person:p{i}", kind="person", canonical_name=f"Person {i}") for i in range(PEOPLE)]
        commit_proposal(db, owner_principal(owner), MemoryMutationProposal(run_id=f"seed-{owner}", operations=ops))
    finally:
        db.close()


def writer(app: str, owner: str, tag: str, n: int, batched: bool, start: object, out: object) -> None:
    committer.BATCHED = batched
    db = Database(app, max_size=1, statement_timeout_ms=60_000)
    rng = random.Random(tag)
    proposals = [MemoryMutationProposal(run_id=f"{tag}-{k}", operations=[AssertFact(
        subject=f"person:p{rng.randrange(PEOPLE)}", predicate="description", value=f"{tag} {k}",
        valid_from=SINCE + timedelta(days=rng.randrange(300)))]) for k in range(n)]
    try:
        commit_proposal(db, owner_principal(owner), proposals[0])  # connect, warm the statement cache
        start.wait()  # type: ignore[attr-defined]
        began = time.perf_counter()
        for proposal in proposals[1:]:
            if commit_proposal(db, owner_principal(owner), proposal).rejected:
                raise RuntimeError(f"rejected: {proposal.run_id}")
        out.put((len(proposals) - 1, began, time.perf_counter()))  # type: ignore[attr-defined]
    finally:
        db.close()


def round_(app: str, owners: list[str], tag: str, n: int, batched: bool) -> float:
    """All writers at once; committed proposals per second from the first start to the last finish."""
    for owner in sorted(set(owners)):
        seed(app, owner)
    ctx = mp.get_context("spawn")
    start, out = ctx.Barrier(len(owners)), ctx.Queue()
    procs = [ctx.Process(target=writer, args=(app, owner, f"{tag}-w{i}", n, batched, start, out))
             for i, owner in enumerate(owners)]
    for proc in procs:
        proc.start()
    results = [out.get(timeout=600) for _ in procs]
    for proc in procs:
        proc.join()
        if proc.exitcode:
            raise RuntimeError(f"a writer failed (exit {proc.exitcode})")
    done = sum(r[0] for r in results)
    return done / (max(r[2] for r in results) - min(r[1] for r in results))


def against(tree: str, args: argparse.Namespace) -> float:
    """One round of the same benchmark with the code of checkout `tree` (its .venv), in a process of its own."""
    return round_of(tree, ["bench.write_concurrent", "--rounds", "1", "--writers", str(args.writers),
                           "--proposals", str(args.proposals), *(["--same-owner"] if args.same_owner else [])],
                    r"round 0 as it is: (\d+) proposals/s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.write_concurrent", description=__doc__.split("\n")[0])
    parser.add_argument("--writers", type=int, default=8)
    parser.add_argument("--proposals", type=int, default=150, help="proposals per writer and round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--same-owner", action="store_true", help="all writers write for one owner")
    parser.add_argument("--baseline", action="store_true", help="alternate with the one-by-one path")
    parser.add_argument("--against", metavar="DIR", help="alternate with the code of another checkout")
    args = parser.parse_args(argv)
    print(f"[write_concurrent] load average {os.getloadavg()[0]:.2f} (1 min) at the start; {args.writers} "
          f"writers, {'one owner' if args.same_owner else 'one owner each'}", flush=True)
    rates: dict[str, list[float]] = {"as it is": [], "one by one": [], "against": []}
    with scratch(get_settings()) as (_admin, app):
        for i in range(args.rounds):
            if args.against:
                load = os.getloadavg()[0]
                rates["against"].append(against(args.against, args))
                print(f"[write_concurrent] round {i} {args.against}: {rates['against'][-1]:.0f} proposals/s "
                      f"(load {load:.1f})", flush=True)
            for variant in ["as it is", "one by one"] if args.baseline else ["as it is"]:
                tag = f"{'b' if variant == 'as it is' else 'o'}{i}"
                owners = [f"c-{tag}"] * args.writers if args.same_owner else [
                    f"c-{tag}-{w}" for w in range(args.writers)]
                load = os.getloadavg()[0]
                rate = round_(app, owners, tag, args.proposals, variant == "as it is")
                rates[variant].append(rate)
                print(f"[write_concurrent] round {i} {variant}: {rate:.0f} proposals/s (load {load:.1f})", flush=True)
    for variant, got in rates.items():
        if got:
            name = args.against if variant == "against" else variant
            print(f"[write_concurrent] {name}: median {statistics.median(got):.0f} proposals/s over {len(got)} "
                  f"rounds ({', '.join(f'{r:.0f}' for r in got)})")
    if rates["one by one"]:
        print(f"[write_concurrent] ratio: "
              f"{statistics.median(rates['as it is']) / statistics.median(rates['one by one']):.2f}x")
    if rates["against"]:
        print(f"[write_concurrent] ratio to {args.against}: "
              f"{statistics.median(rates['as it is']) / statistics.median(rates['against']):.2f}x")
    print(f"[write_concurrent] load average {os.getloadavg()[0]:.2f} (1 min) at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
