"""Named SQL queries, loaded by file name. Query text is literal and lives in `*.sql` beside this file."""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import LiteralString, cast


@cache
def load(name: str) -> LiteralString:
    """Text of `graph/sql/<name>.sql`. Names are fixed strings in our code, never user input."""
    text = resources.files(__package__).joinpath(f"{name}.sql").read_text()
    return cast(LiteralString, text)
