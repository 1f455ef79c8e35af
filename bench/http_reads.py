"""The reads of issue 11's table, through the library and through GraphQL over HTTP, on the comparison world.

    python -m bench.http_reads [--reps 300] [--reload] [--out result.json] [--baseline DIR]

Loads bench.cmp_world (10 owners x 1,000 entities x 5,000 relationships, 20 % closed) into its own database
`worldmem_perf_cmp` through the committer, once (`--reload` drops it first). Then, round-robin (input i of
every read, library then HTTP, then input i + 1; 30 warm-up inputs, then `--reps` measured), the same
inputs as the Graphiti side (bench.cmp_world.picks):

- stateAt(ref, now): the outgoing relationships believed now     (Graphiti a2)
- getEntity(ref): relationships in both directions, now           (a1)
- stateAt(ref, T): outgoing relationships valid at 2024-01-01     (b1)
- neighbors(ref, depth 1): distinct entities one current hop away (c2)
- searchWorldMemory(query, limit 10)                              (d1)

Each answer is checked against the generated truth (mismatches counted per read and side; search: at most 10
hits, and none missing when some name or description holds every word). The server is `worldmem serve`
with its defaults, one client on one keep-alive connection. `--baseline DIR` serves another checkout's code
(with its .venv, e.g. main before a change) as a second HTTP side, asked right after this one for every input
("http baseline" rows), so both see the same machine; the library side is always this checkout's.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from contextlib import ExitStack
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench import cmp_world
from bench.cmp_load import load, owner
from bench.http_server import Client, Summary, fresh_database, load_average, make_tokens, serve
from graph.agent.recall import get_entity
from graph.agent.search import search_world_memory
from graph.platform.connect import role_url
from graph.platform.db import Database
from graph.reads.temporal import state_at
from graph.reads.traversal import NeighborQuery, neighbors
from graph.settings import get_settings

DB = "worldmem_perf_cmp"
WARM = 30
Q_STATE = "query($r: String!, $t: DateTime) { stateAt(ref: $r, validTime: $t) { facts { predicate objectRef } } }"
Q_ENTITY = "query($r: String!) { getEntity(ref: $r) { facts { subject fact { predicate objectRef } } } }"
Q_HOOD = "query($r: String!) { neighbors(ref: $r, depth: 1) { hops { target { ref } } } }"
Q_SEARCH = "query($q: String!) { searchWorldMemory(query: $q, limit: 10) { hits { entity { ref } fact { subject } } } }"
READS = ("stateAt(now)", "getEntity", "stateAt(T)", "neighbors depth 1", "searchWorldMemory limit 10")


def rels(predicates: list[str]) -> int:
    return sum(p.startswith("g_") for p in predicates)


class Sides:
    """Each read as (library call, HTTP call), both returning the number the truth is compared with."""

    def __init__(self, db: Database, client: Client, tokens: dict[int, str]) -> None:
        self.db, self.client, self.tokens = db, client, tokens

    def http(self, gi: int, query: str, variables: dict[str, Any]) -> Any:
        self.client.token = self.tokens[gi]
        answer = self.client.ask(query, variables)
        if answer.get("errors"):
            raise RuntimeError(f"GraphQL errors: {answer['errors'][:2]}")
        return answer["data"]

    def state_lib(self, gi: int, ref: str, at: datetime | None) -> int:
        view = state_at(self.db, owner(gi), ref, at or datetime.now(UTC))
        return rels([f.predicate for f in view.facts]) if view else -1

    def state_http(self, gi: int, ref: str, at: datetime | None) -> int:
        data = self.http(gi, Q_STATE, {"r": ref, "t": at.isoformat() if at else None})["stateAt"]
        return rels([f["predicate"] for f in data["facts"]]) if data else -1

    def entity_lib(self, gi: int, ref: str) -> int:
        return rels([s.fact.predicate for s in get_entity(self.db, owner(gi), ref).statements])

    def entity_http(self, gi: int, ref: str) -> int:
        return rels([s["fact"]["predicate"] for s in self.http(gi, Q_ENTITY, {"r": ref})["getEntity"]["facts"]])

    def hood_lib(self, gi: int, ref: str) -> int:
        found = neighbors(self.db, owner(gi), NeighborQuery(ref=ref, depth=1))
        return len({h.target.ref for h in found.hops}) if found else -1

    def hood_http(self, gi: int, ref: str) -> int:
        data = self.http(gi, Q_HOOD, {"r": ref})["neighbors"]
        return len({h["target"]["ref"] for h in data["hops"]}) if data else -1

    def search_lib(self, gi: int, q: str) -> int:
        return len(search_world_memory(self.db, owner(gi), q, 10).hits)

    def search_http(self, gi: int, q: str) -> int:
        return len(self.http(gi, Q_SEARCH, {"q": q})["searchWorldMemory"]["hits"])


def search_truth(world: list[cmp_world.Group], gi: int, q: str) -> int:
    """How many entities hold every word of `q` in their name or description (found by any search)."""
    words = q.lower().split()
    return sum(all(w in f"{e.name} {e.summary}".lower() for w in words) for e in world[gi].entities)


def measure(sides: Sides, world: list[cmp_world.Group], reps: int, baseline: Sides | None = None) -> dict[str, Any]:
    chosen, keywords = cmp_world.picks(world)
    names = ("library", "http", *(("http baseline",) if baseline else ()))
    lat: dict[str, list[float]] = {f"{r} {s}": [] for r in READS for s in names}
    bad: dict[str, int] = dict.fromkeys(lat, 0)
    for i in range(WARM + reps):
        gi, ei = chosen[i % len(chosen)]
        ref = world[gi].entities[ei].ref
        truth = cmp_world.truth(world, gi, ei)
        kgi, q = keywords[i % len(keywords)]
        expected_hits = search_truth(world, kgi, q)
        t_past = cmp_world.T_PAST
        calls: list[tuple[str, str, Callable[..., int], tuple[Any, ...], int | None]] = []
        for side, of in (("library", sides), ("http", sides), ("http baseline", baseline)):
            if of is None:
                continue
            lib = side == "library"
            calls += [
                ("stateAt(now)", side, of.state_lib if lib else of.state_http, (gi, ref, None), truth.out_now),
                ("getEntity", side, of.entity_lib if lib else of.entity_http, (gi, ref), truth.both_now),
                ("stateAt(T)", side, of.state_lib if lib else of.state_http, (gi, ref, t_past), truth.out_at_t),
                ("neighbors depth 1", side, of.hood_lib if lib else of.hood_http, (gi, ref), truth.neighbours_now),
                ("searchWorldMemory limit 10", side, of.search_lib if lib else of.search_http, (kgi, q), None),
            ]
        # per read, back to back: library, then both HTTP sides, in turns first (the first one asked after the
        # library call was measured slower, whichever server it was)
        calls.sort(key=lambda c: (READS.index(c[0]), c[1] != "library", (c[1] == "http") == (i % 2 == 0)))
        for read, side, call, call_args, want in calls:
            started = time.perf_counter()
            got = call(*call_args)
            elapsed = time.perf_counter() - started
            if i >= WARM:
                lat[f"{read} {side}"].append(elapsed)
                right = got == want if want is not None else got <= 10 and (got > 0 or expected_hits == 0)
                bad[f"{read} {side}"] += not right
    return {name: {**vars(Summary.of(v)), "mismatches": bad[name]} for name, v in lat.items()}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reps", type=int, default=300)
    parser.add_argument("--reload", action="store_true", help="drop the database and load the world again")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--label", default="")
    parser.add_argument("--load-only", action="store_true", help="load the world (if needed) and stop")
    parser.add_argument("--baseline", type=Path, help="also serve this checkout's code (with its .venv) over HTTP")
    args = parser.parse_args()
    settings = get_settings()
    world = cmp_world.world()
    fresh_database(settings, DB, keep=not args.reload)
    db = Database(role_url(settings, "app", DB), max_size=2, statement_timeout_ms=120_000)
    result: dict[str, Any] = {"at": datetime.now(UTC).isoformat(timespec="seconds"), "label": args.label,
                              "fingerprint": cmp_world.fingerprint(world), "load": load(db, world),
                              "loadavg_start": load_average()}
    if args.load_only:
        db.close()
        print(f"load: {result['load']}")
        return
    tokens = make_tokens(settings, DB, {g.index: owner(g.index) for g in world})
    try:
        with ExitStack() as servers:
            _, port = servers.enter_context(serve(DB))
            this = Sides(db, Client(port, tokens[0]), tokens)
            baseline = None
            if args.baseline:
                _, base_port = servers.enter_context(serve(DB, code_dir=args.baseline))
                baseline = Sides(db, Client(base_port, tokens[0]), tokens)
                result["baseline"] = str(args.baseline)
            result["results"] = measure(this, world, args.reps, baseline)
    finally:
        db.close()
    result["loadavg_end"] = load_average()
    print(f"load average {result['loadavg_start']} -> {result['loadavg_end']}; load: {result['load']}")
    print(f"{'read':<40} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'mismatches':>10}")
    for name, r in result["results"].items():
        print(f"{name:<40} {r['p50_ms']:>8.2f} {r['p95_ms']:>8.2f} {r['p99_ms']:>8.2f} {r['mismatches']:>10}")
    if args.out:
        args.out.write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
