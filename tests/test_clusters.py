"""Owners over two clusters: the shared cluster is A (the directory), a second cluster in the same embedded root
(started once by the session fixture) is B. An owner moves from A to B while a client reads and writes through
the API: reads keep their answers the whole time, writes get OWNER_MOVING (retryable, with retryAfter), and
afterwards the same token reads the same answers from B, A holds nothing of the owner but its tokens (the
directory's), and another owner on A is untouched. Plus the routing's pure parts."""

from __future__ import annotations

import json
import os
import threading
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient
from psycopg import sql

from cli.main import main as cli_main
from graph.demo import load_demo
from graph.errors import BadInput, Unavailable
from graph.finder.nudger import Nudger
from graph.finder.reconciler import reconcile_owner
from graph.platform import clusters
from graph.platform.connect import role_url
from graph.platform.db import Database
from graph.platform.host import port_holder
from graph.platform.migrate import migrate
from graph.routing.delete import delete_owner
from graph.routing.move import MoveReport, move_owner
from graph.routing.router import Router
from graph.routing.routes import DEFAULT, Route, parse_clusters, read_route
from graph.routing.verify import export_digest
from graph.settings import Settings
from resolvers.app import create_app
from tests.conftest import TEST_DB
from tests.gql import codes, gql, new_token
from tests.test_explorer_api import SUBSCRIBE, receive_within
from tests.test_owner_delete import rows_of

# the second cluster: kept running between sessions (`worldmem db cluster down pytest_b`); another name when
# the session's primary is itself a second cluster (WORLDMEM_DB_PORT pointing at pytest_b)
NAME = os.environ.get("WORLDMEM_TEST_CLUSTER_B", "pytest_b")
FACT = "predicate value validFrom validTo recordedAt supersededAt status source"  # no ids: a copy has new ones
READS = ('{ luna: stateAt(ref: "pet:luna") { ref facts { ' + FACT + ' } } '
         'basti: stateAt(ref: "person:basti") { ref facts { ' + FACT + ' } } '
         'history: factHistory(ref: "pet:luna", predicate: "feeding_time") { ' + FACT + ' } '
         'search: searchWorldMemory(query: "Luna", mode: TEXT) { hits { text foundBy } } }')
COMMIT = "mutation($p: ProposalInput!) { commitProposal(proposal: $p) { committed } }"
ENTITY_TEXTS = "SELECT text FROM memory_projections WHERE owner_sub = %s AND source_kind = 'entity' ORDER BY text"
WRITE = 'mutation { recordTurn(chatId: "move-chat", text: "Der Thunfisch ist alle") { __typename } }'


def _free_port(settings: Settings) -> int:
    return next(p for p in range(54400, 54500) if p != settings.db_port and port_holder(p) is None)


@pytest.fixture(scope="session")
def cluster_b(settings: Settings, test_db_url: str) -> Iterator[str]:
    """Admin URL of this session's database on cluster B (created, started and migrated here)."""
    if settings.database_url is not None or os.geteuid() != 0:
        pytest.skip("a second cluster is made in the embedded root (chroot: root, no WORLDMEM_DATABASE_URL)")
    started = time.perf_counter()
    port = clusters.port_of(settings.root_dir, NAME) or _free_port(settings)
    clusters.up(settings, NAME, port)
    url = clusters.admin_url(settings, port, TEST_DB)
    migrate(clusters.cluster_settings(settings, url))
    print(f"\n[cluster_b] {NAME} on port {port} ready and migrated in {time.perf_counter() - started:.1f} s")
    yield url
    with psycopg.connect(clusters.admin_url(settings, port, "postgres"), autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(TEST_DB)))


def _reads(client: TestClient, token: str) -> dict[str, Any]:
    """The answers, each list in a fixed order: rows equal but for their ids (new on the copy) may come in
    another order where the read orders by id (two scopes of one predicate, equal search scores)."""
    body = gql(client, token, READS)
    assert "errors" not in body, body
    data: dict[str, Any] = body["data"]
    return {"luna": sorted(map(json.dumps, data["luna"]["facts"])),
            "basti": sorted(map(json.dumps, data["basti"]["facts"])),
            "history": sorted(map(json.dumps, data["history"])),
            "search": sorted(json.dumps(h) for h in data["search"]["hits"])}


