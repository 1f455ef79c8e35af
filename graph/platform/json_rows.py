"""Loading json/jsonb columns with pydantic-core's JSON parser instead of the standard library's.

A point read decodes two or three jsonb values per row (object_value, evidence, the notice's rollups), and
json.loads on bytes was most of the rows' decoding: 8 rows of wm_read_state_at took 46 us to load,
26 of them in json.loads (~1.1 us per value: encoding detection and a str copy in Python, then the scanner);
pydantic_core.from_json (Rust, already installed with pydantic) parses the same bytes in ~0.3 us. The values
are the same Python objects for what PostgreSQL's json output can hold (tests/test_json_rows.py: big integers,
exponents, surrogate pairs, nesting); anything it refuses (deeper nesting than its limit) goes to json.loads.
"""

from __future__ import annotations

import json
from typing import Any

from psycopg.abc import AdaptContext
from psycopg.types.json import set_json_loads
from pydantic_core import from_json


def loads(data: bytes | str) -> Any:
    """json.loads's answer for JSON text, faster; json.loads itself for what from_json refuses."""
    try:
        return from_json(data)
    except ValueError:
        return json.loads(data)


def install(context: AdaptContext | None = None) -> None:
    """Use `loads` for json and jsonb columns of `context` (a connection) or, by default, of every connection."""
    set_json_loads(loads, context)
