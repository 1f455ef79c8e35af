"""Read replicas with read-your-writes: a real streaming standby of the shared cluster (tests/replica.py) serves
the GraphQL queries, commits go to the primary, and no read after a commit is stale."""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from cli.main import main
from client import queries as q
from client.http import WorldmemClient, later_lsn
from graph.platform import replica
from graph.platform.errors import PlatformError
from graph.platform.hba import with_replication_line
from graph.platform.standby import from_setting, lsn_text, parse_lsn
from graph.settings import Settings
from resolvers.app import WorldmemApp, create_app
from resolvers.read_after import COMMIT_LSN, READ_AFTER
from tests.conftest import TEST_DB
from tests.gql import MakeToken, codes, make_token  # noqa: F401
from tests.hostile_http import free_port
from tests.replica import replay_paused, running_standby

COMMIT = """mutation($p: ProposalInput!) { commitProposal(proposal: $p) { committed pending rejected { code } } }"""
STATE_AT = "query($r: String!, $v: DateTime!) { stateAt(ref: $r, validTime: $v) { facts { predicate value } } }"
CONSOLE = "query($q: String!) { cypher(query: $q) { rows } }"
NOW = "2030-01-01T00:00:00Z"


def name_is(ref: str, value: str, run: str) -> dict[str, Any]:
    return {"p": {"runId": run, "operations": [{"assertFact": {
        "subject": ref, "predicate": "name", "value": value, "validFrom": "2020-01-01T00:00:00Z", "source": "user",
        "confidence": 1.0, "evidence": {"kind": "test", "text": "replica"}}}]}}


def post(client: TestClient, token: str, query: str, variables: dict[str, Any],
         read_after: str | None = None) -> tuple[dict[str, Any], str | None]:
    """One GraphQL request: its body and the commit LSN it answered with."""
    headers = {"Authorization": f"Bearer {token}", **({READ_AFTER: read_after} if read_after else {})}
    response = client.post("/graphql", json={"query": query, "variables": variables}, headers=headers)
    body: dict[str, Any] = response.json()
    return body, response.headers.get(COMMIT_LSN)


def names(body: dict[str, Any]) -> list[Any]:
    state = (body.get("data") or {}).get("stateAt")
    return [f["value"] for f in state["facts"] if f["predicate"] == "name"] if state else []


# ---- pure parts -------------------------------------------------------------------------------------------

def test_lsn_text_round_trips_and_compares_as_a_number() -> None:
    assert parse_lsn("0/16B3748") == 0x16B3748
    assert parse_lsn("5/A600E420") == (5 << 32) | 0xA600E420
    assert parse_lsn("1/0") > parse_lsn("0/FFFFFFFF")
    assert lsn_text(parse_lsn("5/A600E420")) == "5/A600E420"
    for bad in ("", "5", "5/", "x/1", "1/2/3", "123456789/0"):
        with pytest.raises(Exception, match="LSN"):
            parse_lsn(bad)


def test_the_client_keeps_the_latest_commit_lsn() -> None:
    assert later_lsn(None, "0/10") == "0/10"
    assert later_lsn("0/10", "0/F") == "0/10"
    assert later_lsn("0/FFFFFFFF", "1/0") == "1/0"
    assert later_lsn("0/10", None) == "0/10" and later_lsn("0/10", "junk") == "0/10"


def test_read_urls_split_between_urls_only() -> None:
    assert from_setting(None) == [] and from_setting(" ") == []
    assert from_setting("postgresql://a/db, postgresql://b/db") == ["postgresql://a/db", "postgresql://b/db"]
    # a libpq multi-host URL keeps its own commas
    assert from_setting("postgresql://h1:5432,h2:5432/db") == ["postgresql://h1:5432,h2:5432/db"]


def test_with_port_moves_a_socket_or_a_tcp_url() -> None:
    socket = "postgresql://u:p@/db?host=%2Frun%2Fpostgresql&port=54318"
    assert replica.with_port(socket, 54328) == "postgresql://u:p@/db?host=%2Frun%2Fpostgresql&port=54328"
    assert replica.with_port("postgresql://u:p@127.0.0.1:54318/db", 9) == "postgresql://u:p@127.0.0.1:9/db"
    assert replica.with_port("postgresql://u:p@localhost/db", 9) == "postgresql://u:p@localhost:9/db"


