"""API bearer tokens: created by the admin, looked up by the app, stored only as sha256 hashes.

A token names exactly one owner; that owner is the only one a request can see. `can_import` allows an
explicit system time (`recordedAt`), `can_integrate` allows registering entity kinds and relation types.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

import psycopg
from psycopg.rows import dict_row

from graph.errors import Unauthenticated, Unavailable
from graph.platform.db import Database, check_owner
from graph.sql import load

PREFIX = "wm_"
# token_urlsafe(32) gives 43 characters; anything much longer is not ours and is not hashed.
MAX_TOKEN_LENGTH = 200


@dataclass(frozen=True)
class Principal:
    """Who a request acts for, and what its token allows."""

    owner: str
    can_import: bool = False
    can_integrate: bool = False


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def create_token(admin_url: str, owner: str, can_import: bool = False, can_integrate: bool = False) -> str:
    """Store a new token for `owner` (admin connection) and return it; only its hash is kept."""
    check_owner(owner)
    token = PREFIX + secrets.token_urlsafe(32)
    params = {
        "token_hash": hash_token(token),
        "owner_sub": owner,
        "can_import": can_import,
        "can_integrate": can_integrate,
    }
    with psycopg.connect(admin_url, connect_timeout=10) as conn:
        conn.execute(load("tokens_insert"), params)
    return token


def revoke_token(admin_url: str, token: str) -> bool:
    """Revoke a token (admin connection); False when it was unknown or already revoked."""
    with psycopg.connect(admin_url, connect_timeout=10) as conn:
        row = conn.execute(load("tokens_revoke"), {"token_hash": hash_token(token)}).fetchone()
    return row is not None


def authenticate(db: Database, token: str | None) -> Principal:
    """The principal of a live token, or Unauthenticated (missing, malformed, unknown or revoked)."""
    if not token or not token.startswith(PREFIX) or len(token) > MAX_TOKEN_LENGTH:
        raise Unauthenticated("a valid bearer token is required")
    try:
        with db.connection() as conn, conn.transaction(), conn.cursor(row_factory=dict_row) as cur:
            row = cur.execute(load("tokens_authenticate"), {"token_hash": hash_token(token)}).fetchone()
    except psycopg.OperationalError as exc:
        raise Unavailable("the database is not reachable") from exc
    if row is None:
        raise Unauthenticated("a valid bearer token is required")
    return Principal(owner=row["owner_sub"], can_import=row["can_import"], can_integrate=row["can_integrate"])
