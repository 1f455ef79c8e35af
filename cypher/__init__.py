"""Named Cypher queries, loaded by file name (`cypher/<name>.cypher`), run through AGE's cypher().

Each file holds one Cypher query and names its result columns in a `// ... columns: a, b` comment.
Values travel only in cypher()'s parameter map (bound server-side as JSON text), never in the text.
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources
from typing import Any, LiteralString

import psycopg
from psycopg import sql

from graph.settings import GRAPH_NAME
from graph.sql import trusted

COLUMNS = re.compile(r"columns:\s*([a-z_][a-z0-9_]*(?:\s*,\s*[a-z_][a-z0-9_]*)*)\s*$", re.MULTILINE)
NAME = re.compile(r"^[a-z][a-z0-9_]*$")
_TAG = "$wm_cypher$"


@cache
def load(name: str) -> LiteralString:
    """Text of `cypher/<name>.cypher`; names are fixed strings in our code, never user input."""
    if not NAME.match(name):
        raise ValueError(f"bad query name {name!r}")
    text = resources.files(__package__).joinpath(f"{name}.cypher").read_text()
    return trusted(text.strip())


@cache
def columns(name: str) -> tuple[str, ...]:
    match = COLUMNS.search(load(name))
    if not match:
        raise ValueError(f"cypher/{name}.cypher does not declare its columns")
    return tuple(c.strip() for c in match.group(1).split(","))


@cache
def statement(name: str) -> sql.Composed:
    """The SQL that runs a named Cypher query with one parameter map."""
    body = "\n".join(line for line in load(name).splitlines() if not line.lstrip().startswith("//"))
    if _TAG in body:
        raise ValueError("query text must not contain the dollar-quote tag")
    cols = sql.SQL(", ").join(sql.SQL("{} ag_catalog.agtype").format(sql.Identifier(c)) for c in columns(name))
    # cypher() takes its query as a dollar-quoted constant, so the (trusted, named-file) body is composed
    # in; values never are: they travel in the parameter map.
    template = "SELECT * FROM ag_catalog.cypher({graph}, $wm_cypher${body}$wm_cypher$, %s) AS ({cols})"
    return sql.SQL(template).format(
        graph=sql.Literal(GRAPH_NAME), body=sql.SQL(trusted(body)), cols=cols)


def run(conn: psycopg.Connection[Any], name: str, params: dict[str, Any]) -> list[dict[str, Any]]:
    """Run a named query; agtype results come back decoded from their JSON text."""
    rows = conn.execute(statement(name), (json.dumps(params),)).fetchall()
    cols = columns(name)
    return [{c: parse_agtype(_get(row, i, c)) for i, c in enumerate(cols)} for row in rows]


def _get(row: Any, index: int, col: str) -> Any:
    return row[col] if isinstance(row, dict) else row[index]


def strip_agtype_suffixes(text: str) -> str:
    """Remove `::vertex`-style type suffixes outside JSON strings."""
    out: list[str] = []
    i, n, in_string = 0, len(text), False
    while i < n:
        ch = text[i]
        if in_string:
            out.append(ch)
            if ch == "\\" and i + 1 < n:
                out.append(text[i + 1])
                i += 1
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
            out.append(ch)
        elif ch == ":" and text.startswith("::", i):
            i += 2
            while i < n and text[i].isalpha():
                i += 1
            continue
        else:
            out.append(ch)
        i += 1
    return "".join(out)


def parse_agtype(value: Any) -> Any:
    """agtype text is JSON with `::vertex`/`::edge`/`::path`/`::numeric` suffixes, also nested."""
    if value is None or not isinstance(value, str):
        return value
    return json.loads(strip_agtype_suffixes(value))
