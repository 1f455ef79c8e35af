"""Named SQL queries, loaded by file name. Query text is literal and lives in `*.sql` beside this file."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import LiteralString
from uuid import UUID


@dataclass(frozen=True, slots=True)
class IdRow:
    """A row of one column, `id` (a `RETURNING id`, a `SELECT id`), read with psycopg's class_row."""

    id: UUID


def trusted(text: str) -> LiteralString:
    """Mark text from our own named query files (never user input) as query text.

    mypy treats LiteralString as str, so this is the one place that vouches for file contents.
    """
    return text


@cache
def load(name: str) -> LiteralString:
    """Text of `graph/sql/<name>.sql`. Names are fixed strings in our code, never user input."""
    text = resources.files(__package__).joinpath(f"{name}.sql").read_text()
    return trusted(text)
