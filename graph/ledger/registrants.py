"""Who may register a vocabulary key, and who may change it.

The vocabulary is global (facts reference keys), so a key belongs to whoever registered it: only that
principal (same owner, same token kind, same integration) may rename it or change its description;
anyone else may use it or register the identical definition (a no-op). An integration token registers
only under its own namespace `<name>:`, and the first one to do so claims that namespace for its owner:
another owner's integration of the same name is refused (NAMESPACE_TAKEN) and has to pick another name.
Core keys (seeded by migrations) never change, whoever asks, and no namespace is named like one (`person:`).
`principal=None` is the admin's own tooling (the demo loader, tests): it registers without a registrant and
may change what has none.
"""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg.rows import dict_row

from graph.errors import Forbidden
from graph.ledger.tokens import Principal
from graph.sql import load


def registrant(principal: Principal | None) -> dict[str, str | None]:
    """The registered_owner / registered_as columns for keys `principal` registers."""
    if principal is None:
        return {"registered_owner": None, "registered_as": None}
    as_ = f"integration:{principal.name}" if principal.kind == "integration" else principal.kind
    return {"registered_owner": principal.owner, "registered_as": as_}


def check_key(conn: psycopg.Connection[Any], principal: Principal | None, key: str) -> None:
    """May `principal` register `key`? Claims the namespace for an integration token's first key."""
    if principal is None:
        return
    namespace = key.split(":", 1)[0] if ":" in key else None
    if principal.kind == "integration" and namespace != principal.name:
        raise Forbidden(f"integration {principal.name!r} registers keys only under its namespace "
                        f"'{principal.name}:' (not {key!r})", code="NAMESPACE")
    if namespace is None:
        return
    with conn.cursor(row_factory=dict_row) as cur:
        if cur.execute(load("registries_namespace_core"), {"namespace": namespace}).fetchone() is not None:
            # `person:vip` or `status:x` would read as core vocabulary; an integration never shadows it
            raise Forbidden(f"{namespace!r} is a core key and cannot be a namespace: name the integration "
                            "after its system (e.g. github)", code="NAMESPACE")
        claim = None
        if principal.kind == "integration":
            claim = cur.execute(load("registries_namespace_claim"), {
                "namespace": namespace, "owner_sub": principal.owner, "integration": principal.name}).fetchone()
        claim = claim or cur.execute(load("registries_namespace_get"), {"namespace": namespace}).fetchone()
    ours = claim is not None and claim["owner_sub"] == principal.owner
    # an owner token may register in any namespace of its own integrations; an integration only in its own
    if claim is None or (ours and (principal.kind != "integration" or claim["integration"] == principal.name)):
        return
    raise Forbidden(f"the namespace {namespace!r} belongs to another integration; register under a name of your "
                    f"own (e.g. a token made with --name {namespace}_2)", code="NAMESPACE_TAKEN")


def check_change(principal: Principal | None, old: dict[str, Any], what: str) -> None:
    """May `principal` change the name or description of `old` (a registered, non-core key)?"""
    if principal is None:
        return
    mine = registrant(principal)
    if (old.get("registered_owner"), old.get("registered_as")) != (mine["registered_owner"], mine["registered_as"]):
        raise Forbidden(f"{what} {old['key']!r} was registered by someone else: use it as it is, or register a "
                        "key of your own", code="REGISTERED_BY_OTHER")


def check_inverse(principal: Principal | None, key: str, inverse: str | None) -> None:
    """The reverse name of a namespaced relation type stays in its namespace: traversal labels incoming edges
    with it, so `github:reviews` with inverse `owns` would read as the core `owns`."""
    if principal is None or inverse is None or ":" not in key:
        return
    namespace = key.split(":", 1)[0]
    if not inverse.startswith(f"{namespace}:"):
        raise Forbidden(f"the inverse of {key!r} must be in its namespace '{namespace}:' (not {inverse!r})",
                        code="NAMESPACE")
