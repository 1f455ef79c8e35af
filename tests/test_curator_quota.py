"""The curator's spend: the token bucket per owner, usage records, curatorUsage and prefilterDecision."""

from __future__ import annotations

import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

import psycopg
import pytest
from fastapi.testclient import TestClient

from curator import quota, usage
from graph.errors import BadInput
from graph.ledger import proposal as p
from graph.ledger.committer import commit_proposal
from graph.ledger.tokens import owner_principal
from graph.platform import metrics
from graph.platform.db import Database
from graph.settings import Settings
from tests.gql import MakeToken, client, codes, gql, make_token  # noqa: F401

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def limits(settings: Settings, burst: int, per_day: int) -> Settings:
    return settings.model_copy(update={"curator_quota_burst": burst, "curator_quota_tokens_per_day": per_day})


@pytest.mark.parametrize(("level", "hours", "expected"), [
    (0.0, 0, 0.0), (0.0, 12, 500.0), (100.0, 24, 1000.0), (900.0, 6, 1000.0), (300.0, -5, 300.0)])
def test_refill_is_linear_and_capped(level: float, hours: int, expected: float) -> None:
    assert quota.refill(level, T0, T0 + timedelta(hours=hours), capacity=1000, per_day=1000) == expected


def test_spend_until_empty(db: Database, owner: str, settings: Settings) -> None:
    s = limits(settings, burst=1000, per_day=0)
    assert quota.bucket(db, owner, settings=s).level == 1000  # never used: full
    assert [quota.try_spend(db, owner, n, settings=s) for n in (600, 600, 400, 1, 0)] == [True, False, True, False,
                                                                                         True]
    assert quota.bucket(db, owner, settings=s).level == 0
    assert quota.try_spend(db, f"other-{owner}", 1000, settings=s)  # each owner has a bucket of their own
    assert not quota.try_spend(db, owner, 2000, settings=limits(settings, burst=1000, per_day=10**9))
    with pytest.raises(BadInput):
        quota.try_spend(db, owner, -1, settings=s)


def test_settle_gives_back_or_takes_more(db: Database, owner: str, settings: Settings) -> None:
    s = limits(settings, burst=1000, per_day=0)
    assert quota.try_spend(db, owner, 800, settings=s)
    quota.settle(db, owner, 800, 500, settings=s)  # 300 unused come back
    assert quota.bucket(db, owner, settings=s).level == 500
    quota.settle(db, owner, 100, 400, settings=s)  # 300 more than reserved
    assert quota.bucket(db, owner, settings=s).level == 200
    quota.settle(db, owner, 0, 5000, settings=s)  # never below 0
    assert quota.bucket(db, owner, settings=s).level == 0
    quota.settle(db, owner, 5000, 0, settings=s)  # never above the capacity
    assert quota.bucket(db, owner, settings=s).level == 1000
    with pytest.raises(BadInput):
        quota.settle(db, owner, -1, 0, settings=s)


def test_the_bucket_refills_with_database_time(db: Database, owner: str, settings: Settings,
                                                admin_conn: psycopg.Connection) -> None:
    s = limits(settings, burst=1000, per_day=400)
    assert quota.try_spend(db, owner, 1000, settings=s)
    assert not quota.try_spend(db, owner, 300, settings=s)
    admin_conn.execute("UPDATE curator_quota SET updated_at = updated_at - interval '1 day' WHERE owner_sub = %s",
                       (owner,))
    assert quota.try_spend(db, owner, 300, settings=s)  # a day refilled 400
    assert 99 <= quota.bucket(db, owner, settings=s).level < 101


def test_concurrent_spends_never_overspend(db: Database, owner: str, settings: Settings) -> None:
    s = limits(settings, burst=1000, per_day=0)
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda _: quota.try_spend(db, owner, 200, settings=s), range(8)))
    assert results.count(True) == 5


def test_usage_is_recorded_per_owner_and_counted(db: Database, owner: str) -> None:
    before = metrics._tokens_today()
    with db.owner_tx(owner) as conn:
        usage.record_usage(conn, owner, "run-a", "test:model", 1200, 300, "curator")
        usage.record_usage(conn, owner, "run-b", "test:model", 800, 100, "curator")
    report = usage.usage_since(db, owner, T0)
    assert (report.calls, report.input_tokens, report.output_tokens) == (2, 2000, 400)
    assert [r.run_id for r in report.records] == ["run-b", "run-a"]
    assert usage.usage_since(db, owner, T0, limit=1).records[0].run_id == "run-b"
    assert usage.usage_since(db, f"other-{owner}", T0).calls == 0
    assert usage.usage_since(db, owner, datetime.now(UTC) + timedelta(hours=1)).calls == 0
    assert metrics._tokens_today() == before + 2400
    with pytest.raises(psycopg.errors.InsufficientPrivilege), db.owner_tx(owner) as conn:  # another owner's row
        usage.record_usage(conn, f"other-{owner}", "run-c", "test:model", 1, 1, "curator")
    with pytest.raises(BadInput), db.owner_tx(owner) as conn:
        usage.record_usage(conn, owner, "run-d", "test:model", -1, 0, "curator")


