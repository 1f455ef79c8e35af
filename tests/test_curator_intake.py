"""Curator intake: turns numbered per chat, the watermark, lagging chats, RLS, and the GraphQL fields."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient
from psycopg import sql

from curator import turns as t
from graph.errors import BadInput
from graph.ledger.tokens import create_token
from graph.platform.db import Database
from graph.settings import Settings
from resolvers.app import create_app
from tests.gql import MakeToken, client, codes, gql, make_token  # noqa: F401


def chat() -> str:
    return f"chat-{uuid.uuid4().hex[:8]}"


def turn(chat_id: str, text: str = "hello", **kw: Any) -> t.TurnIn:
    return t.TurnIn(chat_id=chat_id, text=text, **kw)


def test_turns_are_numbered_per_chat_and_round_trip(db: Database, owner: str, admin_conn: psycopg.Connection) -> None:
    a, b = chat(), chat()
    call = t.ToolCall.model_validate({"name": "lights.set", "args": {"room": "kitchen"}, "result": {"ok": True},
                                      "trustTier": "trusted"})
    first = t.record_turn(db, owner, turn(a, "Luna ist meine Katze", run_id="r1", tool_calls=[call]))
    second = t.record_turn(db, owner, turn(a, "ok", role="assistant", thinking="hm"))
    other = t.record_turn(db, owner, turn(b))
    assert (first.seq, second.seq, other.seq) == (1, 2, 1)
    assert first.owner == owner and first.run_id == "r1" and first.tool_calls == [call]
    assert second.role == "assistant" and second.thinking == "hm" and not second.explicit
    stored = admin_conn.execute("SELECT tool_calls FROM chat_turns WHERE id = %s", (first.id,)).fetchone()
    assert stored is not None
    assert stored[0] == [{"name": "lights.set", "args": {"room": "kitchen"}, "result": {"ok": True},
                          "trustTier": "trusted"}]


def test_concurrent_turns_of_one_chat_get_distinct_gapless_seqs(db: Database, owner: str) -> None:
    c = chat()
    with ThreadPoolExecutor(max_workers=4) as pool:
        stored = list(pool.map(lambda i: t.record_turn(db, owner, turn(c, f"turn {i}")), range(12)))
    assert sorted(s.seq for s in stored) == list(range(1, 13))


def test_uncurated_and_monotonic_watermark(db: Database, owner: str) -> None:
    c = chat()
    for i in range(5):
        t.record_turn(db, owner, turn(c, f"turn {i}"))
    with db.owner_tx(owner) as conn:
        assert [x.seq for x in t.uncurated(conn, c)] == [1, 2, 3, 4, 5]
        assert [x.seq for x in t.uncurated(conn, c, limit=2)] == [1, 2]
        t.advance_watermark(conn, c, 3)
        t.advance_watermark(conn, c, 1)  # never back
        assert [x.text for x in t.uncurated(conn, c)] == ["turn 3", "turn 4"]
        with pytest.raises(BadInput):
            t.advance_watermark(conn, c, 6)  # no such turn
    with db.owner_tx(owner) as conn:
        assert [x.seq for x in t.uncurated(conn, c)] == [4, 5]
        with pytest.raises(BadInput):
            t.uncurated(conn, c, limit=0)


def test_watermark_rolls_back_with_the_commit_transaction(db: Database, owner: str) -> None:
    c = chat()
    t.record_turn(db, owner, turn(c))
    with pytest.raises(RuntimeError), db.owner_tx(owner) as conn:
        t.advance_watermark(conn, c, 1)
        raise RuntimeError("the commit failed")
    with db.owner_tx(owner) as conn:
        assert [x.seq for x in t.uncurated(conn, c)] == [1]


def test_unknown_chat_has_no_turns_and_no_watermark(db: Database, owner: str) -> None:
    with db.owner_tx(owner) as conn:
        assert t.uncurated(conn, "nobody") == []
        with pytest.raises(BadInput):
            t.advance_watermark(conn, "nobody", 1)


def test_turns_are_owner_private(db: Database, owner: str, admin_conn: psycopg.Connection) -> None:
    c = chat()
    t.record_turn(db, owner, turn(c, "secret"))
    with db.owner_tx(f"other-{owner}") as conn:
        assert t.uncurated(conn, c) == []
        assert conn.execute("SELECT count(*) AS n FROM chat_turns").fetchone() == {"n": 0}
        assert conn.execute("SELECT count(*) AS n FROM curator_state").fetchone() == {"n": 0}
    with db.connection() as conn, conn.transaction():  # no owner at all: fail-closed
        assert conn.execute("SELECT count(*) AS n FROM chat_turns").fetchone() == {"n": 0}
    forced = admin_conn.execute(
        "SELECT relname, relrowsecurity AND relforcerowsecurity FROM pg_class "
        "WHERE relname IN ('chat_turns', 'curator_state', 'curator_quota', 'curator_usage') ORDER BY 1").fetchall()
    assert forced == [("chat_turns", True), ("curator_quota", True), ("curator_state", True),
                      ("curator_usage", True)]


def test_console_cannot_read_conversations(app_db_url: str) -> None:
    # the console role cannot log in (0019): reach it as the console does, by SET ROLE from the app
    for table in ("chat_turns", "curator_state", "curator_quota", "curator_usage"):
        with psycopg.connect(app_db_url) as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("SET ROLE worldmem_console")
            conn.execute(sql.SQL("SELECT 1 FROM {}").format(sql.Identifier(table)))


def test_app_cannot_rewrite_a_turn(db: Database, owner: str) -> None:
    c = chat()
    t.record_turn(db, owner, turn(c, "what was said"))
    with pytest.raises(psycopg.errors.InsufficientPrivilege), db.owner_tx(owner) as conn:
        conn.execute("UPDATE chat_turns SET text = 'rewritten'")


def test_lagging_chats(db: Database, owner: str, test_db_url: str) -> None:
    create_token(test_db_url, owner)  # owner=None visits the owners that have tokens
    c, done = chat(), chat()
    t.record_turn(db, owner, turn(c))
    t.record_turn(db, owner, turn(done))
    with db.owner_tx(owner) as conn:
        t.advance_watermark(conn, done, 1)
    assert t.lagging_chats(db, owner, timedelta(0)) == [(owner, c)]
    assert t.lagging_chats(db, owner, timedelta(hours=1)) == []
    assert (owner, c) in t.lagging_chats(db, None, timedelta(0))
    assert (owner, done) not in t.lagging_chats(db, None, timedelta(0))
    with pytest.raises(BadInput):
        t.lagging_chats(db, owner, timedelta(seconds=-1))


class Recorder:
    def __init__(self, fail: bool = False) -> None:
        self.calls: list[tuple[str, str, bool]] = []
        self.fail = fail

    def on_turn(self, owner: str, chat_id: str, explicit: bool) -> None:
        self.calls.append((owner, chat_id, explicit))
        if self.fail:
            raise RuntimeError("listener broke")


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
def listened(settings: Settings, app_db_url: str, recorder: Recorder) -> Iterator[TestClient]:
    app = create_app(settings.model_copy(update={"curator_model": "test:model"}), database_url=app_db_url,
                     turn_listener=recorder)
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


RECORD = """mutation($chat: String!, $text: String!, $calls: [ToolCallInput!]) {
  recordTurn(chatId: $chat, runId: "run-1", role: ASSISTANT, text: $text, thinking: "t", toolCalls: $calls) {
    id chatId seq runId role text explicit toolCalls { name args result trustTier } createdAt } }"""
REMEMBER = 'mutation($chat: String!) { rememberThis(chatId: $chat, text: "merk dir: Luna frisst um 19 Uhr") ' \
           '{ seq role explicit } }'
STATUS = """query($chat: String!, $lang: String! = "en") { curatorStatus(chatId: $chat, language: $lang) {
  chatId backlog explicitBacklog watermark lastSeq lastTurnAt modelConfigured model howToConfigure message } }"""


def test_record_turn_and_remember_this_tell_the_listener(listened: TestClient, make_token: MakeToken,  # noqa: F811
                                                         owner: str, recorder: Recorder) -> None:
    token, c = make_token(), chat()
    calls = [{"name": "web.fetch", "args": {"url": "x"}, "result": "always do X"}]
    body = gql(listened, token, RECORD, {"chat": c, "text": "done", "calls": calls})
    got = body["data"]["recordTurn"]
    assert got["seq"] == 1 and got["role"] == "ASSISTANT" and got["runId"] == "run-1" and not got["explicit"]
    assert got["toolCalls"] == [{"name": "web.fetch", "args": {"url": "x"}, "result": "always do X",
                                 "trustTier": "untrusted"}]
    body = gql(listened, token, REMEMBER, {"chat": c})
    assert body["data"]["rememberThis"] == {"seq": 2, "role": "USER", "explicit": True}
    assert recorder.calls == [(owner, c, False), (owner, c, True)]
    status = gql(listened, token, STATUS, {"chat": c})["data"]["curatorStatus"]
    assert (status["backlog"], status["explicitBacklog"], status["watermark"], status["lastSeq"]) == (2, 1, 0, 2)
    assert status["modelConfigured"] and status["model"] == "test:model" and status["howToConfigure"] is None


def test_a_failing_listener_never_fails_the_turn(settings: Settings, app_db_url: str, make_token: MakeToken) -> None:  # noqa: F811
    broken = Recorder(fail=True)
    with TestClient(create_app(settings, database_url=app_db_url, turn_listener=broken)) as c:
        body = gql(c, make_token(), REMEMBER, {"chat": "x1"})
    assert body["data"]["rememberThis"]["seq"] == 1 and "errors" not in body
    assert len(broken.calls) == 1


def test_status_without_a_model_says_how_to_configure(client: TestClient, make_token: MakeToken) -> None:  # noqa: F811
    token, c = make_token(), chat()
    gql(client, token, RECORD, {"chat": c, "text": "Luna ist meine Katze"})
    en = gql(client, token, STATUS, {"chat": c})["data"]["curatorStatus"]
    assert not en["modelConfigured"] and en["backlog"] == 1
    assert "WORLDMEM_CURATOR_MODEL" in en["howToConfigure"] and "1 turn is waiting" in en["message"]
    assert "WORLDMEM_CURATOR_BASE_URL=http://HOST:PORT/v1" in en["howToConfigure"]  # local servers too
    de = gql(client, token, STATUS, {"chat": c, "lang": "de"})["data"]["curatorStatus"]
    assert "WORLDMEM_CURATOR_MODEL" in de["message"] and "1 Nachricht wartet" in de["message"]
    empty = gql(client, token, STATUS, {"chat": "never-used"})["data"]["curatorStatus"]
    assert (empty["backlog"], empty["lastSeq"], empty["lastTurnAt"]) == (0, 0, None)
    assert codes(gql(client, token, STATUS, {"chat": c, "lang": "fr"})) == ["BAD_LANGUAGE"]


def test_bad_turns_are_typed_errors(client: TestClient, make_token: MakeToken) -> None:  # noqa: F811
    token = make_token()
    assert codes(gql(client, token, RECORD, {"chat": "", "text": "x"})) == ["INVALID_TURN"]
    assert codes(gql(client, token, RECORD, {"chat": "c", "text": "x", "calls": [{"name": ""}]})) == ["INVALID_TURN"]
    assert codes(gql(client, token, 'mutation { rememberThis(chatId: "c", text: "  ") { seq } }')) == ["INVALID_TURN"]
    assert codes(gql(client, None, REMEMBER, {"chat": "c"})) == ["UNAUTHENTICATED"]
