"""The point reads, neighbours and searches, through the library and through GraphQL over HTTP, on the
comparison world.

    python -m bench.http_reads [--reps 300] [--reload] [--out result.json] [--cpus 0]

Loads bench.cmp_world (10 owners x 1,000 entities x 5,000 relationships, 20 % closed) into its own database
`worldmem_perf_cmp` through the committer, once (`--reload` drops it first). Then, round-robin (input i of
every read, library then HTTP, then input i + 1; 30 warm-up inputs, then `--reps` measured), the same
inputs as the Graphiti side (bench.cmp_world.picks):

- stateAt(ref, now): the outgoing relationships believed now     (Graphiti a2)
- getEntity(ref): relationships in both directions, now           (a1)
- stateAt(ref, T): outgoing relationships valid at 2024-01-01     (b1)
- neighbors(ref, depth 1): distinct entities one current hop away (c2)
- searchWorldMemory(query, limit 10) in both modes, the same mode on both sides: text (names and words:
  `mode: TEXT` over HTTP, no embedder in the library; Graphiti's keyword searches d1 "BM25 edges" and d2
  "BM25 edges + nodes" are the comparison) and hybrid (the default over HTTP, the offline model in the
  library: the query is embedded and the meaning list runs too; Graphiti has no such row here)

Search needs the finder's projections (what the server's reconciler writes after commits; the committer
load does not), so each owner without any is projected and embedded once with the offline model (153 s
for the 10,000 entities at load 6-9). The queries repeat (400 picks of one or two of 100 words), so the
server and the library remember query embeddings (graph/finder/query_vectors.py); `--cold` turns that off on
both sides (the server with WORLDMEM_QUERY_VECTORS=0, the library forgets before each search).
`--search-only` measures the searches alone, `--no-hybrid` all but hybrid search (Graphiti's side has no
hybrid row; before threadpoolctl held the model to one BLAS thread, its idle threads also spun after each
forward pass and slowed the calls that followed); `--baseline DIR` also sends each read to servers of another
checkout (its .venv; before `mode` existed: text mode through a second server without a model), every
input's calls in a random order (no side always right after another: the server that ran last is warm).
`--only library` (or `http`) measures one side alone, as graphiti_cmp.py measures Graphiti's library alone:
in turn, each side's calls pay for the other's leftovers (the server's work after it answered).

Each answer is checked against the generated truth (mismatches counted per read and side; search: at most 10
hits, and none missing when some name or description holds every word). The server is `worldmem serve`
with its defaults, one client on one keep-alive connection. `--cpus 0` runs the bench, its servers and the
embedded cluster on CPU 0 only (bench.cpus; Graphiti's side then with `taskset -c 0`).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from contextlib import ExitStack
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench import cmp_world, cpus
from bench import load as load_sql
from bench.cmp_load import load, owner
from bench.http_server import Client, Summary, fresh_database, load_average, make_tokens, serve
from graph.agent.recall import get_entity
from graph.agent.search import search_world_memory
from graph.finder import query_vectors
from graph.finder.embedders import Embedder, embedder_for
from graph.finder.reconciler import reconcile_owner
from graph.platform.connect import role_url
from graph.platform.db import Database
from graph.reads.temporal import state_at
from graph.reads.traversal import NeighborQuery, neighbors
from graph.settings import Settings, get_settings

DB = "worldmem_perf_cmp"
WARM = 30
Q_STATE = "query($r: String!, $t: DateTime) { stateAt(ref: $r, validTime: $t) { facts { predicate objectRef } } }"
Q_ENTITY = "query($r: String!) { getEntity(ref: $r) { facts { subject fact { predicate objectRef } } } }"
Q_HOOD = "query($r: String!) { neighbors(ref: $r, depth: 1) { hops { target { ref } } } }"
Q_SEARCH = ("query($q: String!, $m: SearchMode!) { searchWorldMemory(query: $q, limit: 10, mode: $m) "
            "{ mode hits { entity { ref } fact { subject } } } }")
# A baseline checkout before `mode` existed: its text mode is a second server without a model.
Q_SEARCH_BASE = "query($q: String!) { searchWorldMemory(query: $q, limit: 10) { mode hits { entity { ref } } } }"
SEARCH_TEXT, SEARCH_HYBRID = "searchWorldMemory text (d1/d2)", "searchWorldMemory hybrid"
READS = ("stateAt(now)", "getEntity", "stateAt(T)", "neighbors depth 1", SEARCH_TEXT, SEARCH_HYBRID)


def rels(predicates: list[str]) -> int:
    return sum(p.startswith("g_") for p in predicates)


class Sides:
    """Each read as (library call, HTTP call), both returning the number the truth is compared with."""

    def __init__(self, db: Database, client: Client, tokens: dict[int, str], model: Embedder,
                 base: dict[bool, Client] | None = None, cold: bool = False) -> None:
        self.db, self.client, self.tokens, self.model, self.base = db, client, tokens, model, base
        self.cold = cold  # no remembered query embeddings (the server runs with WORLDMEM_QUERY_VECTORS=0)

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

    def search_lib(self, gi: int, q: str, hybrid: bool) -> int:
        if self.cold:
            query_vectors.forget()
        found = search_world_memory(self.db, owner(gi), q, 10, embedder=self.model if hybrid else None)
        return _checked(found.mode, hybrid, len(found.hits))

    def search_http(self, gi: int, q: str, hybrid: bool) -> int:
        data = self.http(gi, Q_SEARCH, {"q": q, "m": "HYBRID" if hybrid else "TEXT"})["searchWorldMemory"]
        return _checked(data["mode"], hybrid, len(data["hits"]))

    def search_base(self, gi: int, q: str, hybrid: bool) -> int:
        assert self.base is not None
        client = self.base[hybrid]
        client.token = self.tokens[gi]
        answer = client.ask(Q_SEARCH_BASE, {"q": q})
        if answer.get("errors"):
            raise RuntimeError(f"GraphQL errors: {answer['errors'][:2]}")
        data = answer["data"]["searchWorldMemory"]
        return _checked(data["mode"], hybrid, len(data["hits"]))


def _checked(mode: str | None, hybrid: bool, hits: int) -> int:
    """The hit count, or -1 (a mismatch) when the search ran in another mode than asked."""
    return hits if mode == ("hybrid" if hybrid else "text") else -1


def project(db: Database, world: list[cmp_world.Group], model: Embedder) -> dict[str, float]:
    """The finder's projections of every owner that has none yet (what the server's reconciler writes)."""
    started, done = time.perf_counter(), 0
    for g in world:
        with db.owner_tx(owner(g.index), read_only=True) as conn:
            have = conn.execute(load_sql("cmp_projections")).fetchone()
        if have is not None and have["n"] == 0:
            done += reconcile_owner(db, owner(g.index), model).embedded
    return {"embedded": done, "seconds": round(time.perf_counter() - started, 1)}


def search_truth(world: list[cmp_world.Group], gi: int, q: str) -> int:
    """How many entities hold every word of `q` in their name or description (found by any search)."""
    words = q.lower().split()
    return sum(all(w in f"{e.name} {e.summary}".lower() for w in words) for e in world[gi].entities)


def measure(sides: Sides, world: list[cmp_world.Group], reps: int, *, search_only: bool = False,
            modes: tuple[bool, ...] = (False, True), only: str | None = None) -> dict[str, Any]:
    """`only`: "library" or "http" measures that side alone (as Graphiti's library is measured alone)."""
    chosen, keywords = cmp_world.picks(world)
    searches = tuple(READS[-2 + m] for m in modes)
    reads = searches if search_only else READS[:-2] + searches
    lat: dict[str, list[float]] = {f"{r} {s}": [] for r in reads for s in ("library", "http")
                                   if only is None or s == only}
    bad: dict[str, int] = dict.fromkeys(lat, 0)
    # The truths are worked out before the first timed call, as Graphiti's side does nothing between its calls:
    # computed inside the loop (a scan of the group's 5,000 relationships and 1,000 descriptions), they left the
    # caches cold for the read timed next (stateAt(now) in the library, two runs each: p50 0.49 / 0.49 ms
    # with the truths inside the loop, 0.42 / 0.42 with them worked out here).
    truths = {(gi, ei): cmp_world.truth(world, gi, ei) for gi, ei in chosen}
    expected = {(kgi, q): search_truth(world, kgi, q) for kgi, q in keywords}
    for i in range(WARM + reps):
        gi, ei = chosen[i % len(chosen)]
        ref = world[gi].entities[ei].ref
        truth = truths[gi, ei]
        kgi, q = keywords[i % len(keywords)]
        expected_hits = expected[kgi, q]
        t_past = cmp_world.T_PAST
        calls: list[tuple[str, Callable[..., int], tuple[Any, ...], int | None]] = [
            ("stateAt(now)", sides.state_lib, (gi, ref, None), truth.out_now),
            ("stateAt(now)", sides.state_http, (gi, ref, None), truth.out_now),
            ("getEntity", sides.entity_lib, (gi, ref), truth.both_now),
            ("getEntity", sides.entity_http, (gi, ref), truth.both_now),
            ("stateAt(T)", sides.state_lib, (gi, ref, t_past), truth.out_at_t),
            ("stateAt(T)", sides.state_http, (gi, ref, t_past), truth.out_at_t),
            ("neighbors depth 1", sides.hood_lib, (gi, ref), truth.neighbours_now),
            ("neighbors depth 1", sides.hood_http, (gi, ref), truth.neighbours_now),
        ] if not search_only else []
        sided = [("library" if k % 2 == 0 else "http", *c) for k, c in enumerate(calls)]
        if sides.base is not None and not search_only:  # the point reads through the baseline's server too
            b = Sides(sides.db, sides.base[True], sides.tokens, sides.model)
            sided += [("http baseline", "stateAt(now)", b.state_http, (gi, ref, None), truth.out_now),
                      ("http baseline", "getEntity", b.entity_http, (gi, ref), truth.both_now),
                      ("http baseline", "stateAt(T)", b.state_http, (gi, ref, t_past), truth.out_at_t),
                      ("http baseline", "neighbors depth 1", b.hood_http, (gi, ref), truth.neighbours_now)]
        for hybrid, read in ((m, (SEARCH_TEXT, SEARCH_HYBRID)[m]) for m in modes):
            sided += [("library", read, sides.search_lib, (kgi, q, hybrid), None),
                      ("http", read, sides.search_http, (kgi, q, hybrid), None)]
            if sides.base is not None:
                sided.append(("http baseline", read, sides.search_base, (kgi, q, hybrid), None))
        if only is not None:
            sided = [call for call in sided if call[0].startswith(only)]
        if sides.base is not None:  # no side always right after another (the server that ran last is warm)
            random.Random(i).shuffle(sided)
        for side, read, call, call_args, want in sided:
            lat.setdefault(f"{read} {side}", [])
            bad.setdefault(f"{read} {side}", 0)
            started = time.perf_counter()
            got = call(*call_args)
            elapsed = time.perf_counter() - started
            if i >= WARM:
                lat[f"{read} {side}"].append(elapsed)
                right = got == want if want is not None else 0 <= got <= 10 and (got > 0 or expected_hits == 0)
                bad[f"{read} {side}"] += not right
    return {name: {**vars(Summary.of(v)), "mismatches": bad[name]} for name, v in lat.items()}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reps", type=int, default=300)
    parser.add_argument("--reload", action="store_true", help="drop the database and load the world again")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--label", default="")
    parser.add_argument("--load-only", action="store_true", help="load the world (if needed) and stop")
    parser.add_argument("--search-only", action="store_true", help="measure only the searches")
    parser.add_argument("--no-hybrid", action="store_true",
                        help="leave hybrid search out (the comparison with Graphiti has no hybrid row)")
    parser.add_argument("--cold", action="store_true",
                        help="no remembered query embeddings: every search embeds its query (the queries repeat)")
    parser.add_argument("--only", choices=("library", "http"),
                        help="measure one side alone (default: both, call by call in turn)")
    parser.add_argument("--baseline", type=Path, metavar="DIR",
                        help="also ask servers of another checkout (its .venv), interleaved in random order")
    cpus.add_option(parser)
    parser.add_argument("--db", default=DB, help="the database (a branch with a migration: its own copy, made with "
                        "CREATE DATABASE ... TEMPLATE worldmem_perf_cmp, so the shared one keeps main's migrations)")
    args = parser.parse_args()
    name = args.db
    settings = get_settings()
    world = cmp_world.world()
    fresh_database(settings, name, keep=not args.reload)
    db = Database(role_url(settings, "app", name), max_size=2, statement_timeout_ms=120_000)
    model = embedder_for(Settings(embedding_provider="offline"))
    assert model is not None
    result: dict[str, Any] = {"at": datetime.now(UTC).isoformat(timespec="seconds"), "label": args.label,
                              "fingerprint": cmp_world.fingerprint(world), "load": load(db, world),
                              "projected": project(db, world, model), "cold": args.cold,
                              "loadavg_start": load_average()}
    if args.load_only:
        db.close()
        print(f"load: {result['load']}")
        return
    tokens = make_tokens(settings, name, {g.index: owner(g.index) for g in world})
    result["cpus"] = sorted(args.cpus) if args.cpus else None
    try:
        with ExitStack() as servers:
            servers.enter_context(cpus.pinned(args.cpus, settings))
            _, port = servers.enter_context(serve(name, {"WORLDMEM_QUERY_VECTORS": "0"} if args.cold else None))
            base = None
            if args.baseline:
                text_port = servers.enter_context(serve(name, {"WORLDMEM_EMBEDDING_PROVIDER": "none"},
                                                        code_dir=args.baseline))[1]
                hybrid_port = servers.enter_context(serve(name, code_dir=args.baseline))[1]
                base = {False: Client(text_port, tokens[0]), True: Client(hybrid_port, tokens[0])}
            sides = Sides(db, Client(port, tokens[0]), tokens, model, base, args.cold)
            result["results"] = measure(sides, world, args.reps, search_only=args.search_only,
                                        modes=(False,) if args.no_hybrid else (False, True), only=args.only)
    finally:
        db.close()
    result["loadavg_end"] = load_average()
    print(f"load average {result['loadavg_start']} -> {result['loadavg_end']}; load: {result['load']}; "
          f"projected: {result['projected']}; cold: {args.cold}")
    print(f"{'read':<48} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'mismatches':>10}")
    for name, r in result["results"].items():
        print(f"{name:<48} {r['p50_ms']:>8.2f} {r['p95_ms']:>8.2f} {r['p99_ms']:>8.2f} {r['mismatches']:>10}")
    if args.out:
        args.out.write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
