"""load_curator_context: only un-curated turns, capped, secrets scrubbed, the owner's world only."""

from __future__ import annotations

import psycopg
import pytest

from curator.context import fit, load_curator_context
from curator.pipeline import Curator
from curator.turns import ToolCall, uncurated
from graph.platform.db import Database
from graph.platform.redaction import scrub, scrub_value
from graph.settings import Settings
from tests.curator_llm import Script, entity, fact, ops, turn

SECRETS = {
    "openai_key": "sk-proj-Ab3dEf6hIj9kLmN0pQrStUvWxYz1234567890abcd",
    "anthropic_key": "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
    "github_token": "ghp_16C7e42F292c6912E7710c838347Ae178B4a",
    "aws_access_key": "AKIAIOSFODNN7EXAMPLE",
    "slack_token": "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
    "jwt": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0."
           "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
    "google_api_key": "AIzaSyA1234567890abcdefghijklmnopqrstuv",
    "stripe_key": "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
}
PEM = ("-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA1c7+9z5Pad7OejecsQ0bu3aumSWz1lXDOLBDKXQ5kJ0v\n"
       "y0mR8d5aG1s=\n-----END RSA PRIVATE KEY-----")


@pytest.mark.parametrize("kind", sorted(SECRETS))
def test_scrub_realistic_keys(kind: str) -> None:
    text = f"my key is {SECRETS[kind]} — keep it safe"
    out = scrub(text)
    assert SECRETS[kind] not in out and "[REDACTED:" in out and out.startswith("my key is ")


def test_scrub_pem_passwords_and_urls_but_not_ordinary_text() -> None:
    out = scrub(f"deploy with\n{PEM}\nand password=hunter2hunter2 at postgres://app:s3cretpw@db:5432/x")
    assert "MIIEpAIBAAK" not in out and "hunter2hunter2" not in out and "s3cretpw" not in out
    assert "[REDACTED:private_key]" in out and "password=[REDACTED:assigned_secret]" in out
    plain = "Luna ist meine Katze, Futter um 19 Uhr; the skeleton key is under the mat"
    assert scrub(plain) == plain
    assert scrub_value({"args": [SECRETS["github_token"]], "n": 3}) == {"args": ["[REDACTED:github_token]"], "n": 3}


@pytest.mark.parametrize(("text", "secret"), [
    ("mein Passwort ist hunter2", "hunter2"),
    ("Mein Passwort: hunter2", "hunter2"),
    ("my password is hunter2", "hunter2"),
    ("Lunas Passwort lautet Katze123!", "Katze123!"),
    ("Das WLAN-Passwort ist: x9", "x9"),
    ("the password for the router is abc", "abc"),
    ("Meine PIN lautet 4711.", "4711"),
    ("Kennwort = 'geheim'", "geheim"),
    ("password=SuperSecret99", "SuperSecret99"),
    ("api_key: abc123", "abc123"),
    ('Das Passwort für das Gäste-WLAN lautet "Sommer 2024"', "Sommer 2024"),
])
def test_scrub_named_secrets_in_german_and_english(text: str, secret: str) -> None:
    out = scrub(text)
    assert not any(word in out for word in secret.split()) and "[REDACTED:" in out, out


@pytest.mark.parametrize("text", [
    "Ich habe mein Passwort vergessen.", "My password manager is great", "Die Pinnwand ist voll",
    "Luna ist meine Katze, Futter um 19 Uhr", "Shopping is fun",
])
def test_scrub_leaves_talk_about_passwords_alone(text: str) -> None:
    assert scrub(text) == text


