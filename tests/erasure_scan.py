"""The erasure proof's scan: every text-like column of every table and every AGE label, as the superuser.

Generic over the catalog (information_schema), so a table or label added later is scanned without being
named here. Text, varchar, char, name, json, jsonb, agtype, tsvector and text arrays are read as text and
searched case-insensitively.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import psycopg
from psycopg import sql

TEXT_LIKE = ("text", "varchar", "bpchar", "name", "json", "jsonb", "agtype", "tsvector", "_text", "_varchar")


@dataclass
class Scan:
    places: list[str] = field(default_factory=list)
    found: dict[str, int] = field(default_factory=dict)

    @property
    def labels(self) -> list[str]:
        return sorted({p.rsplit(".", 1)[0] for p in self.places if p.startswith("worldgraph.")})


def columns(admin: psycopg.Connection[Any]) -> list[tuple[str, str, str]]:
    rows = admin.execute(
        "SELECT c.table_schema, c.table_name, c.column_name FROM information_schema.columns c "
        "JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name "
        "WHERE t.table_type = 'BASE TABLE' AND c.table_schema NOT IN ('pg_catalog', 'information_schema') "
        "AND c.udt_name = ANY(%s) ORDER BY 1, 2, 3", (list(TEXT_LIKE),)).fetchall()
    return [(r[0], r[1], r[2]) for r in rows]


def scan(admin: psycopg.Connection[Any], needle: str) -> Scan:
    """Where `needle` (case-insensitive) occurs: place -> rows."""
    result = Scan()
    for schema, table, column in columns(admin):
        place = f"{schema}.{table}.{column}"
        result.places.append(place)
        query = sql.SQL("SELECT count(*) FROM ONLY {}.{} WHERE strpos(lower({}::text), lower(%s)) > 0").format(
            sql.Identifier(schema), sql.Identifier(table), sql.Identifier(column))
        row = admin.execute(query, (needle,)).fetchone()
        if row and row[0]:
            result.found[place] = int(row[0])
    return result
