"""The export file: a header line, then one JSON record per line, each with a `type` (docs/export.md).

Each record type is one ledger table read under the owner's row-level security; a record carries the
table's stored columns but the owner (the importer's owner replaces it) and the columns the database
derives itself (generated columns: full-text vectors, normalised names, the valid-time range). The order
of TYPES is the import order: rows are inserted after the rows they reference.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from graph.errors import BadInput

FORMAT = "worldmem-export"
VERSION = 1


@dataclass(frozen=True)
class RecordType:
    """One record type: its name in the file, its table, and the columns that identify a row of it."""

    name: str
    table: str
    order: tuple[str, ...]
    drop: tuple[str, ...] = ()


TYPES: tuple[RecordType, ...] = (
    RecordType("entity", "entities", ("created_at", "id")),
    RecordType("entity_description", "entity_descriptions", ("recorded_at", "id")),
    RecordType("alias", "entity_aliases", ("recorded_at", "id")),
    RecordType("event", "world_events", ("recorded_at", "id")),
    RecordType("observed_event", "observed_events", ("recorded_at", "id")),
    RecordType("fact", "facts", ("recorded_at", "id")),
    RecordType("merge", "entity_merges", ("recorded_at", "id")),
    RecordType("merge_move", "entity_merge_moves", ("merge_id", "item", "old_id")),
    RecordType("merge_dismissal", "merge_dismissals", ("recorded_at", "id")),
    RecordType("merge_suggestion", "contact_merge_suggestions", ("recorded_at", "id")),
    RecordType("suppression", "suppression_markers", ("recorded_at", "id")),
    RecordType("turn", "chat_turns", ("chat_id", "seq")),
    RecordType("curator_run", "curator_runs", ("recorded_at", "run_id")),
    RecordType("curator_state", "curator_state", ("chat_id",)),
    RecordType("vocabulary_proposal", "vocabulary_proposals", ("item", "key")),
    RecordType("sync_entry", "sync_entries", ("integration", "source", "source_entry_id")),
    RecordType("registry_namespace", "registry_namespaces", ("namespace",)),
    # a rollup's projection is derived (the finder writes projections again), so its link is left out
    RecordType("retention_rollup", "retention_rollups", ("series_key", "month"), drop=("projection_id",)),
    RecordType("retention_edge", "retention_edges", ("edge",)),
)
BY_NAME = {t.name: t for t in TYPES}
# The vocabulary is global: only the keys this owner registered travel, with registered_owner rewritten.
REGISTRIES: dict[str, str] = {"entity_kind": "entity_kinds", "relation_type": "relation_types"}


def header(owner: str, at: datetime) -> dict[str, Any]:
    return {"format": FORMAT, "version": VERSION, "owner": owner, "exported_at": at.isoformat()}


def trailer(counts: dict[str, int]) -> dict[str, Any]:
    """The last line: the records per type, so a file cut short is told from a complete one."""
    return {"type": "end", "counts": counts}


def dumps(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"), default=str)


def parse(lines: list[str]) -> tuple[dict[str, Any], dict[str, list[dict[str, Any]]]]:
    """The header and the records by type of a whole file; BadInput (EXPORT_FORMAT) for anything else:
    another format or version, a line that is not a JSON object, an unknown type, a missing or
    disagreeing end line (a truncated file)."""
    rows = [line for line in lines if line.strip()]
    if not rows:
        raise BadInput("the file is empty, not a worldmem export", code="EXPORT_FORMAT")
    records = [_record(n, line) for n, line in enumerate(rows, 1)]
    head = records[0]
    if head.get("format") != FORMAT or head.get("version") != VERSION:
        raise BadInput(f"not a {FORMAT} file of version {VERSION} (header: format {head.get('format')!r}, "
                       f"version {head.get('version')!r})", code="EXPORT_FORMAT")
    end = records[-1] if len(records) > 1 else {}
    if end.get("type") != "end":
        raise BadInput("the file ends without its end line: it was cut short", code="EXPORT_FORMAT")
    by_type: dict[str, list[dict[str, Any]]] = {}
    for n, record in enumerate(records[1:-1], 2):
        kind = record.pop("type", None)
        if kind not in BY_NAME and kind not in REGISTRIES:
            raise BadInput(f"line {n}: unknown record type {kind!r}", code="EXPORT_FORMAT")
        by_type.setdefault(str(kind), []).append(record)
    counts = {k: len(v) for k, v in by_type.items()}
    if {k: v for k, v in dict(end.get("counts") or {}).items() if v} != counts:
        raise BadInput(f"the end line counts {end.get('counts')} records, the file holds {counts}: it is "
                       "incomplete", code="EXPORT_FORMAT")
    return head, by_type


def _record(n: int, line: str) -> dict[str, Any]:
    try:
        record = json.loads(line)
    except json.JSONDecodeError as exc:
        raise BadInput(f"line {n} is not JSON ({exc.msg}): the file is damaged or cut short",
                       code="EXPORT_FORMAT") from None
    if not isinstance(record, dict):
        raise BadInput(f"line {n} is not a JSON object", code="EXPORT_FORMAT")
    return record
