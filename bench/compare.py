"""The query shapes the design rejected, measured on the same data (reported by bench.run).

- one undirected hop `(a)-[r:REL]-(b)` vs the two directed hops neighbours uses;
- a variable-length path `-[r:REL*1..2]->`, warm, as the first call of a new backend, and after a write
  (AGE rebuilds a whole-graph cache then; a write that is rolled back invalidates it all the same);
- facts caused by events: SQL over facts.caused_by_event_id vs an (Event)-[:EFFECT]->(Entity) edge
  (a bench-only label with the same owner policy; the edge alone still lacks the fact's value).
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

import psycopg
from psycopg import sql

from bench import BENCH_DB, load
from bench.seed import OWNER_A
from graph.age.mirror import micros
from graph.platform.connect import admin_url, role_url
from graph.platform.db import Database
from graph.reads.graph_round import pipelined
from graph.settings import Settings
from graph.sql import load as load_sql


def _statement(name: str) -> sql.Composed:
    return (sql.SQL("SELECT * FROM ag_catalog.cypher('worldgraph', $q$") + sql.SQL(load(f"{name}.cypher"))
            + sql.SQL("$q$, %s) AS (n ag_catalog.agtype)"))


def _ms(fn: Callable[[Any], object], inputs: Sequence[Any]) -> str:
    times = []
    for item in inputs:
        started = time.perf_counter()
        fn(item)
        times.append((time.perf_counter() - started) * 1000)
    return f"p50 {statistics.median(times):.2f} ms, max {max(times):.2f} ms ({len(times)} runs)"


def _cold_vle(settings: Settings, ids: Sequence[str]) -> str:
    def once(entity: str) -> None:
        with psycopg.connect(role_url(settings, "app", BENCH_DB), options="-c search_path=public,ag_catalog") as c:
            c.execute(load_sql("tx_set_owner"), (OWNER_A,))
            started = time.perf_counter()
            c.execute(_statement("compare_vle_depth2"), (json.dumps({"id": entity}),)).fetchall()
            times.append((time.perf_counter() - started) * 1000)
    times: list[float] = []
    for entity in ids:
        once(entity)
    return f"p50 {statistics.median(times):.2f} ms, max {max(times):.2f} ms ({len(times)} new backends)"


class _Undo(Exception):
    pass


def _after_write(db: Database, ids: Sequence[str]) -> str:
    times: list[float] = []
    for entity in ids:
        try:
            with db.owner_tx(OWNER_A) as conn:
                conn.execute(_statement("compare_touch"), (json.dumps({"owner": OWNER_A}),))
                raise _Undo
        except _Undo:
            pass
        with db.owner_tx(OWNER_A, read_only=True) as conn:
            started = time.perf_counter()
            conn.execute(_statement("compare_vle_depth2"), (json.dumps({"id": entity}),)).fetchall()
            times.append((time.perf_counter() - started) * 1000)
    return f"p50 {statistics.median(times):.2f} ms, max {max(times):.2f} ms ({len(times)} writes)"


def run(settings: Settings, db: Database, subjects: Sequence[UUID], events: Sequence[UUID]) -> dict[str, str]:
    ids = [str(s) for s in subjects]
    with psycopg.connect(admin_url(settings, BENCH_DB), autocommit=True,
                         options="-c search_path=public,ag_catalog") as admin:
        admin.execute(load("compare_effect_label.sql"))
    out: dict[str, str] = {}
    with db.owner_tx(OWNER_A, read_only=True) as conn:
        hop = {"v": micros(datetime.now(UTC)), "r": None, "predicates": None}

        def directed(entity: str) -> object:
            return pipelined(conn, [("neighbors_out", {**hop, "ids": [entity]}),
                                    ("neighbors_in", {**hop, "ids": [entity]})])

        def cypher(name: str) -> Callable[[Any], object]:
            return lambda params: conn.execute(_statement(name), (json.dumps(params),)).fetchall()

        out["1 hop, two directed queries (neighbors_out + neighbors_in)"] = _ms(directed, ids)
        out["1 hop, one undirected pattern -[r:REL]-"] = _ms(cypher("compare_undirected"),
                                                             [{"id": i} for i in ids[:3]])
        cypher("compare_vle_depth2")({"id": ids[0]})
        out["depth 2, variable-length -[r:REL*1..2]->, warm"] = _ms(cypher("compare_vle_depth2"),
                                                                    [{"id": i} for i in ids])
        batches = [[str(e) for e in events[i:i + 5]] for i in range(0, len(events), 5)]
        uuids = [[UUID(e) for e in b] for b in batches]
        out["caused facts of 5 events, count: SQL on facts.caused_by_event_id"] = _ms(
            lambda b: conn.execute(load("compare_caused_count"), {"ids": b}).fetchall(), uuids)
        out["caused facts of 5 events, count: Cypher (Event)-[:EFFECT]->(Entity)"] = _ms(
            cypher("compare_effect_edges"), [{"ids": b} for b in batches])
        out["caused facts of 5 events, full rows with refs (what effectsOf runs)"] = _ms(
            lambda b: conn.execute(load_sql("causality_facts_caused"), {"ids": b, "limit": 5001}).fetchall(), uuids)
    out["depth 2, variable-length, first call in a new backend"] = _cold_vle(settings, ids[:3])
    out["depth 2, variable-length, after a write (rolled back)"] = _after_write(db, ids[:3])
    return out
