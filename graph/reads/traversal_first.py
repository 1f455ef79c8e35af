"""A traversal's first level in one statement that pins its owner, in one round trip.

graph/sql/traversal_first.sql (the body of wm_read_neighbors_first, graph/sql/functions, which pins the owner
first; graph/sql/traversal_first_pinned.sql calls it) resolves the ref (wm_resolve), reads
the relation types and, as known at a past system time, whether the owner had merged anything by then, and runs
cypher/neighbors_first.cypher, whose frontier (wm_frontier) is the origin and the entities merged into
it. graph.reads.traversal takes the level from here and goes on, in a transaction of its own, only when it
must: a deeper level, or targets that were merged.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import cypher
from graph.age.mirror import micros
from graph.ledger import entities
from graph.platform.db import Database
from graph.sql import load

HOPS = "neighbors_first"


@dataclass
class First:
    """What the first statement found: the origin (None: the ref names no entity), the relation types' rows,
    whether merges mattered then (None: believed now), and the level's edges (neighbors_first's columns)."""

    origin: dict[str, Any] | None
    types: list[dict[str, Any]] = field(default_factory=list)
    merged_then: bool | None = None
    edges: list[dict[str, Any]] = field(default_factory=list)


def params(ref: str, valid: datetime, system: datetime | None, directions: tuple[bool, bool],
           predicates: list[str] | None, deeper: bool) -> dict[str, Any]:
    """The statement's parameters; the Cypher ones travel in one JSON map (`graph`). `deeper`: the walk goes
    on past this level and needs every relation type (graph.reads.traversal.level_predicates)."""
    out, into = directions
    graph = {"ref": ref, "v": micros(valid), "r": micros(system), "out": out, "incoming": into,
             "predicates": predicates}
    return {"ref": ref, "system_time": system, "graph": json.dumps(graph), "all_types": deeper}


def first_level(db: Database, owner: str, ref: str, query: dict[str, Any]) -> First:
    """The first statement's answer, in one round trip (Database.read_pinned); an alias naming several
    entities is AMBIGUOUS_REF, as in entities.resolve."""
    rows = db.read_pinned(owner, load("traversal_first_pinned"), query)
    head = rows[0]
    if not entities.found(head, ref):
        return First(origin=None)
    return First(origin=head, types=head["types"] or [], merged_then=head["merged_then"],
                 edges=cypher.decode_rows(rows[1:], cypher.columns(HOPS)))
