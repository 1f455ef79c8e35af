"""Where the time of the point reads goes, in the library: round trips, statements, Python.

    python -m bench.read_profile [--reps 300] [--cprofile 15] [--read stateAt(now)] [--plans]
    python -m bench.read_profile --baseline /work/main [--reps 300] [--rounds 2] [--baseline-db NAME]
    (both take --db NAME: a copy of worldmem_perf_cmp to read instead)

Against the comparison world of `python -m bench.http_reads` (database `worldmem_perf_cmp`, loaded there;
this never loads or writes). The same inputs as bench.http_reads (cmp_world.picks), round-robin per input
over the four reads (stateAt now, getEntity, stateAt T, neighbors depth 1), 30 warm-up inputs, then
`--reps` measured, as worldmem_app with row-level security on:

- round trips and statements per read, counted from libpq's trace of the pooled connection (Sync
  messages, and Bind / Parse messages the client sent);
- p50/p95/p99 per read and the load average;
- `--cprofile N`: the top N functions by own time over the measured calls of `--read`;
- `--plans`: EXPLAIN ANALYZE of every statement one call of each read runs (auto_explain, as the app role);
- `--baseline DIR`: before/after on the same machine at the same time: one worker process per checkout (this
  one, and DIR's code with DIR's .venv), each with its own one-connection pool; batches of 20 inputs (every
  read per input) alternate between them (in turns first), so load drifts hit both alike; p50/p95 per side
  and the ratios. `--baseline-db NAME`: the baseline side reads that database instead (a branch that adds a
  migration reads its own copy, migrated, with --db; the baseline the shared one, as main has it).

Round trips and timings use a connection made the way the app makes it (`role_url`: worldmem_app, through the
Unix socket on a checkout that has it); only `--plans` connects as the admin role and then `SET ROLE
worldmem_app` (the admin may load auto_explain), over TCP.

Only the library entry points bench.http_reads calls are imported, so the file runs against another
checkout's code too (`PYTHONPATH=/work/main python bench/read_profile.py`, after copying it out), which
measures a before and after.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

from bench import cmp_world
from bench.cmp_load import owner
from bench.http_server import Summary, load_average
from graph.agent.recall import get_entity
from graph.platform.connect import admin_url, role_url
from graph.platform.db import Database
from graph.reads.temporal import state_at
from graph.reads.traversal import NeighborQuery, neighbors
from graph.settings import get_settings

# `--db NAME`: a copy of it (CREATE DATABASE ... TEMPLATE worldmem_perf_cmp), migrated by this checkout, so a
# branch's migrations never reach the shared one; the worker processes get it from the environment.
DB = os.environ.get("READ_PROFILE_DB", "worldmem_perf_cmp")
WARM = 30
Read = Callable[[Database, int, str], Any]
READS: dict[str, Read] = {
    "stateAt(now)": lambda db, gi, ref: state_at(db, owner(gi), ref, datetime.now(UTC)),
    "getEntity": lambda db, gi, ref: get_entity(db, owner(gi), ref),
    "stateAt(T)": lambda db, gi, ref: state_at(db, owner(gi), ref, cmp_world.T_PAST),
    "neighbors depth 1": lambda db, gi, ref: neighbors(db, owner(gi), NeighborQuery(ref=ref, depth=1)),
}


def app_session(url: str) -> Database:
    """A one-connection pool whose session runs as worldmem_app (RLS on), with auto_explain loaded (off until
    `explained` turns it on); bench.context_profile uses it too."""
    db = Database(url, max_size=1, statement_timeout_ms=60_000)
    with db.connection() as conn:
        conn.autocommit = True
        for setting in ("LOAD 'auto_explain'", "SET auto_explain.log_level = 'notice'",
                        "SET auto_explain.log_min_duration = -1", "SET auto_explain.log_analyze = on",
                        "SET auto_explain.log_buffers = on", "SET auto_explain.log_nested_statements = on",
                        "SET ROLE worldmem_app"):
            conn.execute(setting)
        conn.autocommit = False
    return db


def app_pool() -> Database:
    """A one-connection pool as the app makes it (worldmem_app, its URL: the Unix socket where it has one)."""
    return Database(role_url(get_settings(), "app", DB), max_size=1, statement_timeout_ms=60_000)


def traced(db: Database, read: Read, gi: int, ref: str) -> Counter[str]:
    """Frontend messages of one call, by type, and its round trips, from libpq's trace (TRACE=1 prints it)."""
    # Imported here: a --baseline worker runs this file with another checkout's code, which may lack it.
    from tests.libpq_trace import of_pool, sent

    return sent(of_pool(db, lambda: read(db, gi, ref)))


