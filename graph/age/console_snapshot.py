"""The console's function surface as recorded (console_snapshot.json) and as it is in a database.

0019 made the console role's EXECUTE rights in ag_catalog an allow-list; 0004/0006 set LEAKPROOF and
COST on a few AGE functions so that index lookups survive row-level security without opening an
error-based oracle. An extension update recreates AGE's functions and resets all of that silently, so
`worldmem doctor` compares the live catalog with the snapshot recorded here and reports every drift,
and tests/test_console_allow_list.py fails when a migration changes the surface without re-recording it
(`python -m graph.age.console_snapshot URL > graph/age/console_snapshot.json`).
"""

from __future__ import annotations

import json
import sys
from importlib import resources
from typing import Any

import psycopg
from psycopg.rows import dict_row

from graph.sql import load

SNAPSHOT = "console_snapshot.json"


def live(conn: psycopg.Connection[Any]) -> dict[str, Any]:
    """The snapshot of the database behind `conn` (any role that can read pg_proc)."""
    with conn.cursor(row_factory=dict_row) as cur:
        version = cur.execute(load("doctor_age_version")).fetchone()
        functions = {_plain(r["signature"]): {"leakproof": r["leakproof"], "cost": r["cost"]}
                     for r in cur.execute(load("doctor_console_functions")).fetchall()}
        leakproof = {_plain(r["signature"]): r["cost"] for r in cur.execute(load("doctor_leakproof")).fetchall()}
    return {"age_version": version["version"] if version else None, "console_functions": functions,
            "leakproof": leakproof}


def _plain(signature: str) -> str:
    """regprocedure text qualifies names only when they are off the search_path: drop the schema."""
    return signature.replace("ag_catalog.", "")


def recorded() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(resources.files(__package__).joinpath(SNAPSHOT).read_text())
    return data


def drift(now: dict[str, Any], then: dict[str, Any]) -> list[str]:
    """Every difference between two snapshots, as one line each (empty: no drift)."""
    problems = []
    if now["age_version"] != then["age_version"]:
        problems.append(f"AGE is {now['age_version']}, the snapshot was recorded on {then['age_version']}")
    for name in ("console_functions", "leakproof"):
        a, b = now[name], then[name]
        problems += [f"{name}: {sig} is new: {a[sig]}" for sig in sorted(set(a) - set(b))]
        problems += [f"{name}: {sig} is gone" for sig in sorted(set(b) - set(a))]
        problems += [f"{name}: {sig} is {a[sig]}, recorded {b[sig]}" for sig in sorted(set(a) & set(b))
                     if a[sig] != b[sig]]
    return problems


def render(snapshot: dict[str, Any]) -> str:
    """JSON with one line per function, so a diff of the file reads as a diff of the surface."""
    def block(items: dict[str, Any]) -> str:
        return ",\n".join(f"  {json.dumps(k)}: {json.dumps(v, sort_keys=True)}" for k, v in sorted(items.items()))
    return (f'{{\n "age_version": {json.dumps(snapshot["age_version"])},\n'
            f' "console_functions": {{\n{block(snapshot["console_functions"])}\n }},\n'
            f' "leakproof": {{\n{block(snapshot["leakproof"])}\n }}\n}}\n')


def main(argv: list[str]) -> int:
    with psycopg.connect(argv[0]) as conn:
        sys.stdout.write(render(live(conn)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
