"""The one agtype decoder (cypher.parse_agtype / cypher.decode_rows): suffixes are dropped only outside
JSON strings, at any depth, and whole results decode the same as value by value."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from cypher import decode_rows, parse_agtype, strip_agtype_suffixes

VERTEX = '{"id": 1, "label": "P", "properties": {"s": "x::vertex \\"q\\" \\\\", "t": "a\\u00e9::edge"}}::vertex'
EDGE = '{"id": 9, "label": "R", "end_id": 2, "start_id": 1, "properties": {"n": 1.5::numeric, "f": 2.0}}::edge'
VERTEX_2 = '{"id": 2, "label": "P", "properties": {"l": [1, "y::edge"]}}::vertex'
PATH = f"[{VERTEX}, {EDGE}, {VERTEX_2}]::path"

V = {"id": 1, "label": "P", "properties": {"s": 'x::vertex "q" \\', "t": "aé::edge"}}
E = {"id": 9, "label": "R", "end_id": 2, "start_id": 1, "properties": {"n": 1.5, "f": 2.0}}
V2 = {"id": 2, "label": "P", "properties": {"l": [1, "y::edge"]}}


@pytest.mark.parametrize(("text", "value"), [
    (VERTEX, V),
    (EDGE, E),
    (PATH, [V, E, V2]),
    (f'{{"k": [{VERTEX}, "z::path"]}}', {"k": [V, "z::path"]}),
    ("1.5::numeric", 1.5),
    ("-3::numeric", -3),
    ("12345678901234567890::numeric", 12345678901234567890),
    ('"a::vertex"', "a::vertex"),
    ('"ends with a backslash \\\\"', "ends with a backslash \\"),
    ('"quote \\"::edge\\" inside"', 'quote "::edge" inside'),
    ('"\\u0022::vertex"', '"::vertex'),
    ('"::"', "::"),
    ("[]", []),
    ("{}", {}),
    ("null", None),
    ("true", True),
    ("42", 42),
    ("-0.5", -0.5),
])
def test_parse_agtype(text: str, value: Any) -> None:
    assert parse_agtype(text) == value


def test_special_floats_and_non_text() -> None:
    assert math.isnan(parse_agtype("NaN"))
    assert parse_agtype("Infinity") == math.inf
    assert parse_agtype("-Infinity") == -math.inf
    assert parse_agtype(None) is None
    assert parse_agtype(7) == 7


def test_strip_leaves_strings_alone() -> None:
    assert strip_agtype_suffixes('"x::vertex"') == '"x::vertex"'
    assert strip_agtype_suffixes('["a\\\\"::vertex, "b"]') == '["a\\\\", "b"]'
    assert strip_agtype_suffixes("no suffix") == "no suffix"


ROWS: list[tuple[str | None, ...]] = [
    (VERTEX, '"plain"', None, "1.5::numeric"),
    ('"a::b"', "[1, 2]", "null", PATH),
    ("3", '{"x": "y"}', '"\\""', "-2::numeric"),
]
COLS = ("a", "b", "c", "d")


def test_decode_rows_equals_value_by_value() -> None:
    expected = [{c: parse_agtype(v) for c, v in zip(COLS, row, strict=True)} for row in ROWS]
    assert decode_rows(ROWS, COLS) == expected
    assert expected[0]["a"] == V and expected[1]["d"] == [V, E, V2] and expected[2]["c"] == '"'
    # dict rows are read by column name, whatever their key order
    dict_rows = [dict(reversed(list(zip(COLS, row, strict=True)))) for row in ROWS]
    assert decode_rows(dict_rows, COLS) == expected
    # only scalars: no suffix anywhere, the same answer
    assert decode_rows([("1", '"x"'), (None, "[true]")], ("p", "q")) == [{"p": 1, "q": "x"},
                                                                        {"p": None, "q": [True]}]
    assert decode_rows([], COLS) == []


def test_decode_rows_with_values_already_decoded() -> None:
    assert decode_rows([(1, '"x::edge"', None)], ("a", "b", "c")) == [{"a": 1, "b": "x::edge", "c": None}]


def test_decode_rows_refuses_a_column_count_mismatch() -> None:
    with pytest.raises(ValueError):
        decode_rows([("1", "2")], ("a",))


@pytest.fixture
def admin(test_db_url: str) -> Iterator[psycopg.Connection[Any]]:
    with psycopg.connect(test_db_url, options="-c search_path=public,ag_catalog") as conn:
        conn.execute("LOAD 'age'")
        yield conn
        conn.rollback()


def test_what_age_really_prints(admin: psycopg.Connection[Any]) -> None:
    """A path, an edge, vertices (created in a transaction that is rolled back), numerics, floats."""
    query = r"""SELECT * FROM ag_catalog.cypher('worldgraph', $q$
      CREATE p = (a:WmProbe {s: 'x::vertex "q" \\', t: 'aé::edge'})
                 -[e:WM_PROBE {n: 1.5::numeric, f: 2.0}]->(b:WmProbe {l: [1, 'y::edge']})
      RETURN p, e, a, 1.5::numeric, -3::numeric, {k: [a, 'z::path']}, 'Infinity'::float, null
    $q$) AS (p agtype, e agtype, a agtype, n agtype, m agtype, k agtype, f agtype, z agtype)"""
    rows = admin.execute(query).fetchall()
    cols = ("p", "e", "a", "n", "m", "k", "f", "z")
    assert "::vertex" in rows[0][0] and "::numeric" in rows[0][1]  # the suffixes are really there
    [row] = decode_rows(rows, cols)
    assert [{c: parse_agtype(v) for c, v in zip(cols, rows[0], strict=True)}] == [row]
    a = {"label": "WmProbe", "properties": {"s": 'x::vertex "q" \\', "t": "aé::edge"}}
    assert {k: row["a"][k] for k in ("label", "properties")} == a
    assert row["e"]["properties"] == {"n": 1.5, "f": 2.0}
    assert row["e"]["start_id"] == row["a"]["id"] == row["p"][0]["id"]
    assert [x["label"] for x in row["p"]] == ["WmProbe", "WM_PROBE", "WmProbe"]
    assert row["p"][2]["properties"] == {"l": [1, "y::edge"]}
    assert row["k"] == {"k": [row["a"], "z::path"]}
    assert (row["n"], row["m"], row["f"], row["z"]) == (1.5, -3, math.inf, None)

