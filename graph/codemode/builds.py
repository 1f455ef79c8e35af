"""Build and test state of repos: windowed world events, never facts.

`record` commits one `build_result` or `test_result` event about a repo through the committer (trust from
the token, idempotent on the run id). Its retention class is the event type's, `windowed` (migration 0058):
the retention job prunes such events after the hot window, so a repo's build state is "the newest result
within the window", read by `latest`, and nothing about it ever becomes a durable fact. The input is a
status line, never logs or file contents: a one-line summary of at most 300 characters and a few fields.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import Any, Literal

import psycopg
from pydantic import AwareDatetime, BaseModel, Field, field_validator

from graph.codemode.conventions import CODE_KINDS
from graph.errors import BadInput
from graph.ledger.committer import CommitResult, commit_proposal
from graph.ledger.proposal import MemoryMutationProposal, RecordEvent
from graph.ledger.tokens import Principal
from graph.platform.db import Database
from graph.sql import load

WINDOW = timedelta(days=30)
MAX_RESULTS = 20
EVENT_TYPES = {"build": "build_result", "test": "test_result"}
Status = Literal["passed", "failed", "error", "cancelled", "running"]


class BuildReport(BaseModel):
    """One build or test run of a repo, as a status line."""

    repo: str = Field(min_length=3, max_length=300, description="The repo's ref, e.g. repo:home-agent")
    kind: Literal["build", "test"]
    status: Status
    suite: str | None = Field(default=None, max_length=100, description="e.g. unit, e2e, mypy")
    commit: str | None = Field(default=None, pattern=r"^[0-9a-f]{7,64}$", description="The commit's hash")
    branch: str | None = Field(default=None, max_length=200)
    summary: str | None = Field(default=None, max_length=300, description="One line, e.g. 3 of 812 failed")
    occurred_at: AwareDatetime
    run_id: str | None = Field(default=None, max_length=200, description="Idempotency key; a new one if unset")

    @field_validator("repo")
    @classmethod
    def _code_ref(cls, value: str) -> str:
        if value.rsplit(":", 1)[0] not in CODE_KINDS:
            raise ValueError("a build or test result is about a repo (repo:<slug>), a project or a folder")
        return value

    @field_validator("summary", "suite", "branch")
    @classmethod
    def _one_line(cls, value: str | None) -> str | None:
        if value is not None and ("\n" in value or "\r" in value):
            raise ValueError("one line only: build and test state is a status line, never logs or file contents")
        return value


class BuildNote(BaseModel):
    """The newest result of one (repo, build|test, suite) within the window."""

    id: str
    occurred_at: datetime
    repo: str
    kind: str
    status: str
    suite: str | None = None
    commit: str | None = None
    branch: str | None = None
    summary: str | None = None


class Recorded(BaseModel):
    run_id: str
    external_ref: str
    replayed: bool


def record(db: Database, principal: Principal, report: BuildReport) -> Recorded:
    """Commit the result as one windowed event about the repo (BadInput when the committer refuses it)."""
    run_id = report.run_id or f"build:{uuid.uuid4()}"
    external_ref = f"{EVENT_TYPES[report.kind]}:{run_id}"
    payload = {k: v for k, v in {"status": report.status, "suite": report.suite, "commit": report.commit,
                                 "branch": report.branch}.items() if v is not None}
    line = f"{report.kind} {report.status}" + (f": {report.summary}" if report.summary else "")
    event = RecordEvent(event_type=EVENT_TYPES[report.kind], occurred_at=report.occurred_at, target=report.repo,
                        summary=line, payload=payload, external_ref=external_ref)
    result: CommitResult = commit_proposal(db, principal, MemoryMutationProposal(
        run_id=run_id, proposed_by="codemode", operations=[event]))
    if result.rejected:
        first = result.rejected[0]
        raise BadInput(f"build result not recorded: {first.message}", code=first.code)
    return Recorded(run_id=run_id, external_ref=external_ref, replayed=result.replayed)


def params(repos: list[str], at: datetime) -> dict[str, Any]:
    return {"refs": repos, "at": at, "since": at - WINDOW, "limit": MAX_RESULTS}


def from_rows(rows: list[dict[str, Any]]) -> list[BuildNote]:
    notes = []
    for r in rows:
        p = r["payload"] or {}
        notes.append(BuildNote(id=str(r["id"]), occurred_at=r["occurred_at"], repo=r["target"],
                               kind="build" if r["event_type"] == "build_result" else "test",
                               status=str(p.get("status", "unknown")), suite=p.get("suite"), commit=p.get("commit"),
                               branch=p.get("branch"), summary=r["summary"]))
    notes.sort(key=lambda n: n.occurred_at, reverse=True)
    return notes


def latest(conn: psycopg.Connection[Any], repos: list[str], at: datetime) -> list[BuildNote]:
    return from_rows(conn.execute(load("codemode_build_state"), params(repos, at)).fetchall())
