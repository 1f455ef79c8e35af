"""Which entries of a sync may be written, and the entity each one backs.

Checks against the registries (kinds and predicates registered, active, not privileged; predicates
functional and applicable to the kind), then the stored entries (unchanged by hash, out of order by
observedAt), then the entity of each new entry: the owner's entity of the same kind and external id, else
an entity already named `kind:externalId` that has no external id yet (adopted), else a new one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

import psycopg

from graph.ledger import entities
from graph.sync.entries import EntryRejected, SyncEntry, ref_of
from graph.sync.store import chunks, fetch


@dataclass
class Item:
    """One accepted entry on its way through the sync."""

    index: int
    entry: SyncEntry
    values: dict[str, Any]
    digest: str
    stored: dict[str, Any] | None = None  # its sync_entries row, when synced before
    entity_id: UUID | None = None
    ref: str | None = None
    adopt: bool = False  # an existing entity without an external id becomes this entry's
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.entry.source_entry_id, self.entry.kind, self.entry.external_id)


def check_vocabulary(conn: psycopg.Connection[Any], items: list[Item]) -> dict[int, EntryRejected]:
    """Entries naming a kind or predicate they may not write, by index."""
    kinds = sorted({i.entry.kind for i in items})
    predicates = sorted({p for i in items for p in i.values})
    rows = fetch(conn, "sync_registry_for_keys", {"kinds": kinds, "predicates": predicates})
    known = {(r["what"], r["key"]): r for r in rows}
    refused: dict[int, EntryRejected] = {}
    for item in items:
        try:
            _check_item(item, known)
        except EntryRejected as exc:
            refused[item.index] = exc
    return refused


def _check_item(item: Item, known: dict[tuple[str, str], dict[str, Any]]) -> None:
    kind = known.get(("kind", item.entry.kind))
    if kind is None or kind["state"] != "active":
        raise EntryRejected("UNKNOWN_KIND", f"unknown entity kind {item.entry.kind!r} (register it first)")
    if kind["privileged"]:
        raise EntryRejected("FORBIDDEN", f"kind {item.entry.kind!r} is privileged: integrations never sync it")
    for predicate in item.values:
        rt = known.get(("predicate", predicate))
        if rt is None or rt["state"] != "active":
            raise EntryRejected("UNKNOWN_PREDICATE", f"unknown predicate {predicate!r} (register it first)")
        if rt["privileged"]:
            raise EntryRejected("FORBIDDEN", f"predicate {predicate!r} is privileged: integrations never sync it")
        if rt["cardinality"] != "functional":
            raise EntryRejected("BAD_INPUT", f"predicate {predicate!r} is a set: a synced value is one value "
                                "(sync a list as the value of a functional predicate)")
        if rt["subject_kinds"] and item.entry.kind not in rt["subject_kinds"]:
            raise EntryRejected("KIND_MISMATCH", f"{predicate!r} does not apply to kind {item.entry.kind!r}")


def attach_stored(conn: psycopg.Connection[Any], items: list[Item], integration: str, source: str) -> None:
    for part in chunks(items):
        rows = fetch(conn, "sync_entries_existing", {
            "integration": integration, "source": source, "entry_ids": [i.entry.source_entry_id for i in part],
            "kinds": [i.entry.kind for i in part], "external_ids": [i.entry.external_id for i in part]})
        by_key = {(r["source_entry_id"], r["kind"], r["external_id"]): r for r in rows}
        for item in part:
            item.stored = by_key.get(item.key)
            if item.stored is not None:
                item.entity_id, item.ref = _live(conn, item.stored)


def _live(conn: psycopg.Connection[Any], row: dict[str, Any]) -> tuple[UUID, str]:
    """The entity a stored entry's entity stands for now (its survivor when it was merged)."""
    if row["merged_into_id"] is None:
        return row["entity_id"], row["ref"]
    found = entities.by_id(conn, row["entity_id"])
    assert found is not None, "sync_entries.entity_id references entities"
    live = entities.survivor(conn, found)
    return live.id, live.ref


def attach_entities(conn: psycopg.Connection[Any], items: list[Item]) -> dict[int, EntryRejected]:
    """Find or plan the entity of each new entry; entries that cannot have one, by index."""
    refused: dict[int, EntryRejected] = {}
    for part in chunks(items):
        rows = fetch(conn, "sync_entities_for_keys", {
            "kinds": [i.entry.kind for i in part], "external_ids": [i.entry.external_id for i in part],
            "refs": [ref_of(i.entry.kind, i.entry.external_id) for i in part]})
        by_external = {(r["kind"], r["external_id"]): r for r in rows if not r["by_ref"]}
        by_ref = {r["ref"]: r for r in rows if r["by_ref"]}
        for item in part:
            ref = ref_of(item.entry.kind, item.entry.external_id)
            row = by_external.get((item.entry.kind, item.entry.external_id))
            named = by_ref.get(ref)
            if row is None and named is not None:
                if named["kind"] != item.entry.kind or named["external_id"] is not None:
                    refused[item.index] = EntryRejected("CONFLICT", f"{ref} already names an entity of another "
                                                        "kind or external id")
                    continue
                row, item.adopt = named, True
            item.ref = ref
            if row is not None:
                item.entity_id, item.ref = _live(conn, {**row, "entity_id": row["id"]})
    return refused
