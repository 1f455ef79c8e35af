"""syncEntities: an integration's rows, upserted idempotently, with only the changes written.

One call is one transaction with one system time, under the owner's clock lock like a commit. Entries
are judged one by one (a rejected entry never stops the others) and written set-based:

- unchanged (same content hash as stored): only `sync_entries.last_synced_at` moves;
- created / changed: one `integration_sync` world event per entry (its payload lists the changed
  predicates, before and after), and fact rows for exactly the changed predicates (graph.sync.facts);
- the event's cause is decided by the core (graph.reads.causality.stamp): `direct` when an agent action on
  the same external object happened within the window before it, `inferred` within the horizon, else a
  root. A cheap set-based filter (sync_cause_targets.sql) picks the entries worth asking about.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

import psycopg

from graph.age import mirror
from graph.errors import BadInput, Forbidden
from graph.ledger.tokens import Principal
from graph.ledger.trust import INTEGRATION
from graph.platform.db import Database
from graph.reads import causality
from graph.settings import get_settings
from graph.sql import load
from graph.sync import causes
from graph.sync import facts as sync_facts
from graph.sync.entries import (
    MAX_ENTRIES,
    EntryRejected,
    EntryResult,
    Status,
    SyncEntry,
    SyncOutcome,
    check_entry,
    check_source,
    content_hash,
    diff,
    summary,
)
from graph.sync.resolve import Item, attach_entities, attach_stored, check_vocabulary
from graph.sync.store import batch, mirror_rows, system_time, write_rows

log = logging.getLogger("worldmem.sync")


def sync_entities(db: Database, principal: Principal, source: str, entries: Sequence[SyncEntry], *,
                  max_value_bytes: int | None = None) -> SyncOutcome:
    """Upsert `entries` of `source` for an integration token; one result per entry, in input order. Values
    larger than `max_value_bytes` (the caller's settings; without them, the process's) are rejected."""
    if principal.kind != "integration" or principal.name is None:
        raise Forbidden("syncEntities needs an integration token (worldmem token create --kind integration "
                        "--name N): what a feed reports is trusted as that feed, never as the owner")
    try:
        check_source(source)
    except EntryRejected as exc:
        raise BadInput(exc.message) from None
    if len(entries) > MAX_ENTRIES:
        raise BadInput(f"at most {MAX_ENTRIES} entries per call", code="BAD_LIMIT")
    with db.owner_tx(principal.owner) as conn:
        limit = get_settings().max_value_bytes if max_value_bytes is None else max_value_bytes
        return _Sync(conn, principal, source, limit).run(list(entries))


class _Sync:
    def __init__(self, conn: psycopg.Connection[Any], principal: Principal, source: str, max_value_bytes: int
                 ) -> None:
        self.conn = conn
        self.max_value_bytes = max_value_bytes
        self.principal = principal
        self.integration = principal.name or ""
        self.source = source
        self.results: dict[int, EntryResult] = {}
        self.fresh: set[int] = set()  # entries whose entity this call creates
        self.laps: dict[str, float] = {}
        self.started = 0.0
        self.at = system_time(conn)
        self.run_id = f"sync:{self.integration}:{source}:{self.at.isoformat()}"

    def _result(self, item: Item | tuple[int, SyncEntry], status: Status, **extra: Any) -> None:
        index, entry = (item.index, item.entry) if isinstance(item, Item) else item
        self.results[index] = EntryResult(index=index, source_entry_id=entry.source_entry_id, kind=entry.kind,
                                          external_id=entry.external_id, status=status, **extra)

    def _reject(self, item: Item | tuple[int, SyncEntry], exc: EntryRejected) -> None:
        self._result(item, "rejected", code=exc.code, message=exc.message)

    def run(self, entries: list[SyncEntry]) -> SyncOutcome:
        started = self.started = time.perf_counter()
        items = self._accept(entries)
        items = self._keep(items, check_vocabulary(self.conn, items))
        attach_stored(self.conn, items, self.integration, self.source)
        unchanged = [i for i in items if i.stored is not None and i.stored["content_hash"] == i.digest]
        same = {i.index for i in unchanged}
        moving = self._in_order([i for i in items if i.index not in same])
        self._lap("judge", started)
        moving = self._keep(moving, attach_entities(self.conn, [i for i in moving if i.stored is None]))
        moving = self._one_per_entity(moving)
        self._create_entities([i for i in moving if i.entity_id is None])
        self._adopt([i for i in moving if i.adopt])
        self._lap("entities", started)
        moving = self._write(moving)
        self._lap("facts", started)
        self._remember(moving, unchanged)
        for item in unchanged:
            self._result(item, "unchanged", ref=item.stored["ref"] if item.stored else None)
        self.conn.execute(load("clock_advance"), {"at": self.at})
        self.conn.execute(load("live_commit_notify"), {"run_id": self.run_id, "committed": len(moving), "pending": 0})
        self._lap("remember", started)
        log.debug("sync %s: %s", self.run_id, " ".join(f"{k} {v:.2f}s" for k, v in self.laps.items()))
        outcome = SyncOutcome(source=self.source, recorded_at=self.at,
                              entries=[self.results[i] for i in sorted(self.results)])
        return outcome.count()

    def _lap(self, name: str, started: float) -> None:
        """Seconds since the start of the sync, by phase (logged at debug level; bench.sync_bench shows them)."""
        self.laps[name] = time.perf_counter() - started - sum(self.laps.values())

    def _accept(self, entries: list[SyncEntry]) -> list[Item]:
        limit = self.max_value_bytes
        now = datetime.now(UTC)
        seen: set[tuple[str, str, str]] = set()
        items: list[Item] = []
        for index, entry in enumerate(entries):
            try:
                values = check_entry(entry, now, limit, self.integration)
                key = (entry.source_entry_id, entry.kind, entry.external_id)
                if key in seen:
                    raise EntryRejected("DUPLICATE_ENTRY", "the same sourceEntryId, kind and externalId occur "
                                        "earlier in this call")
                seen.add(key)
            except EntryRejected as exc:
                self._reject((index, entry), exc)
                continue
            items.append(Item(index=index, entry=entry, values=values, digest=content_hash(values)))
        return items

    def _keep(self, items: list[Item], refused: dict[int, EntryRejected]) -> list[Item]:
        for item in items:
            if item.index in refused:
                self._reject(item, refused[item.index])
        return [i for i in items if i.index not in refused]

    def _in_order(self, items: list[Item]) -> list[Item]:
        refused = {i.index: EntryRejected("OUT_OF_ORDER", "observedAt is older than the stored observation of "
                                          "this entry: send the newer state, or nothing")
                   for i in items if i.stored is not None and i.entry.observed_at < i.stored["observed_at"]}
        return self._keep(items, refused)

    def _one_per_entity(self, items: list[Item]) -> list[Item]:
        """Two entries of one call backing the same entity would assert over each other: the first wins."""
        seen: set[Any] = set()
        refused: dict[int, EntryRejected] = {}
        for item in items:
            key = item.entity_id or item.ref
            if key in seen:
                refused[item.index] = EntryRejected("DUPLICATE_ENTRY", f"an earlier entry of this call already "
                                                    f"backs {item.ref}")
            seen.add(key)
        return self._keep(items, refused)

    def _create_entities(self, items: list[Item]) -> None:
        rows = [{"ref": i.ref, "kind": i.entry.kind, "name": _name(i), "external_id": i.entry.external_id,
                 "source_entry_id": i.entry.source_entry_id, "backing_ref": self._backing(i)} for i in items]
        created = write_rows(self.conn, "sync_entities_insert", rows, {"at": self.at, "run_id": self.run_id})
        by_ref = {r["ref"]: r for r in created}
        for item in items:
            item.entity_id = by_ref[item.ref]["id"]
            self.fresh.add(item.index)
        mirror_rows(self.conn, "sync_mirror_entities", self.principal.owner, [
            {"id": str(r["id"]), "ref": r["ref"], "kind": r["kind"], "name": r["canonical_name"],
             "status": r["status"]} for r in created])

    def _backing(self, item: Item) -> str:
        return f"{self.integration}:{self.source}:{item.entry.source_entry_id}"

    def _adopt(self, items: list[Item]) -> None:
        write_rows(self.conn, "sync_entities_adopt", [
            {"id": str(i.entity_id), "external_id": i.entry.external_id, "source_entry_id": i.entry.source_entry_id,
             "backing_ref": self._backing(i)} for i in items], {"at": self.at})

    def _write(self, items: list[Item]) -> list[Item]:
        """Events and facts of the created and changed entries; returns those written."""
        changes = {i.index: diff(i.stored["content"] if i.stored else None, i.values) for i in items}
        items = self._keep(items, causes.suppressed(self.conn, items, changes, self.fresh))
        events, stamps = self._events(items, changes)
        self._lap("events", self.started)
        work = [sync_facts.Work(index=i.index, subject_id=_id(i), observed_at=i.entry.observed_at,
                                changes=changes[i.index], event_id=events[i.index],
                                evidence={"kind": "sync", "source": self.source,
                                          "sourceEntryId": i.entry.source_entry_id},
                                fresh=i.index in self.fresh) for i in items]
        current = sync_facts.believed(self.conn, work)
        blocked = sync_facts.entity_valued(current)
        work = [sync_facts.Work(w.index, w.subject_id, w.observed_at,
                                [c for c in w.changes if (w.subject_id, c.predicate) not in blocked], w.event_id,
                                w.evidence, w.fresh) for w in work]
        sync_facts.write(self.conn, sync_facts.plan(work, current), at=self.at, source=self.principal.source,
                         tier=INTEGRATION, run_id=self.run_id)
        causes.judge(self.conn, stamps, events, changes, self.at)
        for item in items:
            self._result(item, "changed" if item.stored else "created", ref=item.ref,
                         changed=[c.predicate for c in changes[item.index]], event_id=str(events[item.index]))
        return items

    def _events(self, items: list[Item], changes: dict[int, list[Any]]) -> tuple[
            dict[int, UUID], dict[int, causality.Stamp]]:
        stamps = causes.stamps(self.conn, items, self.principal.source, self.run_id)
        rows: list[dict[str, Any]] = []
        for item in items:
            stamp = stamps.get(item.index) or causality.Stamp(None, self.run_id, None)
            item_changes = changes[item.index]
            rows.append({
                "occurred_at": item.entry.observed_at.isoformat(), "target_entity_id": str(_id(item)),
                "caused_by_event_id": str(stamp.cause_id) if stamp.cause_id else None,
                "correlation_id": stamp.correlation_id, "causation_kind": stamp.kind, "op_index": item.index,
                "summary": summary(item.ref or "", item_changes, item.stored is None),
                "payload": {"source": self.source, "sourceEntryId": item.entry.source_entry_id,
                            "changes": {c.predicate: {"from": c.before, "to": c.after} for c in item_changes}}})
        inserted = write_rows(self.conn, "sync_events_insert", rows, {"at": self.at, "run_id": self.run_id})
        ids: dict[int, UUID] = {r["op_index"]: r["id"] for r in inserted}
        by_index = {r["op_index"]: r for r in rows}
        mirror_rows(self.conn, "sync_mirror_events", self.principal.owner, [
            {"id": str(ids[i]), "event_type": "integration_sync", "correlation_id": by_index[i]["correlation_id"],
             "occurred_at": mirror.micros(datetime.fromisoformat(by_index[i]["occurred_at"])),
             "summary": by_index[i]["summary"]} for i in ids])
        for index, stamp in stamps.items():
            if stamp.cause_id is not None:
                mirror.create_caused(self.conn, self.principal.owner, str(stamp.cause_id), str(ids[index]),
                                     stamp.kind or "direct")
        return ids, stamps

    def _remember(self, moving: list[Item], unchanged: list[Item]) -> None:
        params = {"integration": self.integration, "source": self.source, "at": self.at}
        rows = [{"source_entry_id": i.entry.source_entry_id, "kind": i.entry.kind, "external_id": i.entry.external_id,
                 "entity_id": str(i.entity_id), "content_hash": i.digest, "content": i.values,
                 "observed_at": i.entry.observed_at.isoformat()} for i in moving]
        write_rows(self.conn, "sync_entries_insert", [r for r, i in zip(rows, moving, strict=True) if not i.stored],
                   params)
        write_rows(self.conn, "sync_entries_update", [r for r, i in zip(rows, moving, strict=True) if i.stored],
                   params)
        for part in [unchanged[s:s + 5000] for s in range(0, len(unchanged), 5000)]:
            batch(self.conn, "sync_entries_touch", {
                **params, "entry_ids": [i.entry.source_entry_id for i in part],
                "kinds": [i.entry.kind for i in part], "external_ids": [i.entry.external_id for i in part]})


def _id(item: Item) -> UUID:
    assert item.entity_id is not None, "every written entry has its entity by now"
    return item.entity_id


def _name(item: Item) -> str:
    """The new entity's name: the content's `name` or `title` when it is text, else the external id."""
    for key in ("name", "title"):
        value = item.entry.content.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()[:300]
    return item.entry.external_id
