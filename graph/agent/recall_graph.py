"""The agent's graph tools: get_neighbors, effects_of and explain_change. The walks are graph.reads.traversal's
and graph.reads.causality's; here the answers get the agent's wording, with the uniform provenance suffix.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from uuid import UUID

from pydantic import BaseModel, Field

from graph.agent.recall import HIDDEN, named
from graph.agent.render import SEP, EntityMatch, EventNote, Statement, claim_line, event_line, fact_line
from graph.agent.search import statement
from graph.platform.db import Database
from graph.reads import causality, traversal
from graph.reads.causality import CausalEvent, Effects, Explanation
from graph.sql import load


class HopLine(BaseModel):
    depth: int
    label: str = Field(description="The predicate read from `source` (the registry's inverse for incoming)")
    source: str
    target: str
    statement: Statement | None = Field(default=None, description="The relationship fact")


class Neighbors(BaseModel):
    query: str
    entity: EntityMatch | None = None
    hops: list[HopLine] = Field(default_factory=list)
    candidates: list[EntityMatch] = Field(default_factory=list)
    message: str | None = None


def get_neighbors(db: Database, owner: str, ref: str, depth: int = 1, predicates: Sequence[str] | None = None,
                  valid_time: datetime | None = None) -> Neighbors:
    """Entities related to `ref` (both directions), `depth` hops out, as believed now about `valid_time`."""
    with db.owner_tx(owner, read_only=True) as conn:
        about = named(conn, ref, fuzzy=False)
    answer = Neighbors(query=ref, entity=about.entity, candidates=about.candidates, message=about.message)
    if about.entity is None:
        return answer
    hood = traversal.neighbors(db, owner, traversal.NeighborQuery(
        ref=about.entity.ref, depth=depth, predicates=list(predicates) if predicates else None,
        valid_time=valid_time))
    if hood is None:
        return answer
    facts = _facts(db, owner, [h.fact_id for h in hood.hops])
    answer.hops = [HopLine(depth=h.depth, label=h.label, source=h.source.ref, target=h.target.ref,
                       statement=facts.get(h.fact_id)) for h in hood.hops]
    return answer


def _facts(db: Database, owner: str, ids: list[UUID]) -> dict[UUID, Statement]:
    if not ids:
        return {}
    with db.owner_tx(owner, read_only=True) as conn:
        rows = conn.execute(load("agent_facts_by_ids"), {"ids": ids}).fetchall()
    return {r["id"]: statement(r) for r in rows}


def neighbors_text(n: Neighbors) -> str:
    if n.entity is None:
        lines = [n.message or f'No entity matches "{n.query}".']
        return "\n".join(lines + [f"- {c.ref} — {c.name} ({c.kind})" for c in n.candidates])
    head = f"Neighbours of {n.entity.ref} — {n.entity.name} ({n.entity.kind}):"
    if not n.hops:
        return head + "\n(no current relationships)"
    lines = [head]
    for hop in sorted(n.hops, key=lambda h: (h.depth, h.source, h.label, h.target)):
        claim = f"{hop.source} {hop.label} {hop.target}"
        text = claim_line(claim, hop.statement.fact) if hop.statement else claim
        lines.append(f"{'  ' * (hop.depth - 1)}- {text}")
    return "\n".join(lines)


def effects_of(db: Database, owner: str, event_or_run: str, depth: int = 3) -> Effects | None:
    """What an event (by id) or a run (by run id) caused."""
    try:
        event_id: UUID | None = UUID(event_or_run)
    except ValueError:
        event_id = None
    if event_id is not None:
        return causality.effects_of(db, owner, event_id=event_id, depth=depth)
    return causality.effects_of(db, owner, run_id=event_or_run, depth=depth)


def note(e: CausalEvent) -> EventNote:
    summary = e.summary if e.causation_kind != "inferred" else f"{e.summary or ''} (inferred link)".strip()
    return EventNote(id=str(e.id), occurred_at=e.occurred_at, event_type=e.event_type, summary=summary,
                     target=e.target_ref, intent=e.intent, intent_outcome=e.intent_outcome)


def effects_text(query: str, effects: Effects | None) -> str:
    if effects is None:
        return f'No event or run "{query}" is recorded.'
    ids = {e.id for e in effects.events}
    children: dict[UUID | None, list[CausalEvent]] = {}
    for e in effects.events:
        children.setdefault(e.caused_by_event_id if e.caused_by_event_id in ids else None, []).append(e)
    facts: dict[UUID, list[str]] = {}
    for cf in (f for f in effects.facts if f.fact.status not in HIDDEN):
        facts.setdefault(cf.caused_by_event_id, []).append(fact_line(Statement(subject=cf.subject_ref,
                                                                               fact=cf.fact)))
    shown = sum(len(v) for v in facts.values())
    lines = [f"Effects of {query}: {_count(len(effects.events), 'event')}, {_count(shown, 'fact')} changed"]

    def walk(parent: UUID | None, indent: str) -> None:
        for e in children.get(parent, []):
            lines.append(f"{indent}- {event_line(note(e))}")
            lines.extend(f"{indent}  - {line}" for line in facts.get(e.id, []))
            walk(e.id, indent + "  ")

    walk(None, "")
    return "\n".join(lines)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def explain_change(db: Database, owner: str, ref: str | None = None, predicate: str | None = None,
                   fact_id: UUID | None = None) -> Explanation | None:
    return causality.explain_change(db, owner, fact_id=fact_id, ref=ref, predicate=predicate)


def explanation_text(query: str, x: Explanation | None) -> str:
    if x is None:
        return f"No current fact {query} is recorded."
    lines = [f"Why: {fact_line(Statement(subject=x.subject_ref, fact=x.fact))}"]
    lines += [f"Replaced: {fact_line(Statement(subject=x.subject_ref, fact=f))}" for f in x.supersedes[:3]]
    lines += [f"Replaced by: {fact_line(Statement(subject=x.subject_ref, fact=f))}" for f in x.superseded_by[:3]]
    for i, cause in enumerate(x.causes):
        root = f"{SEP}root" if x.root is not None and cause.id == x.root.id else ""
        lines.append(f"{'Because: ' if i == 0 else '  ← '}{event_line(note(cause))}{root}")
    if not x.causes:
        lines.append("Because: no recorded event caused it (asserted directly).")
    if x.fact.evidence:
        lines.append(f"Evidence: {x.fact.evidence.get('kind', '?')} {x.fact.evidence.get('text', '')!r}")
    if x.hypothesis:
        lines.append("Note: a link of this chain is only inferred (a hypothesis, not a recorded cause).")
    if x.retention is not None:
        lines.append(x.retention.text)
    return "\n".join(lines)
