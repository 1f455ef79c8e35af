"""The server checks its curator model at start: curatorStatus never calls a model that cannot answer
configured, says what to change (en/de), and the backlog is curated as soon as the model answers."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

from curator import output_mode
from graph.settings import Settings
from resolvers.app import create_app
from tests.curator_llm import entity, ops, turn
from tests.fake_openai import FakeOpenAI, serve
from tests.gql import MakeToken, gql, make_token  # noqa: F401

STATUS = """query($chat: String!, $lang: String! = "en") { curatorStatus(chatId: $chat, language: $lang) {
  backlog modelConfigured model howToConfigure message modelProblem modelCheckedAt } }"""
STATE = '{ stateAt(ref: "pet:rex") { name } }'
QUIET = {"curator_model": None, "curator_catchup_s": 3600.0, "curator_debounce_s": 3600.0,
         "curator_check_timeout_s": 5.0, "curator_output_mode": "auto"}


def rex(prompt: str) -> dict[str, Any]:
    return ops(entity("pet:rex", "Rex")) if "Rex" in prompt else ops()


def until(condition: Callable[[], bool], seconds: float = 15.0) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def status(client: TestClient, token: str, chat: str, lang: str = "en") -> dict[str, Any]:
    body: dict[str, Any] = gql(client, token, STATUS, {"chat": chat, "lang": lang})["data"]["curatorStatus"]
    return body


def test_a_hosted_model_without_its_key_is_not_configured(settings: Settings, app_db_url: str, db: Any,
                                                          owner: str, make_token: MakeToken,  # noqa: F811
                                                          monkeypatch: pytest.MonkeyPatch,
                                                          caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    chat = f"k-{uuid.uuid4().hex[:6]}"
    turn(db, owner, chat, "Rex ist mein Hund")
    turn(db, owner, chat, "merk dir das", explicit=True)
    configured = settings.model_copy(update={**QUIET, "curator_model": "openai:gpt-4o-mini"})
    with TestClient(create_app(configured, database_url=app_db_url)) as client:
        token = make_token()
        en, de = status(client, token, chat), status(client, token, chat, "de")
    assert not en["modelConfigured"] and en["model"] == "openai:gpt-4o-mini" and en["backlog"] == 2
    assert "OPENAI_API_KEY" in en["modelProblem"] and "OPENAI_API_KEY" in en["howToConfigure"]
    assert en["message"].startswith("2 turns are waiting for the curator; nothing is curated until this is fixed")
    assert de["message"].startswith("2 Nachrichten warten auf den Kurator; kuratiert wird erst")
    assert "Schlüssel" in de["howToConfigure"]
    assert not any(r.exc_info for r in caplog.records)  # a typed message, no traceback
    assert any("the curator stays off" in r.getMessage() for r in caplog.records)


def test_a_base_url_without_v1_is_reported_and_nothing_waits_in_vain(settings: Settings, app_db_url: str,
                                                                     make_token: MakeToken) -> None:  # noqa: F811
    with serve(FakeOpenAI()) as fake:
        configured = settings.model_copy(update={**QUIET, "curator_base_url": fake.url.removesuffix("/v1")})
        with TestClient(create_app(configured, database_url=app_db_url)) as client:
            token = make_token()
            assert until(lambda: status(client, token, "w")["modelProblem"] is not None)
            en, de = status(client, token, "w"), status(client, token, "w", "de")
    assert not en["modelConfigured"] and "answered 404" in en["modelProblem"] and "/v1" in en["howToConfigure"]
    assert en["modelCheckedAt"] and "/v1" in de["howToConfigure"] and "404" in de["modelProblem"]


def test_the_backlog_is_curated_as_soon_as_the_model_answers(settings: Settings, app_db_url: str, db: Any,
                                                            owner: str, make_token: MakeToken) -> None:  # noqa: F811
    """Turns stored while the model refused the key are curated once a re-check passes, not an hour later
    (the catch-up's interval here)."""
    chat = f"b-{uuid.uuid4().hex[:6]}"
    turn(db, owner, chat, "merk dir: Rex ist mein Hund", explicit=True)
    with serve(FakeOpenAI(status=401, answers=[rex] * 50)) as fake:
        configured = settings.model_copy(update={**QUIET, "curator_base_url": fake.url, "curator_recheck_s": 0.5,
                                                 "curator_model_name": f"m-{uuid.uuid4().hex[:6]}"})
        with TestClient(create_app(configured, database_url=app_db_url)) as client:
            token = make_token()
            assert until(lambda: status(client, token, chat)["modelProblem"] is not None)
            failing = status(client, token, chat)
            fake.status = None  # the key is fixed on the model server's side
            assert until(lambda: status(client, token, chat)["backlog"] == 0)
            ok = status(client, token, chat)
            state = gql(client, token, STATE)["data"]["stateAt"]
    assert not failing["modelConfigured"] and "401" in failing["modelProblem"]
    assert ok["modelConfigured"] and ok["modelProblem"] is None and ok["howToConfigure"] is None
    assert state["name"] == "Rex"


def test_while_the_model_is_checked_it_is_not_called_configured(settings: Settings, app_db_url: str,
                                                                make_token: MakeToken) -> None:  # noqa: F811
    with serve(FakeOpenAI(delays={1: 2.0})) as fake:
        name = f"m-{uuid.uuid4().hex[:6]}"
        configured = settings.model_copy(update={**QUIET, "curator_base_url": fake.url, "curator_model_name": name})
        with TestClient(create_app(configured, database_url=app_db_url)) as client:
            token = make_token()
            checking = status(client, token, "c")
            assert until(lambda: status(client, token, "c")["modelConfigured"])
    assert not checking["modelConfigured"] and "is being checked" in checking["message"]
    assert output_mode.known(f"openai:{name}") == "tool"


def test_without_the_start_check_the_model_is_trusted(settings: Settings, app_db_url: str,
                                                      make_token: MakeToken) -> None:  # noqa: F811
    with serve(FakeOpenAI()) as fake:
        configured = settings.model_copy(update={**QUIET, "curator_base_url": fake.url,
                                                 "curator_check_on_start": False})
        with TestClient(create_app(configured, database_url=app_db_url)) as client:
            got = status(client, make_token(), "t")
    assert got["modelConfigured"] and got["modelProblem"] is None and fake.requests == []


def test_a_model_that_stops_answering_after_its_check_is_not_called_configured(
        settings: Settings, app_db_url: str, db: Any, owner: str, make_token: MakeToken) -> None:  # noqa: F811
    """The check passed at start; then the key is revoked on the model server: the chat's next run fails on
    the model, and the status says so (en/de) instead of "configured"; a run that reaches the model again
    clears it."""
    chat = f"d-{uuid.uuid4().hex[:6]}"
    with serve(FakeOpenAI(answers=[rex] * 50)) as fake:
        configured = settings.model_copy(update={**QUIET, "curator_base_url": fake.url,
                                                 "curator_model_name": f"m-{uuid.uuid4().hex[:6]}"})
        with TestClient(create_app(configured, database_url=app_db_url)) as client:
            token = make_token()
            assert until(lambda: status(client, token, chat)["modelConfigured"])
            fake.status = 401  # the key is revoked after the check passed
            turn(db, owner, chat, "merk dir: Rex ist mein Hund", explicit=True)
            runtime: Any = client.app.state.curator  # type: ignore[attr-defined]
            # this owner's chats only: a catch-up of every owner would first curate the lagging chats other
            # tests left in the database, and this test is about its own chat's run
            client.portal.call(runtime.catch_up, timedelta(0), owner)  # type: ignore[union-attr]
            client.portal.call(runtime.inline.idle)  # type: ignore[union-attr]
            down, de = status(client, token, chat), status(client, token, chat, "de")
            fake.status = None  # the key works again

            def curated_again() -> bool:
                # the explicit turn also started an inline run; when it held the chat's claim, a catch-up skips
                # the chat and the inline run retries a moment later: ask until one of them has run
                client.portal.call(runtime.catch_up, timedelta(0), owner)  # type: ignore[union-attr]
                client.portal.call(runtime.inline.idle)  # type: ignore[union-attr]
                return bool(status(client, token, chat)["backlog"] == 0)

            assert until(curated_again)
            back = status(client, token, chat)
    assert not down["modelConfigured"] and "401" in down["modelProblem"], down
    assert "nothing is curated until this is fixed" in down["message"] and down["backlog"] == 1
    assert "abgelehnt" in de["modelProblem"] and "Prüfe" in de["howToConfigure"]
    assert back["modelConfigured"] and back["modelProblem"] is None and back["backlog"] == 0, back
