"""Code mode over GraphQL: `recordBuildResult` (a windowed event, never a fact) and `exportConventions`
(the AGENTS.md text, returned, never written anywhere). Conventions themselves are written with
commitProposal (a `convention:<topic>` entity and its `convention` fact, scoped or global) and read in
worldContext with a repo in `scopeChain`."""

from __future__ import annotations

from typing import Any

import strawberry
from pydantic import ValidationError
from strawberry.types import Info

from graph.codemode import agents_md, builds
from graph.errors import BadInput
from resolvers.codemode_types import BuildRecorded, BuildResultInput, ConventionsExport
from resolvers.context import blocking, database, principal


def _report(result: BuildResultInput) -> builds.BuildReport:
    try:
        return builds.BuildReport(repo=result.repo, kind=result.kind.value, status=result.status.value,
                                  occurred_at=result.occurred_at, suite=result.suite, commit=result.commit,
                                  branch=result.branch, summary=result.summary, run_id=result.run_id)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise BadInput(f"{where}: {first['msg']}".removeprefix("summary: Value error, ")) from None


async def record_build_result(info: Info[Any, Any], result: BuildResultInput) -> BuildRecorded:
    report = _report(result)
    done = await blocking(builds.record, database(info), principal(info), report)
    return BuildRecorded(run_id=done.run_id, external_ref=done.external_ref, replayed=done.replayed,
                         retention_class="windowed")


async def export_conventions(info: Info[Any, Any], repo: str, language: str | None = None) -> ConventionsExport:
    if language is not None and language not in {"de", "en"}:
        raise BadInput("language is de or en (or unset: the owner's answer language for the repo)")
    out = await blocking(agents_md.export, database(info), principal(info), repo.replace("\x00", ""), language)
    return ConventionsExport.from_view(out)


@strawberry.type
class CodemodeMutation:
    record_build_result: BuildRecorded = strawberry.mutation(
        resolver=record_build_result, description="Record one build or test run of a repo as a windowed world "
                                                  "event (build_result / test_result): the repo's build state "
                                                  "within the window, never a durable fact")
    export_conventions: ConventionsExport = strawberry.mutation(
        resolver=export_conventions, description="The conventions and decisions in effect for a repo (project, "
                                                 "folder) as AGENTS.md text, headings in the owner's language for "
                                                 "that repo (or `language`: de, en). Returns the text and records "
                                                 "a conventions_exported event; writes no file")
