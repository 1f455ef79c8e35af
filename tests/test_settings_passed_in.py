"""The settings given to create_app reach the committer: its rules come from them, not from the environment
(graph.settings.get_settings), so a service configured in code writes by its own limits."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from graph.settings import Settings, get_settings
from resolvers.app import create_app
from tests.gql import MakeToken, client, gql, make_token  # noqa: F401

COMMIT = """mutation($p: ProposalInput!) {
  commitProposal(proposal: $p) { committed pending rejected { opIndex code } }
}"""


def _fact(run: str, value: str, confidence: float) -> dict[str, Any]:
    return {"runId": run, "operations": [{"assertFact": {
        "subject": "person:ada", "predicate": "name", "value": value, "validFrom": "2020-01-01T00:00:00Z",
        "source": "user", "confidence": confidence, "evidence": {"kind": "test", "text": "settings"}}}]}


@pytest.fixture(scope="module")
def strict_client(settings: Settings, app_db_url: str) -> Iterator[TestClient]:
    strict = settings.model_copy(update={"max_value_bytes": 64, "pending_below_confidence": 0.9})
    with TestClient(create_app(strict, database_url=app_db_url), raise_server_exceptions=False) as c:
        yield c


def test_the_value_limit_given_to_create_app_is_the_committers(strict_client: TestClient,
                                                               client: TestClient,  # noqa: F811
                                                               make_token: MakeToken) -> None:  # noqa: F811
    assert get_settings().max_value_bytes > 200  # the environment's limit would take the value
    token = make_token()
    value = "x" * 200
    strict = gql(strict_client, token, COMMIT, {"p": _fact("strict-size", value, 1.0)})["data"]["commitProposal"]
    assert strict["committed"] == 0 and [r["code"] for r in strict["rejected"]] == ["VALUE_TOO_LARGE"]
    default = gql(client, token, COMMIT, {"p": _fact("default-size", value, 1.0)})["data"]["commitProposal"]
    assert default == {"committed": 1, "pending": 0, "rejected": []}


def test_the_pending_threshold_given_to_create_app_is_the_committers(strict_client: TestClient,
                                                                     client: TestClient,  # noqa: F811
                                                                     make_token: MakeToken) -> None:  # noqa: F811
    assert get_settings().pending_below_confidence <= 0.8
    strict = gql(strict_client, make_token(), COMMIT, {"p": _fact("strict-conf", "Ada", 0.8)})
    assert strict["data"]["commitProposal"] == {"committed": 0, "pending": 1, "rejected": []}
    default = gql(client, make_token(), COMMIT, {"p": _fact("default-conf", "Ada", 0.8)})
    assert default["data"]["commitProposal"] == {"committed": 1, "pending": 0, "rejected": []}
