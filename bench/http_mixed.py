"""Mixed load over HTTP: 8 clients, 80 % reads (stateAt, neighbors, worldContext) / 20 % commitProposal.

    python -m bench.http_mixed [--seconds 15] [--rounds 2] [--clients 8] [--workers 1 2] [--profile S] [--cpus 0]

Uses the comparison world (`python -m bench.http_reads --load-only` loads it; this command does too). One
`worldmem serve` per worker count in `--workers` (WORLDMEM_WORKERS), all started up front; the phases
alternate between them (`--rounds` times each, `--seconds` each; `--baseline DIR` adds a server running
another checkout's code, e.g. main, for a before/after), so every configuration sees the same
machine. Each client is a thread with one keep-alive connection and its own owner; per request it picks
stateAt (40 %), neighbors depth 1 (20 %), worldContext (20 %) or a single-operation commitProposal (20 %: a
`g_knows` relationship from now on, a new random runId each). Reports req/s, p50, p95, p99 and errors (a non-200
answer or any GraphQL error) per configuration and overall, with the load average.
"""

from __future__ import annotations

import argparse
import random
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from uuid import uuid4

from bench import cmp_world, cpus
from bench.cmp_load import load, owner
from bench.http_floor import print_profile, profile
from bench.http_reads import Q_HOOD, Q_STATE
from bench.http_server import Client, Summary, fresh_database, load_average, make_tokens, serve
from graph.platform.connect import role_url
from graph.platform.db import Database
from graph.settings import get_settings

# Its own copy of the comparison world: the commits change current facts, which would make
# bench.http_reads' answers differ from the generated truth.
DB = "worldmem_perf_mixed"

Q_CONTEXT = "query($m: String!) { worldContext(message: $m) { markdown tokens } }"
Q_COMMIT = "mutation($p: ProposalInput!) { commitProposal(proposal: $p) { committed } }"
MIX = (("stateAt", 40), ("neighbors", 20), ("worldContext", 20), ("commitProposal", 20))


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    by_kind: dict[str, list[float]] = field(default_factory=dict)
    examples: list[str] = field(default_factory=list)


def request(kind: str, gi: int, rng: random.Random, world: list[cmp_world.Group], tag: str) -> tuple[str, Any]:
    entities = world[gi].entities
    e = rng.choice(entities)
    if kind == "stateAt":
        return Q_STATE, {"r": e.ref, "t": None}
    if kind == "neighbors":
        return Q_HOOD, {"r": e.ref}
    if kind == "worldContext":
        return Q_CONTEXT, {"m": f"What do we know about {e.name}?"}
    other = rng.choice(entities)
    op = {"assertRelationship": {"subject": e.ref, "predicate": "g_knows", "object": other.ref,
                                 "validFrom": datetime.now(UTC).isoformat(), "source": "user", "confidence": 1,
                                 "evidence": {"kind": "bench", "text": "mixed load"}}}
    return Q_COMMIT, {"p": {"runId": f"mixed-{tag}-{uuid4().hex}", "operations": [op]}}


def kinds(rng: random.Random) -> Iterator[str]:
    names = [k for k, _ in MIX]
    weights = [w for _, w in MIX]
    while True:
        yield rng.choices(names, weights)[0]


def client_loop(port: int, token: str, gi: int, world: list[cmp_world.Group], stop: threading.Event,
                tally: Tally, lock: threading.Lock, seed: int) -> None:
    rng = random.Random(seed)
    client = Client(port, token)
    pick = kinds(rng)
    try:
        while not stop.is_set():
            kind = next(pick)
            query, variables = request(kind, gi, rng, world, f"{seed}")
            started = time.perf_counter()
            try:
                answer = client.ask(query, variables)
                failed = bool(answer.get("errors"))
                detail = str(answer.get("errors"))[:200]
            except (OSError, RuntimeError) as exc:
                failed, detail = True, f"{type(exc).__name__}: {exc}"[:200]
                client = Client(port, token)
            elapsed = time.perf_counter() - started
            with lock:
                tally.latencies.append(elapsed)
                tally.by_kind.setdefault(kind, []).append(elapsed)
                if failed:
                    tally.errors += 1
                    if len(tally.examples) < 3:
                        tally.examples.append(f"{kind}: {detail}")
    finally:
        client.close()


def phase(port: int, tokens: dict[int, str], world: list[cmp_world.Group], clients: int, seconds: float,
          tally: Tally, seed: int) -> float:
    stop = threading.Event()
    lock = threading.Lock()
    threads = [threading.Thread(target=client_loop, args=(port, tokens[k % len(tokens)], k % len(tokens), world,
                                                          stop, tally, lock, seed * 100 + k))
               for k in range(clients)]
    started = time.perf_counter()
    for t in threads:
        t.start()
    time.sleep(seconds)
    stop.set()
    for t in threads:
        t.join()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--baseline", type=Path, help="also serve another checkout's code (1 worker), e.g. main")
    parser.add_argument("--profile", type=int, default=0,
                        help="afterwards, sample the first server (1 process) with py-spy for this many seconds")
    cpus.add_option(parser)
    args = parser.parse_args()
    settings = get_settings()
    world = cmp_world.world()
    fresh_database(settings, DB, keep=True)
    db = Database(role_url(settings, "app", DB), max_size=2, statement_timeout_ms=120_000)
    try:
        load(db, world)
    finally:
        db.close()
    tokens = make_tokens(settings, DB, {g.index: owner(g.index) for g in world})
    print(f"load average at start: {load_average()}")
    with ExitStack() as stack:
        stack.enter_context(cpus.pinned(args.cpus, settings))
        servers = {f"workers {w}": stack.enter_context(serve(DB, {"WORLDMEM_WORKERS": str(w)})) for w in args.workers}
        if args.baseline:
            servers[f"code of {args.baseline}"] = stack.enter_context(serve(DB, code_dir=args.baseline))
        ports = {w: port for w, (_proc, port) in servers.items()}
        tallies = {w: Tally() for w in ports}
        spent = dict.fromkeys(ports, 0.0)
        for port in ports.values():  # warm-up: pools, caches, prepared statements
            phase(port, tokens, world, args.clients, 2, Tally(), 0)
        for r in range(args.rounds):
            for w, port in ports.items():
                spent[w] += phase(port, tokens, world, args.clients, args.seconds, tallies[w], r + 1)
                print(f"round {r + 1}, {w}: done, load average {load_average()}", flush=True)
        if args.profile:
            proc, port = next(iter(servers.values()))
            print_profile(profile(proc.pid, args.profile, lambda _stop: phase(
                port, tokens, world, args.clients, args.profile, Tally(), 99)))
    for w, tally in tallies.items():
        s = Summary.of(tally.latencies)
        print(f"{w}: {len(tally.latencies) / spent[w]:.0f} req/s, p50 {s.p50_ms:.1f} ms, "
              f"p95 {s.p95_ms:.1f} ms, p99 {s.p99_ms:.1f} ms, errors {tally.errors} of {s.n}")
        for kind, values in sorted(tally.by_kind.items()):
            k = Summary.of(values)
            print(f"    {kind:<15} n {k.n:>6}  p50 {k.p50_ms:6.1f}  p95 {k.p95_ms:6.1f} ms")
        for example in tally.examples:
            print(f"    error: {example}")
    print(f"load average at end: {load_average()}")


if __name__ == "__main__":
    main()
