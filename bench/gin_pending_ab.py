"""Imports with and without GIN's pending list on the full-text indexes (migration 0060), alternating.

Two owners import `--people` people each (bench.fresh_owner's data) through the committer on a scratch
database of their own; "on" puts fastupdate back on the three indexes 0060 turned it off for (main before
0060), "off" is 0060. Prints facts per second for each owner and variant.

    python -m bench.gin_pending_ab [--people 1000] [--rounds 2]
"""

from __future__ import annotations

import argparse
import sys

import psycopg
from psycopg import sql

from bench.fresh_data import scratch
from bench.fresh_owner import import_people
from graph.platform.db import Database
from graph.settings import get_settings

INDEXES = ("facts_owner_value_tsv", "memory_projections_owned_words")


def one(people: int, fastupdate: bool) -> tuple[float, float]:
    with scratch(get_settings()) as (admin, app):
        if fastupdate:
            with psycopg.connect(admin, autocommit=True) as conn:
                for name in INDEXES:
                    conn.execute(sql.SQL("ALTER INDEX {} SET (fastupdate = on)").format(sql.Identifier(name)))
        db = Database(app, max_size=2, statement_timeout_ms=120_000)
        try:
            return import_people(db, "fresh-a", people), import_people(db, "fresh-b", people)
        finally:
            db.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.gin_pending_ab", description=__doc__.split("\n")[0])
    parser.add_argument("--people", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args(argv)
    for _ in range(args.rounds):
        for fastupdate in (True, False):
            a, b = one(args.people, fastupdate)
            print(f"fastupdate {'on ' if fastupdate else 'off'}: A {a:.0f} facts/s, B {b:.0f} facts/s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
