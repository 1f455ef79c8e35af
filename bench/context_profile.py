"""Where worldContext's time goes at 50k and 1M facts: round trips, statements, plans, Python.

    python -m bench.context_profile [--db worldmem_perf_scale] [--reps 200] [--plans] [--cprofile]

Uses the database of `python -m bench.http_scale --seed` (owners bench-b, 50k facts, and bench-a, 1M facts)
and the same inputs ("What about <name>?"). One pooled connection, made as the admin role and then
`SET ROLE worldmem_app` for the session, so row-level security applies exactly as for the app, while the
admin may load auto_explain:

- round trips and statements per build, counted from libpq's trace of that connection (Sync messages and
  Parse/Bind pairs the client sent);
- p50/p95/p99 of `world_context` per size;
- `--plans`: every statement's executed plan (EXPLAIN ANALYZE, BUFFERS via auto_explain at NOTICE level,
  i.e. the plan the real call ran: after the measured builds, so psycopg has prepared the statements and
  the builder's generic plans are in use) for one input per size;
- `--cprofile`: the top Python functions by own time over the measured builds at 1M;
- `--http`: the same inputs as `{ worldContext(message: ...) }` over HTTP keep-alive against `worldmem serve`
  (this checkout, and with `--baseline DIR` another checkout's code too: batches of 20 alternate between the
  servers, so load drifts hit both alike); `--spy S`: then py-spy samples this checkout's server for S seconds
  under worldContext at 1M (samples holding the GIL, top entries as bench.http_floor prints them).
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import subprocess
import sys
import tempfile
import time
from collections import Counter
from contextlib import ExitStack
from pathlib import Path

from bench.http_floor import print_profile
from bench.http_scale import DB, LARGE, SMALL, WARM, sample
from bench.http_server import Client, Summary, load_average, make_tokens, serve
from bench.read_profile import app_session, explained
from graph.agent.world_context import ContextRequest, world_context
from graph.platform.connect import admin_url
from graph.platform.db import Database
from graph.settings import get_settings
from tests.libpq_trace import of_pool, sent


def ask(db: Database, owner: str, entity: dict[str, str]) -> int:
    return world_context(db, owner, ContextRequest(message=f"What about {entity['name']}?", budget_tokens=1000)).tokens


def traced(db: Database, owner: str, entity: dict[str, str]) -> Counter[str]:
    """Frontend messages of one build, by type, from libpq's trace (TRACE=1 prints it)."""
    return sent(of_pool(db, lambda: ask(db, owner, entity)))


def plans(db: Database, owner: str, entity: dict[str, str]) -> None:
    for note in explained(db, lambda: ask(db, owner, entity)):
        print(note)
        print()


Q_CONTEXT = "query($m: String!) { worldContext(message: $m) { markdown tokens warnings } }"


