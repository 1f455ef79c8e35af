"""The GraphQL request path's before/after table in one command: this checkout against another, alternating.

    python -m bench.one_path --baseline DIR [--reps 150] [--floor 1500] [--mixed 8] [--people 1500] [--rounds 2]

DIR is another checkout with its `.venv` (e.g. `git worktree add DIR <commit>` and a symlink to the main
checkout's .venv). Both sides answer the same requests at the same time of the same run, so machine load
hits them alike (the machine is shared: absolute figures drift, ratios much less; the load average is
printed). What runs, on a copy of the comparison world of bench.http_reads (`worldmem_perf_cmp`, loaded
there once when missing; the copy is dropped at the end):

- two `worldmem serve` processes, this code and DIR's, with their defaults (hybrid search, offline model);
- the floor: `{ __typename }`, `--floor` requests per side, in batches of 100 alternating sides;
- the reads, `--reps` rounds after 20 warm-up rounds; each round asks every read once of each side, in a
  shuffled order (no side always right after the other): stateAt(now), stateAt(T), getEntity, neighbours
  (depth 1), worldContext, text search and hybrid search, with bench.http_reads' inputs;
- the mixed load of bench.http_mixed (8 clients: stateAt, neighbours, worldContext, commits), `--mixed`
  seconds per side, twice, alternating: requests per second and worldContext's p50 inside it;
- bulk commits (bench.write_bulk's import through `commit_proposal`): one worker process per side, each with
  a scratch database of its own migrated by its own code, `--rounds` imports of `--people` people each,
  alternating: facts per second.

The defaults keep the run under 6 minutes on the shared 2-core machine (the world loaded): fewer requests
than bench.http_reads (300) and bench.http_floor (3000), so the p95 column is rougher. The last lines are a
Markdown table: figure, what was asked, before (DIR), after (this checkout), after / before.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql

from bench import cmp_world
from bench.cmp_load import load, owner
from bench.http_mixed import Tally, phase
from bench.http_reads import DB, Q_ENTITY, Q_HOOD, Q_SEARCH, Q_STATE, project
from bench.http_server import Client, drop_database, fresh_database, load_average, make_tokens, pct, serve
from graph.finder.embedders import embedder_for
from graph.platform.connect import admin_url, role_url
from graph.platform.db import Database
from graph.settings import Settings, get_settings

COPY = "worldmem_perf_one_path"
FLOOR = "{ __typename }"
Q_CONTEXT = "query($m: String!) { worldContext(message: $m) { markdown tokens } }"
WARM = 20
BATCH = 100
REPO = Path(__file__).resolve().parent.parent
# One worker per checkout: imports people on command, in a scratch database its own code migrated.
BULK_WORKER = """
import sys
from bench.fresh_data import scratch
from bench.write_bulk import import_people
from graph.platform.db import Database
from graph.settings import get_settings
with scratch(get_settings()) as (_admin, app):
    db = Database(app, max_size=2, statement_timeout_ms=120_000)
    import_people(db, "warm-up", 300)
    print("ready", flush=True)
    for line in sys.stdin:
        who, n = line.split()
        print(import_people(db, who, int(n)), flush=True)
    db.close()
"""

Request = tuple[str, dict[str, Any] | None]


def reads(world: list[cmp_world.Group], i: int) -> dict[str, tuple[str, Request]]:
    """Round i's requests: figure -> (what is asked, (document, variables))."""
    chosen, keywords = cmp_world.picks(world)
    gi, ei = chosen[i % len(chosen)]
    entity = world[gi].entities[ei]
    _, words = keywords[i % len(keywords)]
    t = cmp_world.T_PAST.isoformat()
    return {
        "stateAt(now)": ("stateAt(ref) { facts { predicate objectRef } }", (Q_STATE, {"r": entity.ref, "t": None})),
        "stateAt(T)": ("stateAt(ref, validTime: T)", (Q_STATE, {"r": entity.ref, "t": t})),
        "getEntity": ("getEntity(ref) { facts { subject fact { … } } }", (Q_ENTITY, {"r": entity.ref})),
        "neighbours": ("neighbors(ref, depth: 1) { hops { target { ref } } }", (Q_HOOD, {"r": entity.ref})),
        "worldContext": ("worldContext(message) { markdown tokens }",
                         (Q_CONTEXT, {"m": f"What do we know about {entity.name}?"})),
        "text search": ("searchWorldMemory(query, limit: 10, mode: TEXT)", (Q_SEARCH, {"q": words, "m": "TEXT"})),
        "hybrid search": ("searchWorldMemory(…, mode: HYBRID)", (Q_SEARCH, {"q": words, "m": "HYBRID"})),
    }


