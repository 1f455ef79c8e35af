"""`worldmem doctor`: proves the AGE mirror equals the ledger (run as admin, across all owners), and that the
console's function surface is the one recorded (graph/age/console_snapshot.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import psycopg
from psycopg.rows import dict_row

import cypher
from graph.age import console_snapshot
from graph.age.mirror import micros
from graph.platform import safe_times
from graph.sql import load

TIME_COLUMNS = ("valid_from", "valid_to", "recorded_at", "superseded_at")


@dataclass
class Report:
    counts: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    age_version: str | None = None

    @property
    def ok(self) -> bool:
        return not self.problems


def _ledger_rel(row: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(micros(row[c]) if c in TIME_COLUMNS else row[c] for c in row)


def _compare(report: Report, what: str, ledger: set[tuple[Any, ...]], graph: set[tuple[Any, ...]]) -> None:
    report.counts[what] = len(ledger)
    for row in sorted(ledger - graph, key=repr)[:20]:
        report.problems.append(f"{what}: in the ledger, missing or different in the graph: {row}")
    for row in sorted(graph - ledger, key=repr)[:20]:
        report.problems.append(f"{what}: in the graph, not in the ledger: {row}")


def check(admin_url: str) -> Report:
    """Compare entities (with what traversal reads: name, merged_into), relationship facts, events and
    causation with their graph mirror; merged_into_id with the open merges; and the console's function
    surface with the recorded snapshot."""
    report = Report()
    with psycopg.connect(admin_url, row_factory=dict_row,
                         options="-c search_path=public,ag_catalog") as conn, conn.transaction():
        safe_times.install(conn)  # one time out of range must not stop the whole check
        conn.execute(load("tx_read_only"))
        for row in conn.execute(load("doctor_times_out_of_range")).fetchall():
            report.problems.append(f"time out of range: {row['what']} (row {row['row']}); readers show it "
                                   "clamped and the migrations refuse to run until it is fixed")
        for row in conn.execute(load("doctor_merges")).fetchall():
            report.problems.append(f"merges: {row['owner_sub']} {row['ref']}: merged_into_id says "
                                   f"{row['entity_says'] or 'not merged'}, its open merges say "
                                   f"{row['merges_say'] or 'none'}")
        pairs: list[tuple[str, Callable[[dict[str, Any]], tuple[Any, ...]]]] = [
            ("entities", lambda r: tuple(r.values())),
            ("rels", _ledger_rel),
            ("events", lambda r: tuple(r.values())),
            ("caused", lambda r: tuple(r.values())),
        ]
        for name, to_tuple in pairs:
            ledger = {to_tuple(dict(r)) for r in conn.execute(load(f"doctor_{name}")).fetchall()}
            graph = {tuple(r.values()) for r in cypher.run(conn, f"doctor_{name}", {})}
            _compare(report, name, ledger, graph)
        now = console_snapshot.live(conn)
    report.age_version = now["age_version"]
    report.counts["console_functions"] = len(now["console_functions"])
    report.problems += [f"console: {p}" for p in console_snapshot.drift(now, console_snapshot.recorded())]
    return report
