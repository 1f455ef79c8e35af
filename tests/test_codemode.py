"""Code mode on the demo world and the real database: conventions and decisions resolved repo >
project/folder > global in the Known World State (a conflicting global one shadowed, and the block says so),
build and test state as windowed events (never facts), and the explicit AGENTS.md export (de/en)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

from graph.agent.world_context import ContextRequest, build
from graph.codemode import agents_md, builds
from graph.codemode.builds import BuildReport
from graph.codemode.sample import REPO, load_sample
from graph.demo import load_demo
from graph.errors import BadInput, NotFound
from graph.ledger.tokens import Principal, owner_principal
from graph.platform.db import Database
from tests.gql import client, codes, gql, make_token  # noqa: F401

NOW = datetime.now(UTC).replace(second=0, microsecond=0)


@pytest.fixture
def world(db: Database, owner: str) -> str:
    load_sample(db, owner, NOW)
    return owner


def section(markdown: str, title: str) -> list[str]:
    body = markdown.split(f"### {title}\n", 1)[1]
    return body.split("\n\n", 1)[0].splitlines()


def test_coding_chat_shows_repo_conventions_before_global_ones_and_says_what_is_shadowed(db: Database,
                                                                                         world: str) -> None:
    ctx = build(db, world, ContextRequest(chat_id="code1", message="please run the tests",
                                          scope_chain=[REPO], budget_tokens=2000))
    assert ctx.scope_chain == [REPO, "project:home", "chat:code1", "person:basti"]
    lines = section(ctx.markdown, "Conventions and decisions")
    print(ctx.markdown)
    order = [line.split(" ", 2)[1] for line in lines if line.startswith("- ")]
    # repo-scoped first (the convention, then the decision), then the project's, then global
    assert order == ["convention:test-runner", "decision:no-orm", "convention:line-length",
                     "convention:commit-messages"]
    runner = lines.index(next(line for line in lines if line.startswith("- convention:test-runner")))
    assert '"make test (ruff, mypy --strict, pytest)"' in lines[runner] and f"scope {REPO}" in lines[runner]
    assert lines[runner + 1].startswith('  - shadows global: "pytest -x"')
    assert lines[runner + 1].endswith("(not in effect here)")
    length = lines.index(next(line for line in lines if line.startswith("- convention:line-length")))
    assert '"120 characters"' in lines[length] and lines[length + 1].startswith('  - shadows global: "100 characters"')
    assert "tabs" not in ctx.markdown  # another repo's convention does not apply here
    assert not any("pytest -x" in line for line in lines if line.startswith("- "))  # shadowed, never in effect

    first = ctx.conventions[0]
    assert (first.topic, first.statement.fact.scope, first.text) == (
        "convention:test-runner", REPO, "make test (ruff, mypy --strict, pytest)")
    assert [s.fact.value for s in first.shadowed] == ["pytest -x"]
    assert ctx.conventions[-1].statement.fact.scope is None


def test_no_code_scope_no_conventions(db: Database, world: str) -> None:
    kitchen = build(db, world, ContextRequest(chat_id="c1", message="When is the cat fed?"))
    assert kitchen.conventions == [] and "Conventions" not in kitchen.markdown
    project = build(db, world, ContextRequest(message="style?", scope_chain=["project:home"]))
    assert [c.text for c in project.conventions] == ["120 characters", "imperative mood, English", "pytest -x"]


def test_repo_conventions_survive_a_small_budget(db: Database, world: str) -> None:
    ctx = build(db, world, ContextRequest(message="tests", scope_chain=[REPO], budget_tokens=50))
    assert '"make test (ruff, mypy --strict, pytest)"' in ctx.markdown
    assert 'shadows global: "pytest -x"' in ctx.markdown
    assert "imperative mood" not in ctx.markdown and ctx.dropped > 0  # global lines go first


def agent(owner: str) -> Principal:
    return Principal(owner=owner, kind="agent")


def report(status: Any, minutes_ago: int, suite: str = "unit", **extra: Any) -> BuildReport:
    return BuildReport(repo=REPO, kind="test", status=status, suite=suite,
                       occurred_at=NOW - timedelta(minutes=minutes_ago), **extra)


def test_build_and_test_state_are_windowed_events_never_facts(db: Database, world: str,
                                                              admin_conn: psycopg.Connection[Any]) -> None:
    facts_before = admin_conn.execute("SELECT count(*) FROM facts WHERE owner_sub = %s", (world,)).fetchone()
    builds.record(db, agent(world), report("passed", 90, summary="812 passed"))
    latest = builds.record(db, agent(world), report("failed", 10, summary="3 of 812 failed", commit="abc1234def",
                                                    branch="main", run_id="ci-77"))
    builds.record(db, agent(world), BuildReport(repo=REPO, kind="build", status="passed", occurred_at=NOW,
                                                summary="wheel built"))
    builds.record(db, agent(world), report("failed", 60 * 24 * 45, suite="e2e"))  # outside the window
    again = builds.record(db, agent(world), report("failed", 10, summary="3 of 812 failed", commit="abc1234def",
                                                   branch="main", run_id="ci-77"))
    assert again.replayed and not latest.replayed

    rows = admin_conn.execute("SELECT event_type, retention_class FROM world_events WHERE owner_sub = %s "
                              "AND event_type IN ('build_result', 'test_result')", (world,)).fetchall()
    assert len(rows) == 5 and {r[1] for r in rows} == {"windowed"}  # the sample recorded one before
    others = admin_conn.execute("SELECT DISTINCT retention_class FROM world_events WHERE owner_sub = %s "
                                "AND event_type NOT IN ('build_result', 'test_result')", (world,)).fetchall()
    assert others == [("standard",)]
    assert admin_conn.execute("SELECT count(*) FROM facts WHERE owner_sub = %s", (world,)).fetchone() == facts_before

    ctx = build(db, world, ContextRequest(message="did the tests pass?", scope_chain=[REPO], budget_tokens=2000))
    lines = section(ctx.markdown, "Build and tests")
    assert len(lines) == 2 and "build passed: wheel built" in lines[0]
    assert f"{REPO} test failed: 3 of 812 failed · suite unit · main@abc1234de" in lines[1]
    assert [(b.kind, b.status) for b in ctx.builds] == [("build", "passed"), ("test", "failed")]
    assert "812 passed" not in ctx.markdown and "e2e" not in ctx.markdown  # superseded by newer; out of window


def test_build_reports_are_status_lines() -> None:
    with pytest.raises(ValidationError, match="one line only"):
        report("failed", 1, summary="FAILED tests/test_x.py\n    assert 1 == 2")
    with pytest.raises(ValidationError):
        report("failed", 1, summary="x" * 301)
    with pytest.raises(ValidationError):
        report("exploded", 1)
    with pytest.raises(ValidationError, match="about a repo"):
        BuildReport(repo="pet:luna", kind="build", status="passed", occurred_at=NOW)


def test_a_build_result_for_a_non_repo_is_refused(db: Database, world: str) -> None:
    with pytest.raises(BadInput):
        builds.record(db, agent(world), BuildReport(repo="repo", kind="build", status="passed", occurred_at=NOW))


def test_agents_md_export_in_the_repo_language_and_recorded(db: Database, world: str,
                                                           admin_conn: psycopg.Connection[Any]) -> None:
    out = agents_md.export(db, owner_principal(world), REPO, at=NOW)
    assert out.language == "en"  # the demo's answer_language is en in repo:home-agent, de elsewhere
    assert out.text.startswith("# AGENTS.md — home-agent\n")
    assert "## Conventions\n\n- **test runner**: make test (ruff, mypy --strict, pytest) _(repo:home-agent)_" \
        in out.text
    assert "- **line length**: 120 characters _(project:home)_" in out.text
    assert "- **commit messages**: imperative mood, English _(global)_" in out.text
    assert "## Decisions\n\n- **no orm**: psycopg with named SQL files, no ORM _(repo:home-agent)_" in out.text
    assert "pytest -x" not in out.text and "tabs" not in out.text
    assert out.text.index("test runner") < out.text.index("line length") < out.text.index("commit messages")

    german = agents_md.export(db, owner_principal(world), "project:home", at=NOW)
    assert german.language == "de" and "## Konventionen" in german.text and "Entscheidungen" not in german.text
    assert "Aus worldmem exportiert" in german.text and "- **test runner**: pytest -x _(global)_" in german.text
    assert agents_md.export(db, owner_principal(world), REPO, "de", at=NOW).text.count("## Entscheidungen") == 1

    events = admin_conn.execute("SELECT summary FROM world_events WHERE owner_sub = %s AND "
                                "event_type = 'conventions_exported' ORDER BY recorded_at", (world,)).fetchall()
    assert len(events) == 3 and "exported for repo:home-agent: 4 conventions and decisions (en)" in events[0][0]


def test_agents_md_refuses_what_is_not_a_repo(db: Database, world: str) -> None:
    with pytest.raises(NotFound, match="did you mean repo:home-agent"):
        agents_md.export(db, owner_principal(world), "repo:home-agnet")
    with pytest.raises(BadInput, match="pet:luna is a pet") as refused:
        agents_md.export(db, owner_principal(world), "pet:luna")
    assert refused.value.code == "KIND_MISMATCH"


EXPORT = """mutation($repo: String!, $language: String) {
  exportConventions(repo: $repo, language: $language) { repo language text scopeChain conventions { topic } } }"""
RECORD = """mutation($r: BuildResultInput!) { recordBuildResult(result: $r) { runId replayed retentionClass } }"""
CONTEXT = """query($scope: String) { worldContext(message: "run the tests", scope: $scope) {
  markdown scopeChain conventions { topic kind text fact { value scope } shadowed { value scope } }
  builds { repo kind status suite } } }"""


def test_graphql(client: TestClient, world: str, make_token: Any) -> None:  # noqa: F811
    owner_token, agent_token = make_token(), make_token(kind="agent")
    recorded = gql(client, agent_token, RECORD, {"r": {
        "repo": REPO, "kind": "TEST", "status": "FAILED", "suite": "unit", "summary": "2 failed",
        "occurredAt": NOW.isoformat()}})
    assert recorded["data"]["recordBuildResult"]["retentionClass"] == "windowed", recorded
    multi = gql(client, agent_token, RECORD, {"r": {"repo": REPO, "kind": "TEST", "status": "FAILED",
                                                    "summary": "a\nb", "occurredAt": NOW.isoformat()}})
    assert codes(multi) == ["BAD_INPUT"] and "one line only" in multi["errors"][0]["message"]

    ctx = gql(client, agent_token, CONTEXT, {"scope": REPO})["data"]["worldContext"]
    assert ctx["scopeChain"][:2] == [REPO, "project:home"]
    first = ctx["conventions"][0]
    assert first["topic"] == "convention:test-runner" and first["fact"]["scope"] == REPO
    assert first["shadowed"] == [{"value": "pytest -x", "scope": None}]
    assert ctx["builds"] == [{"repo": REPO, "kind": "test", "status": "failed", "suite": "unit"}]

    exported = gql(client, owner_token, EXPORT, {"repo": REPO})["data"]["exportConventions"]
    assert exported["language"] == "en" and exported["text"].startswith("# AGENTS.md — home-agent")
    assert exported["scopeChain"] == [REPO, "project:home"] and len(exported["conventions"]) == 4
    assert "## Konventionen" in gql(client, agent_token, EXPORT, {"repo": REPO, "language": "de"})[
        "data"]["exportConventions"]["text"]
    assert codes(gql(client, owner_token, EXPORT, {"repo": "pet:luna"})) == ["KIND_MISMATCH"]
    assert codes(gql(client, None, EXPORT, {"repo": REPO})) == ["UNAUTHENTICATED"]


def test_other_owners_see_no_conventions(db: Database, world: str) -> None:
    stranger = f"owner-{uuid.uuid4().hex[:12]}"
    load_demo(db, stranger, now=NOW)
    ctx = build(db, stranger, ContextRequest(message="tests", scope_chain=[REPO]))
    assert ctx.conventions == [] and ctx.scope_chain[0] == REPO and "project:home" not in ctx.scope_chain
