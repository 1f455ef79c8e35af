"""Import: a worldmem-export file into an EMPTY owner, in one transaction pinned to that owner.

Rows keep both time axes as the file has them. Their ids are new (the same file may be imported next to
the owner it came from, and ids are unique across owners): every id of the file is mapped to a fresh one,
and every value in any record equal to a mapped id (a column or inside a JSON payload) follows it. The
owner's clock is locked first (a concurrent commit waits) and left at the latest imported system time; the
AGE mirror is written from the imported rows (graph/transfer/remirror.py). Any failure rolls all back."""

from __future__ import annotations

import json
import re
import uuid
from typing import Any

from psycopg import errors as pg_errors

from graph.errors import BadInput, Conflict
from graph.platform.db import Database
from graph.sql import load
from graph.transfer import format as fmt
from graph.transfer import remirror
from graph.transfer.tables import columns, statement

UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")


def import_lines(db: Database, owner: str, lines: list[str]) -> dict[str, int]:
    """Import the file's lines for `owner`; the records written per type. BadInput (EXPORT_FORMAT) for a
    file that is not a whole export of this format and version, Conflict (OWNER_NOT_EMPTY) for an owner
    that holds memory already."""
    _head, by_type = fmt.parse(lines)
    try:
        return _write(db, owner, renamed(by_type))
    except (pg_errors.IntegrityError, pg_errors.DataError) as exc:
        # rows that do not hold together (a reference to a row the file lacks) or values of the wrong type:
        # the file is damaged or was edited; the first line names the constraint, never a row's content
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise BadInput(f"the file's rows do not fit the schema ({first}); nothing was imported",
                       code="EXPORT_FORMAT") from None


def _write(db: Database, owner: str, by_type: dict[str, list[dict[str, Any]]]) -> dict[str, int]:
    counts: dict[str, int] = {}
    with db.owner_tx(owner) as conn:
        conn.execute(load("clock_init"))
        conn.execute(load("clock_lock"))
        for kind in fmt.TYPES:
            found = conn.execute(statement("transfer_has_rows", kind.table)).fetchone()
            if found and found["found"]:
                raise Conflict(f"owner {owner!r} already holds memory ({kind.table}): an export is imported "
                               "only into an empty owner", code="OWNER_NOT_EMPTY")
        for kind in fmt.TYPES:
            counts[kind.name] = _insert(conn, "transfer_insert", kind.table, by_type.get(kind.name, []))
        for name, table in fmt.REGISTRIES.items():
            rows = [{**r, "registered_owner": owner} for r in by_type.get(name, [])]
            counts[name] = _insert(conn, "transfer_registry_insert", table, rows)
        conn.execute(load("transfer_clock"))
        remirror.rebuild(conn, owner)
    return counts


def _insert(conn: Any, name: str, table: str, rows: list[dict[str, Any]]) -> int:
    if not rows:
        return 0
    cols = [c for c in columns(conn, table) if c in rows[0]]
    # one statement per table: rows reference rows of their own table in both directions (a fact its
    # predecessor and its successor, an event its cause), and a foreign key is checked at the statement's end
    conn.execute(statement(name, table, cols), {"rows": json.dumps(rows, ensure_ascii=False)})
    return len(rows)


def renamed(by_type: dict[str, list[dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
    """The records with every id of the file replaced by a fresh one, wherever it occurs. An id the file
    names but does not hold becomes a fresh one as well: a file can never point at a row of the database
    it did not bring (another owner's entity), only at nothing, which the foreign keys refuse."""
    fresh: dict[str, str] = {}
    return {kind: [_swap(r, fresh) for r in rows] for kind, rows in by_type.items()}


def _swap(value: Any, fresh: dict[str, str]) -> Any:
    if isinstance(value, str):
        if UUID.fullmatch(value) is None:
            return value
        return fresh.setdefault(value.lower(), str(uuid.uuid4()))
    if isinstance(value, dict):
        return {k: _swap(v, fresh) for k, v in value.items()}
    if isinstance(value, list):
        return [_swap(v, fresh) for v in value]
    return value
