"""Export: the owner's whole memory as the lines of a worldmem-export file (graph/transfer/format.py).

Everything is read in one read-only transaction pinned to the owner, so the file is one consistent state
and only the owner's rows are read (row-level security, and the owner written out for the one table without)."""

from __future__ import annotations

from datetime import UTC, datetime

from graph.platform.db import Database
from graph.transfer import format as fmt
from graph.transfer.tables import columns, statement


def export_lines(db: Database, owner: str) -> list[str]:
    """The file's lines (without line ends): header, every record, the end line with the counts."""
    lines = [fmt.dumps(fmt.header(owner, datetime.now(UTC)))]
    counts: dict[str, int] = {}
    with db.owner_tx(owner, read_only=True) as conn:
        for kind in fmt.TYPES:
            cols = columns(conn, kind.table, kind.drop)
            rows = conn.execute(statement("transfer_select", kind.table, cols, kind.order)).fetchall()
            lines += [fmt.dumps({"type": kind.name, **row["r"]}) for row in rows]
            counts[kind.name] = len(rows)
        for name, table in fmt.REGISTRIES.items():
            rows = conn.execute(statement("transfer_registry_select", table), {"owner": owner}).fetchall()
            lines += [fmt.dumps({"type": name, **row["r"]}) for row in rows]
            counts[name] = len(rows)
    lines.append(fmt.dumps(fmt.trailer(counts)))
    return lines
