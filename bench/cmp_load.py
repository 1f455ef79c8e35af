"""Loading bench.cmp_world into a worldmem database through the committer (ledger + AGE mirror), once.

One owner per group (`cmp-<gi>`); the relation types `g_<rel>` are registered as set predicates between
any kinds. Proposals of 500 operations (entities with their description first, then relationships), each
all or nothing like any client's. A group whose last proposal is on record is skipped.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from bench.cmp_world import RELS, Group
from graph.ledger.committer import commit_proposal
from graph.ledger.proposal import AssertFact, AssertRelationship, Evidence, MemoryMutationProposal, UpsertEntity
from graph.ledger.registries import register_relation_types
from graph.ledger.tokens import owner_principal
from graph.platform.db import Database
from graph.sql import load as load_sql

CHUNK = 500
SOURCE = Evidence(kind="import", text="comparison world (bench.cmp_world)")


def owner(gi: int) -> str:
    return f"cmp-{gi}"


def operations(group: Group) -> Iterator[Any]:
    for e in group.entities:
        yield UpsertEntity(ref=e.ref, kind=e.ref.split(":")[0], canonical_name=e.name)
        yield AssertFact(subject=e.ref, predicate="description", value=e.summary, valid_from=group.rels[0].valid_from
                         .replace(year=2022), evidence=SOURCE)
    for r in group.rels:
        yield AssertRelationship(subject=group.entities[r.subject].ref, predicate=r.predicate,
                                 object=group.entities[r.object].ref, valid_from=r.valid_from, valid_to=r.valid_to,
                                 evidence=Evidence(kind="import", text=r.sentence))


def loaded(db: Database, gi: int, last_run_id: str) -> bool:
    """Whether the group's last proposal is on record (proposals commit in order, each all or nothing).

    Not a count of facts: a relationship drawn twice for the same pair and time is one fact."""
    with db.owner_tx(owner(gi), read_only=True) as conn:
        return conn.execute(load_sql("proposal_get"), {"run_id": last_run_id}).fetchone() is not None


def load(db: Database, world: list[Group]) -> dict[str, float]:
    """Commit every group not loaded yet; facts per second of what was committed now."""
    register_relation_types(db, [{"key": "g_" + rel.lower(), "name": verb, "cardinality": "set"}
                                 for rel, verb in RELS])
    started, committed = time.perf_counter(), 0
    for group in world:
        ops = list(operations(group))
        if loaded(db, group.index, f"cmp-{group.index}-{(len(ops) - 1) // CHUNK * CHUNK}"):
            continue
        for k in range(0, len(ops), CHUNK):
            proposal = MemoryMutationProposal(run_id=f"cmp-{group.index}-{k}", operations=ops[k:k + CHUNK])
            result = commit_proposal(db, owner_principal(owner(group.index)), proposal)
            if result.rejected:
                raise SystemExit(f"load rejected: {result.rejected[:3]}")
            committed += result.committed
        print(f"loaded {owner(group.index)}: {committed} operations so far", flush=True)
    seconds = time.perf_counter() - started
    return {"operations": committed, "seconds": round(seconds, 1),
            "operations_per_s": round(committed / seconds, 1) if committed else 0.0}