def test_an_owner_moves_to_another_cluster_and_stays_readable(settings: Settings, test_db_url: str, db: Database,
                                                             cluster_b: str) -> None:
    two = settings.model_copy(update={"database_url": test_db_url, "clusters": f"b={cluster_b}",
                                      "token_cache_s": 0.3, "finder_background": True})
    mover, other = f"mover-{uuid.uuid4().hex[:10]}", f"stay-{uuid.uuid4().hex[:10]}"
    for who in (mover, other):
        load_demo(db, who)
        reconcile_owner(db, who, None)
    token, token_other = new_token(test_db_url, mover), new_token(test_db_url, other)
    with psycopg.connect(test_db_url) as a_conn:
        before_other = rows_of(a_conn, other)
        projected = a_conn.execute(ENTITY_TEXTS, (mover,)).fetchall()
        assert projected
    with TestClient(create_app(two), raise_server_exceptions=False) as client:
        before = _reads(client, token)
        assert before["luna"] and before["history"] and before["search"]
        other_before = _reads(client, token_other)

        done: list[MoveReport | BaseException] = []

        def move() -> None:
            try:
                done.append(move_owner(two, mover, "b"))
            except BaseException as exc:  # reported by the assertion below
                done.append(exc)

        mover_thread = threading.Thread(target=move)
        mover_thread.start()
        reads_during, writes = 0, []
        time.sleep(two.token_cache_s + 0.2)  # the mark reached the app's route cache
        while mover_thread.is_alive():
            # from A while the copy is made; from B once the route switched (the source is emptied later)
            assert _reads(client, token) == before
            reads_during += 1
            writes.append(gql(client, token, WRITE))
            time.sleep(0.05)
        mover_thread.join()
        assert len(done) == 1 and isinstance(done[0], MoveReport), done
        assert reads_during >= 3
        outcomes = ["ok" if "errors" not in w else ",".join(codes(w)) for w in writes]
        refused = outcomes.count("OWNER_MOVING")
        # refused until the route switched, accepted (on B) after it: never one accepted before a refusal
        assert refused >= 1 and outcomes == ["OWNER_MOVING"] * refused + ["ok"] * (len(outcomes) - refused), outcomes
        first = writes[0]["errors"][0]
        assert first["extensions"]["retryAfter"] > 0 and first["extensions"]["callerMustFix"] is False
        assert "verschoben" in first["message"] and "being moved" in first["message"]

        time.sleep(two.token_cache_s + 0.1)
        assert _reads(client, token) == before  # the same token, the same answers, now from B
        assert _reads(client, token_other) == other_before
        assert "errors" not in gql(client, token, WRITE)  # writes work again, on B
        accepted = outcomes.count("ok") + 1
        with client.websocket_connect("/graphql", subprotocols=["graphql-transport-ws"]) as ws:
            ws.send_json({"type": "connection_init", "payload": {"Authorization": f"Bearer {token}"}})
            assert ws.receive_json()["type"] == "connection_ack"
            ws.send_json(SUBSCRIBE)
            time.sleep(1.0)  # the listener on B is up before the commit (it announces from then on)
            committed_at = datetime.now(UTC)
            body = gql(client, token, COMMIT, {"p": {"runId": "after-move", "operations": [{"assertFact": {
                "subject": "pet:luna", "predicate": "description", "value": "mag Quittengelee", "source": "user",
                "validFrom": committed_at.isoformat(), "confidence": 1.0,
                "evidence": {"kind": "test", "text": "t"}}}]}})
            assert body["data"]["commitProposal"]["committed"] == 1, body
            message = receive_within(ws, 30)  # the commit on B is announced through B's listener
            assert message["type"] == "next" and message["payload"]["data"]["memoryCommitted"]["committed"] == 1
        assert Nudger.drain_all(30)  # the finder re-projected pet:luna where its rows are: on B

    with psycopg.connect(test_db_url) as a_conn, psycopg.connect(cluster_b) as b_conn:
        assert rows_of(a_conn, mover) == {"api_tokens": 1}  # the token stays in the directory
        on_b = rows_of(b_conn, mover)
        assert on_b["facts"] > 0 and on_b["_ag_label_vertex"] > 0
        # the search texts came along (pet:luna's then changed by the commit above), not computed again
        assert len(b_conn.execute(ENTITY_TEXTS, (mover,)).fetchall()) == len(projected)
        assert b_conn.execute("SELECT count(*) FROM memory_projections WHERE owner_sub = %s AND source_kind = "
                              "'entity' AND text LIKE '%%Quittengelee%%'", (mover,)).fetchone() == (1,)
        assert b_conn.execute("SELECT count(*) FROM chat_turns WHERE owner_sub = %s AND chat_id = 'move-chat'",
                              (mover,)).fetchone() == (accepted,)  # every accepted write is on B, none lost
        assert rows_of(a_conn, other) == before_other and rows_of(b_conn, other) == {}
        assert read_route(a_conn, mover) == Route("b")
        assert read_route(a_conn, other) == Route(DEFAULT)