def explained(db: Database, action: Callable[[], Any]) -> list[str]:
    """The executed plans of `action` on `db`, an `app_session` (auto_explain at NOTICE level, the app role's
    view); bench.context_profile uses it too."""
    notices: list[str] = []
    with db.connection() as conn:
        conn.add_notice_handler(lambda d: notices.append(d.message_primary or ""))
        conn.execute("RESET ROLE")
        conn.execute("SET auto_explain.log_min_duration = 0")
        conn.execute("SET ROLE worldmem_app")
        conn.commit()
    try:
        action()
    finally:
        with db.connection() as conn:
            conn.execute("RESET ROLE")
            conn.execute("SET auto_explain.log_min_duration = -1")
            conn.execute("SET ROLE worldmem_app")
            conn.commit()
            conn._notice_handlers.clear()
    return notices


def worker() -> None:
    """`--worker`: run the batches the coordinator sends (one JSON list of [gi, ref] per line), answer each
    with the seconds per read and input (one JSON object per line)."""
    db = app_pool()
    for line in sys.stdin:
        batch = json.loads(line)
        lat: dict[str, list[float]] = {key: [] for name in READS for key in (name, f"{name} cpu")}
        for gi, ref in batch:
            for name, read in READS.items():
                started, cpu = time.perf_counter(), time.process_time()
                read(db, gi, ref)
                lat[name].append(time.perf_counter() - started)
                lat[f"{name} cpu"].append(time.process_time() - cpu)
        print(json.dumps(lat), flush=True)
    db.close()


def ask(proc: subprocess.Popen[str], batch: list[tuple[int, str]]) -> dict[str, list[float]]:
    stdin, stdout = proc.stdin, proc.stdout
    assert stdin is not None and stdout is not None
    stdin.write(json.dumps(batch) + "\n")
    stdin.flush()
    answer: dict[str, list[float]] = json.loads(stdout.readline())
    return answer


def spawn(code_dir: Path, db: str) -> subprocess.Popen[str]:
    python = code_dir / ".venv" / "bin" / "python"
    env = {**os.environ, "PYTHONPATH": str(code_dir), "READ_PROFILE_DB": db}
    return subprocess.Popen([str(python), __file__, "--worker"], env=env, cwd=code_dir, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)


