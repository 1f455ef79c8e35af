"""Named Cypher queries, loaded by file name (`cypher/<name>.cypher`)."""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import LiteralString, cast


@cache
def load(name: str) -> LiteralString:
    """Text of `cypher/<name>.cypher`; names are fixed strings in our code, never user input."""
    text = resources.files(__package__).joinpath(f"{name}.cypher").read_text()
    return cast(LiteralString, text.strip())
