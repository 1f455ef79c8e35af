"""jsonb and json columns load as json.loads would load them (graph/platform/json_rows.py), through the
database's own output, and faster parsing never changes a value or its type."""

from __future__ import annotations

import json
from typing import Any, LiteralString

import psycopg
import pytest
from psycopg.types.json import Jsonb

from graph.platform import json_rows
from graph.platform.db import Database

VALUES: list[Any] = [
    {"kind": "message", "text": "Sally got a raise", "n": 1.5, "ok": True, "none": None},
    6500, -0.0, 0.1, 1e300, 12345678901234567890123456789, [1, "zwei", 3.0, [], {}],
    "Grüße 😀 \u2028 \"quoted\" \\ back", {"nested": {"deeper": [{"k": "v"}]}}, "",
]
TEXTS = ["1e400", "-1e-400", "123456789012345678901234567890.5", "1.0", "1E+2", '"\\ud83d\\ude00"',
         "[" * 300 + "]" * 300]  # beyond from_json's nesting limit: json.loads answers


# (the value loaded by the column's loader, the same value's output text)
CASTS: dict[str, tuple[LiteralString, LiteralString]] = {
    "jsonb": ("SELECT %s::jsonb AS v", "SELECT %s::jsonb::text AS v"),
    "json": ("SELECT %s::json AS v", "SELECT %s::json::text AS v"),
}


def _both(conn: psycopg.Connection[Any], cast: str, param: Any) -> tuple[Any, Any]:
    """The value as loaded through json_rows and as json.loads loads the same output text."""
    loaded = conn.execute(CASTS[cast][0], (param,)).fetchone()
    text = conn.execute(CASTS[cast][1], (param,)).fetchone()
    assert loaded is not None and text is not None
    return loaded["v"], json.loads(text["v"])


@pytest.mark.parametrize("value", VALUES)
def test_values_load_as_json_loads_loads_them(db: Database, value: Any) -> None:
    with db.connection() as conn:
        for cast in CASTS:
            fast, slow = _both(conn, cast, Jsonb(value))
            assert fast == slow and repr(fast) == repr(slow), (cast, value)
        conn.rollback()


@pytest.mark.parametrize("text", TEXTS)
def test_database_texts_load_as_json_loads_loads_them(db: Database, text: str) -> None:
    with db.connection() as conn:
        for cast in CASTS:
            fast, slow = _both(conn, cast, text)
            assert repr(fast) == repr(slow), (cast, text)
        conn.rollback()


def test_loads_falls_back_to_json_loads() -> None:
    deep = "[" * 300 + "]" * 300
    assert json_rows.loads(deep) == json.loads(deep)
    assert json_rows.loads(b'{"a": [1, 2.5, "x"]}') == {"a": [1, 2.5, "x"]}
    with pytest.raises(ValueError):  # not JSON at all: json.loads's error, as before
        json_rows.loads("{nope")
    assert psycopg.adapters.get_loader(psycopg.adapters.types["jsonb"].oid, psycopg.pq.Format.TEXT
                                       )._loads is json_rows.loads  # type: ignore[union-attr]
