"""Erasure at scale: eraseEntity of an entity with `--facts` fact rows, among `--others` entities of the same
owner that keep theirs (each with a relationship to it, so the graph mirror has edges to cut).

On a scratch database of its own (created, migrated and dropped here). The entities and relationships are
written through the committer (so the AGE mirror has its vertices and edges); the entity's fact rows by one
INSERT shaped as the committer leaves a functional feed (bench/sql/erase_seed_facts.sql: half believed, half
history), since 10,000 single proposals would take minutes.
Then one erasure as worldmem_app: its wall time, the receipt's counts, and a check that the neighbours'
facts are all still there. `--turns` chat turns (one in fifty naming one of the entity's values) give the
text matching a chat to read: every turn is compared with every erased value of 8+ characters.

    python -m bench.erase_bench [--facts 10000] [--others 200] [--turns 5000]
"""

from __future__ import annotations

import argparse
import time
from datetime import UTC, datetime
from typing import Any

import psycopg

from bench import load
from bench.fresh_data import scratch
from graph.erasure.erase import erase
from graph.ledger.committer import commit_proposal
from graph.ledger.proposal import AssertFact, AssertRelationship, MemoryMutationProposal, UpsertEntity
from graph.ledger.tokens import owner_principal
from graph.platform.db import Database
from graph.settings import get_settings

OWNER = "erase-bench"
T0 = datetime(2025, 1, 1, tzinfo=UTC)


def _commit(db: Database, run: str, ops: list[Any]) -> None:
    result = commit_proposal(db, owner_principal(OWNER), MemoryMutationProposal(run_id=run, operations=ops))
    if result.rejected:
        raise SystemExit(f"seeding failed: {result.rejected[0]}")


def seed(admin: str, db: Database, facts: int, others: int, turns: int) -> None:
    _commit(db, "seed-entities", [UpsertEntity(ref="pet:erased", kind="pet", canonical_name="Zorbalix")]
            + [UpsertEntity(ref=f"person:p{i}", kind="person", canonical_name=f"Person {i}") for i in range(others)])
    _commit(db, "seed-rel", [AssertRelationship(subject=f"person:p{i}", predicate="cares_for", object="pet:erased",
                                                valid_from=T0) for i in range(others)]
            + [AssertFact(subject=f"person:p{i}", predicate="prefers", value=f"tea {i}", valid_from=T0)
               for i in range(others)])
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(load("erase_seed_facts"), {"owner": OWNER, "ref": "pet:erased", "n": facts})
        conn.execute(load("erase_seed_turns"), {"owner": OWNER, "n": turns})
        conn.execute("ANALYZE")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--facts", type=int, default=10_000)
    parser.add_argument("--others", type=int, default=200)
    parser.add_argument("--turns", type=int, default=5_000)
    args = parser.parse_args()
    settings = get_settings()
    with scratch(settings) as (admin, app):
        db = Database(app, max_size=2, statement_timeout_ms=600_000)
        try:
            began = time.perf_counter()
            seed(admin, db, args.facts, args.others, args.turns)
            took = time.perf_counter() - began
            print(f"seeded {args.facts} facts, {args.others} neighbours, {args.turns} turns in {took:.1f} s")
            began = time.perf_counter()
            receipt = erase(db, owner_principal(OWNER), "pet:erased", reason="bench")
            took = time.perf_counter() - began
            counts = {k: v for k, v in sorted(receipt.counts.items()) if v}
            print(f"eraseEntity: {took * 1000:.0f} ms for {receipt.counts['facts']} fact rows; receipt {counts}")
            with db.owner_tx(OWNER, read_only=True) as conn:
                row = conn.execute("SELECT count(*) AS n FROM facts").fetchone()
            kept = row["n"] if row else 0
            print(f"neighbours' fact rows kept: {kept} (expected {args.others})")
        finally:
            db.close()


if __name__ == "__main__":
    main()