def half_moved(settings: Settings, test_db_url: str, db: Database, cluster_b: str,
               name: str) -> tuple[Settings, str, dict[str, int]]:
    """An owner on A whose move died after marking the route and importing into B (the route still says A):
    the settings of both clusters, the owner, and its row counts on A."""
    two = settings.model_copy(update={"database_url": test_db_url, "clusters": f"b={cluster_b}",
                                      "token_cache_s": 0.0})
    owner = f"{name}-{uuid.uuid4().hex[:10]}"
    load_demo(db, owner)
    with psycopg.connect(test_db_url, autocommit=True) as a_conn:
        before = rows_of(a_conn, owner)
        a_conn.execute("INSERT INTO owner_routes (routed_owner, cluster, moving_to, moving_since) "
                       "VALUES (%s, 'main', 'b', now())", (owner,))
    partial = Database(role_url(clusters.cluster_settings(settings, cluster_b), "app"), max_size=1)
    try:
        load_demo(partial, owner)
    finally:
        partial.close()
    return two, owner, before


def test_a_crash_before_the_switch_leaves_the_owner_on_a_and_a_rerun_finishes(
        settings: Settings, test_db_url: str, db: Database, cluster_b: str) -> None:
    two, owner, before = half_moved(settings, test_db_url, db, cluster_b, "crash")
    with psycopg.connect(test_db_url) as a_conn:
        assert rows_of(a_conn, owner) == before  # A intact
    report = move_owner(two, owner, "b")
    assert report.records > 0 and set(report.seconds) >= {"export", "import", "verify", "erase"}
    with psycopg.connect(test_db_url) as a_conn, psycopg.connect(cluster_b) as b_conn:
        assert rows_of(a_conn, owner) == {}
        after = rows_of(b_conn, owner)
        assert after["facts"] == before["facts"] and after["entities"] == before["entities"]
        assert read_route(a_conn, owner) == Route("b")
    back = move_owner(two, owner, DEFAULT)  # and home again: no route row is left
    assert back.source == "b" and back.target == DEFAULT
    with psycopg.connect(test_db_url) as a_conn:
        assert rows_of(a_conn, owner)["facts"] == before["facts"]
        assert a_conn.execute("SELECT count(*) FROM owner_routes WHERE routed_owner = %s",
                              (owner,)).fetchone() == (0,)


def test_a_move_to_where_the_owner_lives_ends_an_unfinished_move(
        settings: Settings, test_db_url: str, db: Database, cluster_b: str) -> None:
    two, owner, before = half_moved(settings, test_db_url, db, cluster_b, "undo")
    report = move_owner(two, owner, DEFAULT)
    assert report.source == report.target == DEFAULT and report.records == 0
    with psycopg.connect(test_db_url) as a_conn, psycopg.connect(cluster_b) as b_conn:
        assert rows_of(a_conn, owner) == before and rows_of(b_conn, owner) == {}
        assert a_conn.execute("SELECT count(*) FROM owner_routes WHERE routed_owner = %s",
                              (owner,)).fetchone() == (0,)  # no longer moving: writes are allowed again


