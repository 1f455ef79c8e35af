"""GET /metrics shows totals across every owner, so it is not public: with WORLDMEM_METRICS_TOKEN set it
needs that bearer token; without one, only a client on this machine gets it, and never through a proxy."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from graph.settings import Settings
from resolvers.app import create_app
from tests.gql import MakeToken, make_token  # noqa: F401

SECRET = "metrics-" + "s3cr3t" * 6
LOCAL, REMOTE = ("127.0.0.1", 50000), ("203.0.113.7", 50000)


@pytest.fixture(scope="module")
def plain(settings: Settings, app_db_url: str) -> Iterator[TestClient]:
    app = create_app(settings.model_copy(update={"metrics_token": None}), database_url=app_db_url)
    with TestClient(app, client=REMOTE) as c:
        yield c


@pytest.fixture(scope="module")
def guarded(settings: Settings, app_db_url: str) -> Iterator[TestClient]:
    app = create_app(settings.model_copy(update={"metrics_token": SECRET}), database_url=app_db_url)
    with TestClient(app, client=REMOTE) as c:
        yield c


def get(client: TestClient, peer: tuple[str, int], headers: dict[str, str] | None = None) -> int:
    """The status of GET /metrics from `peer` (the TestClient's transport names the client address)."""
    with TestClient(client.app, client=peer) as other:
        return other.get("/metrics", headers=headers or {}).status_code


def test_without_a_token_only_this_machine_may_scrape(plain: TestClient) -> None:
    remote = plain.get("/metrics")
    assert remote.status_code == 403 and "WORLDMEM_METRICS_TOKEN" in remote.text
    assert "worldmem_" not in remote.text
    assert get(plain, LOCAL) == 200
    assert get(plain, ("::1", 50000)) == 200
    # a reverse proxy on this machine makes every client look local: a relayed request is not trusted
    assert get(plain, LOCAL, {"X-Forwarded-For": "203.0.113.7"}) == 403
    assert get(plain, LOCAL, {"Forwarded": "for=203.0.113.7"}) == 403


def test_with_a_token_the_bearer_is_required_from_everywhere(guarded: TestClient,
                                                            make_token: MakeToken) -> None:  # noqa: F811
    assert guarded.get("/metrics").status_code == 401
    assert guarded.get("/metrics").headers["www-authenticate"].startswith("Bearer")
    assert get(guarded, LOCAL) == 401  # a token set means the token, also locally
    assert guarded.get("/metrics", headers={"Authorization": "Bearer wrong"}).status_code == 401
    assert guarded.get("/metrics", headers={"Authorization": f"Bearer {make_token()}"}).status_code == 401
    ok = guarded.get("/metrics", headers={"Authorization": f"Bearer {SECRET}"})
    assert ok.status_code == 200 and "worldmem_" in ok.text
    assert get(guarded, REMOTE, {"Authorization": f"Bearer {SECRET}", "X-Forwarded-For": "1.2.3.4"}) == 200
