"""API bearer tokens: created by the admin, looked up by the app, stored only as sha256 hashes.

A token names exactly one owner; that owner is the only one a request can see. Its kind decides how far
what it writes is trusted (graph.ledger.trust): `owner` (the person), `agent` (the chat agent, the
curator), `integration` (a feeder, with a name). `can_import` (owner tokens only) allows an explicit
system time (`recordedAt`); `can_integrate` allows registering entity kinds and relation types.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Literal
from uuid import UUID

import psycopg
from psycopg.rows import dict_row

from graph.errors import BadInput, Unauthenticated, Unavailable
from graph.platform.db import Database
from graph.platform.pooling import check_owner
from graph.sql import load

PREFIX = "wm_"
# token_urlsafe(32) gives 43 characters; anything much longer is not ours and is not hashed.
MAX_TOKEN_LENGTH = 200
TOKEN_RE = re.compile(r"^wm_[A-Za-z0-9_\-]{43}$")
NAME_RE = re.compile(r"^[a-z][a-z0-9_]{0,49}$")
Kind = Literal["owner", "agent", "integration"]
KINDS: tuple[Kind, ...] = ("owner", "agent", "integration")

MISSING = ("no bearer token: send the header `Authorization: Bearer wm_...` "
           "(create a token with `worldmem token create --owner YOU`)")
MALFORMED = "the bearer token is malformed: worldmem tokens are `wm_` followed by 43 letters, digits, - or _"
UNKNOWN = "the bearer token is unknown (check that it was copied whole and is for this server)"
REVOKED = "the bearer token was revoked (create a new one with `worldmem token create`)"


@dataclass(frozen=True)
class Principal:
    """Who a request acts for, and what its token allows. Trust is derived from `kind`, never from input."""

    owner: str
    kind: Kind
    name: str | None = None  # the integration's name; None for owner and agent tokens
    can_import: bool = False
    can_integrate: bool = False

    def __post_init__(self) -> None:
        check_principal(self.kind, self.name, self.can_import, self.can_integrate)

    @property
    def source(self) -> str:
        """The source every operation of this token is recorded with."""
        if self.kind == "integration":
            return f"integration:{self.name}"
        return "user" if self.kind == "owner" else "agent"

    @property
    def is_owner(self) -> bool:
        return self.kind == "owner"


def owner_principal(owner: str) -> Principal:
    """The owner themself with every right: for code the admin runs (the demo loader, benchmarks, tests)."""
    return Principal(owner=owner, kind="owner", can_import=True, can_integrate=True)


def check_principal(kind: str, name: str | None, can_import: bool, can_integrate: bool) -> None:
    """The combinations a token may have (the same rules as the table's CHECK constraints)."""
    if kind not in KINDS:
        raise BadInput(f"token kind must be one of {', '.join(KINDS)}", code="BAD_TOKEN_KIND")
    if (kind == "integration") != (name is not None):
        raise BadInput("an integration token needs --name (and only an integration token has one)",
                       code="BAD_TOKEN_KIND")
    if name is not None and not NAME_RE.match(name):
        raise BadInput("an integration name is 1-50 of a-z, 0-9 and _, starting with a letter",
                       code="BAD_TOKEN_KIND")
    if can_import and kind != "owner":
        raise BadInput("only an owner token may import (--import): an import is the owner's own data",
                       code="BAD_TOKEN_KIND")
    if can_integrate and kind == "agent":
        raise BadInput("an agent token may not register vocabulary (--integration)", code="BAD_TOKEN_KIND")


@dataclass(frozen=True)
class TokenInfo:
    """What `worldmem token list` shows of a token (never the token itself)."""

    id: UUID
    owner: str
    kind: Kind
    name: str | None
    can_import: bool
    can_integrate: bool
    created_at: datetime
    revoked_at: datetime | None


def describe(t: TokenInfo) -> str:
    """One line of `worldmem token list`."""
    rights = [r for r, on in (("import", t.can_import), ("registers", t.can_integrate)) if on]
    kind = f"integration:{t.name}" if t.kind == "integration" else t.kind
    state = f"revoked {t.revoked_at:%Y-%m-%d %H:%M}" if t.revoked_at else "live"
    return (f"{t.id}  {t.owner}  {kind}  {','.join(rights) or '-'}  created {t.created_at:%Y-%m-%d %H:%M}  "
            f"{state}")


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def create_token(admin_url: str, owner: str, can_import: bool = False, can_integrate: bool = False, *,
                 kind: Kind = "owner", name: str | None = None) -> str:
    """Store a new token for `owner` (admin connection) and return it; only its hash is kept."""
    check_owner(owner)
    can_integrate = can_integrate or kind == "integration"
    check_principal(kind, name, can_import, can_integrate)
    token = PREFIX + secrets.token_urlsafe(32)
    params = {"token_hash": hash_token(token), "owner_sub": owner, "kind": kind, "name": name,
              "can_import": can_import, "can_integrate": can_integrate}
    with psycopg.connect(admin_url, connect_timeout=10) as conn:
        conn.execute(load("tokens_insert"), params)
    return token


def revoke_token(admin_url: str, token_or_id: str) -> bool:
    """Revoke a token, named by itself or by its id (admin connection); False when unknown or revoked."""
    try:
        token_id: UUID | None = UUID(token_or_id)
    except ValueError:
        token_id = None
    params = {"token_hash": None if token_id else hash_token(token_or_id), "id": token_id}
    with psycopg.connect(admin_url, connect_timeout=10) as conn:
        row = conn.execute(load("tokens_revoke"), params).fetchone()
    return row is not None


def list_tokens(admin_url: str, owner: str | None = None) -> list[TokenInfo]:
    """Every token (of `owner`, when given), oldest first; revoked ones included."""
    with psycopg.connect(admin_url, connect_timeout=10) as conn, conn.cursor(row_factory=dict_row) as cur:
        rows = cur.execute(load("tokens_list"), {"owner_sub": owner}).fetchall()
    return [TokenInfo(id=r["id"], owner=r["owner_sub"], kind=r["kind"], name=r["name"],
                      can_import=r["can_import"], can_integrate=r["can_integrate"],
                      created_at=r["created_at"], revoked_at=r["revoked_at"]) for r in rows]


def authenticate(db: Database, token: str | None) -> Principal:
    """The principal of a live token, or Unauthenticated saying whether it was missing, malformed,
    unknown or revoked (all code UNAUTHENTICATED)."""
    if not token:
        raise Unauthenticated(MISSING)
    if len(token) > MAX_TOKEN_LENGTH or not TOKEN_RE.match(token):
        raise Unauthenticated(MALFORMED)
    try:
        with db.connection() as conn, conn.transaction(), conn.cursor(row_factory=dict_row) as cur:
            row = cur.execute(load("tokens_authenticate"), {"token_hash": hash_token(token)}).fetchone()
    except psycopg.OperationalError as exc:
        raise Unavailable("the database is not reachable") from exc
    if row is None:
        raise Unauthenticated(UNKNOWN)
    if row["revoked_at"] is not None:
        raise Unauthenticated(REVOKED)
    return Principal(owner=row["owner_sub"], kind=row["kind"], name=row["name"], can_import=row["can_import"],
                     can_integrate=row["can_integrate"])
