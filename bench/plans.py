"""EXPLAIN (ANALYZE) of every named query on the hot paths, reduced to the scans each plan uses.

Runs as the application role with the owner set, so row-level security shapes the plans exactly as in
production. A sequential scan of a large table on a hot path is what this is here to catch.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

import psycopg
from psycopg import sql

import cypher
from graph.sql import load

SCANS = ("Seq Scan", "Index Scan", "Index Only Scan", "Bitmap Heap Scan", "Bitmap Index Scan")
# Small tables where a sequential scan is the right plan.
SMALL = {"relation_types", "event_types", "entity_kinds"}


@dataclass
class Plan:
    name: str
    kind: str  # cypher | sql
    execution_ms: float
    scans: list[str] = field(default_factory=list)

    @property
    def seq_scans(self) -> list[str]:
        return [s for s in self.scans if s.startswith("Seq Scan") and s.split(" on ")[-1] not in SMALL]


def _nodes(node: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield node
    for child in node.get("Plans", []):
        yield from _nodes(child)


def _scan(node: dict[str, Any]) -> str:
    what = str(node["Node Type"])
    if "Index Name" in node:
        what += f" using {node['Index Name']}"
    return what + (f" on {node['Relation Name']}" if "Relation Name" in node else "")


def _plan(conn: psycopg.Connection[Any], name: str, kind: str, query: sql.Composable, params: Any) -> Plan:
    explain = sql.SQL("EXPLAIN (ANALYZE, FORMAT JSON) {}").format(query)
    row = conn.execute(explain, params).fetchone()
    assert row is not None
    doc = row["QUERY PLAN"] if isinstance(row, dict) else row[0]
    top = (json.loads(doc) if isinstance(doc, str) else doc)[0]
    scans = sorted({_scan(n) for n in _nodes(top["Plan"]) if n["Node Type"] in SCANS})
    return Plan(name, kind, round(top["Execution Time"], 3), scans)


def cypher_plan(conn: psycopg.Connection[Any], name: str, params: dict[str, Any]) -> Plan:
    return _plan(conn, name, "cypher", cypher.statement(name), (json.dumps(params),))


def sql_plan(conn: psycopg.Connection[Any], name: str, params: dict[str, Any]) -> Plan:
    return _plan(conn, name, "sql", sql.SQL(load(name)), params)


def collect(conn: psycopg.Connection[Any], sample: dict[str, Any]) -> list[Plan]:
    """Plans of the named queries behind neighbours, effectsOf, explainChange and intents (the point reads' plans,
    nested in the functions of migrations/0080: `python -m bench.read_profile --plans`)."""
    s = sample
    frontier = {"ids": s["frontier"], "v": s["now_us"], "r": None, "predicates": None}
    plans = [cypher_plan(conn, "neighbors_out", {**frontier, "ids": s["frontier"][:1]}),
             cypher_plan(conn, "neighbors_in", {**frontier, "ids": s["frontier"][:1]}),
             cypher_plan(conn, "neighbors_out", frontier), cypher_plan(conn, "neighbors_in", frontier),
             cypher_plan(conn, "causal_forward", {"ids": [s["event_id"]]}),
             cypher_plan(conn, "causal_backward", {"ids": [s["caused_by"]]})]
    width = len(s["frontier"])
    plans[2].name, plans[3].name = f"neighbors_out ({width} ids)", f"neighbors_in ({width} ids)"
    for name, params in (
        ("entity_by_ref", {"ref": s["ref"]}),
        ("traversal_merged_sources", {"ids": [s["fact"]["subject_id"], s["merged"]["merged_into_id"]]}),
        ("traversal_survivors", {"ids": [s["merged"]["id"]], "system_time": None}),
        ("entity_survivor", {"id": s["merged"]["id"], "system_time": s["week_ago"]}),
        ("traversal_merged_sources_at", {"ids": [s["fact"]["subject_id"], s["merged"]["merged_into_id"]],
                                         "system_time": s["week_ago"]}),
        ("traversal_any_merge_at", {"system_time": s["week_ago"]}),
        ("traversal_relation_types", {}),
        ("causality_run_events", {"run_id": s["run_id"]}),
        ("causality_events_by_ids", {"ids": s["run_events"]}),
        ("causality_facts_caused", {"ids": s["run_events"], "limit": 5001}),
        ("causality_fact_by_id", {"id": s["fact"]["id"]}),
        ("causality_fact_for_key", {"subject_id": s["fact"]["subject_id"], "predicate": "status", "now": s["now"]}),
        ("causality_supersedes", {"id": s["fact"]["id"]}),
        ("intent_actions_for_effect", {"event_id": s["caused_by"], "predicate": "status"}),
        ("intent_observations", s["observation"]),
        ("intent_open_actions", {"since": s["week_ago"], "now": s["now"], "after_at": s["week_ago"],
                                 "after_id": UUID(int=0), "open_only": False, "limit": 1000}),
    ):
        plans.append(sql_plan(conn, name, params))
    return plans
