"""Typos in reads are typed errors with "did you mean", never a silent null or []; stateAt defaults to now."""

# ruff: noqa: F811  (pytest fixtures imported from tests.gql are test arguments by design)

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from fastapi.testclient import TestClient

from graph.demo import load_demo
from graph.platform.db import Database
from tests.gql import MakeToken, client, codes, gql, make_token  # noqa: F401 (fixtures)

NOW = datetime.now(UTC).replace(second=0, microsecond=0)


def demo_token(db: Database, owner: str, make_token: MakeToken) -> str:
    load_demo(db, owner, now=NOW)
    return make_token()


def error(body: dict[str, Any]) -> tuple[str, str]:
    assert body.get("errors"), body
    first = body["errors"][0]
    return first["extensions"]["code"], first["message"]


def test_unknown_ref_suggests(client: TestClient, db: Database, owner: str, make_token: MakeToken) -> None:
    token = demo_token(db, owner, make_token)
    code, message = error(gql(client, token, '{ stateAt(ref: "pet:lunaa") { ref } }'))
    assert code == "UNKNOWN_REF" and "pet:luna" in message and "did you mean" in message
    code, _ = error(gql(client, token, '{ stateAsKnownAt(ref: "pet:lunaa", systemTime: "2026-01-01") { ref } }'))
    assert code == "UNKNOWN_REF"
    code, message = error(gql(client, token, '{ factHistory(ref: "pet:lunaa", predicate: "feeding_time") { id } }'))
    assert code == "UNKNOWN_REF" and "pet:luna" in message


def test_unknown_predicate_suggests(client: TestClient, db: Database, owner: str, make_token: MakeToken) -> None:
    token = demo_token(db, owner, make_token)
    body = gql(client, token, '{ factHistory(ref: "pet:luna", predicate: "feeding_times") { id } }')
    code, message = error(body)
    assert code == "UNKNOWN_PREDICATE" and "feeding_time?" in message
    # a known predicate without rows is simply empty
    assert gql(client, token, '{ factHistory(ref: "pet:luna", predicate: "owns") { id } }') == {
        "data": {"factHistory": []}}


def test_unknown_run_suggests(client: TestClient, db: Database, owner: str, make_token: MakeToken) -> None:
    token = demo_token(db, owner, make_token)
    code, message = error(gql(client, token, '{ effectsOf(runId: "demo-2-breakfst") { truncated } }'))
    assert code == "UNKNOWN_RUN" and "demo-2-breakfast" in message
    code, message = error(gql(client, token, '{ effectsOf(runId: "nope") { truncated } }'))
    assert code == "UNKNOWN_RUN" and "did you mean" not in message
    assert gql(client, token, '{ effectsOf(runId: "demo-2-breakfast") { truncated } }')["data"]["effectsOf"]


def test_state_at_defaults_to_now_and_dates_are_midnight_utc(client: TestClient, db: Database, owner: str,
                                                             make_token: MakeToken) -> None:
    token = demo_token(db, owner, make_token)
    now = gql(client, token, '{ stateAt(ref: "pet:luna") { facts { predicate value } } }')
    times = sorted(f["value"] for f in now["data"]["stateAt"]["facts"] if f["predicate"] == "feeding_time")
    assert times == ["08:00", "18:00"]
    day = gql(client, token, '{ stateAt(ref: "pet:luna", validTime: "2020-01-01") { facts { predicate } } }')
    assert "errors" not in day and day["data"]["stateAt"]["facts"] == []  # before Luna's facts began
    assert codes(gql(client, token, '{ stateAt(ref: "pet:luna", validTime: "2020-01-01T00:00:00") { ref } }')) \
        == ["BAD_INPUT"]