def test_moving_to_an_unknown_cluster_is_refused(settings: Settings, test_db_url: str) -> None:
    two = settings.model_copy(update={"database_url": test_db_url, "clusters": ""})
    with pytest.raises(BadInput) as caught:
        move_owner(two, "someone", "nowhere")
    assert caught.value.code == "UNKNOWN_CLUSTER"


def test_parse_clusters() -> None:
    assert parse_clusters("") == {}
    assert parse_clusters(" b=postgresql://u:p@h:1/d , c=postgres://h/d") == {
        "b": "postgresql://u:p@h:1/d", "c": "postgres://h/d"}
    for bad in ("b", "B=postgresql://h/d", "b=mysql://h/d", "main=postgresql://h/d",
                "b=postgresql://h/d,b=postgresql://h/e"):
        with pytest.raises(BadInput) as caught:
            parse_clusters(bad)
        assert caught.value.code == "BAD_CLUSTERS"


def test_export_digest_ignores_ids_and_order_but_not_content() -> None:
    head, end = '{"type":"header"}', '{"type":"end"}'
    one = [head, '{"id":"0190a1b2-0000-7000-8000-000000000001","v":"x"}', '{"id":"0190a1b2-0000-7000-8000-0000000000'
           '02","v":"y"}', end]
    renamed = [head, one[2].replace("02", "ff"), one[1].replace("01", "aa"), end]
    assert export_digest(one) == export_digest(renamed)
    assert export_digest(one) != export_digest([head, one[1], one[2].replace('"y"', '"z"'), end])


def test_the_router_reads_a_route_once_per_ttl(db: Database, admin_conn: psycopg.Connection[Any]) -> None:
    now = [0.0]
    router = Router(db, {}, ttl_s=2.0, pool_max_size=1, statement_timeout_ms=1000, clock=lambda: now[0])
    owner = f"routed-{uuid.uuid4().hex[:10]}"
    assert router.cached(owner) is None
    placed = router.place(owner)
    assert placed.database is db and placed.route == Route(DEFAULT)
    admin_conn.execute("INSERT INTO owner_routes (routed_owner, cluster, moving_to, moving_since) "
                       "VALUES (%s, 'main', 'zz', now())", (owner,))
    admin_conn.commit()
    assert router.place(owner).route == Route(DEFAULT)  # remembered: the directory is not asked
    now[0] = 2.0
    assert router.place(owner).route == Route(DEFAULT, "zz")  # read again: the owner is moving, still on main
    admin_conn.execute("UPDATE owner_routes SET cluster = 'zz', moving_to = NULL, moving_since = NULL "
                       "WHERE routed_owner = %s", (owner,))
    admin_conn.commit()
    now[0] = 4.0
    with pytest.raises(Unavailable, match="not in WORLDMEM_CLUSTERS"):  # a cluster this server does not know
        router.place(owner)


def test_the_app_role_cannot_write_a_route(db: Database) -> None:
    with db.owner_tx("someone") as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute("INSERT INTO owner_routes (routed_owner, cluster) VALUES ('someone', 'evil')")


def test_cluster_commands_refuse_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["db", "cluster", "up", "pytest_b"]) == 2  # no --port
    assert cli_main(["db", "cluster", "up", "main", "--port", "54999"]) == 2  # the primary's name
    assert cli_main(["db", "cluster", "frobnicate", "x"]) == 2
    assert "worldmem db cluster up NAME --port P" in capsys.readouterr().err


def test_deleting_an_owner_on_b_removes_its_tokens_and_route_in_the_directory(
        settings: Settings, test_db_url: str, db: Database, cluster_b: str) -> None:
    two = settings.model_copy(update={"database_url": test_db_url, "clusters": f"b={cluster_b}",
                                      "token_cache_s": 0.0})
    owner = f"gone-{uuid.uuid4().hex[:10]}"
    load_demo(db, owner)
    new_token(test_db_url, owner)
    move_owner(two, owner, "b")
    receipt = delete_owner(two, owner)
    assert receipt.counts["facts"] > 0  # deleted on B, where the facts were
    with psycopg.connect(test_db_url) as a_conn, psycopg.connect(cluster_b) as b_conn:
        assert rows_of(a_conn, owner) == {} and rows_of(b_conn, owner) == {}
        assert read_route(a_conn, owner) == Route(DEFAULT)
