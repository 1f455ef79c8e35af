"""Named Cypher and SQL queries in one round trip (a psycopg pipeline): the traversal's levels
(graph.reads.traversal) and the causal walks (graph.reads.causality)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from functools import cache
from typing import Any

import psycopg

import cypher
from graph.sql import load

Call = tuple[str, dict[str, Any]]


def pipelined(conn: psycopg.Connection[Any], graph: Sequence[Call], tabular: Sequence[Call] = (),
              finish: Callable[[], None] | None = None
              ) -> tuple[list[list[dict[str, Any]]], list[list[dict[str, Any]]]]:
    """Run named Cypher (`graph`) and SQL (`tabular`) queries in one round trip (psycopg pipeline); with
    `finish` (ReadTx.finish), the queries end the transaction (its COMMIT goes out with them)."""
    with ExitStack() as stack:
        if finish is None:
            stack.enter_context(conn.pipeline())
        gcurs = [conn.execute(_statement(name), (json.dumps(params),)) for name, params in graph]
        tcurs = [conn.execute(load(name), params) for name, params in tabular]
        if finish is not None:
            finish()
    return ([cypher.decode_rows(c.fetchall(), cypher.columns(name)) for c, (name, _) in zip(gcurs, graph, strict=True)],
            [list(c.fetchall()) for c in tcurs])


@cache
def _statement(name: str) -> bytes:
    """cypher.statement rendered once (psycopg would compose it again on every execution); UTF-8."""
    return cypher.statement(name).as_bytes(None)
