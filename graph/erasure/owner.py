"""Deleting an owner: everything of the owner, tokens included, in one transaction (wm_delete_owner,
graph/sql/functions), with a receipt in a table only the administrator reads (owner_deletions: the owner's
SHA-256, counts per table, a hash; no content).

Two ways in: the administrator's `worldmem owner delete O` (as the database's superuser) and the owner's
own token (`deleteOwner(confirm: O)`: the owner's name typed again, so a stray call deletes nothing).
A server that verified one of the owner's tokens keeps trusting it for at most token_cache_s seconds; every
row it could read or write is gone by then.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal
from uuid import UUID

import psycopg
from psycopg.rows import dict_row
from pydantic import BaseModel

from graph.errors import BadInput, Forbidden
from graph.ledger.tokens import Principal
from graph.platform.db import Database
from graph.platform.pooling import check_owner
from graph.sql import load


class OwnerDeletion(BaseModel):
    id: UUID
    deleted_at: datetime
    requested_by: Literal["admin", "owner"]
    counts: dict[str, int]
    receipt_hash: str


def delete_own(db: Database, principal: Principal, confirm: str) -> UUID:
    """The owner deletes themself; `confirm` must repeat the owner's name. Returns the receipt's id (the
    receipt itself is the administrator's to read)."""
    if not principal.is_owner:
        raise Forbidden("only the owner's own token may delete the owner", code="OWNER_ONLY")
    if confirm != principal.owner:
        raise BadInput("confirm must repeat the owner's name exactly; nothing was deleted", code="BAD_INPUT")
    with db.owner_tx(principal.owner) as conn:
        row = conn.execute(load("owner_delete"), {"by": "owner"}).fetchone()
    assert row is not None
    receipt: UUID = row["id"]
    return receipt


def delete_as_admin(admin_url: str, owner: str) -> OwnerDeletion:
    """The administrator deletes `owner` (the CLI): one transaction as the superuser, the owner set
    transaction-locally so the function's policies see exactly that owner's rows."""
    check_owner(owner)
    with psycopg.connect(admin_url, row_factory=dict_row,
                         options="-c search_path=public,ag_catalog") as conn, conn.transaction():
        conn.execute(load("tx_set_owner"), (owner,))
        row = conn.execute(load("owner_delete"), {"by": "admin"}).fetchone()
        assert row is not None
        receipt: dict[str, Any] | None = conn.execute(load("owner_deletion_get"), {"id": row["id"]}).fetchone()
    assert receipt is not None
    return OwnerDeletion.model_validate(receipt)
