"""The rows of context_block.sql, split and cut for the entities linking chose. Pure functions.

context_block.sql reads, in the one round trip of a context build, the found entities and for EVERY one of
them its facts, incoming relationships and recent events, each cut per entity the way agent_facts_about.sql
and context_events.sql cut for the chosen ids. Here the chosen ids' rows are kept in the statement's order
and the overall limits of those two statements are applied, so the builder gets the rows it would have read
in a second round trip: per subject the first `limit` rows by (predicate, valid_from, id) contain every row
of the first `limit` over all subjects, and the same holds for the events' (occurred_at DESC, id).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

ENTITY_COLUMNS = ("span", "via", "namespace", "seen_at", "id", "ref", "kind", "name")
FACT_COLUMNS = ("id", "about_id", "subject_ref", "predicate", "functional", "object_kind", "object_value",
                "object_ref", "valid_from", "valid_to", "recorded_at", "superseded_at", "observed_at", "status",
                "source", "confidence", "scope_ref", "priority", "memory_type", "reason", "evidence",
                "supersedes_fact_id", "run_id")
EVENT_COLUMNS = ("id", "occurred_at", "event_type", "summary", "chat_id", "intent", "intent_outcome", "target",
                 "cause_type", "cause_summary")
Row = dict[str, Any]


@dataclass
class Block:
    """context_block's rows by part, each part in the statement's order, with the columns of the statement it
    stands in for (context_entities, agent_facts_about, context_events); events keep `for_id`."""

    entities: list[Row] = field(default_factory=list)
    own: list[Row] = field(default_factory=list)
    incoming: list[Row] = field(default_factory=list)
    events: list[Row] = field(default_factory=list)


def split(rows: Sequence[Row]) -> Block:
    block = Block()
    for row in rows:
        part = row["part"]
        if part == "entity":
            block.entities.append({k: row[k] for k in ENTITY_COLUMNS})
        elif part == "own":
            block.own.append({k: row[k] for k in FACT_COLUMNS})
        elif part == "incoming":
            block.incoming.append({k: row[k] for k in FACT_COLUMNS})
        elif part == "event":
            block.events.append({"for_id": row["for_id"], **{k: row[k] for k in EVENT_COLUMNS}})
        else:
            raise ValueError(f"context_block returned an unknown part {part!r}")
    return block


def facts(block: Block, ids: Collection[UUID], incoming: Collection[UUID], limit: int) -> list[Row]:
    """agent_facts_about's rows for (ids, incoming): the chosen subjects' first `limit`, then the first
    `limit` relationships pointing at the chosen objects."""
    subjects, objects = set(ids), set(incoming)
    return ([r for r in block.own if r["about_id"] in subjects][:limit]
            + [r for r in block.incoming if r["about_id"] in objects][:limit])


def events(block: Block, linked: Collection[UUID], limit: int) -> list[Row]:
    """context_events' rows for the linked ids: their picks, the chat's and the open intents', each event
    once, newest first, at most `limit`."""
    chosen, seen, out = set(linked), set(), []
    for row in block.events:
        if (row["for_id"] is None or row["for_id"] in chosen) and row["id"] not in seen:
            seen.add(row["id"])
            out.append({k: row[k] for k in EVENT_COLUMNS})
    return out[:limit]