def timed(client: Client, request: Request, errors: list[str]) -> float:
    started = time.perf_counter()
    answer = client.ask(*request)
    elapsed = time.perf_counter() - started
    if answer.get("errors") or answer.get("data") is None:
        errors.append(str(answer)[:200])
    return elapsed


def copy_world(settings: Settings) -> None:
    """A copy of the loaded comparison world, so the mixed load's commits leave the shared one as it is."""
    drop_database(settings, COPY)
    with psycopg.connect(admin_url(settings, "postgres"), autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(sql.Identifier(COPY), sql.Identifier(DB)))


def ensure_world(settings: Settings, world: list[cmp_world.Group]) -> None:
    fresh_database(settings, DB, keep=True)
    db = Database(role_url(settings, "app", DB), max_size=2, statement_timeout_ms=120_000)
    try:
        load(db, world)
        model = embedder_for(Settings(embedding_provider="offline"))
        assert model is not None
        project(db, world, model)
    finally:
        db.close()


class Sides:
    """Latencies (seconds) per figure and side ("before", "after"); errors per side."""

    def __init__(self, clients: dict[str, dict[int, Client]]) -> None:
        self.clients = clients
        self.lat: dict[tuple[str, str], list[float]] = {}
        self.errors: dict[str, list[str]] = {side: [] for side in clients}

    def ask(self, figure: str, side: str, gi: int, request: Request, keep: bool) -> None:
        elapsed = timed(self.clients[side][gi], request, self.errors[side])
        if keep:
            self.lat.setdefault((figure, side), []).append(elapsed)