USAGE = """query($since: DateTime!) { curatorUsage(since: $since, limit: 10) {
  calls inputTokens outputTokens records { runId model inputTokens outputTokens triggerSource recordedAt }
  quota { level capacity perDay } } }"""
DECIDE = "query($text: String!, $chat: String) { prefilterDecision(text: $text, chatId: $chat) { trigger reasons } }"


def test_curator_usage_over_graphql(client: TestClient, make_token: MakeToken, db: Database,  # noqa: F811
                                    owner: str, settings: Settings) -> None:
    with db.owner_tx(owner) as conn:
        usage.record_usage(conn, owner, "run-x", "test:model", 10, 5, "curator")
    got = gql(client, make_token(), USAGE, {"since": "2026-01-01T00:00:00Z"})["data"]["curatorUsage"]
    assert (got["calls"], got["inputTokens"], got["outputTokens"]) == (1, 10, 5)
    assert got["records"][0]["runId"] == "run-x" and got["records"][0]["triggerSource"] == "curator"
    assert got["quota"] == {"level": settings.curator_quota_burst, "capacity": settings.curator_quota_burst,
                            "perDay": settings.curator_quota_tokens_per_day}
    # a time without an offset is refused (a date alone would be midnight UTC)
    assert codes(gql(client, make_token(), USAGE, {"since": "2026-01-01T00:00:00"})) == ["BAD_INPUT"]


def test_prefilter_decision_over_graphql(client: TestClient, make_token: MakeToken, db: Database,  # noqa: F811
                                         owner: str) -> None:
    token = make_token()
    assert gql(client, token, DECIDE, {"text": "danke 👍"})["data"]["prefilterDecision"] == {
        "trigger": False, "reasons": ["skip:ack"]}
    said = gql(client, token, DECIDE, {"text": "Merk dir: Luna frisst um 19 Uhr"})["data"]["prefilterDecision"]
    assert said["trigger"] and said["reasons"] == ["memory:merk dir"]
    assert not gql(client, token, DECIDE, {"text": "Bruno schon wieder."})["data"]["prefilterDecision"]["trigger"]
    commit_proposal(db, owner_principal(owner), p.MemoryMutationProposal(run_id=uuid.uuid4().hex, operations=[
        p.UpsertEntity(ref="pet:bruno", kind="pet", canonical_name="Bruno"),
        p.AddAlias(ref="pet:bruno", alias="Brummi", namespace="chat:c1")]))
    known = gql(client, token, DECIDE, {"text": "Bruno schon wieder."})["data"]["prefilterDecision"]
    assert known == {"trigger": True, "reasons": ["entity:known:bruno"]}
    assert gql(client, token, DECIDE, {"text": "Brummi schon wieder.", "chat": "c1"})["data"][
        "prefilterDecision"]["trigger"]
    for chat in ("c2", None):  # another chat's alias is no mention here
        assert not gql(client, token, DECIDE, {"text": "Brummi schon wieder.", "chat": chat})["data"][
            "prefilterDecision"]["trigger"]


PER_TURN = """query($since: DateTime!, $lang: String!) { curatorUsage(since: $since, language: $lang) {
  turns inputTokensPerTurn outputTokensPerTurn records { turns } quota { level usedUp } } }"""


def test_tokens_per_turn_over_graphql(client: TestClient, make_token: MakeToken, db: Database,  # noqa: F811
                                      owner: str) -> None:
    with db.owner_tx(owner) as conn:
        usage.record_usage(conn, owner, "run-p", "test:model", 1000, 200, "curator", turns=4)
        usage.record_usage(conn, owner, "run-q", "test:model", 500, 100, "curator", turns=1)
        usage.record_usage(conn, owner, "run-old", "test:model", 900, 900, "curator")  # turns unknown: left out
    got = gql(client, make_token(), PER_TURN, {"since": "2026-01-01T00:00:00Z", "lang": "en"})["data"]["curatorUsage"]
    assert (got["turns"], got["inputTokensPerTurn"], got["outputTokensPerTurn"]) == (5, 300.0, 60.0)
    assert sorted(r["turns"] for r in got["records"]) == [0, 1, 4]
    assert got["quota"]["usedUp"] is None


def test_a_used_up_budget_says_so_and_when(db: Database, owner: str, settings: Settings) -> None:
    s = limits(settings, burst=5000, per_day=14_400)  # 10 tokens a minute
    assert quota.try_spend(db, owner, 5000, settings=s)
    bucket = quota.bucket(db, owner, settings=s)
    en, de = quota.used_up(bucket, 2000, "en"), quota.used_up(bucket, 2000, "de")
    assert en is not None and "used up" in en and "WORLDMEM_CURATOR_QUOTA_TOKENS_PER_DAY" in en
    assert de is not None and "aufgebraucht" in de and "14.400 Tokens pro Tag" in de
    assert "in about 200 min" in en or "in about 199 min" in en
    assert quota.used_up(quota.bucket(db, f"fresh-{owner}", settings=s), 2000, "en") is None
    never = quota.Bucket(level=0, capacity=10, per_day=0)
    assert "does not refill" in (quota.used_up(never, 1, "en") or "")
