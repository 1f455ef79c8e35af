"""The causal DAG: what an event or run caused (`effects_of`) and why a fact is what it is (`explain_change`).

Events are walked in the AGE mirror over CAUSED edges, one level per round trip (`causal_forward`,
`causal_backward`), never with a variable-length path. Event details (intent, outcome) and the facts an
event caused come from the ledger in SQL: `facts.caused_by_event_id` is indexed and carries the values,
which an (Event)-[:EFFECT]->(Entity) edge would not (docs/benchmarks.md, "Why the query shapes are what they are").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID

import psycopg
from pydantic import BaseModel, Field

from graph.erasure import erase
from graph.errors import BadInput
from graph.ledger import entities
from graph.ledger.proposal import RecordEvent
from graph.ledger.trust import INTEGRATION, source_tier
from graph.platform.db import Database
from graph.reads import intent
from graph.reads.graph_round import pipelined
from graph.reads.temporal import FactView
from graph.retention import notice
from graph.retention.notice import RetentionNotice
from graph.sql import load

MAX_DEPTH = 10
MAX_TIMELINE = 100  # events of one entity on the explorer timeline
MAX_EVENTS = 2000  # a runaway automation can cause without bound; the answer says when it stopped early
MAX_FACTS = 5000
MAX_CHAIN = 32  # longest backward walk to a root; a chain this long means a loop or a runaway automation
SYNC_WINDOW = timedelta(minutes=10)  # an agent action this close before a sync caused it (direct)
SYNC_HORIZON = timedelta(days=7)  # older actions on the same object are only a hypothesis (inferred)
TRIGGERED = frozenset({"automation_fire", "follow_up_run"})


@dataclass(frozen=True, slots=True)
class EventRef:
    """An event named as a cause (graph.ledger.events.lookup: event_by_id.sql, event_by_external_ref.sql)."""

    id: UUID
    occurred_at: datetime
    correlation_id: str | None


@dataclass(frozen=True)
class Stamp:
    """The causation an event is recorded with."""

    cause_id: UUID | None
    correlation_id: str | None
    kind: str | None


def stamp(conn: psycopg.Connection[Any], op: RecordEvent, cause: EventRef | None,
          target_id: UUID | None, run_id: str) -> Stamp:
    """Causation for an event about to be recorded (every event-producing site goes through here).

    A root (user message) correlates with its run; a caused event is `direct`, or `trigger` for an
    automation fire or a follow-up run, and inherits its cause's correlation (a follow-up run starts its
    own). An integration sync with
    no named cause is linked to the latest agent action on the same object: `direct` within
    SYNC_WINDOW, else `inferred` (a hypothesis: it keeps its own correlation and never counts as an
    effect). A consequential agent action must state its intent.
    """
    assert op.source is not None, "graph.ledger.events.record binds the source"
    kind_row = conn.execute(load("causality_event_type"), {"key": op.event_type}).fetchone()
    intent.check_action(bool(kind_row and kind_row["consequential"]), op.source, op.intent, op.expected_effect)
    if cause is not None:
        kind = op.causation_kind or ("trigger" if op.event_type in TRIGGERED else "direct")
        # a follow-up run is a run of its own: linked to what scheduled it, correlated with itself
        keeps = kind != "inferred" and op.event_type != "follow_up_run"
        return Stamp(cause.id, op.correlation_id or (cause.correlation_id if keeps else None) or run_id, kind)
    if op.causation_kind is not None:
        raise BadInput("causationKind needs causedBy", code="BAD_CAUSATION")
    if target_id is not None and (op.event_type == "integration_sync" or source_tier(op.source) >= INTEGRATION):
        found = conn.execute(load("causality_sync_candidate"), {
            "target_id": target_id, "at": op.occurred_at, "since": op.occurred_at - SYNC_HORIZON}).fetchone()
        if found is not None:
            direct = op.occurred_at - found["occurred_at"] <= SYNC_WINDOW
            inherited = found["correlation_id"] if direct else None
            return Stamp(found["id"], op.correlation_id or inherited or run_id, "direct" if direct else "inferred")
    return Stamp(None, op.correlation_id or run_id, None)


class CausalEvent(BaseModel):
    """One world event in a causal walk."""

    id: UUID
    event_type: str
    occurred_at: datetime
    recorded_at: datetime
    depth: int = Field(description="Hops from where the walk started (0 = a starting event)")
    caused_by_event_id: UUID | None = None
    causation_kind: str | None = Field(default=None, description="direct | trigger | inferred (a hypothesis)")
    correlation_id: str | None = None
    run_id: str | None = None
    summary: str | None = None
    intent: str | None = None
    expected_effect: dict[str, Any] | None = None
    goal_ref: str | None = None
    intent_outcome: str | None = Field(default=None, description="fulfilled | partial | unfulfilled | null")
    actor_ref: str | None = None
    target_ref: str | None = None


class CausedFact(BaseModel):
    subject_ref: str
    fact: FactView
    caused_by_event_id: UUID
    depth: int = Field(description="Depth of the causing event")


class Effects(BaseModel):
    events: list[CausalEvent] = Field(description="The starting events (depth 0) and what they caused")
    facts: list[CausedFact]
    truncated: bool = Field(default=False, description=f"True when the walk stopped at {MAX_EVENTS} events "
                                                       f"or {MAX_FACTS} facts")


class Explanation(BaseModel):
    subject_ref: str
    fact: FactView
    supersedes: list[FactView] = Field(description="Older rows this one replaced, nearest first")
    superseded_by: list[FactView] = Field(description="Rows that replaced this one, nearest first")
    causes: list[CausalEvent] = Field(description="The causing event, then its causes, up to the root")
    root: CausalEvent | None = Field(description="Where the chain starts, e.g. the user's message")
    intent: CausalEvent | None = Field(description="The nearest cause that states an intent")
    hypothesis: bool = Field(description="True when a link of the chain is only inferred")
    retention: RetentionNotice | None = Field(default=None, description="Set when the supersedes chain ends "
                                                                        "where retention pruned older rows")
    erased: list[erase.Cut] = Field(default_factory=list, description="Where the chain was cut by an erasure")


def _event(row: dict[str, Any], depth: int) -> CausalEvent:
    return CausalEvent.model_validate({**row, "depth": depth})


def _details(conn: psycopg.Connection[Any], depths: dict[str, int]) -> list[CausalEvent]:
    rows = conn.execute(load("causality_events_by_ids"), {"ids": [UUID(i) for i in depths]}).fetchall()
    found = [_event(r, depths[str(r["id"])]) for r in rows]
    return sorted(found, key=lambda e: (e.depth, e.occurred_at, str(e.id)))


def _forward(conn: psycopg.Connection[Any], depths: dict[str, int], hops: int) -> bool:
    """Add to `depths` every event up to `hops` CAUSED hops after the ones already in it; True when
    it stopped at MAX_EVENTS."""
    frontier = list(depths)
    for _ in range(hops):
        if not frontier:
            break
        (rows,), _tables = pipelined(conn, [("causal_forward", {"ids": frontier})])
        frontier = []
        for r in rows:
            if r["id"] not in depths:
                if len(depths) >= MAX_EVENTS:
                    return True
                depths[r["id"]] = depths[r["cause_id"]] + 1
                frontier.append(r["id"])
    return False


def _run_depths(rows: Sequence[dict[str, Any]]) -> dict[str, int]:
    """Depth of each event of a run: 0 for those caused from outside the run, +1 per link inside."""
    parent = {str(r["id"]): str(r["caused_by_event_id"]) if r["caused_by_event_id"] else None for r in rows}
    depths: dict[str, int] = {}
    for event in parent:
        chain: list[str] = []
        node: str | None = event
        while node is not None and node in parent and node not in depths and len(chain) <= len(parent):
            chain.append(node)
            node = parent[node]
        base = depths[node] if node is not None and node in depths else -1
        for offset, item in enumerate(reversed(chain)):
            depths[item] = base + 1 + offset
    return depths


def effects_of(db: Database, owner: str, *, event_id: UUID | None = None, run_id: str | None = None,
               depth: int = 3) -> Effects | None:
    """What an event (or every event of a run) caused, `depth` CAUSED hops on; None if nothing matches."""
    if (event_id is None) == (run_id is None):
        raise BadInput("give exactly one of eventId and runId")
    if not 0 <= depth <= MAX_DEPTH:
        raise BadInput(f"depth must be between 0 and {MAX_DEPTH}")
    with db.owner_tx(owner, read_only=True) as conn:
        if event_id is not None:
            depths = {str(event_id): 0}
        else:
            depths = _run_depths(conn.execute(load("causality_run_events"), {"run_id": run_id}).fetchall())
        if not depths:
            return None
        truncated = _forward(conn, depths, depth)
        ids = [UUID(i) for i in depths]
        (rows, caused) = pipelined(conn, [], [("causality_events_by_ids", {"ids": ids}),
                                              ("causality_facts_caused", {"ids": ids, "limit": MAX_FACTS + 1})])[1]
    events = sorted((_event(r, depths[str(r["id"])]) for r in rows),
                    key=lambda e: (e.depth, e.occurred_at, str(e.id)))
    if not events:
        return None
    facts = [CausedFact(subject_ref=r["subject_ref"], fact=FactView.from_row(r),
                        caused_by_event_id=r["caused_by_event_id"], depth=depths[str(r["caused_by_event_id"])])
             for r in caused]
    return Effects(events=events, facts=facts[:MAX_FACTS], truncated=truncated or len(facts) > MAX_FACTS)


def _fact_row(conn: psycopg.Connection[Any], fact_id: UUID | None, ref: str | None,
              predicate: str | None) -> dict[str, Any] | None:
    if fact_id is not None:
        if ref is not None or predicate is not None:
            raise BadInput("give either factId or ref and predicate, not both")
        return conn.execute(load("causality_fact_by_id"), {"id": fact_id}).fetchone()
    if ref is None or predicate is None:
        raise BadInput("give factId, or ref and predicate")
    subject = entities.resolve(conn, ref)
    if subject is None:
        return None
    return conn.execute(load("causality_fact_for_key"), {
        "subject_id": subject.id, "predicate": predicate, "now": datetime.now(UTC)}).fetchone()


def _backward(conn: psycopg.Connection[Any], first: str, extra: list[tuple[str, dict[str, Any]]]) -> tuple[
        dict[str, int], list[list[dict[str, Any]]]]:
    """Depths of the causes of `first` (1) and theirs, up to the roots; runs `extra` SQL alongside."""
    depths = {first: 1}
    frontier: list[str] = [first]
    tables: list[list[dict[str, Any]]] = []
    for level in range(2, MAX_CHAIN + 2):
        (rows,), found = pipelined(conn, [("causal_backward", {"ids": frontier})], extra)
        tables, extra = tables or found, []
        frontier = [r["id"] for r in rows if r["id"] not in depths]
        if not frontier:
            break
        depths.update((i, level) for i in frontier)
    return depths, tables


def explain_change(db: Database, owner: str, *, fact_id: UUID | None = None, ref: str | None = None,
                   predicate: str | None = None) -> Explanation | None:
    """Why a fact is what it is: its row and evidence, its supersedes chain, and its causes to the root."""
    with db.owner_tx(owner, read_only=True) as conn:
        row = _fact_row(conn, fact_id, ref, predicate)
        if row is None:
            return None
        chain_query = ("causality_supersedes", {"id": row["id"]})
        depths: dict[str, int] = {}
        if row["caused_by_event_id"] is None:
            (chain,) = pipelined(conn, [], [chain_query])[1]
        else:
            depths, (chain,) = _backward(conn, str(row["caused_by_event_id"]), [chain_query])
        causes = _details(conn, depths) if depths else []
        older = [r for r in chain if r["relation"] == "supersedes"]
        cut = (older[-1] if older else row)["supersedes_fact_id"] is None  # pruning sets the link to NULL
        retention = notice.for_series(conn, row["subject_id"], row["predicate"], "chain") if cut else None
        erased = erase.cuts(conn, [row["id"], *(r["id"] for r in chain), *(UUID(i) for i in depths)])
    roots = [e for e in causes if e.caused_by_event_id is None or str(e.caused_by_event_id) not in depths]
    return Explanation(
        subject_ref=row["subject_ref"], fact=FactView.from_row(row),
        supersedes=[FactView.from_row(r) for r in chain if r["relation"] == "supersedes"],
        superseded_by=[FactView.from_row(r) for r in chain if r["relation"] == "superseded_by"],
        causes=causes, root=roots[-1] if roots else None,
        intent=next((e for e in causes if e.intent), None),
        hypothesis=any(e.causation_kind == "inferred" for e in causes), retention=retention, erased=erased,
    )


def entity_events(db: Database, owner: str, ref: str, limit: int = 30, *, valid_time: datetime | None = None,
                  system_time: datetime | None = None) -> list[CausalEvent] | None:
    """The latest events about `ref` (depth 0) and their direct causes (depth 1); None for an unknown ref. At
    an instant: events that had occurred by `valid_time` and were recorded by `system_time`."""
    if not 1 <= limit <= MAX_TIMELINE:
        raise BadInput(f"limit must be 1..{MAX_TIMELINE}")
    with db.owner_tx(owner, read_only=True) as conn:
        entity = entities.resolve(conn, ref, system_time=system_time)  # not recorded yet then: unknown
        if entity is None:
            return None
        rows = conn.execute(load("reads_entity_events"), {"id": entity.id, "limit": limit, "valid_time": valid_time,
                                                          "system_time": system_time}).fetchall()
    return [CausalEvent.model_validate(r) for r in rows]
