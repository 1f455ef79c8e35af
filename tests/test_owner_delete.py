"""Deleting an owner: everything of the owner, tokens included, gone in one step with an admin-only receipt;
other owners untouched (their doctor and their reads); refusals typed; the app role cannot claim to be the
administrator or delete another owner."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient
from psycopg import sql

from cli.main import main as cli_main
from graph.age.doctor import check
from graph.demo import load_demo
from graph.erasure.owner import delete_as_admin
from graph.platform.db import Database
from graph.reads.temporal import state_at
from tests.gql import MakeToken, client, codes, gql, make_token  # noqa: F401

DELETE = "mutation($confirm: String!) { deleteOwner(confirm: $confirm) }"
STATE = '{ stateAt(ref: "pet:luna") { facts { predicate } } }'


def rows_of(admin: psycopg.Connection[Any], owner: str) -> dict[str, int]:
    """Rows naming `owner` in every table with an owner_sub column, and AGE vertices and edges of it."""
    found: dict[str, int] = {}
    tables = admin.execute("SELECT table_name FROM information_schema.columns c JOIN information_schema.tables t "
                           "USING (table_schema, table_name) WHERE c.table_schema = 'public' AND "
                           "c.column_name = 'owner_sub' AND t.table_type = 'BASE TABLE'").fetchall()
    for (table,) in tables:
        query = sql.SQL("SELECT count(*) FROM ONLY {} WHERE owner_sub = %s").format(sql.Identifier(table))
        row = admin.execute(query, (owner,)).fetchone()
        if row and row[0]:
            found[table] = int(row[0])
    for label in ("_ag_label_vertex", "_ag_label_edge"):
        query = sql.SQL("SELECT count(*) FROM worldgraph.{} WHERE properties::text::jsonb ->> 'owner' = %s").format(
            sql.Identifier(label))
        row = admin.execute(query, (owner,)).fetchone()
        if row and row[0]:
            found[label] = int(row[0])
    return found


def two_owners(db: Database) -> tuple[str, str]:
    a, b = f"owner-{uuid.uuid4().hex[:12]}", f"owner-{uuid.uuid4().hex[:12]}"
    load_demo(db, a)
    load_demo(db, b)
    return a, b


def test_the_admin_deletes_an_owner_and_no_other(db: Database, test_db_url: str, make_token: MakeToken,  # noqa: F811
                                                admin_conn: psycopg.Connection[Any],
                                                capsys: pytest.CaptureFixture[str]) -> None:
    a, b = two_owners(db)
    make_token(a), make_token(a, kind="agent")
    before_b = rows_of(admin_conn, b)
    assert rows_of(admin_conn, a)["api_tokens"] == 2

    assert cli_main(["owner", "delete", a]) == 2  # without --yes: nothing happens
    assert rows_of(admin_conn, a)
    receipt = delete_as_admin(test_db_url, a)
    assert rows_of(admin_conn, a) == {}
    assert receipt.requested_by == "admin" and receipt.counts["api_tokens"] == 2 and receipt.counts["facts"] > 0
    assert receipt.counts["graph:vertices"] > 0 and len(receipt.receipt_hash) == 64
    kept = admin_conn.execute("SELECT owner_hash, counts::text FROM owner_deletions WHERE id = %s",
                              (receipt.id,)).fetchone()
    assert kept is not None and a not in kept[0] + kept[1]  # the receipt names nobody

    assert rows_of(admin_conn, b) == before_b
    assert state_at(db, b, "pet:luna", datetime.now(UTC)) is not None
    # the mirror equals the ledger for both owners (other tests' owners may hold rows written around the
    # mirror on purpose, e.g. test_search_plans' planner fixtures, and the order of files varies)
    problems = [p for p in check(test_db_url).problems if a in p or b in p]
    assert problems == [], problems


def test_the_owner_deletes_themself_with_a_confirmation(client: TestClient, make_token: MakeToken,  # noqa: F811
                                                        db: Database, admin_conn: psycopg.Connection[Any]) -> None:
    a, b = two_owners(db)
    token, agent = make_token(a), make_token(a, kind="agent")
    assert codes(gql(client, agent, DELETE, {"confirm": a})) == ["OWNER_ONLY"]
    assert codes(gql(client, token, DELETE, {"confirm": b})) == ["BAD_INPUT"]
    assert codes(gql(client, make_token(b), DELETE, {"confirm": a})) == ["BAD_INPUT"]
    assert "errors" not in gql(client, token, STATE)  # nothing was deleted
    body = gql(client, token, DELETE, {"confirm": a})
    assert "errors" not in body, body
    assert rows_of(admin_conn, a) == {}
    assert codes(gql(client, token, STATE)) in (["UNAUTHENTICATED"], ["UNKNOWN_REF"])  # no data either way
    assert "errors" not in gql(client, make_token(b), STATE)


def test_the_app_role_cannot_delete_another_owner_or_pose_as_admin(app_db_url: str, db: Database) -> None:
    a, b = two_owners(db)
    attempts = [("SELECT wm_delete_owner(%s, 'owner')", b), ("SELECT wm_delete_owner(%s, 'admin')", a),
                ("SELECT count(*) FROM owner_deletions", None)]
    with psycopg.connect(app_db_url, autocommit=True) as conn:
        for statement, arg in attempts:
            with pytest.raises(psycopg.errors.InsufficientPrivilege), conn.transaction():
                conn.execute("SELECT set_config('app.current_owner', %s, true)", (a,))
                conn.execute(statement, (arg,) if arg else None)
    assert state_at(db, a, "pet:luna", datetime.now(UTC)) is not None
    assert state_at(db, b, "pet:luna", datetime.now(UTC)) is not None
