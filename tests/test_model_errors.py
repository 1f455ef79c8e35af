"""A model provider's failure is recorded and shown as a class (auth, rate_limit, timeout, bad_output,
unreachable, other) with a detail the server wrote, never the provider's body: a 401's body quotes the
server's own API key ("Incorrect API key provided: sk-proj-..."), and curatorRuns is read with agent tokens."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from fastapi.testclient import TestClient
from pydantic_ai import ModelHTTPError, UnexpectedModelBehavior
from pydantic_ai.exceptions import ModelAPIError, ModelConnectionError

from curator import model_errors
from curator.extract import build_model
from curator.pipeline import Curator
from graph.platform.db import Database
from graph.settings import Settings
from resolvers.app import create_app
from tests.curator_llm import turn
from tests.fake_openai import FakeOpenAI, Refusal, serve
from tests.gql import MakeToken, gql, make_token  # noqa: F401

SERVER_KEY = "sk-proj-Zq8Tx3Vb6Nm1Lk4Jh7Gf0Ds2Ap5Ow9Ie"
LEAK = {"error": {"message": f"Incorrect API key provided: {SERVER_KEY}. You can find your API key at "
                             "https://platform.openai.com/account/api-keys.", "type": "invalid_request_error",
                  "param": None, "code": "invalid_api_key"}}
RUNS = "query($c: String!) { curatorRuns(chatId: $c) { status error } }"
REMEMBER = "mutation($c: String!, $t: String!) { rememberThis(chatId: $c, text: $t) { seq } }"


@pytest.mark.parametrize(("error", "kind"), [
    (ModelHTTPError(401, "gpt", LEAK), "auth"),
    (ModelHTTPError(403, "gpt", LEAK), "auth"),
    (ModelHTTPError(429, "gpt", {"error": {"message": f"slow down {SERVER_KEY}"}}), "rate_limit"),
    (ModelHTTPError(500, "gpt", f"<html>{SERVER_KEY}</html>"), "unreachable"),
    (ModelHTTPError(400, "gpt", LEAK), "other"),
    (TimeoutError(), "timeout"),
    (UnexpectedModelBehavior("Exceeded maximum retries (1) for output validation", body=f'{{"k": "{SERVER_KEY}"}}'),
     "bad_output"),
    (ModelConnectionError("gpt", f"Connection error: {SERVER_KEY}"), "unreachable"),
    (ModelAPIError("gpt", f"odd: {SERVER_KEY}"), "other"),
    (httpx.ConnectError(f"refused {SERVER_KEY}"), "unreachable"),
    (OSError(f"no route {SERVER_KEY}"), "unreachable"),
    (RuntimeError(f"weird {SERVER_KEY}"), "other"),
])
def test_each_failure_has_a_class_and_no_provider_text(error: BaseException, kind: str) -> None:
    failure = model_errors.classify(error)
    assert failure.kind == kind
    text = failure.text()
    assert text.startswith(f"model error ({kind}):") and SERVER_KEY not in text and "sk-" not in text
    assert "Incorrect API key" not in text and "slow down" not in text


@pytest.mark.parametrize("stored", [
    f"ModelHTTPError: status_code: 401, model_name: gpt-4o, body: {{'message': 'Incorrect API key provided: "
    f"{SERVER_KEY}'}}",
    f"no usable proposal after a retry (Exceeded maximum retries, body:\n{{\"api_key\": \"{SERVER_KEY}\"}})",
    "APIConnectionError: Authorization: Bearer abcdefghijklmnopqrstuvwxyz0123",
])
def test_text_stored_before_is_shown_scrubbed(stored: str) -> None:
    shown = model_errors.shown(stored)
    assert shown is not None and SERVER_KEY not in shown and "abcdefghijklmnop" not in shown
    assert "Incorrect API key" not in shown


def test_texts_the_server_wrote_are_shown_as_they_are() -> None:
    for ours in ("no curator model configured", "over the owner's curator quota: deferred",
                 model_errors.classify(TimeoutError()).text()):
        assert model_errors.shown(ours) == ours
    assert model_errors.shown(None) is None


def test_a_401_with_the_key_in_its_body_is_stored_classified(db: Database, settings: Settings, owner: str,
                                                             admin_conn: psycopg.Connection) -> None:
    with serve(FakeOpenAI(answers=[Refusal(401, LEAK)])) as fake:
        configured = settings.model_copy(update={"curator_base_url": fake.url, "curator_model_name": "gpt-4o",
                                                 "curator_api_key": SERVER_KEY})
        model = build_model(configured)
        assert model is not None
        turn(db, owner, "k", "Rex frisst immer um 7 Uhr")
        [report] = asyncio.run(Curator(db, configured, model).curate(owner, "k"))
    assert report.status == "failed"
    [(error,)] = admin_conn.execute("SELECT error FROM curator_runs WHERE owner_sub = %s", (owner,)).fetchall()
    assert error.startswith("model error (auth):") and SERVER_KEY not in error and "Incorrect" not in error
    assert report.error is not None and SERVER_KEY not in report.error


@pytest.fixture
def keyed_app(settings: Settings, app_db_url: str) -> Iterator[tuple[TestClient, FakeOpenAI]]:
    with serve(FakeOpenAI()) as fake:
        configured = settings.model_copy(update={
            "curator_base_url": fake.url, "curator_model_name": "gpt-4o", "curator_api_key": SERVER_KEY,
            "curator_debounce_s": 1.0, "curator_catchup_s": 3600, "curator_check_on_start": False})
        with TestClient(create_app(configured, database_url=app_db_url), raise_server_exceptions=False) as client:
            yield client, fake


def test_curator_runs_never_shows_the_key(keyed_app: tuple[TestClient, FakeOpenAI], make_token: MakeToken,  # noqa: F811
                                          ) -> None:
    client, fake = keyed_app
    fake.answers.append(Refusal(401, LEAK))
    agent = make_token(kind="agent")
    assert gql(client, agent, REMEMBER, {"c": "api", "t": "Rex frisst immer um 7 Uhr"})["data"]
    runtime: Any = client.app.state.curator  # type: ignore[attr-defined]
    client.portal.call(runtime.inline.idle)  # type: ignore[union-attr]
    runs = gql(client, agent, RUNS, {"c": "api"})["data"]["curatorRuns"]
    assert runs and all(r["status"] == "failed" for r in runs)
    assert all(r["error"].startswith("model error (auth):") for r in runs), runs
    assert SERVER_KEY not in str(runs) and "sk-proj" not in str(runs) and "Incorrect API key" not in str(runs)


LEGACY = {
    f"ModelAuthenticationError: status_code: 401, model_name: gpt-4o, body: {{'message': 'Incorrect API key "
    f"provided: {SERVER_KEY}'}}": "auth",
    f"ModelHTTPError: status_code: 429, model_name: gpt-4o, body: {SERVER_KEY}": "rate_limit",
    "RunTimedOut: the run exceeded its timeout": "timeout",
    f"no usable proposal after a retry (Exceeded maximum retries (1), body:\n{SERVER_KEY})": "bad_output",
    f"ModelConnectionError: Connection error to {SERVER_KEY}": "unreachable",
    "UsageLimitExceeded: whatever": "other",
}


def test_the_migration_rewrites_stored_errors(admin_conn: psycopg.Connection, owner: str) -> None:
    """0110 on rows of the old shapes: each becomes the class's text, byte for byte what the code writes."""
    for n, text in enumerate([*LEGACY, "no curator model configured"]):
        admin_conn.execute("INSERT INTO curator_runs (owner_sub, run_id, chat_id, from_seq, upto_seq, status, error) "
                           "VALUES (%s, %s, 'm', 1, 1, 'failed', %s)", (owner, f"r{n}", text))
    sql = (Path(__file__).parents[1] / "migrations" / "0110_curator_run_errors.sql").read_text()
    admin_conn.execute(sql.encode())
    found = admin_conn.execute("SELECT run_id, error FROM curator_runs WHERE owner_sub = %s", (owner,)).fetchall()
    rows: dict[str, str] = dict(found)
    for n, kind in enumerate(LEGACY.values()):
        assert rows[f"r{n}"] == model_errors.ModelFailure(kind).text(), rows[f"r{n}"]  # type: ignore[arg-type]
    assert rows[f"r{len(LEGACY)}"] == "no curator model configured"
    assert SERVER_KEY not in str(rows)
