"""Benchmark of worldContext at 100k entities / 1M facts: p50/p95 of one context build, target p95 <= 10 ms.

Uses the database of `bench.seed` (owner bench-a: 100k entities, 1.1M facts, 100k events) and adds, once,
through the committer (so the graph mirror stays equal to the ledger), what a context needs beyond it:
the owner's person entity with preferences, policies, core and chat aliases, and events of one chat.
Each measured message names three random entities (by name, alias and chat alias).

    python -m bench.seed --if-missing && python -m bench.context_bench [--runs 500] [--plans]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg

from bench import BENCH_DB
from bench.seed import OWNER_A, seeded
from graph.agent import linking
from graph.agent.world_context import ContextRequest, block_params, build
from graph.demo import committed
from graph.ledger.committer import commit_proposal
from graph.ledger.proposal import (
    AddAlias,
    AssertFact,
    AssertRelationship,
    MemoryMutationProposal,
    RecordEvent,
    UpsertEntity,
)
from graph.ledger.tokens import owner_principal
from graph.platform.connect import role_url
from graph.platform.db import Database
from graph.reads.temporal import state_at
from graph.settings import get_settings
from graph.sql import load

KINDS = ["person", "project", "repo", "file", "test", "place", "organization", "issue"]
ALIASED = 2000  # entities with a core alias "nick <i>"
CHAT = "bench"
CHAT_ALIASED = 200  # entities with an alias "pal <i>" in this chat
TARGET_P95_MS = 10.0


def ref(i: int) -> str:
    """The ref bench.seed gave entity i."""
    return f"{KINDS[i % 8]}:e{i}"


def live(n: int, rng: random.Random) -> int:
    """A random entity that was not merged (bench.seed merges one in a hundred)."""
    i = rng.randint(1, n)
    return i + 1 if i % 100 == 50 else i


def overlay(n: int) -> list[MemoryMutationProposal]:
    now = datetime.now(UTC)
    owner_ops: list[Any] = [UpsertEntity(ref="person:me", kind="person", canonical_name="Bench Owner")]
    owner_ops += [AssertFact(subject="person:me", predicate="prefers", value=f"preference number {k}",
                             valid_from=now - timedelta(days=k)) for k in range(20)]
    policy_ops: list[Any] = []
    for k in range(10):
        policy_ops += [UpsertEntity(ref=f"policy:p{k}", kind="policy", canonical_name=f"Policy {k}"),
                       AssertFact(subject=f"policy:p{k}", predicate="rule", valid_from=now,
                                  value=f"Rule {k}: never do thing {k} without asking first."),
                       AssertRelationship(subject=f"policy:p{k}", predicate="applies_to",
                                          object=ref(live(n, random.Random(k))), valid_from=now)]
    alias_ops: list[Any] = [AddAlias(ref=ref(i), alias=f"nick {i}") for i in range(1, ALIASED + 1) if i % 100 != 50]
    chat_ops: list[Any] = [AddAlias(ref=ref(i), alias=f"pal {i}", namespace=f"chat:{CHAT}")
                           for i in range(1, CHAT_ALIASED + 1) if i % 100 != 50]
    chat_ops += [RecordEvent(event_type="state_change", occurred_at=now - timedelta(hours=k), target=ref(k * 7 + 1),
                             summary=f"change {k} in the bench chat", external_ref=f"bench-context:event-{k}")
                 for k in range(30)]
    batches = [owner_ops, policy_ops, *(alias_ops[i:i + 400] for i in range(0, len(alias_ops), 400)), chat_ops]
    return [MemoryMutationProposal(run_id=f"bench-context-{k}", chat_id=CHAT if ops is chat_ops else None,
                                   operations=ops) for k, ops in enumerate(batches)]


def message(n: int, rng: random.Random) -> str:
    named, nick, pal = live(n, rng), rng.randint(1, ALIASED), rng.randint(1, CHAT_ALIASED)
    nick, pal = (x + 1 if x % 100 == 50 else x for x in (nick, pal))
    return f"How is Entity {named} doing? Ask nick {nick} and tell pal {pal} about it, thanks."


def plans(db: Database, n: int) -> None:
    """EXPLAIN ANALYZE of the context block (the one statement of a chat turn's build), as the app role sees it."""
    found = linking.spans(message(n, random.Random(7)))
    with db.owner_tx(OWNER_A, read_only=True) as conn:
        print("--- context_block")
        explain = b"EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) " + load("context_block").encode()
        for line in psycopg.RawCursor(conn).execute(explain, block_params(found, datetime.now(UTC), CHAT)).fetchall():
            print(line["QUERY PLAN"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.context_bench", description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=500)
    parser.add_argument("--plans", action="store_true", help="print the query plans of one build")
    args = parser.parse_args(argv)
    settings = get_settings()
    sizes = dict(seeded(settings))
    if OWNER_A not in sizes:
        print(f"[bench] {BENCH_DB} is not seeded: run python -m bench.seed first", file=sys.stderr)
        return 2
    n = sizes[OWNER_A]
    db = Database(role_url(settings, "app", BENCH_DB), max_size=2)
    try:
        for proposal in overlay(n):
            if committed(db, OWNER_A, proposal.run_id):
                continue
            outcome = commit_proposal(db, owner_principal(OWNER_A), proposal)
            if outcome.rejected:
                print(f"[bench] overlay {proposal.run_id} rejected: {outcome.rejected[:2]}", file=sys.stderr)
                return 2
        if args.plans:
            plans(db, n)
        rng = random.Random(42)
        requests = [ContextRequest(chat_id=CHAT, message=message(n, rng), scope_chain=[f"chat:{CHAT}"])
                    for _ in range(args.runs + 50)]
        timings, linked, tokens, baseline = [], [], [], []
        now = datetime.now(UTC)
        for k, request in enumerate(requests):
            started = time.perf_counter()
            result = build(db, OWNER_A, request)
            elapsed = (time.perf_counter() - started) * 1000
            # Baseline in the same process, interleaved so load drift hits both alike: one stateAt read.
            started = time.perf_counter()
            state_at(db, OWNER_A, ref(rng.randrange(n)), now)
            base = (time.perf_counter() - started) * 1000
            if k >= 50:  # warm-up: pool, prepared statements, caches
                timings.append(elapsed)
                baseline.append(base)
                linked.append(len(result.linked))
                tokens.append(result.tokens)
    finally:
        db.close()
    timings.sort()
    p50, p95 = statistics.median(timings), timings[int(0.95 * (len(timings) - 1))]
    print(f"[bench] worldContext, owner {OWNER_A} ({n} entities), {len(timings)} builds: "
          f"p50 {p50:.2f} ms, p95 {p95:.2f} ms, max {timings[-1]:.2f} ms "
          f"(linked/build {statistics.mean(linked):.1f}, tokens/build {statistics.mean(tokens):.0f}); "
          f"target p95 <= {TARGET_P95_MS} ms: {'ok' if p95 <= TARGET_P95_MS else 'MISSED'}")
    base50 = statistics.median(baseline)
    print(f"[bench] baseline stateAt (one entity, same process, interleaved): p50 {base50:.2f} ms; "
          f"worldContext p50 = {p50 / base50:.1f}x baseline")
    return 0 if p95 <= TARGET_P95_MS else 1


if __name__ == "__main__":
    sys.exit(main())
