"""Reads per second with one and with two API processes on one database (docs/operations/processes.md).

    python -m bench.processes [--seconds 10] [--clients 4] [--rounds 1] [--keep]

Loads its own database `worldmem_perf_processes` (dropped first unless `--keep` and it exists): 4 owners x 200
pets with 3 facts each, committed through GraphQL. Then, for 1 and then 2 separate `worldmem serve`
processes (WORLDMEM_WORKERS=1 each: separate processes on their own ports, as behind a load balancer, not
uvicorn's shared socket), `--clients` client processes, each with two keep-alive connections, send point
reads (stateAt, getEntity; an owner and a pet at random) for `--seconds` after a 2 s warm-up. Each client
connection goes to server `i % n`, so the processes get the same share.

Printed per configuration: reads per second, p50/p95 latency, and per server process its requests and its CPU
milliseconds per request (user + system from /proc/<pid>/stat, before and after the measured window), with
the load average before and after, and the CPU milliseconds per request of the Postgres backends serving the
bench's database (from /proc as well: the embedded cluster runs in this machine's process namespace). The
machine has 2 cores shared by the client processes, the servers and Postgres, so the CPU per request is the
figure that carries over to a bigger machine, the rate is not.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import time
from typing import Any

import psycopg

from bench import load as load_sql
from bench.http_server import Client, Summary, cpu_seconds, fresh_database, load_average, make_tokens, serve_many
from graph.platform.connect import admin_url
from graph.settings import get_settings

DB = "worldmem_perf_processes"
OWNERS, PETS = 4, 200
WARM_S = 2.0
READS = {
    "stateAt": "query($r: String!) { stateAt(ref: $r) { name facts { predicate value } } }",
    "getEntity": "query($r: String!) { getEntity(ref: $r) { entity { ref } facts { text } } }",
}
WRITE = "mutation($p: ProposalInput!) { commitProposal(proposal: $p) { committed } }"
ENV = {"WORLDMEM_WORKERS": "1", "WORLDMEM_EMBEDDING_PROVIDER": "none", "WORLDMEM_ACCESS_LOG": "false",
       "WORLDMEM_TEMPORAL_ADDRESS": ""}


def owner(i: int) -> str:
    return f"procs-{i}"


def load(port: int, tokens: dict[int, str]) -> None:
    """The pets of every owner, 50 per proposal."""
    for key, token in tokens.items():
        client = Client(port, token)
        for start in range(0, PETS, 50):
            operations: list[dict[str, Any]] = []
            for p in range(start, start + 50):
                ref = f"pet:p{p}"
                operations.append({"upsertEntity": {"ref": ref, "kind": "pet", "canonicalName": f"Pet {p}"}})
                operations += [{"assertFact": {"subject": ref, "predicate": predicate, "value": value,
                                               "validFrom": "2026-01-01T00:00:00Z", "source": "user",
                                               "confidence": 1.0, "evidence": {"kind": "message", "text": "bench"}}}
                               for predicate, value in (("description", f"a pet of colour c{p % 7}"),
                                                        ("birthday", f"20{10 + p % 15}-05-01"),
                                                        ("feeding_time", f"{p % 24:02d}:00"))]
            body = client.ask(WRITE, {"p": {"runId": f"load-{key}-{start}", "operations": operations}})
            assert body.get("data") and body["data"]["commitProposal"]["committed"] > 0, body
        client.close()


Job = tuple[list[int], dict[int, str], int, float, float]  # ports, tokens, client slot, start, end (epoch s)


def client_run(job: Job) -> tuple[dict[int, int], list[float], list[str]]:
    """One client process: two connections (to server `slot % n` and `slot + 1 % n`), reads until `end`;
    (requests per port, latencies of the measured window, error messages)."""
    ports, tokens, slot, start_at, end_at = job
    rng = random.Random(slot)
    conns = [(ports[(slot * 2 + c) % len(ports)], {k: Client(ports[(slot * 2 + c) % len(ports)], t)
                                                   for k, t in tokens.items()}) for c in range(2)]
    counts: dict[int, int] = {}
    latencies: list[float] = []
    errors: list[str] = []
    turn = 0
    while (now := time.time()) < end_at:
        port, clients = conns[turn % 2]
        turn += 1
        key = rng.choice(list(clients))
        name = rng.choice(list(READS))
        began = time.perf_counter()
        body = clients[key].ask(READS[name], {"r": f"pet:p{rng.randrange(PETS)}"})
        took = time.perf_counter() - began
        if body.get("errors"):
            errors.append(body["errors"][0]["message"])
        if now >= start_at:
            latencies.append(took)
            counts[port] = counts.get(port, 0) + 1
    return counts, latencies, errors


def backends_cpu(admin: psycopg.Connection[Any]) -> dict[int, float]:
    """CPU seconds of every server backend connected to the bench's database (the cluster's other databases,
    other benches' and tests', are not counted)."""
    pids = [r[0] for r in admin.execute(load_sql("processes_backends"), (DB,))]
    found: dict[int, float] = {}
    for pid in pids:
        try:
            found[pid] = cpu_seconds(pid)
        except OSError:  # ended meanwhile
            pass
    return found


def measure(n: int, tokens: dict[int, str], seconds: float, clients: int) -> dict[str, Any]:
    with serve_many(DB, n, ENV) as started, \
            psycopg.connect(admin_url(get_settings(), DB), autocommit=True) as admin:
        ports = [port for _, port in started]
        pids = {port: proc.pid for proc, port in started}
        now = time.time()
        start_at, end_at = now + WARM_S + 1.0, now + WARM_S + 1.0 + seconds
        load_before = load_average()
        with multiprocessing.Pool(clients) as pool:
            pending = pool.map_async(client_run, [(ports, tokens, c, start_at, end_at) for c in range(clients)])
            time.sleep(max(0.0, start_at - time.time()))
            cpu_before = {port: cpu_seconds(pid) for port, pid in pids.items()}
            pg_before = backends_cpu(admin)
            time.sleep(max(0.0, end_at - time.time()))
            cpu_after = {port: cpu_seconds(pid) for port, pid in pids.items()}
            pg_after = backends_cpu(admin)
            results = pending.get()
        counts: dict[int, int] = {}
        latencies: list[float] = []
        for got, took, _ in results:
            latencies += took
            for port, k in got.items():
                counts[port] = counts.get(port, 0) + k
        summary = Summary.of(latencies)
        return {
            "api_processes": n, "client_processes": clients, "seconds": seconds,
            "reads": len(latencies), "reads_per_s": round(len(latencies) / seconds, 1),
            "p50_ms": summary.p50_ms, "p95_ms": summary.p95_ms, "errors": sum(len(r[2]) for r in results),
            "first_error": next((r[2][0] for r in results if r[2]), None),
            "per_process": [{"requests": counts.get(port, 0),
                             "cpu_ms_per_request": round(1000 * (cpu_after[port] - cpu_before[port])
                                                         / max(1, counts.get(port, 0)), 3),
                             "cpu_share": round((cpu_after[port] - cpu_before[port]) / seconds, 2)}
                            for port in ports],
            # a backend that connected during the window counts from 0 (its start-up is part of the work)
            "postgres_cpu_ms_per_request": round(1000 * sum(t - pg_before.get(pid, 0.0) for pid, t in pg_after.items())
                                                 / max(1, len(latencies)), 3),
            "load_average_before": load_before, "load_average_after": load_average(),
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--clients", type=int, default=4, help="client processes (two connections each)")
    parser.add_argument("--keep", action="store_true", help="reuse the loaded database when it exists")
    parser.add_argument("--rounds", type=int, default=1, help="1 then 2 processes, this many times (interleaved, "
                        "so a change in the machine's load hits both)")
    args = parser.parse_args()
    settings = get_settings()
    kept = fresh_database(settings, DB, keep=args.keep)
    tokens = make_tokens(settings, DB, {i: owner(i) for i in range(OWNERS)})
    if not kept:
        with serve_many(DB, 1, ENV) as started:
            load(started[0][1], tokens)
    for _ in range(args.rounds):
        for n in (1, 2):
            print(json.dumps(measure(n, tokens, args.seconds, args.clients)), flush=True)


if __name__ == "__main__":
    main()