def floor(sides: Sides, n: int) -> None:
    order = ["before", "after"]
    for b in range(max(1, n // BATCH) + 1):
        random.Random(b).shuffle(order)
        for side in order:
            for _ in range(BATCH):
                sides.ask("floor", side, 0, (FLOOR, None), keep=b > 0)


def rounds(sides: Sides, world: list[cmp_world.Group], reps: int) -> dict[str, str]:
    chosen, keywords = cmp_world.picks(world)
    asked: dict[str, str] = {}
    for i in range(WARM + reps):
        calls = []
        for figure, (what, request) in reads(world, i).items():
            asked[figure] = what
            gi = keywords[i % len(keywords)][0] if "search" in figure else chosen[i % len(chosen)][0]
            calls += [(figure, side, gi, request) for side in ("before", "after")]
        random.Random(i).shuffle(calls)
        for figure, side, gi, request in calls:
            sides.ask(figure, side, gi, request, keep=i >= WARM)
    return asked


def mixed(ports: dict[str, int], tokens: dict[int, str], world: list[cmp_world.Group], seconds: float,
          ) -> dict[str, tuple[float, float]]:
    """Requests per second and worldContext's p50 (ms) per side, `seconds` twice each, alternating."""
    tallies = {side: Tally() for side in ports}
    spent = dict.fromkeys(ports, 0.0)
    for r, side in enumerate(["before", "after", "after", "before"]):
        spent[side] += phase(ports[side], tokens, world, 8, seconds, tallies[side], seed=r)
    return {side: (len(t.latencies) / spent[side], pct(t.by_kind.get("worldContext", [0.0]), 0.5) * 1000)
            for side, t in tallies.items()}


def bulk(dirs: dict[str, Path], people: int, n_rounds: int) -> dict[str, list[float]]:
    """Facts per second per side: one worker process per checkout, rounds alternating."""
    workers: dict[str, subprocess.Popen[str]] = {}
    for side, code in dirs.items():
        env = {**os.environ, "PYTHONPATH": str(code)}
        workers[side] = subprocess.Popen([str(code / ".venv" / "bin" / "python"), "-c", BULK_WORKER], cwd=code,
                                         env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    rates: dict[str, list[float]] = {side: [] for side in dirs}
    try:
        for side, worker in workers.items():
            assert worker.stdout is not None
            if worker.stdout.readline().strip() != "ready":
                raise SystemExit(f"the bulk worker of {side} did not start")
        for r in range(n_rounds):
            for side in (["before", "after"] if r % 2 == 0 else ["after", "before"]):
                worker = workers[side]
                assert worker.stdin is not None and worker.stdout is not None
                worker.stdin.write(f"{side}-{r}-{os.getpid()} {people}\n")
                worker.stdin.flush()
                rates[side].append(float(worker.stdout.readline()))
    finally:
        for worker in workers.values():
            if worker.stdin is not None:
                worker.stdin.close()
            worker.wait(timeout=120)
    return rates


def row(figure: str, what: str, before: list[float], after: list[float]) -> str:
    b50, b95, a50, a95 = (pct(v, q) * 1000 for v, q in ((before, .5), (before, .95), (after, .5), (after, .95)))
    return (f"| {figure} | `{what}` | {b50:.3f} / {b95:.3f} ms | {a50:.3f} / {a95:.3f} ms | "
            f"{a50 / b50:.2f} / {a95 / b95:.2f} |")


def table(sides: Sides, asked: dict[str, str], mix: dict[str, tuple[float, float]] | None,
          rates: dict[str, list[float]] | None) -> list[str]:
    lines = ["| figure | asked | before p50 / p95 | after p50 / p95 | after / before |", "|---|---|---|---|---|"]
    for figure, what in {"floor": FLOOR, **asked}.items():
        lines.append(row(figure, what, sides.lat[figure, "before"], sides.lat[figure, "after"]))
    if mix is not None:
        (b_rps, b_ctx), (a_rps, a_ctx) = mix["before"], mix["after"]
        lines.append(f"| mixed load, 8 clients | `40 % stateAt, 20 % neighbors, 20 % worldContext, 20 % commits` | "
                     f"{b_rps:.0f} req/s | {a_rps:.0f} req/s | {a_rps / b_rps:.2f} |")
        lines.append(f"| worldContext in the mixed load, p50 | (as above) | {b_ctx:.1f} ms | {a_ctx:.1f} ms | "
                     f"{a_ctx / b_ctx:.2f} |")
    if rates is not None:
        b, a = statistics.median(rates["before"]), statistics.median(rates["after"])
        lines.append(f"| bulk commits | `commit_proposal`, 500 operations each (bench.write_bulk) | {b:.0f} facts/s | "
                     f"{a:.0f} facts/s | {a / b:.2f} |")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.one_path", description=__doc__.split("\n")[0])
    parser.add_argument("--baseline", type=Path, required=True, metavar="DIR", help="the checkout for 'before'")
    parser.add_argument("--reps", type=int, default=150, help="measured rounds of the reads (after 20 warm-up)")
    parser.add_argument("--floor", type=int, default=1500, help="floor requests per side")
    parser.add_argument("--mixed", type=float, default=8, help="seconds of mixed load per side and round (0: none)")
    parser.add_argument("--people", type=int, default=1500, help="people per bulk import (3 operations each)")
    parser.add_argument("--rounds", type=int, default=2, help="bulk imports per side (0: none)")
    args = parser.parse_args(argv)
    started, load_start = time.perf_counter(), load_average()
    settings = get_settings()
    world = cmp_world.world()
    ensure_world(settings, world)
    copy_world(settings)
    try:
        tokens = make_tokens(settings, COPY, {g.index: owner(g.index) for g in world})
        with ExitStack() as stack:
            ports = {"after": stack.enter_context(serve(COPY))[1],
                     "before": stack.enter_context(serve(COPY, code_dir=args.baseline.resolve()))[1]}
            clients = {side: {gi: Client(port, token) for gi, token in tokens.items()} for side, port in ports.items()}
            sides = Sides(clients)
            floor(sides, args.floor)
            asked = rounds(sides, world, args.reps)
            mix = mixed(ports, tokens, world, args.mixed) if args.mixed > 0 else None
        rates = bulk({"before": args.baseline.resolve(), "after": REPO}, args.people, args.rounds) \
            if args.rounds > 0 else None
    finally:
        drop_database(settings, COPY)
    print(f"python -m bench.one_path --baseline {args.baseline} --reps {args.reps} --floor {args.floor} "
          f"--mixed {args.mixed:g} --people {args.people} --rounds {args.rounds}")
    print(f"load average {load_start} -> {load_average()}; {time.perf_counter() - started:.0f} s; errors: "
          + ", ".join(f"{side} {len(e)}" for side, e in sides.errors.items()))
    for side, errors in sides.errors.items():
        for example in errors[:2]:
            print(f"  {side}: {example}")
    print("\n".join(table(sides, asked, mix, rates)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