def test_the_known_world_state_is_scrubbed(db: Database, settings: Settings, owner: str) -> None:
    """A secret stored in the world (an owner's note) never reaches the model through the Known World State."""
    from datetime import UTC, datetime

    from graph.ledger import proposal as p
    from graph.ledger.committer import commit_proposal
    from graph.ledger.tokens import owner_principal

    note = f"router: password=SuperSecret99, key {SECRETS['openai_key']}, mein Passwort ist hunter2"
    at = datetime(2026, 1, 1, tzinfo=UTC)
    commit_proposal(db, owner_principal(owner), p.MemoryMutationProposal(run_id="seed", operations=[
        p.UpsertEntity(ref="device:router", kind="device", canonical_name="Router", aliases=["Router"]),
        p.AssertFact(subject="device:router", predicate="description", value=note, valid_from=at,
                     evidence=p.Evidence(kind="message", text=note))]))
    turn(db, owner, "kw", "Der Router ist wieder kaputt")
    ctx = load_curator_context(db, owner, "kw")
    assert ctx is not None and "router" in ctx.world.lower()  # the stored note is in the world part ...
    prompt = ctx.render()
    for secret in ("SuperSecret99", SECRETS["openai_key"], "hunter2"):
        assert secret not in prompt  # ... but none of its secrets
    assert "password=[REDACTED:assigned_secret]" in prompt


def test_context_reads_only_uncurated_turns_scrubbed(db: Database, settings: Settings, owner: str) -> None:
    import asyncio

    turn(db, owner, "c1", "Luna ist meine Katze, sie frisst um 19 Uhr")
    answer = ops(entity("pet:luna", "Luna", aliases=["Luna"]),
                 fact("pet:luna", "feeding_time", "19:00", quote="um 19 Uhr"))
    asyncio.run(Curator(db, settings, Script([answer]).model()).curate(owner, "c1"))
    tool = ToolCall.model_validate({"name": "deploy", "args": {"token": SECRETS["github_token"]},
                                    "result": "ok", "trustTier": "trusted"})
    turn(db, owner, "c1", f"Luna frisst jetzt um 20 Uhr. Mein Key: {SECRETS['openai_key']}", tools=[tool])
    turn(db, owner, "c1", "thinking aside", role="assistant")
    ctx = load_curator_context(db, owner, "c1")
    assert ctx is not None and (ctx.from_seq, ctx.upto_seq) == (2, 3)
    prompt = ctx.render()
    assert "Luna ist meine Katze" not in prompt  # curated before: not read again
    assert SECRETS["openai_key"] not in prompt and SECRETS["github_token"] not in prompt
    assert "pet:luna" in prompt and "19:00" in prompt  # the known entity and its key fact
    assert ctx.recent == ["- pet:luna — Luna (pet)"]  # touched by this chat's last proposal
    assert "cares_for" in prompt and "feeding_time" in prompt  # the vocabulary
    assert ctx.trigger and not ctx.untrusted
    # another owner sees none of it
    assert load_curator_context(db, owner + "-x", "c1") is None


def test_cap_summarises_older_turns(db: Database, owner: str) -> None:
    for i in range(6):
        turn(db, owner, "long", f"turn {i}: " + "blah " * 400)
    with db.owner_tx(owner, read_only=True) as conn:
        turns = uncurated(conn, "long", limit=20)
    lines = fit(turns, max_tokens=1200)
    # about 500 tokens each: the newest two fit into 1200, the older ones are summarised
    assert [t.summarised for t in lines] == [True, True, True, True, False, False]
    assert all(len(t.text) <= 161 for t in lines[:-2]) and len(lines[-1].text) > 1000
    ctx = load_curator_context(db, owner, "long", max_turns=4)
    assert ctx is not None and (ctx.from_seq, ctx.upto_seq) == (1, 4)  # at most max_turns per run


def test_curator_time_columns_have_the_range_check(admin_conn: psycopg.Connection) -> None:
    names = {r[0] for r in admin_conn.execute(
        "SELECT conname FROM pg_constraint WHERE conname LIKE ANY (ARRAY['curator%_in_range', 'chat_turns%_in_range',"
        " 'vocabulary%_in_range'])")}
    assert {"curator_runs_recorded_at_in_range", "curator_dropped_ops_recorded_at_in_range",
            "vocabulary_proposals_recorded_at_in_range", "chat_turns_created_at_in_range"} <= names
