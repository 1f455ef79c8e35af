"""Erasure at the owner's request: the hard purge (wm_erase, in graph/sql/functions), receipts, tombstones.

Invalidation ends a belief and keeps its history; erasure makes memory lose the data. Only an owner token
may ask (an agent or an integration acts for the owner, it does not decide what the owner forgets). One
request is one transaction: all of it is erased, with its receipt, or nothing is. What remains is the receipt
(counts, time, token, a hash; never a name or a value) and the digest of the erased refs, so that a later read
of such a ref says when it was erased instead of answering with silence.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal
from uuid import UUID

import psycopg
from pydantic import BaseModel

from graph.errors import BadInput, Conflict, Forbidden, NotFound
from graph.finder import query_vectors
from graph.governance.phrases import Lang, owner_language
from graph.ledger.tokens import Principal
from graph.platform.db import Database
from graph.sql import load

Kind = Literal["entity", "facts"]
MAX_REASON = 500
MAX_RECEIPTS = 500

# SQLSTATEs of wm_erase's refusals
UNKNOWN = "WE001"
ALREADY = "WE002"
ERASED_REF_STATE = "WE003"
NOTHING = "WE004"

TOMBSTONE = {
    "en": "{what} was erased on {day} at the owner's request (receipt {receipt})",
    "de": "{what} wurde am {day} auf Wunsch des Besitzers gelöscht (Beleg {receipt})",
}
CUT = {
    "en": "the {link} link of this chain was cut on {day}: what it pointed to was erased at the owner's request",
    "de": "die Verbindung ({link}) dieser Kette wurde am {day} getrennt: ihr Ziel wurde auf Wunsch des Besitzers "
          "gelöscht",
}
WHAT = {
    "en": {"entity": '"{ref}"', "facts": '"{predicate}" of "{ref}"'},
    "de": {"entity": '"{ref}"', "facts": '"{predicate}" von "{ref}"'},
}


class Receipt(BaseModel):
    """What one erasure did: counts per table and graph label, when, by which token, and a hash over all of
    it. Never a name, a ref or a value (the reason is kept with every erased term replaced)."""

    id: UUID
    kind: Kind
    predicate: str | None
    token_id: UUID | None
    token_kind: str
    reason: str
    erased_at: datetime
    counts: dict[str, int]
    receipt_hash: str


class Cut(BaseModel):
    """Where a surviving row's chain (its cause, its predecessor or successor) was cut by an erasure."""

    row_id: UUID
    link: str
    erasure_id: UUID
    erased_at: datetime
    message: str = ""


class Tombstone(BaseModel):
    id: UUID
    kind: Kind
    predicate: str | None
    erased_at: datetime


def _check(principal: Principal, ref: str, reason: str) -> None:
    if not principal.is_owner:
        raise Forbidden("only the owner's own token may erase (not an agent or integration token)",
                        code="OWNER_ONLY")
    if not ref.strip() or len(ref) > 500:
        raise BadInput("ref must be 1-500 characters", code="BAD_REF")
    if len(reason) > MAX_REASON:
        raise BadInput(f"reason must be at most {MAX_REASON} characters", code="BAD_INPUT")


def erase(db: Database, principal: Principal, ref: str, *, reason: str = "", predicate: str | None = None,
          token_hash: str | None = None) -> Receipt:
    """Erase the entity `ref` (predicate None) or every row of its `predicate`; the receipt. Typed refusals:
    OWNER_ONLY, UNKNOWN_REF (also another owner's ref: it is not visible), ALREADY_ERASED, NOTHING_TO_ERASE."""
    _check(principal, ref, reason)
    kind: Kind = "entity" if predicate is None else "facts"
    try:
        with db.owner_tx(principal.owner) as conn:
            row = conn.execute(load("erasure_erase"), {
                "kind": kind, "ref": ref, "predicate": predicate, "reason": reason, "token_hash": token_hash,
                "token_kind": principal.kind}).fetchone()
            assert row is not None
            receipt = _receipts(conn, row["id"], 1)[0]
            conn.execute(load("erasure_announce"))  # the other server processes forget too (live.CommitHub)
    except psycopg.DatabaseError as exc:
        raise _refusal(exc, db, principal.owner, ref, predicate) from None
    query_vectors.forget()  # remembered query texts may name what went
    return receipt


def _refusal(exc: psycopg.DatabaseError, db: Database, owner: str, ref: str, predicate: str | None) -> Exception:
    state = exc.sqlstate
    if state == UNKNOWN:
        return NotFound(f'no entity "{ref}"', code="UNKNOWN_REF")
    if state == NOTHING:
        return NotFound(f'"{ref}" has no rows of "{predicate}" to erase', code="NOTHING_TO_ERASE")
    if state == ALREADY:
        with db.owner_tx(owner, read_only=True) as conn:
            stone = tombstone(conn, ref, predicate)
            message = _said(conn, stone, ref) if stone else "already erased"
        return Conflict(message, code="ALREADY_ERASED")
    return exc


def receipts(db: Database, owner: str, *, limit: int = 100) -> list[Receipt]:
    if not 1 <= limit <= MAX_RECEIPTS:
        raise BadInput(f"limit must be between 1 and {MAX_RECEIPTS}", code="BAD_LIMIT")
    with db.owner_tx(owner, read_only=True) as conn:
        return _receipts(conn, None, limit)


def _receipts(conn: psycopg.Connection[Any], receipt_id: UUID | None, limit: int) -> list[Receipt]:
    rows = conn.execute(load("erasure_receipts"), {"id": receipt_id, "limit": limit}).fetchall()
    return [Receipt.model_validate(r) for r in rows]


def tombstone(conn: psycopg.Connection[Any], ref: str, predicate: str | None = None) -> Tombstone | None:
    row = conn.execute(load("erasure_tombstone"), {"ref": ref, "predicate": predicate}).fetchone()
    return Tombstone.model_validate(row) if row else None


def message(lang: Lang, stone: Tombstone, ref: str) -> str:
    what = WHAT[lang][stone.kind].format(ref=ref, predicate=stone.predicate)
    return TOMBSTONE[lang].format(what=what, day=stone.erased_at.date().isoformat(), receipt=stone.id)


def _said(conn: psycopg.Connection[Any], stone: Tombstone, ref: str) -> str:
    return message(owner_language(conn), stone, ref)


def erased_error(conn: psycopg.Connection[Any], ref: str, predicate: str | None = None) -> NotFound | None:
    """The ERASED answer for a read of an erased ref (or of an erased predicate of it), in the owner's
    language; None when nothing of it was erased."""
    stone = tombstone(conn, ref, predicate)
    return NotFound(_said(conn, stone, ref), code="ERASED") if stone else None


def erased_refs(conn: psycopg.Connection[Any], refs: list[str]) -> list[str]:
    """Which of `refs` were erased as entities (inside the committer's transaction, after its lock)."""
    if not refs:
        return []
    return [r["ref"] for r in conn.execute(load("erasure_refs_erased"), {"refs": refs}).fetchall()]


def cuts(conn: psycopg.Connection[Any], ids: list[UUID]) -> list[Cut]:
    """The cuts of the rows `ids` (facts or events of a chain), each with its message in the owner's language."""
    rows = conn.execute(load("erasure_cuts_of"), {"ids": ids}).fetchall() if ids else []
    if not rows:
        return []
    lang = owner_language(conn)
    return [Cut.model_validate({**r, "message": CUT[lang].format(link=r["link"], day=r["erased_at"].date())})
            for r in rows]
