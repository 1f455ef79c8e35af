"""GraphQL types of code mode: conventions in effect (with what they shadow), build and test results, the
AGENTS.md export. One mapping per view (`from_view`)."""

from __future__ import annotations

from datetime import datetime
from enum import Enum

import strawberry

from graph.agent.render import fact_line
from graph.codemode import agents_md, builds
from graph.codemode import conventions as cv
from graph.codemode.section import build_line, shadow_line
from resolvers.ledger_types import Fact


@strawberry.type(description="A convention or decision in effect for the scope chain, and the less specific "
                             "texts of its topic that it shadows there (not in effect)")
class ContextConvention:
    topic: str = strawberry.field(description="The topic entity, e.g. convention:test-runner")
    name: str
    kind: str = strawberry.field(description="convention | decision")
    text: str = strawberry.field(description="The line of the Known World State, with its shadow notes")
    fact: Fact
    shadowed: list[Fact]

    @classmethod
    def from_view(cls, c: cv.Convention) -> ContextConvention:
        return cls(topic=c.topic, name=c.name, kind=c.kind,
                   text="\n".join([fact_line(c.statement), *(s.strip() for s in shadow_line(c))]),
                   fact=Fact.from_view(c.statement.fact), shadowed=[Fact.from_view(s.fact) for s in c.shadowed])


@strawberry.type(description="The newest build or test result of a repo (and suite) within the window: "
                             "a windowed world event, never a fact")
class BuildResult:
    id: strawberry.ID
    occurred_at: datetime
    repo: str
    kind: str = strawberry.field(description="build | test")
    status: str
    suite: str | None
    commit: str | None
    branch: str | None
    summary: str | None
    text: str

    @classmethod
    def from_view(cls, b: builds.BuildNote) -> BuildResult:
        return cls(**b.model_dump(exclude={"id"}), id=strawberry.ID(b.id), text=build_line(b))


@strawberry.enum(description="What ran")
class BuildKind(Enum):
    BUILD = "build"
    TEST = "test"


@strawberry.enum(description="How it ended (or that it is running)")
class BuildStatus(Enum):
    PASSED = "passed"
    FAILED = "failed"
    ERROR = "error"
    CANCELLED = "cancelled"
    RUNNING = "running"


@strawberry.input(description="One build or test run as a status line: no logs, no file contents")
class BuildResultInput:
    repo: str = strawberry.field(description="The repo's ref, e.g. repo:home-agent")
    kind: BuildKind
    status: BuildStatus
    occurred_at: datetime
    suite: str | None = strawberry.field(default=None, description="e.g. unit, e2e, mypy (at most 100 characters)")
    commit: str | None = strawberry.field(default=None, description="The commit hash (7-64 hex digits)")
    branch: str | None = None
    summary: str | None = strawberry.field(default=None, description="One line, at most 300 characters")
    run_id: str | None = strawberry.field(default=None, description="Idempotency key (a retry with the same "
                                                                    "runId records nothing new)")


@strawberry.type(description="A recorded build or test result")
class BuildRecorded:
    run_id: str
    external_ref: str = strawberry.field(description="The event's idempotency key")
    replayed: bool = strawberry.field(description="The same runId was recorded before: nothing new")
    retention_class: str = strawberry.field(description="Always windowed: pruned after the hot window")


@strawberry.type(description="Conventions and decisions in effect for a repo, project or folder, as AGENTS.md "
                             "text. Nothing is written to any file")
class ConventionsExport:
    repo: str
    language: str = strawberry.field(description="de | en: the headings' language")
    text: str = strawberry.field(description="The AGENTS.md markdown")
    scope_chain: list[str] = strawberry.field(description="The repo, then the projects and folders holding it")
    conventions: list[ContextConvention]

    @classmethod
    def from_view(cls, e: agents_md.Export) -> ConventionsExport:
        return cls(repo=e.repo, language=e.language, text=e.text, scope_chain=e.scope_chain,
                   conventions=[ContextConvention.from_view(c) for c in e.conventions])