def spy(pid: int, seconds: int, client: Client, names: list[str]) -> str:
    """py-spy's collapsed stacks of the server (samples holding the GIL) while `client` asks worldContext."""
    out = Path(tempfile.mkdtemp()) / "context.txt"
    py_spy = str(Path(sys.executable).parent / "py-spy")  # the dev extra, beside python
    proc = subprocess.Popen([py_spy, "record", "--pid", str(pid), "--duration", str(seconds), "--rate", "500",
                             "--format", "raw", "--output", str(out), "--nonblocking", "--gil"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    i = 0
    while proc.poll() is None:
        client.ask(Q_CONTEXT, {"m": f"What about {names[i % len(names)]}?"})
        i += 1
    if proc.returncode != 0:
        raise SystemExit(f"py-spy failed: {proc.stderr.read().decode()[-500:] if proc.stderr else ''}")
    return out.read_text()


def http(name: str, inputs: dict[str, list[dict[str, str]]], reps: int, baseline: Path | None,
         spy_s: int = 0) -> None:
    """p50/p95/p99 of worldContext over HTTP per size (and per server with a baseline); `spy_s`: then
    sample this checkout's server with py-spy for that long under worldContext at 1M."""
    settings = get_settings()
    owners = (SMALL, LARGE)
    tokens = make_tokens(settings, name, {n: o for n, (o, _) in enumerate(owners)})
    sides = {"this": None, **({"baseline": baseline} if baseline else {})}
    lat: dict[tuple[str, int], list[float]] = {(side, size): [] for side in sides for _, size in owners}
    with ExitStack() as stack:
        clients, pids = {}, {}
        for side, code in sides.items():
            proc, port = stack.enter_context(serve(name, code_dir=code))
            clients[side], pids[side] = {o: Client(port, tokens[n]) for n, (o, _) in enumerate(owners)}, proc.pid
        for start in range(0, WARM + reps, 20):
            for side in sides:
                for i in range(start, min(start + 20, WARM + reps)):
                    for owner, size in owners:
                        began = time.perf_counter()
                        body = clients[side][owner].ask(Q_CONTEXT, {"m": f"What about {inputs[owner][i]['name']}?"})
                        elapsed = time.perf_counter() - began
                        if body.get("errors") or body["data"]["worldContext"]["warnings"]:
                            raise SystemExit(f"worldContext failed: {body}")
                        if i >= WARM:
                            lat[(side, size)].append(elapsed)
        if spy_s:
            print_profile(spy(pids["this"], spy_s, clients["this"][LARGE[0]], [e["name"] for e in inputs[LARGE[0]]]))
    print(f"HTTP, load average {load_average()}")
    for (side, size), values in lat.items():
        s = Summary.of(values)
        print(f"{side:>8} {size:>9} facts: p50 {s.p50_ms:.2f} p95 {s.p95_ms:.2f} p99 {s.p99_ms:.2f} ms (n={s.n})")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", default=DB)
    parser.add_argument("--reps", type=int, default=200)
    parser.add_argument("--plans", action="store_true")
    parser.add_argument("--cprofile", type=int, default=0, help="print this many top functions (own time)")
    parser.add_argument("--http", action="store_true", help="also over HTTP against worldmem serve")
    parser.add_argument("--baseline", type=Path, help="with --http: a second server running another checkout's code")
    parser.add_argument("--spy", type=int, default=0, help="with --http: seconds of py-spy on this server at 1M")
    args = parser.parse_args()
    settings = get_settings()
    db = app_session(admin_url(settings, args.db))
    owners = (SMALL, LARGE)
    try:
        inputs = {o: sample(db, o, WARM + args.reps) for o, _ in owners}
        for owner, size in owners:
            kinds = traced(db, owner, inputs[owner][0])
            print(f"{size:>9} facts: {kinds['Sync']} round trips (Sync), {kinds['Bind']} statements bound, "
                  f"{kinds['Parse']} parsed, {kinds['Query']} simple queries")
        lat: dict[int, list[float]] = {size: [] for _, size in owners}
        profile = cProfile.Profile()
        for i in range(WARM + args.reps):
            for owner, size in owners:
                entity = inputs[owner][i]
                measured = i >= WARM
                if measured and size == LARGE[1] and args.cprofile:
                    profile.enable()
                started = time.perf_counter()
                ask(db, owner, entity)
                elapsed = time.perf_counter() - started
                profile.disable()
                if measured:
                    lat[size].append(elapsed)
        print(f"load average {load_average()}")
        for size, values in lat.items():
            s = Summary.of(values)
            print(f"{size:>9} facts: p50 {s.p50_ms:.2f} p95 {s.p95_ms:.2f} p99 {s.p99_ms:.2f} ms (n={s.n})")
        if args.plans:  # after the measured builds: the plans the prepared statements run
            for owner, size in owners:
                print(f"===== plans at {size} facts")
                plans(db, owner, inputs[owner][1])
        if args.cprofile:
            with tempfile.TemporaryDirectory() as tmp:
                path = Path(tmp) / "ctx.prof"
                profile.dump_stats(path)
                stats = pstats.Stats(str(path))
                stats.sort_stats("tottime").print_stats(args.cprofile)
        if args.http:
            http(args.db, inputs, args.reps, args.baseline, args.spy)
    finally:
        db.close()


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
