"""The design's scenario end to end through GraphQL, with the inline runtime and a scripted LLM."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from curator.runtime import Runtime
from graph.settings import Settings
from resolvers.app import create_app
from tests.curator_llm import Script, entity, fact, ops, rel, said
from tests.gql import MakeToken, gql, make_token  # noqa: F401

RECORD = "mutation($c: String!, $t: String!) { recordTurn(chatId: $c, text: $t) { seq } }"
REMEMBER = "mutation($c: String!, $t: String!) { rememberThis(chatId: $c, text: $t) { seq } }"
STATE = """query($r: String!) { stateAt(ref: $r, validTime: "2027-01-01T00:00:00Z") {
  facts { predicate value source status } } }"""


def luna_model(messages: list[Any]) -> dict[str, Any]:
    """The LLM's answer, chosen by what the prompt's new turns say (like a real model would)."""
    prompt = str(messages[-1])
    if "eigentlich um 19:30" in prompt:
        return ops({"op": "retract_fact", "subject": "pet:luna", "predicate": "feeding_time", "value": "19:00",
                    "valid_from": "2026-11-20T00:00:00Z", "source": "user_assertion",
                    "evidence": said("eigentlich um 19:30")},
                   fact("pet:luna", "feeding_time", "19:30", valid_from="2026-11-20T00:00:00Z",
                        quote="eigentlich um 19:30"))
    if "Branch luna" in prompt:
        return ops(entity("branch:luna", "luna", aliases=["luna"]), rel("branch:luna", "branch_of", "repo:home-agent",
                                                                       quote="ist jetzt in home-agent gemergt"))
    return ops(entity("pet:luna", "Luna", aliases=["Luna"]),
               rel("person:me", "cares_for", "pet:luna", quote="Luna ist meine Katze"),
               fact("pet:luna", "feeding_time", "19:00", quote="Futter um 19 Uhr"),
               fact("person:me", "prefers", "feeds pets in the evening", origin="inference", confidence=0.6))


@pytest.fixture
def script() -> Script:
    return Script()


@pytest.fixture
def app_client(settings: Settings, app_db_url: str, script: Script) -> Iterator[TestClient]:
    fast = settings.model_copy(update={"curator_debounce_s": 1.0, "curator_debounce_turns": 5,
                                       "curator_catchup_s": 3600})
    app = create_app(fast, database_url=app_db_url, curator_model=script.model())
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


def settle(client: TestClient) -> Runtime:
    runtime: Runtime = client.app.state.curator  # type: ignore[attr-defined]
    client.portal.call(runtime.inline.idle)  # type: ignore[union-attr]
    return runtime


def values(client: TestClient, token: str, ref: str, predicate: str) -> list[tuple[Any, str]]:
    body = gql(client, token, STATE, {"r": ref})
    return sorted((f["value"], f["status"]) for f in body["data"]["stateAt"]["facts"] if f["predicate"] == predicate)


def test_luna_scenario_through_graphql(app_client: TestClient, make_token: MakeToken, script: Script) -> None:  # noqa: F811
    token = make_token()
    script.answers += [luna_model, luna_model, luna_model]
    assert gql(app_client, token, RECORD, {"c": "c1", "t": "Luna ist meine Katze, Futter um 19 Uhr"})["data"]
    runtime = settle(app_client)
    assert not runtime.durable and script.calls == 1
    assert values(app_client, token, "pet:luna", "feeding_time") == [("19:00", "active")]
    assert values(app_client, token, "person:me", "cares_for") == [("pet:luna", "active")]
    review = gql(app_client, token, "{ pendingReview { message items { kind question } } }")["data"]["pendingReview"]
    assert [i["kind"] for i in review["items"]] == ["PENDING_FACT"]
    assert "feeds pets in the evening" in review["message"]

    gql(app_client, token, RECORD, {"c": "c1", "t": "danke 👍"})
    settle(app_client)
    assert script.calls == 1  # small talk costs no LLM call

    gql(app_client, token, REMEMBER, {"c": "c1", "t": "eigentlich um 19:30"})
    settle(app_client)
    assert values(app_client, token, "pet:luna", "feeding_time") == [("19:30", "active")]
    notices = gql(app_client, token, '{ correctionNotices(chatId: "c1", since: "2000-01-01T00:00:00Z") { text } }')
    assert [n["text"] for n in notices["data"]["correctionNotices"]] == [
        "Luna's feeding time: I had 19:00 before, now 19:30 — updating."]

    gql(app_client, token, RECORD, {"c": "c1", "t": "Der Branch luna ist jetzt in home-agent gemergt"})
    settle(app_client)
    assert values(app_client, token, "branch:luna", "branch_of") == [("repo:home-agent", "active")]
    assert values(app_client, token, "pet:luna", "feeding_time") == [("19:30", "active")]
    status = gql(app_client, token, '{ curatorStatus(chatId: "c1") { backlog watermark } }')["data"]
    assert status["curatorStatus"] == {"backlog": 0, "watermark": 4}
    assert script.calls == 3


def test_debounce_coalesces_turns_into_one_run(app_client: TestClient, make_token: MakeToken,  # noqa: F811
                                               script: Script) -> None:
    token = make_token()
    script.answers.append(ops(entity("pet:rex", "Rex"), fact("pet:rex", "feeding_time", "07:00", quote="um 7"),
                              fact("pet:rex", "feeding_time", "18:00", quote="und um 18 Uhr")))
    for text in ["Rex ist mein Hund", "er frisst immer um 7", "und um 18 Uhr"]:
        gql(app_client, token, RECORD, {"c": "d", "t": text})
    settle(app_client)
    assert script.calls == 1  # three turns, one coalesced run
    assert values(app_client, token, "pet:rex", "feeding_time") == [("07:00", "active"), ("18:00", "active")]


RUNS = """query($c: String!) { curatorRuns(chatId: $c) { runId status retried proposed committed pending dropped
  droppedOperations { opIndex code reason op } } }"""


def test_runs_dropped_operations_and_vocabulary_are_visible(app_client: TestClient, make_token: MakeToken,  # noqa: F811
                                                            script: Script) -> None:
    token, other = make_token(), make_token(owner_="someone-else")
    script.answers += ["{oops", ops(entity("pet:rex", "Rex"), fact("pet:rex", "hull_colour", "blau"),
                                    fact("pet:rex", "feeding_time", "07:00", quote="Rex frisst immer um 7"))]
    gql(app_client, token, REMEMBER, {"c": "v", "t": "Rex frisst immer um 7"})
    settle(app_client)
    [run] = gql(app_client, token, RUNS, {"c": "v"})["data"]["curatorRuns"]
    assert {k: run[k] for k in ("status", "retried", "proposed", "committed", "dropped")} == {
        "status": "committed", "retried": True, "proposed": 3, "committed": 2, "dropped": 1}
    [dropped] = run["droppedOperations"]
    assert (dropped["opIndex"], dropped["code"], dropped["op"]["predicate"]) == (1, "UNKNOWN_PREDICATE", "hull_colour")
    vocab = gql(app_client, token, "{ vocabularyProposals { item key uses state } }")["data"]["vocabularyProposals"]
    assert vocab == [{"item": "predicate", "key": "hull_colour", "uses": 1, "state": "pending"}]
    assert gql(app_client, other, RUNS, {"c": "v"})["data"]["curatorRuns"] == []  # the owner's only
    assert gql(app_client, other, "{ vocabularyProposals { key } }")["data"]["vocabularyProposals"] == []


def test_enough_turns_start_a_run_without_waiting(settings: Settings, app_db_url: str,
                                                  make_token: MakeToken) -> None:  # noqa: F811
    script = Script(default=lambda m: ops(entity("pet:rex", "Rex")))
    patient = settings.model_copy(update={"curator_debounce_s": 3600, "curator_debounce_turns": 3,
                                          "curator_catchup_s": 3600})
    with TestClient(create_app(patient, database_url=app_db_url, curator_model=script.model())) as client:
        token = make_token()
        for text in ["Rex ist mein Hund", "er ist braun"]:
            gql(client, token, RECORD, {"c": "n", "t": text})
        client.portal.call(asyncio.sleep, 0.5)  # type: ignore[union-attr]
        assert script.calls == 0  # waiting: two turns, an hour of debounce left
        gql(client, token, RECORD, {"c": "n", "t": "und er frisst immer um 7"})
        deadline = 100
        while script.calls == 0 and deadline:
            client.portal.call(asyncio.sleep, 0.1)  # type: ignore[union-attr]
            deadline -= 1
        assert script.calls == 1  # the third turn started the run
        settle(client)


def test_remember_this_of_small_talk_calls_no_model(app_client: TestClient, make_token: MakeToken,  # noqa: F811
                                                    script: Script) -> None:
    token = make_token()
    for text in ("ok", "danke 👍"):
        assert gql(app_client, token, REMEMBER, {"c": "st", "t": text})["data"]
        settle(app_client)
    assert script.calls == 0
    status = gql(app_client, token, '{ curatorStatus(chatId: "st") { backlog watermark } }')["data"]
    assert status["curatorStatus"] == {"backlog": 0, "watermark": 2}
    [run, _] = gql(app_client, token, RUNS, {"c": "st"})["data"]["curatorRuns"]
    assert run["status"] == "skipped"
