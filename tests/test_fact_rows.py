"""The JSON document the batched committer's set-based statements read (graph/ledger/fact_rows.rows_json):
the database reads back exactly the values the rows hold, as the standard library's document gave them."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone
from typing import Any
from uuid import uuid4

import psycopg
import pytest

from graph.ledger.fact_rows import rows_json
from graph.platform.db import Database

READ = ("SELECT * FROM jsonb_to_recordset(%s::jsonb) AS r(t timestamptz, u uuid, s text, f float8, n numeric, "
        "b boolean, e jsonb, z text)")


def _rows() -> list[dict[str, Any]]:
    return [
        {"t": datetime(2026, 12, 2, 5, 37, 34, 944075, tzinfo=UTC), "u": uuid4(), "s": "Jürgen Groß 🙂 \"q\" \\ \n",
         "f": 0.1, "n": 2**80, "b": True, "e": {"text": "naïve", "deep": [1, 1e-7, None, {"k": False}]}, "z": None},
        {"t": datetime(2, 1, 1, tzinfo=timezone(timedelta(hours=2))), "u": uuid4(), "s": "", "f": 1e16,
         "n": -7, "b": False, "e": {}, "z": "x"},
        {"t": datetime(9999, 12, 30, 23, 59, 59, 999999, tzinfo=timezone(timedelta(hours=-5, minutes=-30))),
         "u": uuid4(), "s": "\u2028\x01", "f": -0.0, "n": 0, "b": True, "e": {"a": "b" * 3000}, "z": "y"},
    ]


def _stdlib(rows: list[dict[str, Any]]) -> str:
    return json.dumps(rows, default=lambda v: v.isoformat() if isinstance(v, datetime) else str(v),
                      separators=(",", ":"))


def test_the_database_reads_back_every_value_as_the_rows_hold_it(db: Database) -> None:
    rows = _rows()
    with db.connection() as conn:
        got = conn.execute(READ, (rows_json(rows),)).fetchall()
        old = conn.execute(READ, (_stdlib(rows),)).fetchall()
    assert got == old  # the same rows as from the standard library's document
    for want, row in zip(rows, got, strict=True):
        assert row["t"] == want["t"] and row["u"] == want["u"] and row["s"] == want["s"]
        assert row["f"] == want["f"] and row["n"] == want["n"] and row["b"] is want["b"]
        assert row["e"] == want["e"] and row["z"] == want["z"]


def test_the_same_json_values_as_the_standard_library_wrote() -> None:
    def instants(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: datetime.fromisoformat(v) if k == "t" else instants(v) for k, v in value.items()}
        return [instants(v) for v in value] if isinstance(value, list) else value
    rows = _rows()
    assert instants(json.loads(rows_json(rows))) == instants(json.loads(_stdlib(rows)))


def test_a_lone_surrogate_is_refused_by_the_database_as_before(db: Database) -> None:
    rows = [{"s": "bad \ud800 text", "t": datetime.now(UTC)}]
    assert rows_json(rows) == _stdlib(rows)  # escaped as \ud800 (pydantic-core cannot write it as UTF-8)
    with db.connection() as conn, pytest.raises(psycopg.DataError):
        conn.execute("SELECT * FROM jsonb_to_recordset(%s::jsonb) AS r(s text)", (rows_json(rows),))


def test_a_value_it_cannot_send_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="cannot send"):
        rows_json([{"x": object()}])


def test_a_float_that_is_not_a_number_is_refused_by_the_database_never_sent_as_null(db: Database) -> None:
    rows = [{"f": float("nan")}, {"f": float("inf")}]
    assert rows_json(rows) == _stdlib(rows) == '[{"f":NaN},{"f":Infinity}]'
    with db.connection() as conn, pytest.raises(psycopg.DataError):
        conn.execute("SELECT * FROM jsonb_to_recordset(%s::jsonb) AS r(f float8)", (rows_json(rows),))
