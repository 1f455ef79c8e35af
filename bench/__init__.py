"""Benchmarks at scale: `bench.seed` loads a separate database, `bench.run` measures it (`make bench`)."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import LiteralString

from graph.sql import trusted

SQL_DIR = Path(__file__).resolve().parent / "sql"
BENCH_DB = "worldmem_bench"


@cache
def load(name: str) -> LiteralString:
    """Text of `bench/sql/<name>.sql` (or `<name>.cypher`); names are fixed strings in our code."""
    return trusted((SQL_DIR / name).read_text() if "." in name else (SQL_DIR / f"{name}.sql").read_text())
