"""What a sync's changes are caused by, what they fulfil, and what the owner refused before.

- `stamps`: the core decides each cause (graph.reads.causality.stamp, causality_sync_candidate.sql): a
  change on an external object an agent action touched within SYNC_WINDOW before is `direct`, within
  SYNC_HORIZON `inferred`, else a root. A set-based filter (sync_cause_targets.sql) picks the entries worth
  asking about, so a 10k sync costs one query, plus two per entry an agent actually acted on.
- `judge`: an action the sync is linked to (not a hypothesis) may be fulfilled by what it observed.
- `suppressed`: a value the owner rejected before is not synced (as the committer's suppression screen).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

import psycopg

from graph.ledger.facts import object_key
from graph.ledger.proposal import RecordEvent
from graph.reads import causality, intent
from graph.sync.entries import Change, EntryRejected
from graph.sync.resolve import Item
from graph.sync.store import chunks, fetch


def _id(item: Item) -> UUID:
    assert item.entity_id is not None, "every written entry has its entity by now"
    return item.entity_id


def stamps(conn: psycopg.Connection[Any], items: list[Item], source: str, run_id: str) -> dict[int, causality.Stamp]:
    """The core's causation for the entries whose target an agent action may have touched, by index."""
    if not items:
        return {}
    times = [i.entry.observed_at for i in items]
    candidates = {r["id"] for r in fetch(conn, "sync_cause_targets", {
        "ids": [_id(i) for i in items], "since": min(times) - causality.SYNC_HORIZON, "until": max(times)})}
    found = {}
    for item in items:
        if _id(item) in candidates:
            op = RecordEvent(event_type="integration_sync", occurred_at=item.entry.observed_at, source=source)
            found[item.index] = causality.stamp(conn, op, None, _id(item), run_id)
    return found


def judge(conn: psycopg.Connection[Any], found: dict[int, causality.Stamp], events: dict[int, UUID],
          changes: dict[int, list[Change]], at: datetime) -> None:
    """Re-judge the linked actions once the sync's facts are written."""
    for index, stamp in found.items():
        if stamp.cause_id is not None and stamp.kind != "inferred":
            for change in changes[index]:
                intent.on_effect(conn, events[index], change.predicate, at)


def suppressed(conn: psycopg.Connection[Any], items: list[Item], changes: dict[int, list[Change]],
               fresh: set[int]) -> dict[int, EntryRejected]:
    """Entries asserting a value the owner rejected before (only the owner may assert it again), by index."""
    keys = [(i.index, _id(i), c.predicate, object_key("literal", c.after, None))
            for i in items if i.index not in fresh for c in changes[i.index] if not c.removed]
    found: set[tuple[Any, ...]] = set()
    for part in chunks(keys):
        found |= {(r["subject_id"], r["predicate"], r["value_key"]) for r in fetch(conn, "sync_suppressed", {
            "subjects": [k[1] for k in part], "predicates": [k[2] for k in part],
            "value_keys": [k[3] for k in part]})}
    return {k[0]: EntryRejected("SUPPRESSED", f"the owner rejected {k[2]} = {k[3].removeprefix('literal:')} "
                                "before; only the owner can assert it again") for k in keys if k[1:] in found}
