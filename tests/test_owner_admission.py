"""One owner's flood is bounded per request, not only per database call: at most `owner_request_share`
requests of one owner are in progress in a process (HTTP parsing, GraphQL, the database all included); its
further requests wait their turn before any work, and another owner's request starts at once. The mechanism
is tested here, its effect on latency by `python -m bench.owner_flood`."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from graph.ledger.token_cache import TokenCache
from graph.settings import Settings
from resolvers.admission import OwnerAdmission, admission_key
from resolvers.app import create_app
from tests.gql import MakeToken, gql, make_token  # noqa: F401


def test_an_owner_past_its_share_waits_and_another_owner_does_not() -> None:
    async def run() -> None:
        admission = OwnerAdmission(share=2)
        release = asyncio.Event()
        entered: list[str] = []

        async def request(key: str, name: str) -> None:
            async with admission.admitted(key):
                entered.append(name)
                await release.wait()

        flood = [asyncio.create_task(request("flooder", f"f{i}")) for i in range(18)]
        await asyncio.sleep(0.05)
        assert entered == ["f0", "f1"] and admission.waiting("flooder") == 16
        quiet = asyncio.create_task(request("quiet", "q"))
        await asyncio.sleep(0.01)
        assert entered[-1] == "q"  # at once: the flood's queue is the flooder's own
        release.set()
        await asyncio.gather(*flood, quiet)
        assert sorted(entered) == sorted([f"f{i}" for i in range(18)] + ["q"])
        assert admission.waiting("flooder") == 0 and not admission.gates  # nothing kept for idle owners

    asyncio.run(run())


def test_the_turns_are_in_arrival_order() -> None:
    async def run() -> list[int]:
        admission = OwnerAdmission(share=1)
        order: list[int] = []

        async def request(i: int) -> None:
            async with admission.admitted("o"):
                order.append(i)
                await asyncio.sleep(0)

        await asyncio.gather(*(request(i) for i in range(10)))
        return order

    assert asyncio.run(run()) == list(range(10))


def test_the_key_is_the_owner_of_a_verified_token_else_the_token(db: object, owner: str,
                                                                 make_token: MakeToken) -> None:  # noqa: F811
    tokens = TokenCache(60)
    token, other = make_token(), make_token()
    scope_of = {t: {"type": "http", "headers": [(b"authorization", f"Bearer {t}".encode())]} for t in (token, other)}
    first = admission_key(scope_of[token], tokens)
    assert first is not None and owner not in first and token not in first  # not verified yet: the token's hash
    tokens.authenticate(db, token)  # type: ignore[arg-type]
    tokens.authenticate(db, other)  # type: ignore[arg-type]
    assert admission_key(scope_of[token], tokens) == admission_key(scope_of[other], tokens) == f"owner:{owner}"
    assert admission_key({"type": "http", "headers": []}, tokens) is None  # no token: nothing to share
    assert OwnerAdmission(share=0).unbounded


@pytest.fixture
def one_at_a_time(settings: Settings, app_db_url: str) -> Iterator[TestClient]:
    app = create_app(settings.model_copy(update={"owner_request_share": 1}), database_url=app_db_url)
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


def test_the_app_admits_an_owners_requests_through_its_share(one_at_a_time: TestClient,
                                                             make_token: MakeToken) -> None:  # noqa: F811
    """Through the app: many requests of one owner at once, with a share of one, all answered (queued, never
    refused or deadlocked)."""
    token = make_token()
    answers: list[object] = []

    def ask() -> None:
        answers.append(gql(one_at_a_time, token, "{ entityKinds { key } }")["data"])

    threads = [threading.Thread(target=ask) for _ in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert len(answers) == 12 and all(answers)
    assert one_at_a_time.app.admission.gates == {}  # type: ignore[attr-defined]


def test_after_one_request_the_app_keys_the_tokens_admission_by_its_owner(one_at_a_time: TestClient, owner: str,
                                                                          make_token: MakeToken) -> None:  # noqa: F811
    """The token the context verified is the one the admission finds: one cache for both (an empty cache
    once made the context build a second one, so every token kept its own gate and an owner's tokens
    together had a share each)."""
    token, other = make_token(), make_token()
    app = one_at_a_time.app
    for t in (token, other):
        assert gql(one_at_a_time, t, "{ __typename }")["data"] == {"__typename": "Query"}
    scope_of = {t: {"type": "http", "headers": [(b"authorization", f"Bearer {t}".encode())]} for t in (token, other)}
    keys = {admission_key(scope_of[t], app.tokens) for t in (token, other)}  # type: ignore[attr-defined]
    assert keys == {f"owner:{owner}"}
