"""Statements over a table named by graph/transfer/format.py: the named text with its identifiers filled in."""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg import sql

from graph.sql import load


def columns(conn: psycopg.Connection[Any], table: str, drop: tuple[str, ...] = ()) -> list[str]:
    rows = conn.execute(load("transfer_columns"), {"table": table}).fetchall()
    return [_name(r) for r in rows if _name(r) not in drop]


def _name(row: Any) -> str:
    return str(row["column_name"] if isinstance(row, dict) else row[0])


def statement(name: str, table: str, cols: list[str] | None = None, order: tuple[str, ...] = ()) -> sql.Composed:
    """graph/sql/<name>.sql with {table}, {cols} and {order} as quoted identifiers."""
    return sql.SQL(load(name)).format(
        table=sql.Identifier(table),
        cols=sql.SQL(", ").join(sql.Identifier(c) for c in cols or []),
        order=sql.SQL(", ").join(sql.Identifier(c) for c in order))
