"""Repeatable SQL files: one function (or a family of overloads) per `graph/sql/functions/<name>.sql`.

Flyway's repeatable scripts are the model. The runner (graph.platform.migrate) applies them after the numbered
migrations, each in its own transaction, whenever a file's checksum differs from the one recorded in
`schema_repeatables`; an unchanged file is skipped. A file holds `CREATE OR REPLACE` statements, so applying it
again is safe, and may hold what belongs to its function alone: its grants, a trigger that calls it
(`CREATE OR REPLACE TRIGGER`). A file that must change a function's signature or return type drops the old
one first (CREATE OR REPLACE cannot change them).

Order: `check_function_bodies` is off while a file is applied (as pg_dump does), so a plpgsql body or a
`LANGUAGE sql AS $$...$$` body may name tables and functions that do not exist yet. A SQL-standard body
(`RETURN expr`, `BEGIN ATOMIC`) is parsed at once, and a trigger needs its table: a file names what it needs
from other files in `-- requires: name, name` lines, and files are applied in that order, ties (and files
without requirements) by name.

A file may include a named statement (graph/sql/<name>.sql) instead of holding a copy of it: the line
`-- include: <name> (placeholder=argument, ...)` becomes the statement's text, comment lines left out, each
`%(placeholder)s` the function's argument and psycopg's `%%` a `%`. The checksum is taken of the expanded
text, so a change to the named file re-applies the function.

A removed file is reported, never dropped by the runner: its function may carry a view, an index expression or
a trigger that a DROP ... CASCADE would take with it. A numbered migration drops it (`DROP FUNCTION`); from then
on the name is no longer reported and its record is deleted.

Functions that the schema itself calls (row-level policies and column defaults: wm_owner, wm_owner_agtype; an
index expression: wm_owned_words) and the migrations' own procedures (wm_owner_only, wm_constrain_time_ranges)
live in the numbered migrations instead: they must exist before the tables that use them, and changing an indexed
expression needs a REINDEX that only a numbered migration can order.
"""

from __future__ import annotations

import hashlib
import heapq
import re
from dataclasses import dataclass
from pathlib import Path

from graph.platform.errors import MigrationError
from graph.sql import load

DIRECTORY = Path(__file__).resolve().parent.parent / "sql" / "functions"
FILE_PATTERN = re.compile(r"^([a-z][a-z0-9_]*)\.sql$")
REQUIRES = re.compile(r"^-- requires:(.*)$", re.MULTILINE)
INCLUDE = re.compile(r"^-- include: ([a-z][a-z0-9_]*) \(([^)]*)\)$", re.MULTILINE)


@dataclass(frozen=True)
class Repeatable:
    name: str
    text: str
    requires: tuple[str, ...]

    @property
    def checksum(self) -> str:
        return hashlib.sha256(self.text.encode()).hexdigest()


def read(path: Path) -> Repeatable:
    match = FILE_PATTERN.match(path.name)
    if not match:
        raise MigrationError(f"function file name {path.name!r} is not <name>.sql (lower case, digits, _)")
    text = INCLUDE.sub(_included, path.read_text())
    requires = tuple(sorted({n.strip() for line in REQUIRES.findall(text) for n in line.split(",") if n.strip()}))
    return Repeatable(match.group(1), text, requires)


def included(name: str, arguments: dict[str, str]) -> str:
    """The named statement `name` as a function body holds it (see the module's doc)."""
    try:
        body = "\n".join(line for line in load(name).splitlines() if not line.startswith("--"))
    except FileNotFoundError as exc:
        raise MigrationError(f"a function file includes {name!r}, which is no named statement") from exc
    for placeholder, argument in arguments.items():
        body = body.replace(f"%({placeholder})s", argument)
    if "%(" in body:
        raise MigrationError(f"the include of {name!r} leaves a placeholder without an argument")
    return f"-- BEGIN {name}\n{body.replace('%%', '%')}\n-- END {name}"


def _included(match: re.Match[str]) -> str:
    pairs = (p.split("=", 1) for p in match.group(2).split(",") if p.strip())
    return included(match.group(1), {k.strip(): v.strip() for k, v in pairs})


def discover(directory: Path) -> list[Repeatable]:
    """Every file of `directory`, in the order they are applied: requirements first, then by name."""
    found = {r.name: r for r in (read(p) for p in directory.glob("*.sql"))}
    return ordered(found)


def ordered(found: dict[str, Repeatable]) -> list[Repeatable]:
    """Kahn's topological sort with the ready files taken by name, so the order never depends on the disk."""
    for r in found.values():
        missing = [n for n in r.requires if n not in found]
        if missing:
            raise MigrationError(f"function file {r.name}.sql requires {', '.join(missing)}, which has no file")
    waiting = {name: set(r.requires) for name, r in found.items()}
    ready = [name for name, needs in waiting.items() if not needs]
    heapq.heapify(ready)
    result: list[Repeatable] = []
    while ready:
        name = heapq.heappop(ready)
        result.append(found[name])
        for other, needs in waiting.items():
            if name in needs:
                needs.discard(name)
                if not needs:
                    heapq.heappush(ready, other)
    if len(result) < len(found):
        circle = sorted(set(found) - {r.name for r in result})
        raise MigrationError(f"function files require each other in a circle: {', '.join(circle)}")
    return result
