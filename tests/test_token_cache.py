"""The cache of verified tokens: a revoked token is refused once its entry is older than the TTL, against the
real database; only live tokens are cached; the cache never answers for longer than the TTL."""



from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient

from graph.errors import Unauthenticated
from graph.ledger import tokens
from graph.ledger.token_cache import TokenCache
from graph.ledger.tokens import Principal, create_token, revoke_token
from graph.platform.db import Database
from graph.settings import Settings
from resolvers.app import create_app
from tests.gql import codes, gql

KINDS = "{ entityKinds { key } }"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_revoked_token_is_refused_after_the_ttl(db: Database, test_db_url: str, owner: str) -> None:
    clock = Clock()
    cache = TokenCache(2.0, clock=clock)
    token = create_token(test_db_url, owner)
    assert cache.authenticate(db, token) == Principal(owner, "owner")
    assert revoke_token(test_db_url, token)
    clock.now += 1.9  # within the TTL the cached answer stands (the documented price of the cache)
    assert cache.authenticate(db, token) == Principal(owner, "owner")
    clock.now += 0.1  # the TTL is over: the database is asked again, and it says revoked
    with pytest.raises(Unauthenticated) as refused:
        cache.authenticate(db, token)
    assert refused.value.args[0] == tokens.REVOKED
    clock.now += 100  # and it stays refused: refusals are never cached as live
    with pytest.raises(Unauthenticated):
        cache.authenticate(db, token)


def test_use_does_not_extend_an_entry(db: Database, test_db_url: str, owner: str) -> None:
    clock = Clock()
    cache = TokenCache(2.0, clock=clock)
    token = create_token(test_db_url, owner)
    cache.authenticate(db, token)
    assert revoke_token(test_db_url, token)
    for _ in range(4):  # asked every 0.5 s: an entry refreshed by use would live forever
        clock.now += 0.5
        try:
            cache.authenticate(db, token)
        except Unauthenticated:
            break
    else:
        raise AssertionError("the revoked token was still accepted 2 s after it was verified")
    assert cache.cached(token) is None


def test_unknown_and_malformed_tokens_are_not_cached(db: Database, test_db_url: str, owner: str) -> None:
    cache = TokenCache(60.0)
    unknown = "wm_" + "A" * 43
    for token, message in ((unknown, tokens.UNKNOWN), ("wm_short", tokens.MALFORMED), (None, tokens.MISSING)):
        with pytest.raises(Unauthenticated) as refused:
            cache.authenticate(db, token)
        assert refused.value.args[0] == message
    assert len(cache) == 0
    live = create_token(test_db_url, owner)
    cache.authenticate(db, live)
    assert len(cache) == 1 and cache.cached(live) == Principal(owner, "owner")


def test_ttl_zero_asks_every_time(db: Database, test_db_url: str, owner: str) -> None:
    cache = TokenCache(0.0)
    token = create_token(test_db_url, owner)
    assert cache.authenticate(db, token).owner == owner
    assert len(cache) == 0 and cache.cached(token) is None
    assert revoke_token(test_db_url, token)
    with pytest.raises(Unauthenticated):
        cache.authenticate(db, token)


def test_the_cache_is_bounded(db: Database, test_db_url: str, owner: str) -> None:
    cache = TokenCache(60.0, max_entries=3)
    made = [create_token(test_db_url, owner) for _ in range(5)]
    for token in made:
        cache.authenticate(db, token)
    assert len(cache) == 3
    assert [cache.cached(t) is not None for t in made] == [False, False, True, True, True]


def test_the_cache_keeps_hashes_not_tokens(db: Database, test_db_url: str, owner: str) -> None:
    cache = TokenCache(60.0)
    token = create_token(test_db_url, owner)
    cache.authenticate(db, token)
    assert token not in repr(vars(cache))


def test_over_http_a_revoked_token_is_refused_after_the_ttl(settings: Settings, app_db_url: str,
                                                             test_db_url: str, owner: str) -> None:
    quick = settings.model_copy(update={"token_cache_s": 0.3})
    token = create_token(test_db_url, owner)
    with TestClient(create_app(quick, database_url=app_db_url), raise_server_exceptions=False) as client:
        assert gql(client, token, KINDS)["data"]["entityKinds"]
        assert revoke_token(test_db_url, token)
        time.sleep(0.4)  # past the TTL (no timing is asserted: only that the refusal comes after it)
        body = gql(client, token, KINDS)
    assert body.get("data") is None and codes(body) == ["UNAUTHENTICATED"], body
    assert body["errors"][0]["message"] == tokens.REVOKED
