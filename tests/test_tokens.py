"""Token kinds, `worldmem token create | list | revoke`, and what a refused token is told."""

# ruff: noqa: F811  (pytest fixtures imported from tests.gql are test arguments by design)

from __future__ import annotations

from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient

from cli.main import COMMANDS, build_parser
from graph.errors import BadInput, WorldmemError
from graph.ledger import tokens
from graph.ledger.tokens import Principal, authenticate, create_token, list_tokens, revoke_token
from graph.platform.db import Database
from graph.settings import Settings
from tests.gql import client, gql  # noqa: F401 (fixtures)

KINDS = "{ entityKinds { key } }"


def _message(body: dict[str, Any]) -> str:
    assert body.get("data") is None, body
    [error] = body["errors"]
    assert error["extensions"]["code"] == "UNAUTHENTICATED"
    return str(error["message"])


def test_missing_malformed_unknown_and_revoked_tokens_are_told_apart(
        client: TestClient, test_db_url: str, owner: str) -> None:
    revoked = create_token(test_db_url, owner)
    assert revoke_token(test_db_url, revoked)
    unknown = "wm_" + "A" * 43
    said = {
        "missing": _message(gql(client, None, KINDS)),
        "not bearer": _message(client.post("/graphql", json={"query": KINDS},
                                           headers={"Authorization": "Basic dXNlcjpwdw=="}).json()),
        "malformed": _message(gql(client, "wm_short", KINDS)),
        "not ours": _message(gql(client, "sk-" + "x" * 40, KINDS)),
        "unknown": _message(gql(client, unknown, KINDS)),
        "revoked": _message(gql(client, revoked, KINDS)),
    }
    assert said == {"missing": tokens.MISSING, "not bearer": tokens.MISSING, "malformed": tokens.MALFORMED,
                    "not ours": tokens.MALFORMED, "unknown": tokens.UNKNOWN, "revoked": tokens.REVOKED}
    assert len(set(said.values())) == 4


def test_each_kind_authenticates_as_itself(db: Database, test_db_url: str, owner: str) -> None:
    made = {
        "owner": create_token(test_db_url, owner),
        "import": create_token(test_db_url, owner, can_import=True, can_integrate=True),
        "agent": create_token(test_db_url, owner, kind="agent"),
        "integration": create_token(test_db_url, owner, kind="integration", name="github"),
    }
    seen = {k: authenticate(db, t) for k, t in made.items()}
    assert seen == {
        "owner": Principal(owner, "owner"),
        "import": Principal(owner, "owner", can_import=True, can_integrate=True),
        "agent": Principal(owner, "agent"),
        # an integration always registers (into its own namespace)
        "integration": Principal(owner, "integration", "github", can_integrate=True),
    }
    assert [p.source for p in seen.values()] == ["user", "user", "agent", "integration:github"]


@pytest.mark.parametrize(("kind", "name", "import_", "integrate"), [
    ("agent", None, True, False),          # an import is the owner's own data
    ("agent", None, False, True),          # the agent registers no vocabulary
    ("integration", None, False, False),   # an integration needs a name
    ("integration", "GitHub!", False, False),
    ("integration", "github", True, False),
    ("owner", "github", False, False),     # only an integration has a name
    ("root", None, False, False),
])
def test_impossible_tokens_are_refused(test_db_url: str, owner: str, kind: Any, name: str | None,
                                       import_: bool, integrate: bool) -> None:
    with pytest.raises(BadInput) as refused:
        create_token(test_db_url, owner, can_import=import_, can_integrate=integrate, kind=kind, name=name)
    assert refused.value.code == "BAD_TOKEN_KIND"


@pytest.mark.parametrize("row", [
    ("agent", None, True, False), ("agent", None, False, True), ("integration", None, False, True),
    ("integration", "x", False, False), ("owner", "x", False, False), ("robot", None, False, False),
])
def test_the_table_refuses_impossible_tokens_too(admin_conn: psycopg.Connection,
                                                 row: tuple[str, str | None, bool, bool]) -> None:
    with pytest.raises(psycopg.errors.CheckViolation):
        admin_conn.execute("INSERT INTO api_tokens (token_hash, owner_sub, kind, name, can_import, can_integrate) "
                           "VALUES (repeat('b', 64), 'someone', %s, %s, %s, %s)", row)


def _cli(settings: Settings, *argv: str) -> int:
    args = build_parser().parse_args(["token", *argv])
    return COMMANDS["token"](args, settings)


def test_token_command_creates_lists_and_revokes(
        db: Database, test_db_url: str, owner: str, capsys: pytest.CaptureFixture[str]) -> None:
    settings = Settings(database_url=test_db_url)
    assert _cli(settings, "create", "--owner", owner) == 0
    plain = capsys.readouterr().out.strip().splitlines()[-1]
    assert _cli(settings, "create", "--owner", owner, "--kind", "integration", "--name", "feed") == 0
    feed = capsys.readouterr().out.strip().splitlines()[-1]
    assert authenticate(db, plain) == Principal(owner, "owner")
    assert authenticate(db, feed).source == "integration:feed"

    assert _cli(settings, "list", "--owner", owner) == 0
    listed = capsys.readouterr().out.strip().splitlines()
    assert [line.split()[1:4] for line in listed] == [[owner, "owner", "-"], [owner, "integration:feed", "registers"]]
    assert all(line.endswith("live") for line in listed) and plain not in "".join(listed)

    first_id = listed[0].split()[0]
    assert _cli(settings, "revoke", first_id) == 0
    with pytest.raises(WorldmemError):
        _cli(settings, "revoke", first_id)  # already revoked: says so, exit 2 through main
    assert [t.revoked_at is not None for t in list_tokens(test_db_url, owner)] == [True, False]
    assert _cli(settings, "revoke", feed) == 0  # by the token itself
    with pytest.raises(WorldmemError):
        _cli(settings, "create", "--owner", owner, "--kind", "agent", "--import")


def test_cli_errors_exit_2_without_a_traceback(test_db_url: str, owner: str,
                                               monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    from cli import main as cli_main

    monkeypatch.setattr(cli_main, "get_settings", lambda: Settings(database_url=test_db_url))
    assert cli_main.main(["token", "create", "--owner", owner, "--kind", "integration"]) == 2
    assert "needs --name" in capsys.readouterr().err
    assert cli_main.main(["token", "revoke", "wm_" + "Z" * 43]) == 2
    assert "no live token" in capsys.readouterr().err


def test_a_token_row_without_a_kind_is_an_owner_token(admin_conn: psycopg.Connection) -> None:
    # what tooling from before token kinds inserts (migration 0014)
    kind = admin_conn.execute("INSERT INTO api_tokens (token_hash, owner_sub) VALUES (repeat('c', 64), 'old') "
                              "RETURNING kind").fetchone()
    assert kind == ("owner",)
