"""What a proposal will ask first: for one operation fetched with the owner's clock (issue 11); the batched
path (committer_batch.Batch.prefetch) reads the same statement beside its own.

The plain path of the committer asked for its entity kinds, its relation type, (through screening) the
owner's suppression markers and its subject by ref one round trip each. `start` queues the same reads, as one
statement, in the pipeline that locks the owner's clock, so they cost no round trip of their own; `Known`
answers the handlers from them (graph/ledger/ops.py asks it first). What is not known here is still read
from the database as before.

Read after the clock lock, in the same transaction: the same rows the handlers would read a moment later.
Registries change only through registration (never inside a commit); suppression markers and entities only
through writers of the same owner, which wait for the clock lock held here. An entity is used from here only
where it was found: one the operation creates itself is read again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import psycopg

from graph.ledger import committer_batch
from graph.sql import load

if TYPE_CHECKING:
    from graph.ledger.entities import Entity
    from graph.ledger.registries import EntityKind, RelationType


@dataclass(frozen=True)
class Known:
    """Registry entries by key (None: not registered), whether the owner has a live suppression marker, and the
    owner's entities found by exact ref."""

    kinds: dict[str, EntityKind | None]
    relation_types: dict[str, RelationType | None]
    live_markers: bool
    entities: dict[str, Entity]
    stored: dict[str, Any] | None = None  # the proposal stored under the run_id asked for (payload_hash, result)


def start(conn: psycopg.Connection[Any], operations: Sequence[Any], run_id: str | None = None
          ) -> Callable[[], Known]:
    """Queue the read (one statement, in the caller's pipeline); the returned function fetches it. With a
    `run_id`, the proposal stored under it comes along (the committer's replay check)."""
    kinds, predicates = committer_batch.registry_keys(operations)
    refs = sorted(committer_batch.names_of(operations))
    cursor = conn.execute(load("commit_prefetch"), {"kinds": kinds, "predicates": predicates, "refs": refs,
                                                    "run_id": run_id})

    def fetch() -> Known:
        from graph.ledger.entities import Entity
        from graph.ledger.registries import EntityKind, RelationType

        row = cursor.fetchone()
        assert row is not None
        found_kinds: dict[str, EntityKind | None] = dict.fromkeys(kinds)
        found_kinds.update((r["key"], EntityKind.model_validate(r)) for r in row["kinds"])
        found_types: dict[str, RelationType | None] = dict.fromkeys(predicates)
        found_types.update((r["key"], RelationType.model_validate(r)) for r in row["relation_types"])
        found = (Entity.model_validate(r) for r in row["entities"])
        return Known(found_kinds, found_types, bool(row["live"]), {e.ref: e for e in found}, row["stored"])

    return fetch