def compare(baseline: Path, baseline_db: str, refs: list[tuple[int, str]], reps: int, rounds: int) -> None:
    """This checkout against `baseline` (reading `baseline_db`), batches of 20 inputs alternating between the
    two workers."""
    sides = {"this": spawn(Path(__file__).resolve().parent.parent, DB), "baseline": spawn(baseline, baseline_db)}
    lat: dict[tuple[str, str], list[float]] = {(side, key): [] for side in sides for name in READS
                                               for key in (name, f"{name} cpu")}
    loadavg = load_average()
    try:
        for proc in sides.values():
            ask(proc, refs[:WARM])
        for _ in range(rounds):
            for start in range(WARM, WARM + reps, 20):
                batch = [refs[i % len(refs)] for i in range(start, min(start + 20, WARM + reps))]
                turn = list(sides.items()) if start % 40 == WARM % 40 else list(sides.items())[::-1]
                for side, proc in turn:  # in turns first
                    for name, values in ask(proc, batch).items():
                        lat[(side, name)].extend(values)
    finally:
        for proc in sides.values():
            if proc.stdin is not None:
                proc.stdin.close()
            proc.wait()
    print(f"load average {loadavg} -> {load_average()}; {rounds} x {reps} inputs per side, batches of 20 alternating;"
          f" this reads {DB}, the baseline {baseline_db}")
    print(f"{'read':<18} {'this p50':>9} {'p95':>7} {'baseline p50':>13} {'p95':>7} {'p50 x':>6} {'p95 x':>6}"
          f" {'CPU ms this':>12} {'baseline':>9}")
    for name in READS:
        a, b = Summary.of(lat[("this", name)]), Summary.of(lat[("baseline", name)])
        cpu = {side: 1000 * statistics.mean(lat[(side, f"{name} cpu")]) for side in sides}
        print(f"{name:<18} {a.p50_ms:>9.3f} {a.p95_ms:>7.3f} {b.p50_ms:>13.3f} {b.p95_ms:>7.3f} "
              f"{b.p50_ms / a.p50_ms:>6.2f} {b.p95_ms / a.p95_ms:>6.2f} {cpu['this']:>12.3f} {cpu['baseline']:>9.3f}")


def _use_db(name: str) -> None:
    global DB
    DB = os.environ["READ_PROFILE_DB"] = name


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reps", type=int, default=300)
    parser.add_argument("--cprofile", type=int, default=0, help="print this many top functions (own time)")
    parser.add_argument("--read", default="stateAt(now)", choices=list(READS), help="the read --cprofile profiles")
    parser.add_argument("--plans", action="store_true")
    parser.add_argument("--baseline", type=Path, help="another checkout (with its .venv) to compare with")
    parser.add_argument("--rounds", type=int, default=1, help="with --baseline: passes over the inputs")
    parser.add_argument("--db", default=DB, help="the database (a copy of worldmem_perf_cmp)")
    parser.add_argument("--baseline-db", help="with --baseline: the database its side reads (default: --db)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    _use_db(args.db)
    if args.worker:
        worker()
        return
    world = cmp_world.world()
    chosen, _ = cmp_world.picks(world)
    refs = [(gi, world[gi].entities[ei].ref) for gi, ei in chosen]
    if args.baseline:
        compare(args.baseline, args.baseline_db or DB, refs, args.reps, args.rounds)
        return
    db = app_pool()
    lat: dict[str, list[float]] = {name: [] for name in READS}
    profile = cProfile.Profile()
    try:
        for name, read in READS.items():
            kinds = traced(db, read, *refs[0])
            print(f"{name:<18} {kinds['round trips']} round trips, {kinds['Bind']} statements bound, "
                  f"{kinds['Parse']} parsed, {kinds['Query']} simple queries")
        loadavg = load_average()
        for i in range(WARM + args.reps):
            gi, ref = refs[i % len(refs)]
            for name, read in READS.items():
                profiled = i >= WARM and args.cprofile and name == args.read
                if profiled:
                    profile.enable()
                started = time.perf_counter()
                read(db, gi, ref)
                elapsed = time.perf_counter() - started
                profile.disable()
                if i >= WARM:
                    lat[name].append(elapsed)
        print(f"load average {loadavg} -> {load_average()}")
        for name, values in lat.items():
            s = Summary.of(values)
            print(f"{name:<18} p50 {s.p50_ms:.3f} p95 {s.p95_ms:.3f} p99 {s.p99_ms:.3f} ms (n={s.n})")
        if args.cprofile:
            text = io.StringIO()
            pstats.Stats(profile, stream=text).sort_stats("tottime").print_stats(args.cprofile)
            print(f"cProfile of {args.read}, {args.reps} calls, by own time:")
            print(text.getvalue())
        if args.plans:
            session = app_session(admin_url(get_settings(), DB))
            try:
                for name, read in READS.items():
                    print(f"--- {name}")
                    for plan in explained(session, partial(read, session, *refs[0])):
                        print(plan)
                        print()
            finally:
                session.close()
    finally:
        db.close()


if __name__ == "__main__":
    main()
