"""The GraphQL floor: an authenticated `{ __typename }` over one HTTP keep-alive connection.

    python -m bench.http_floor [--requests 3000] [--profile 20] [--compare WORLDMEM_X=v ...]

Starts `worldmem serve` (its own database, `worldmem_perf_floor`), creates an owner token and sends
`{ __typename }` with it, one request at a time, on one connection; prints p50/p95/p99 and the load average.
`--compare` starts a second server with those settings too (`--baseline DIR`: running the code of another
checkout, with its own .venv, e.g. main before a change) and alternates batches of 100 requests between
the two, so both see the same machine (ratios, not absolute numbers, are what travels between runs).
`--profile S` samples the (first) server with py-spy for S seconds under the same load and prints the
top entries by own time and by total time (from py-spy's collapsed stacks).
"""

from __future__ import annotations

import argparse
import collections
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from bench.http_server import Client, Summary, cpu_seconds, drop_database, fresh_database, load_average, serve
from graph.ledger.tokens import create_token
from graph.platform.connect import admin_url
from graph.settings import get_settings

DB = "worldmem_perf_floor"
QUERY = "{ __typename }"
BATCH = 100


def run_batch(client: Client, n: int, into: list[float]) -> None:
    for _ in range(n):
        started = time.perf_counter()
        answer = client.ask(QUERY)
        into.append(time.perf_counter() - started)
        if answer != {"data": {"__typename": "Query"}}:
            raise SystemExit(f"unexpected answer: {answer}")


def floor_load(client: Client, stop: threading.Event) -> None:
    sink: list[float] = []
    while not stop.is_set():
        run_batch(client, BATCH, sink)


def top_entries(collapsed: str, limit: int = 15) -> tuple[list[tuple[str, float]], list[tuple[str, float]]]:
    """(own, total) shares of samples per frame, from py-spy's `--format raw` (collapsed stacks)."""
    own: collections.Counter[str] = collections.Counter()
    total: collections.Counter[str] = collections.Counter()
    samples = 0
    for line in collapsed.splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack or not count_text.isdigit():
            continue
        count = int(count_text)
        frames = [f for f in stack.split(";") if f]
        samples += count
        if frames:
            own[frames[-1]] += count
        for frame in set(frames):
            total[frame] += count
    share = 100.0 / max(samples, 1)
    return ([(f, c * share) for f, c in own.most_common(limit)],
            [(f, c * share) for f, c in total.most_common(limit * 3)])


def profile(pid: int, seconds: int, work: Callable[[threading.Event], object]) -> str:
    """py-spy's collapsed stacks of process `pid` (samples holding the GIL) while `work` runs in a thread.

    `work(stop)` loads the server until `stop` is set, which happens when py-spy has sampled `seconds`."""
    out = Path(tempfile.mkdtemp()) / "profile.txt"
    py_spy = str(Path(sys.executable).parent / "py-spy")  # installed with the dev extra, beside python
    spy = subprocess.Popen([py_spy, "record", "--pid", str(pid), "--duration", str(seconds), "--rate", "500",
                            "--format", "raw", "--output", str(out), "--nonblocking", "--gil"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    stop = threading.Event()
    loader = threading.Thread(target=work, args=(stop,))
    loader.start()
    _, err = spy.communicate()
    stop.set()
    loader.join()
    if spy.returncode != 0:
        raise SystemExit(f"py-spy failed: {err.decode()[-500:]}")
    return out.read_text()


def print_profile(collapsed: str) -> None:
    own, total = top_entries(collapsed)
    print("top by own time (% of samples holding the GIL):")
    for frame, p in own:
        print(f"  {p:5.1f}  {frame}")
    print("top by total time, project and framework frames (% of samples):")
    shown = 0
    for frame, p in total:
        if shown >= 20:
            break
        if "threading.py" in frame or "<module>" in frame or "runpy" in frame:
            continue
        print(f"  {p:5.1f}  {frame}")
        shown += 1


def parse_env(pairs: list[str]) -> dict[str, str]:
    env = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.startswith("WORLDMEM_"):
            raise SystemExit(f"--compare takes WORLDMEM_NAME=value, got {pair!r}")
        env[key] = value
    return env


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--profile", type=int, default=0, help="seconds of py-spy sampling (0: none)")
    parser.add_argument("--compare", nargs="*", default=[], help="WORLDMEM_X=v settings of a second server")
    parser.add_argument("--baseline", type=Path, help="a checkout (with .venv) whose code the second server runs")
    parser.add_argument("--keep", action="store_true", help="keep the scratch database afterwards")
    args = parser.parse_args()
    settings = get_settings()
    fresh_database(settings, DB)
    token = create_token(admin_url(settings, DB), f"floor-{os.urandom(3).hex()}")
    try:
        with serve(DB) as (proc, port):
            client = Client(port, token)
            run_batch(client, 300, [])  # warm-up: pool, prepared statements, caches
            if args.compare or args.baseline:
                other_name = " ".join(args.compare) or f"code of {args.baseline}"
                with serve(DB, parse_env(args.compare), args.baseline) as (other_proc, other_port):
                    other = Client(other_port, token)
                    run_batch(other, 300, [])
                    base: list[float] = []
                    changed: list[float] = []
                    cpu = [0.0, 0.0]
                    sides = ((client, proc.pid, base), (other, other_proc.pid, changed))
                    for _ in range(max(1, args.requests // BATCH)):
                        for k, (c, pid, into) in enumerate(sides):
                            started = cpu_seconds(pid)
                            run_batch(c, BATCH, into)
                            cpu[k] += cpu_seconds(pid) - started
                    a, b = Summary.of(base), Summary.of(changed)
                    print(f"this checkout, defaults: {a}\n{other_name}: {b}\n"
                          f"ratio p50 {b.p50_ms / a.p50_ms:.2f}, p95 {b.p95_ms / a.p95_ms:.2f}\n"
                          f"server CPU per request: this {1000 * cpu[0] / len(base):.3f} ms, "
                          f"other {1000 * cpu[1] / len(changed):.3f} ms")
            else:
                latencies: list[float] = []
                for _ in range(max(1, args.requests // BATCH)):
                    run_batch(client, BATCH, latencies)
                print(f"{{ __typename }} authenticated, keep-alive: {Summary.of(latencies)}")
            if args.profile:
                print_profile(profile(proc.pid, args.profile, lambda stop: floor_load(client, stop)))
            print(f"load average: {load_average()}")
    finally:
        if not args.keep:
            drop_database(settings, DB)


if __name__ == "__main__":
    main()
