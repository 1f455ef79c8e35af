"""The conventions and decisions of a repo as AGENTS.md text: an explicit export, never automatic.

`export` reads what is in effect for the repo's scope chain (the repo, then the projects and folders it is
part of, then global), renders markdown with German or English headings and records one
`conventions_exported` world event (who exported what, when). It returns the text and writes no file:
the caller decides where it goes. The language is the caller's, else the owner's `answer_language` as
resolved for the repo's chain (a repo can be English while its owner answers in German).
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

import psycopg
from pydantic import BaseModel, Field

from graph.agent import scopes
from graph.agent.render import day
from graph.agent.search import statement
from graph.codemode import conventions
from graph.codemode.conventions import Convention
from graph.errors import BadInput
from graph.governance.phrases import Lang, language_of
from graph.ledger.committer import commit_proposal
from graph.ledger.proposal import MemoryMutationProposal, RecordEvent
from graph.ledger.tokens import Principal
from graph.platform.db import Database
from graph.reads import suggest
from graph.sql import load

HEADINGS: dict[Lang, dict[str, str]] = {
    "en": {"conventions": "Conventions", "decisions": "Decisions", "global": "global",
           "none": "_No conventions or decisions are recorded for {repo}._",
           "note": "<!-- Exported from worldmem on {day} for {repo} (scopes: {chain}; the most specific wins). "
                   "Change them in worldmem, then export again. -->"},
    "de": {"conventions": "Konventionen", "decisions": "Entscheidungen", "global": "global",
           "none": "_Für {repo} sind keine Konventionen oder Entscheidungen gespeichert._",
           "note": "<!-- Aus worldmem exportiert am {day} für {repo} (Geltungsbereiche: {chain}; der "
                   "spezifischste gilt). In worldmem ändern, dann neu exportieren. -->"},
}


class Export(BaseModel):
    repo: str = Field(description="The ref exported for")
    language: Lang
    text: str = Field(description="The AGENTS.md markdown; nothing is written to any file")
    scope_chain: list[str]
    conventions: list[Convention] = Field(default_factory=list, description="What is in effect, as exported")
    run_id: str | None = Field(default=None, description="The run that recorded the export event")


def render(repo: str, name: str, found: list[Convention], chain: list[str], lang: Lang, at: datetime) -> str:
    """Pure: the markdown for `found` (already resolved, most specific first)."""
    h = HEADINGS[lang]
    note = h["note"].format(day=day(at), repo=repo, chain=" > ".join([*chain, "global"]))
    lines = [f"# AGENTS.md — {name}", "", note]
    for kind, title in (("convention", h["conventions"]), ("decision", h["decisions"])):
        items = [c for c in found if c.kind == kind]
        if items:
            lines += ["", f"## {title}", ""]
            lines += [f"- **{c.name}**: {_one_line(c.text)} _({c.statement.fact.scope or h['global']})_" for c in items]
    if not found:
        lines += ["", h["none"].format(repo=repo)]
    return "\n".join(lines) + "\n"


def _one_line(text: str) -> str:
    return " ".join(text.split())


def language(conn: psycopg.Connection[Any], chain: list[str], at: datetime) -> Lang:
    rows = conn.execute(load("codemode_answer_language"), {"at": at}).fetchall()
    chosen = scopes.resolve([statement(r) for r in rows], chain)
    return language_of(str(chosen[0].fact.value) if chosen else None)


def export(db: Database, principal: Principal, repo: str, lang: str | None = None,
           at: datetime | None = None) -> Export:
    """Render and record the export (BadInput / NotFound for a ref that is not a repo, project or folder)."""
    at = at or datetime.now(UTC)
    with db.owner_tx(principal.owner, read_only=True) as conn:
        row = conn.execute(load("entity_by_ref"), {"ref": repo}).fetchone()
        if row is None:
            raise suggest.unknown_ref(conn, repo)
        if row["kind"] not in conventions.CODE_KINDS:
            raise BadInput(f"{repo} is a {row['kind']}: conventions are exported for a repo, project or folder",
                           code="KIND_MISMATCH")
        chain, found = conventions.read(conn, [repo], at)
        chosen: Lang = language_of(lang) if lang else language(conn, chain, at)
    text = render(repo, row["canonical_name"], found, chain, chosen, at)
    run_id = f"export-conventions:{uuid.uuid4()}"
    summary = f"AGENTS.md text exported for {repo}: {len(found)} conventions and decisions ({chosen})"
    result = commit_proposal(db, principal, MemoryMutationProposal(run_id=run_id, proposed_by="codemode", operations=[
        RecordEvent(event_type="conventions_exported", occurred_at=at, target=repo, summary=summary,
                    payload={"topics": [c.topic for c in found], "language": chosen})]))
    if result.rejected:
        first = result.rejected[0]
        raise BadInput(f"export not recorded: {first.message}", code=first.code)
    return Export(repo=repo, language=chosen, text=text, scope_chain=chain, conventions=found, run_id=run_id)
