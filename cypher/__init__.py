"""Named Cypher queries, loaded by file name (`cypher/<name>.cypher`), run through AGE's cypher().

Each file holds one Cypher query and names its result columns in a `// ... columns: a, b` comment.
Values travel only in cypher()'s parameter map (bound server-side as JSON text), never in the text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
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
    return sql.SQL("SELECT * FROM {call}").format(call=call(name))


@cache
def call(name: str, param: LiteralString = "%s") -> sql.Composed:
    """A named Cypher query as a FROM item, `ag_catalog.cypher(...) AS (columns)`, its parameter map in the
    placeholder `param` (`%(graph)s` to compose it into a statement with named placeholders:
    graph.reads.traversal_first)."""
    body = "\n".join(line for line in load(name).splitlines() if not line.lstrip().startswith("//"))
    if _TAG in body:
        raise ValueError("query text must not contain the dollar-quote tag")
    cols = sql.SQL(", ").join(sql.SQL("{} ag_catalog.agtype").format(sql.Identifier(c)) for c in columns(name))
    # cypher() takes its query as a dollar-quoted constant, so the (trusted, named-file) body is composed
    # in; values never are: they travel in the parameter map.
    template = "ag_catalog.cypher({graph}, $wm_cypher${body}$wm_cypher${param}) AS ({cols})"
    return sql.SQL(template).format(graph=sql.Literal(GRAPH_NAME), body=sql.SQL(trusted(body)),
                                    param=sql.SQL(", " + param), cols=cols)


def run(conn: psycopg.Connection[Any], name: str, params: dict[str, Any]) -> list[dict[str, Any]]:
    """Run a named query; agtype results come back decoded from their JSON text."""
    return decode_rows(conn.execute(statement(name), (json.dumps(params),)).fetchall(), columns(name))


# A JSON string (kept whole, escapes included) or an agtype type suffix such as `::vertex` (dropped). The
# scan goes left to right, so a `::` inside a string is always consumed as part of that string.
_STRING_OR_SUFFIX = re.compile(r'("[^"\\]*(?:\\.[^"\\]*)*")|::[A-Za-z]*', re.DOTALL)


def strip_agtype_suffixes(text: str) -> str:
    """Remove `::vertex`-style type suffixes outside JSON strings."""
    if "::" not in text:
        return text
    return _STRING_OR_SUFFIX.sub(r"\1", text)


def parse_agtype(value: Any) -> Any:
    """agtype text is JSON with `::vertex`/`::edge`/`::path`/`::numeric` suffixes, also nested.

    Numerics come back as float, like every other JSON number with a fraction. Non-text values (SQL NULL
    is None) are returned unchanged."""
    if value is None or not isinstance(value, str):
        return value
    return json.loads(strip_agtype_suffixes(value))


def decode_rows(rows: Sequence[Any], cols: Sequence[str]) -> list[dict[str, Any]]:
    """Rows of agtype text (dict or tuple rows, columns in `cols` order) to dicts of Python values.

    The whole result is one JSON document, `[[row 1], [row 2], ...]`, decoded by one json.loads after one
    suffix-stripping pass (skipped when no `::` occurs): each agtype value is one complete JSON value once
    its suffixes are gone, so joining them with commas is safe. SQL NULL becomes None."""
    table = [[row[c] for c in cols] if isinstance(row, dict) else list(row) for row in rows]
    if not table:
        return []
    try:
        text = "[[" + "],[".join(",".join("null" if v is None else v for v in values) for values in table) + "]]"
    except TypeError:  # a value that is not text (a connection with an agtype loader): one at a time
        return [dict(zip(cols, map(parse_agtype, values), strict=True)) for values in table]
    return [dict(zip(cols, values, strict=True)) for values in json.loads(strip_agtype_suffixes(text))]
