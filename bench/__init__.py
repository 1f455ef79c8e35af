"""Benchmarks at scale: `bench.seed` loads a separate database, `bench.run` measures it (`make bench`)."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import LiteralString, cast

SQL_DIR = Path(__file__).resolve().parent / "sql"
BENCH_DB = "worldmem_bench"


@cache
def load(name: str) -> LiteralString:
    """Text of `bench/sql/<name>.sql`; names are fixed strings in our code."""
    return cast(LiteralString, (SQL_DIR / f"{name}.sql").read_text())
