"""A small code-mode world on top of the demo (graph.demo): repo:home-agent inside project:home, conventions
at every level (one of the repo's overrides a global one, the project's overrides another), a decision,
another repo's convention that must not leak, and a failed test run. Used by the tests and by
`python -m bench.mcp_transcript`. Idempotent: a step already committed is replayed, not repeated."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from graph.codemode import builds
from graph.demo import load_demo
from graph.errors import Conflict
from graph.ledger.committer import commit_proposal
from graph.ledger.proposal import AssertFact, AssertRelationship, Evidence, MemoryMutationProposal, UpsertEntity
from graph.ledger.tokens import owner_principal
from graph.platform.db import Database

REPO = "repo:home-agent"
SAID = Evidence(kind="message", text="told by Basti in the coding chat")


def topic(name: str, text: str, scope: str | None, t: datetime, kind: str = "convention") -> list[Any]:
    """A `convention:<name>` (or decision) entity and its text in one scope (None: global)."""
    ref = f"{kind}:{name}"
    return [UpsertEntity(ref=ref, kind=kind, canonical_name=name.replace("-", " ")),
            AssertFact(subject=ref, predicate=kind, value=text, scope=scope, valid_from=t - timedelta(days=5),
                       evidence=SAID)]


def load_sample(db: Database, owner: str, now: datetime) -> None:
    load_demo(db, owner, now=now)
    t = now.replace(second=0, microsecond=0)
    ops = [UpsertEntity(ref="project:home", kind="project", canonical_name="Home automation"),
           UpsertEntity(ref="repo:other", kind="repo", canonical_name="other"),
           AssertRelationship(subject=REPO, predicate="part_of", object="project:home",
                              valid_from=t - timedelta(days=30), evidence=SAID),
           *topic("test-runner", "pytest -x", None, t),
           *topic("test-runner", "make test (ruff, mypy --strict, pytest)", REPO, t),
           *topic("commit-messages", "imperative mood, English", None, t),
           *topic("line-length", "100 characters", None, t),
           *topic("line-length", "120 characters", "project:home", t),
           *topic("indentation", "tabs", "repo:other", t),
           *topic("no-orm", "psycopg with named SQL files, no ORM", REPO, t, kind="decision")]
    result = commit_proposal(db, owner_principal(owner), MemoryMutationProposal(
        run_id="codemode-sample-1", proposed_by="demo", operations=ops), recorded_at=None)
    if result.rejected:
        first = result.rejected[0]
        raise Conflict(f"code-mode sample rejected: op {first.op_index}: {first.message}", code=first.code)
    builds.record(db, owner_principal(owner), builds.BuildReport(
        repo=REPO, kind="test", status="failed", suite="unit", summary="3 of 812 failed", commit="4f2a9c1d",
        branch="main", occurred_at=t - timedelta(hours=1), run_id="codemode-sample-ci-1"))