def test_hba_gets_a_replication_line_once() -> None:
    debian = "local   all   postgres   peer\nlocal   replication   all   peer\n"
    assert with_replication_line(debian) == debian
    bare = "local   all   postgres   peer\n"
    added = with_replication_line(bare)
    assert added.startswith(bare) and "local   replication     postgres" in added
    assert with_replication_line(added) == added
    # a replication line for another role, or one that asks a password, is not the standby's way in
    assert with_replication_line("local replication alice peer\n") != "local replication alice peer\n"


def test_a_standby_of_ones_own_server_is_not_ours_to_make(settings: Settings) -> None:
    byo = settings.model_copy(update={"database_url": "postgresql://u:p@db.example:5432/worldmem"})
    with pytest.raises(PlatformError, match="WORLDMEM_DATABASE_URL"):
        replica.up(byo, replica.standby_for(byo))
    assert replica.standby_for(settings).port == settings.db_port + 10
    assert replica.standby_for(settings.model_copy(update={"replica_port": 6000})).port == 6000
    assert replica.standby_for(settings, 7000).port == 7000
    with pytest.raises(PlatformError):
        replica.Standby("main", 7000)  # the primary's own directory


def test_the_cli_reports_a_standby_that_is_not_there(settings: Settings, test_db_url: str,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    if settings.database_url is not None or os.geteuid() != 0:
        pytest.skip("the standby lives in the embedded root and needs root (chroot)")
    assert main(["db", "replica", "status", "--port", str(free_port())]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["running"] is False and shown["slot"] is None and shown["name"] == "replica"
    assert main(["db", "replica"]) == 2  # which action: a message, not a traceback


# ---- against the shared cluster and a real standby ---------------------------------------------------------

@pytest.fixture(scope="module")
def standby(settings: Settings, test_db_url: str) -> Iterator[replica.Standby]:
    """A standby of the cluster, made after the test database exists (so the copy holds it)."""
    if settings.database_url is not None or os.geteuid() != 0:
        pytest.skip("the standby lives in the embedded root and needs root (chroot)")
    started = time.monotonic()
    with running_standby(settings, free_port()) as made:
        print(f"standby up in {time.monotonic() - started:.1f} s")  # the cost, seen with -s
        yield made


@pytest.fixture(scope="module")
def read_url(settings: Settings, standby: replica.Standby) -> str:
    return replica.app_url(settings, standby, TEST_DB)


def app_with(settings: Settings, app_db_url: str, read_url: str | None) -> WorldmemApp:
    return create_app(settings.model_copy(update={"read_database_url": read_url, "finder_background": False}),
                      database_url=app_db_url)


@pytest.fixture(scope="module")
def replicated(settings: Settings, app_db_url: str, read_url: str) -> Iterator[TestClient]:
    with TestClient(app_with(settings, app_db_url, read_url)) as c:
        yield c


@pytest.fixture(scope="module")
def primary_only(settings: Settings, app_db_url: str) -> Iterator[TestClient]:
    with TestClient(app_with(settings, app_db_url, None)) as c:
        yield c


def standbys_of(client: TestClient) -> Any:
    found = client.app.state.database.standbys  # type: ignore[attr-defined]
    assert found is not None
    return found


def test_reads_come_from_the_standby_and_wait_for_the_commit_they_name(
        settings: Settings, standby: replica.Standby, replicated: TestClient, primary_only: TestClient,
        make_token: MakeToken) -> None:  # noqa: F811
    """With the standby's replay paused it answers as it was: a query without a commit to wait for shows the old
    state (so it came from the standby: the console's AGE cypher() too); naming the commit (Worldmem-Read-After)
    waits read_wait_ms and then asks the primary, which has it."""
    token = make_token()
    assert post(primary_only, token, COMMIT, name_is("person:ada", "Ada", "p-1"))[0]["data"]["commitProposal"][
        "committed"] == 1
    count = "MATCH (e:Entity) RETURN count(e)"
    deadline = time.monotonic() + 10
    while names(post(replicated, token, STATE_AT, {"r": "person:ada", "v": NOW})[0]) != ["Ada"]:
        assert time.monotonic() < deadline, "the standby never replayed the first commit"
        time.sleep(0.05)
    with replay_paused(settings, standby, TEST_DB):
        time.sleep(0.1)
        body, lsn = post(primary_only, token, COMMIT, name_is("person:bob", "Bob", "p-2"))
        assert body["data"]["commitProposal"]["committed"] == 1 and lsn is None  # no standbys: no header
        stale, _ = post(replicated, token, STATE_AT, {"r": "person:bob", "v": NOW})
        assert codes(stale) == ["UNKNOWN_REF"]
        assert post(replicated, token, CONSOLE, {"q": count})[0]["data"]["cypher"]["rows"] == [[1]]
        # the commit's LSN, as a server with standbys would have answered it: the primary's position now
        with primary_only.app.state.database.connection() as conn:  # type: ignore[attr-defined]
            now_lsn = conn.execute("SELECT pg_current_wal_insert_lsn()::text AS l").fetchone()["l"]
        fresh, _ = post(replicated, token, STATE_AT, {"r": "person:bob", "v": NOW}, read_after=now_lsn)
        assert names(fresh) == ["Bob"]
        assert post(replicated, token, CONSOLE, {"q": count}, read_after=now_lsn)[0]["data"]["cypher"]["rows"] == [[2]]
    deadline = time.monotonic() + 10
    while names(post(replicated, token, STATE_AT, {"r": "person:bob", "v": NOW})[0]) != ["Bob"]:
        assert time.monotonic() < deadline, "the standby did not catch up after its replay resumed"
        time.sleep(0.05)


def test_a_thousand_writes_each_read_at_once(replicated: TestClient, settings: Settings, app_db_url: str,
                                             read_url: str, make_token: MakeToken) -> None:  # noqa: F811
    """Commit, then read at once, 1,000 times: every read sees its write. Half of the reads go through a second
    app (another process's pool, which has not seen the owner's commits) that only has the client's
    Worldmem-Read-After to go by; the other half through the committing app, which also remembers the owner's
    last commit itself. Most reads are served by the standby, the rest by the primary after waiting."""
    token = make_token()
    stale: list[tuple[int, list[Any]]] = []
    with TestClient(app_with(settings, app_db_url, read_url)) as other:
        first, second = standbys_of(replicated), standbys_of(other)
        before = (first.served + second.served, first.to_primary + second.to_primary)
        for i in range(1000):
            body, lsn = post(replicated, token, COMMIT, name_is("person:counter", f"v{i}", f"rw-{i}"))
            assert body["data"]["commitProposal"]["committed"] == 1, body
            assert lsn is not None
            reader, after = (other, lsn) if i % 2 else (replicated, None)
            seen = names(post(reader, token, STATE_AT, {"r": "person:counter", "v": NOW}, read_after=after)[0])
            if seen != [f"v{i}"]:
                stale.append((i, seen))
        served = first.served + second.served - before[0]
        to_primary = first.to_primary + second.to_primary - before[1]
    assert stale == []
    print(f"1000 reads after a commit: {served} served by the standby, {to_primary} by the primary")
    assert served + to_primary >= 1000
    assert served >= 500, (served, to_primary)


def test_a_stopped_standby_leaves_reads_to_the_primary(settings: Settings, standby: replica.Standby,
                                                       replicated: TestClient, make_token: MakeToken,  # noqa: F811
                                                       ) -> None:
    token = make_token()
    assert post(replicated, token, COMMIT, name_is("person:cy", "Cy", "s-1"))[0]["data"]["commitProposal"][
        "committed"] == 1
    standbys = standbys_of(replicated)
    replica.stop(settings, standby)
    try:
        before = (standbys.served, standbys.to_primary)
        for _ in range(5):
            assert names(post(replicated, token, STATE_AT, {"r": "person:cy", "v": NOW})[0]) == ["Cy"]
        assert standbys.served == before[0] and standbys.to_primary - before[1] >= 5
    finally:
        replica.up(settings, standby)
    # back: once the pool has reconnected (after the DOWN_S pause), the standby serves again
    time.sleep(5.5)
    before = standbys.served
    assert names(post(replicated, token, STATE_AT, {"r": "person:cy", "v": NOW})[0]) == ["Cy"]
    assert standbys.served > before


def test_every_read_tool_is_served_by_the_standby(replicated: TestClient, primary_only: TestClient,
                                                  make_token: MakeToken) -> None:  # noqa: F811
    """The agent's read tools, search, worldContext and the console: each query's reads went to the standby
    (none to the primary: this app has no commit of the owner's to wait for)."""
    token = make_token()
    post(primary_only, token, COMMIT, name_is("person:eve", "Eve", "t-1"))
    deadline = time.monotonic() + 10
    while names(post(replicated, token, STATE_AT, {"r": "person:eve", "v": NOW})[0]) != ["Eve"]:
        assert time.monotonic() < deadline, "the standby never replayed the commit"
        time.sleep(0.05)
    standbys = standbys_of(replicated)
    for document, variables in (
            (q.FIND_ENTITY, {"query": "Eve"}), (q.GET_ENTITY, {"ref": "person:eve"}),
            (q.RECALL_FACTS_ABOUT, {"entityOrQuery": "person:eve"}),
            (q.GET_FACT_HISTORY, {"ref": "person:eve", "predicate": "name"}),
            (q.STATE_AT, {"ref": "person:eve", "validTime": NOW}),
            (q.STATE_AS_KNOWN_AT, {"ref": "person:eve", "systemTime": NOW}),
            (q.SEARCH_WORLD_MEMORY, {"query": "Eve"}), (q.WORLD_CONTEXT, {"message": "Was macht Eve?"}),
            (q.GET_NEIGHBORS, {"ref": "person:eve"}), (q.EXPLAIN_CHANGE, {"ref": "person:eve", "predicate": "name"}),
            (CONSOLE, {"q": "MATCH (e:Entity) RETURN e.name"})):
        served, to_primary = standbys.served, standbys.to_primary
        body, _ = post(replicated, token, document, variables)
        assert "errors" not in body, (document, body)
        assert "eve" in str(body["data"]).lower(), (document, body)
        assert standbys.served > served and standbys.to_primary == to_primary, document


def test_the_python_client_sends_its_last_commit_back(replicated: TestClient,
                                                      make_token: MakeToken) -> None:  # noqa: F811
    token = make_token()

    async def run() -> tuple[str | None, str | None, str]:
        transport = httpx.ASGITransport(app=replicated.app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            client = WorldmemClient("http://test", token, http=http)
            before = client.read_after
            await client.execute(COMMIT, name_is("person:fay", "Fay", "c-1"))
            after = client.read_after
            return before, after, await client.state_at("person:fay")

    before, after, text = asyncio.run(run())
    assert before is None and after is not None and parse_lsn(after) > 0
    assert "Fay" in text


def test_a_bad_read_after_header_is_refused(replicated: TestClient, make_token: MakeToken) -> None:  # noqa: F811
    body, _ = post(replicated, make_token(), STATE_AT, {"r": "person:nobody", "v": NOW}, read_after="yesterday")
    assert codes(body) == ["BAD_INPUT"] and READ_AFTER.lower() in body["errors"][0]["message"].lower()


def test_without_the_setting_nothing_changes(primary_only: TestClient, make_token: MakeToken) -> None:  # noqa: F811
    assert primary_only.app.state.database.standbys is None  # type: ignore[attr-defined]
    token = make_token()
    body, lsn = post(primary_only, token, COMMIT, name_is("person:dee", "Dee", "n-1"))
    assert body["data"]["commitProposal"]["committed"] == 1 and lsn is None
    # the header is not even read: a malformed one changes nothing
    assert names(post(primary_only, token, STATE_AT, {"r": "person:dee", "v": NOW}, read_after="junk")[0]) == ["Dee"]
