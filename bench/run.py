"""Measure traversal, causality and stateAt on the seeded database: p50/p95 and the plans' index use.

Each case calls the public Python function end to end (pool checkout, owner transaction, every round
trip, decoding) as the application role, on a different random input each time, after a warm-up.
Prints a table and writes bench/results/<UTC time>.json and bench/results/latest.json.

    python -m bench.seed --if-missing && python -m bench.run [--runs 300]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from uuid import UUID, uuid4

from bench import BENCH_DB, compare, load, plans
from bench.seed import OWNER_A, seeded
from graph.age.mirror import micros
from graph.ledger.committer import commit_proposal
from graph.ledger.proposal import AssertRelationship, Evidence, MemoryMutationProposal
from graph.ledger.tokens import owner_principal
from graph.platform.connect import role_url
from graph.platform.db import Database
from graph.reads.causality import effects_of, explain_change
from graph.reads.intent import HORIZON, OBSERVING, reconcile
from graph.reads.temporal import state_at
from graph.reads.traversal import NeighborQuery, neighbors, pipelined
from graph.settings import get_settings

RESULTS = Path(__file__).resolve().parent / "results"
ALL_PREDICATES = ["owns", "works_on", "member_of", "part_of", "located_in", "knows", "blocked_by", "tests"]
TARGET_MS = 5.0  # neighbours depth 2, p95
WRITE_EVIDENCE = Evidence(kind="bench", text="write path")


def summary(times: list[float], sizes: list[int]) -> dict[str, float]:
    cuts = statistics.quantiles(times, n=100)
    return {"n": len(times), "p50_ms": round(statistics.median(times), 2), "p95_ms": round(cuts[94], 2),
            "max_ms": round(max(times), 2), "rows_avg": round(statistics.mean(sizes), 1)}


def measure(fn: Callable[[Any], int], inputs: list[Any], warmup: int) -> dict[str, float]:
    return measure_all({"": (fn, inputs)}, warmup)[""]


def measure_all(work: dict[str, tuple[Callable[[Any], int], list[Any]]], warmup: int) -> dict[str, dict[str, float]]:
    """Round-robin over the cases (input i of every case, then i + 1), so a burst of load from other
    processes on the machine lands on all cases alike instead of ruining one."""
    times: dict[str, list[float]] = {name: [] for name in work}
    sizes: dict[str, list[int]] = {name: [] for name in work}
    for i in range(max(len(inputs) for _, inputs in work.values())):
        for name, (fn, inputs) in work.items():
            if i >= len(inputs):
                continue
            started = time.perf_counter()
            size = fn(inputs[i])
            if i >= warmup:
                times[name].append((time.perf_counter() - started) * 1000)
                sizes[name].append(size)
    return {name: summary(times[name], sizes[name]) for name in work}


def samples(db: Database, n: int) -> dict[str, Any]:
    with db.owner_tx(OWNER_A, read_only=True) as conn:
        def rows(name: str) -> list[dict[str, Any]]:
            return list(conn.execute(load(name), {"n": n}).fetchall())
        entities = rows("run_sample_refs")
        return {"refs": [r["ref"] for r in entities], "ids": [str(r["id"]) for r in entities],
                "runs": rows("run_sample_runs"),
                "facts": rows("run_sample_facts"), "actions": rows("run_sample_actions"),
                "merged": rows("run_sample_merged")}


def cases(db: Database, s: dict[str, Any]) -> dict[str, tuple[Callable[[Any], int], list[Any]]]:
    now = datetime.now(UTC)

    def hood(depth: int, named: bool = False, valid: datetime | None = None,
             known: datetime | None = None) -> Callable[[Any], int]:
        def run(ref: str) -> int:
            found = neighbors(db, OWNER_A, NeighborQuery(ref=ref, depth=depth, predicates=ALL_PREDICATES if named
                                                         else None, valid_time=valid, system_time=known))
            return len(found.hops) if found else 0
        return run

    def effects(key: str, value: Any) -> int:
        found = effects_of(db, OWNER_A, **{key: value}, depth=3)
        return len(found.events) + len(found.facts) if found else 0

    def explain(fact: dict[str, Any], by_key: bool) -> int:
        found = (explain_change(db, OWNER_A, ref=fact["ref"], predicate=fact["predicate"]) if by_key
                 else explain_change(db, OWNER_A, fact_id=fact["id"]))
        return len(found.causes) if found else 0

    def state(ref: str) -> int:
        found = state_at(db, OWNER_A, ref, now)
        return len(found.facts) if found else 0

    def commit(pair: tuple[str, str]) -> int:
        """The write path at scale: a functional relationship superseded (row closed, rows inserted,
        old edge closed and new edge created by the named mirror queries), one proposal each."""
        proposal = MemoryMutationProposal(run_id=f"bench-write-{uuid4()}", operations=[AssertRelationship(
            subject=pair[0], predicate="part_of", object=pair[1], valid_from=now, evidence=WRITE_EVIDENCE)])
        result = commit_proposal(db, owner_principal(OWNER_A), proposal)
        if result.rejected:
            raise RuntimeError(f"bench write rejected: {result.rejected}")
        return result.committed

    refs = s["refs"]
    return {
        "commitProposal: part_of superseded (ledger + AGE mirror)": (commit, list(zip(refs, refs[1:] + refs[:1],
                                                                                       strict=True))),
        "neighbors depth 1": (hood(1), refs),
        "neighbors depth 2": (hood(2), refs),
        "neighbors depth 2, all predicates named": (hood(2, True), refs),
        "neighbors depth 2, as of V, known at R": (hood(2, True, now - timedelta(days=200),
                                                        now - timedelta(days=100)), refs),
        "neighbors depth 3": (hood(3), refs),
        "neighbors depth 3, all predicates named": (hood(3, True), refs),
        "effectsOf(run), depth 3": (lambda r: effects("run_id", r["correlation_id"]), s["runs"]),
        "effectsOf(event), depth 3": (lambda r: effects("event_id", r["id"]), s["runs"]),
        "explainChange(factId)": (lambda f: explain(f, False), s["facts"]),
        "explainChange(ref, predicate)": (lambda f: explain(f, True), s["facts"]),
        "stateAt (SQL)": (state, refs),
    }


def named(db: Database, s: dict[str, Any], warmup: int) -> dict[str, dict[str, float]]:
    """Each named Cypher query alone, as traversal runs it (pipelined, decoded), in one open transaction."""
    hop = {"v": micros(datetime.now(UTC)), "r": None, "predicates": None}
    ids, tens = s["ids"], [s["ids"][i:i + 10] for i in range(len(s["ids"]) - 9)]
    runs, causes = [str(r["id"]) for r in s["runs"]], [str(f["caused_by_event_id"]) for f in s["facts"]]
    out = {}
    with db.owner_tx(OWNER_A, read_only=True) as conn:
        def query(name: str, wrap: Callable[[Any], list[str]]) -> Callable[[Any], int]:
            return lambda item: len(pipelined(conn, [(name, {**hop, "ids": wrap(item)})])[0][0])
        for name in ("neighbors_out", "neighbors_in"):
            out[f"{name}, 1 id"] = measure(query(name, lambda i: [i]), ids, warmup)
            out[f"{name}, 10 ids"] = measure(query(name, list), tens, warmup)
        out["causal_forward, 1 id"] = measure(query("causal_forward", lambda i: [i]), runs, warmup)
        out["causal_backward, 1 id"] = measure(query("causal_backward", lambda i: [i]), causes, warmup)
    return out


def plan_sample(db: Database, s: dict[str, Any]) -> dict[str, Any]:
    now = datetime.now(UTC)
    fact, action, run = s["facts"][0], s["actions"][0], s["runs"][0]
    frontier: list[str] = []
    for ref in s["refs"][:20]:  # the widest level-1 frontier among a few: a realistic depth-2 hop
        found = neighbors(db, OWNER_A, NeighborQuery(ref=ref, depth=1))
        wider = sorted({str(h.target.id) for h in found.hops}) if found else []
        frontier = wider if len(wider) > len(frontier) else frontier
    effects = effects_of(db, OWNER_A, run_id=run["correlation_id"], depth=3)
    expected = action["expected_effect"]
    return {
        "now": now, "now_us": micros(now), "week_ago": now - timedelta(days=7), "ref": s["refs"][0],
        "frontier": frontier or [str(fact["subject_id"])], "event_id": str(run["id"]),
        "caused_by": str(fact["caused_by_event_id"]), "fact": fact, "merged": s["merged"][0],
        "run_id": run["correlation_id"], "run_events": [e.id for e in effects.events] if effects else [],
        "observation": {"action_id": action["id"], "correlation_id": action["correlation_id"],
                        "occurred_at": action["occurred_at"], "targets": [fact["subject_id"]],
                        "predicate": expected["predicate"], "event_types": list(OBSERVING)},
    }


def reconcile_once(db: Database) -> dict[str, float]:
    """One reconciler pass over the owner's open actions of the last week (read-mostly on the seed)."""
    now = datetime.now(UTC)
    with db.owner_tx(OWNER_A, read_only=True) as conn:
        row = conn.execute(load("run_open_actions"), {"since": now - HORIZON}).fetchone()
    started = time.perf_counter()
    changes = reconcile(db, OWNER_A, now)
    seconds = time.perf_counter() - started
    actions = int(row["n"]) if row else 0
    return {"actions": actions, "changed": len(changes), "seconds": round(seconds, 2),
            "ms_per_action": round(seconds * 1000 / max(actions, 1), 3)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.run", description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=300, help="measured calls per case (after 30 warm-up)")
    parser.add_argument("--strict", action="store_true", help=f"exit 1 when neighbours depth 2 p95 > {TARGET_MS} ms")
    args = parser.parse_args(argv)
    settings = get_settings()
    size = dict(seeded(settings)).get(OWNER_A)
    if not size:
        print(f"[bench] {BENCH_DB} is not seeded: run python -m bench.seed first", file=sys.stderr)
        return 2
    db = Database(role_url(settings, "app", BENCH_DB), max_size=1, statement_timeout_ms=60_000)
    try:
        s = samples(db, args.runs + 30)
        results = measure_all(cases(db, s), 30)
        queries = named(db, s, 30)
        sample = plan_sample(db, s)
        with db.owner_tx(OWNER_A, read_only=True) as conn:
            explained = plans.collect(conn, sample)
        reconciled = reconcile_once(db)
        shapes = compare.run(settings, db, [UUID(str(f["subject_id"])) for f in s["facts"][:20]],
                             [UUID(str(f["caused_by_event_id"])) for f in s["facts"][:100]])
    finally:
        db.close()
    at = datetime.now(UTC).isoformat(timespec="seconds")
    report = {"at": at, "entities": size, "cpus": os.cpu_count(), "loadavg": os.getloadavg(), "cases": results,
              "named_queries": queries, "reconcile": reconciled, "plans": [vars(p) for p in explained],
              "shapes": shapes}
    print_report(report)
    RESULTS.mkdir(exist_ok=True)
    text = json.dumps(report, indent=2, default=str)
    (RESULTS / f"{at.replace(':', '')}.json").write_text(text)
    (RESULTS / "latest.json").write_text(text)
    p95 = max(results[k]["p95_ms"] for k in results if k.startswith("neighbors depth 2"))
    print(f"\n[bench] neighbours depth 2 p95 {p95:.2f} ms: target <= {TARGET_MS} ms "
          f"{'met' if p95 <= TARGET_MS else 'MISSED'}")
    return 1 if args.strict and p95 > TARGET_MS else 0


def print_report(r: dict[str, Any]) -> None:
    print(f"\n[bench] {r['entities']} entities, {r['cpus']} CPUs, load {r['loadavg'][0]:.2f}, {r['at']}\n")
    print(f"{'case':<42} {'n':>4} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} {'rows':>7}")
    for name, m in r["cases"].items():
        print(f"{name:<42} {m['n']:>4} {m['p50_ms']:>8.2f} {m['p95_ms']:>8.2f} {m['max_ms']:>8.2f} "
              f"{m['rows_avg']:>7.1f}")
    print(f"\n{'named Cypher query (pipelined, open transaction)':<42} {'n':>4} {'p50 ms':>8} {'p95 ms':>8} "
          f"{'max ms':>8} {'rows':>7}")
    for name, m in r["named_queries"].items():
        print(f"{name:<42} {m['n']:>4} {m['p50_ms']:>8.2f} {m['p95_ms']:>8.2f} {m['max_ms']:>8.2f} "
              f"{m['rows_avg']:>7.1f}")
    rec = r["reconcile"]
    print(f"\nintent reconciler: {rec['actions']} open actions in {rec['seconds']} s "
          f"({rec['ms_per_action']} ms each), {rec['changed']} outcomes changed")
    print(f"\n{'named query (EXPLAIN ANALYZE, app role)':<42} {'ms':>7}  scans")
    for p in r["plans"]:
        flag = "  <-- SEQ SCAN" if plans.Plan(**p).seq_scans else ""
        print(f"{p['name']:<42} {p['execution_ms']:>7.3f}  {'; '.join(p['scans'])}{flag}")
    print("\nquery shapes (why level by level):")
    for name, value in r["shapes"].items():
        print(f"  {name:<68} {value}")


if __name__ == "__main__":
    sys.exit(main())
