"""The AGE mirror of an imported owner, written from its ledger rows in the import's transaction: entity
vertices and REL edges many at a time (graph.age.mirror_batch), events and their CAUSED edges one by one as
the committer writes them (graph.age.mirror), so the doctor finds graph == ledger."""

from __future__ import annotations

from typing import Any

import psycopg

from graph.age import mirror, mirror_batch
from graph.sql import load

CHUNK = 2000


def rebuild(conn: psycopg.Connection[Any], owner: str) -> None:
    entities = [dict(r) for r in conn.execute(load("transfer_mirror_entities")).fetchall()]
    for part in _chunks(entities):
        mirror_batch.create_entities(conn, owner, part).check()
    rels = [{"id": str(r["id"]), **mirror.rel_props(r)} for r in conn.execute(load("transfer_mirror_rels")).fetchall()]
    for part in _chunks(rels):
        mirror_batch.create_rels(conn, owner, part).check()
    events = conn.execute(load("transfer_mirror_events")).fetchall()
    for e in events:
        mirror.create_event(conn, owner, {"id": e["id"], "event_type": e["event_type"],
                                          "occurred_at": mirror.micros(e["occurred_at"]),
                                          "correlation_id": e["correlation_id"], "summary": e["summary"]})
    for e in events:
        if e["cause"] is not None:
            mirror.create_caused(conn, owner, e["cause"], e["id"], e["kind"])


def _chunks(rows: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    return [rows[i:i + CHUNK] for i in range(0, len(rows), CHUNK)]
