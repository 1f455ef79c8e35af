"""The context builder: the "Known World State" block the agent reads at the start of every turn.

One indexed statement in one round trip (graph/sql/context_block.sql, Database.read_round): the entities
of the context (message spans linked by graph.agent.linking, the owner's person entity, active policies),
the current facts about them (their own and the relationships pointing at the linked ones), and salient
recent events with their causes; read for every entity found and kept for the linked ones
(graph.agent.context_rows). Code mode's conventions and builds, and the finder's fallback when linking
found nothing, take one more round, and so do past turns when the linked facts do not answer the message
(graph.agent.context_episodes: at most three, said around the valid time when one is given). Facts are
resolved for the scope chain (graph.agent.scopes), then the block is trimmed to the token budget
(graph.agent.budget): policies and the current facts of linked entities are never dropped.

Owner convention: the owner's person entity is `person:me`, or else the one person holding the alias "me"
(one rule, the database function wm_owner_person of migrations/0085, which the owner's language reads too).
Memory must never break a run: `world_context` turns any failure into an empty block with a warning.
"""

from __future__ import annotations

import logging
import time
from concurrent.futures import Future, wait
from datetime import datetime, timedelta
from typing import Any, LiteralString
from uuid import UUID

from pydantic import BaseModel, Field

from graph.agent import context_episodes, context_rows, linking, scopes
from graph.agent.budget import Entry, Section, assemble, trim
from graph.agent.context_episodes import ContextEpisode
from graph.agent.linking import AmbiguousSpan
from graph.agent.recall import MAX_FACTS, facts_query
from graph.agent.render import EntityMatch, EventNote, Statement, approx_tokens, day, event_line, fact_line
from graph.agent.search import now, statement
from graph.codemode import builds, conventions
from graph.codemode.builds import BuildNote
from graph.codemode.conventions import Convention
from graph.codemode.section import codemode_sections
from graph.errors import WorldmemError
from graph.finder import search as finder
from graph.finder import sizes
from graph.finder.rounds import owner_rounds
from graph.finder.vector_list import EXACT_BELOW
from graph.platform import metrics
from graph.platform.db import Database
from graph.platform.tracing import span
from graph.sql import load

log = logging.getLogger("worldmem.context")

RECENT = timedelta(days=30)
MAX_POLICIES = 50
PER_EVENTS = {"per_entity": 3, "per_chat": 5, "per_open": 3}
EVENTS = {**PER_EVENTS, "limit": 8}
PREFERENCE_PREDICATES = frozenset({"prefers"})
CHAT_LEVEL = scopes.LEVELS["chat"]


class ContextRequest(BaseModel):
    chat_id: str | None = Field(default=None, max_length=200)
    message: str = Field(default="", max_length=20_000)
    scope_chain: list[str] = Field(default_factory=list, max_length=20,
                                   description="Scope refs, most specific first (chat:<chatId> is added)")
    budget_tokens: int = Field(default=1000, ge=50, le=100_000, description="About 4 characters a token")
    at: datetime | None = Field(default=None, description="The moment to describe; now by default")


class LinkedEntity(BaseModel):
    entity: EntityMatch
    statements: list[Statement] = Field(default_factory=list)


class WorldContext(BaseModel):
    markdown: str = ""
    tokens: int = 0
    budget_tokens: int = 0
    scope_chain: list[str] = Field(default_factory=list)
    owner_ref: str | None = None
    linked: list[LinkedEntity] = Field(default_factory=list)
    ambiguous: list[AmbiguousSpan] = Field(default_factory=list)
    policies: list[Statement] = Field(default_factory=list)
    preferences: list[Statement] = Field(default_factory=list)
    events: list[EventNote] = Field(default_factory=list)
    conventions: list[Convention] = Field(default_factory=list,
                                          description="Code mode: in effect for the chain's repo/project/folder")
    builds: list[BuildNote] = Field(default_factory=list, description="Code mode: newest build and test results")
    episodes: list[ContextEpisode] = Field(default_factory=list, description=(
        "Past turns that answer the message when the linked facts do not (graph.agent.context_episodes)"))
    dropped: int = Field(default=0, description="Lines left out to fit the budget")
    warnings: list[str] = Field(default_factory=list)


def world_context(db: Database, owner: str, request: ContextRequest, *, spare: bool = False) -> WorldContext:
    """The block, or an empty one with a warning: memory never breaks the agent's run. `spare`: a question
    may read its past turns on a second pooled connection beside the block (context_episodes.ahead).

    Traced as the span context.build (sizes only, no content) and timed in the latency histogram.
    """
    try:
        with span("context.build", budget_tokens=request.budget_tokens) as current, \
                metrics.context_build_seconds.time():
            result = build(db, owner, request, spare=spare)
            current.set_attribute("linked", len(result.linked))
            current.set_attribute("dropped", result.dropped)
            return result
    except Exception as exc:
        reason = exc.message if isinstance(exc, WorldmemError) else "internal error"
        log.exception("world context failed for chat %s", request.chat_id)
        return WorldContext(budget_tokens=request.budget_tokens,
                            warnings=[f"memory unavailable ({reason}); continuing without world state"])


def build(db: Database, owner: str, req: ContextRequest, *, spare: bool = False) -> WorldContext:
    at = req.at or now()
    # a question's turns beside the block: for an owner known to have turns (graph.finder.sizes, counted in
    # the block's round when not known), while the pool has a connection idle (under load a second connection
    # is another request's; the mixed load's figures are in docs/episodes.md)
    size = sizes.remembered(owner, time.monotonic())
    early = context_episodes.ahead(db, owner, req.message, at, req.at is not None) if (
        spare and size is not None and size.turns and db.idle()) else None
    found = linking.spans(req.message)
    chat_ns = linking.chat_namespace(req.chat_id)
    # One round trip for a chat turn: the entities and, for each one found, its facts and events
    # (graph.agent.context_rows keeps the linked ones'), and the containers of the request's scopes when it
    # names any (without, codemode_scope_parents has nothing to look up); code mode and the finder's fallback
    # take a second.
    scoped = [(load("codemode_scope_parents"), conventions.parents_params(req.scope_chain, at))] \
        if req.scope_chain else []
    counting = [sizes.count(EXACT_BELOW)] if size is None else []
    block_rows, *scope_rows = db.read_round(
        owner, [(load("context_block"), block_params(found, at, req.chat_id)), *scoped, *counting],
        generic_plans=True)
    if counting:
        sizes.counted(owner, scope_rows.pop(), time.monotonic())
    parents = scope_rows[0] if scope_rows else []
    block = context_rows.split(block_rows)
    rows = block.entities
    linked, unclear = linking.link(found, rows, chat_ns, at)
    from_finder = not linked and not unclear and bool(found)
    if from_finder:  # lazy: the finder only when linking found nothing
        linked = finder.context_entities(owner_rounds(db, owner, spare=False), req.message, at)
    me = _owner(rows)
    policy_ids = _unique(r["id"] for r in rows if r["via"] == "policy")
    linked_ids = [m.id for m in linked]
    ids = _unique([*linked_ids, *([me.id] if me else []), *policy_ids])
    chain = _chain(req, me, parents)
    code = [r for r in chain if conventions.is_code_scope(r)]  # code mode: a repo, project or folder in scope
    later: list[tuple[LiteralString, dict[str, Any]]] = []
    if from_finder and linked:  # entities the block did not read for
        later += [facts_query(ids, linked_ids, at),
                  (load("context_events"), {"ids": linked_ids, "chat_id": req.chat_id, "since": at - RECENT,
                                            **EVENTS})]
    if code:
        later += [(load("codemode_conventions"), conventions.conventions_params(chain, at)),
                  (load("codemode_build_state"), builds.params(code, at))]
    results = db.read_round(owner, later, generic_plans=True) if later else []
    if from_finder and linked:
        fact_rows, event_rows, *results = results
    else:
        fact_rows = context_rows.facts(block, ids, linked_ids, MAX_FACTS)
        event_rows = context_rows.events(block, linked_ids, EVENTS["limit"])
    rule_rows, run_rows = results if code else ([], [])
    about = _resolved(fact_rows, chain)
    result = WorldContext(
        budget_tokens=req.budget_tokens, scope_chain=chain, owner_ref=me.ref if me else None,
        ambiguous=unclear,
        policies=[s for pid in policy_ids for s in about.get(pid, []) if s.fact.predicate == "rule"],
        preferences=[s for s in about.get(me.id, []) if _preference(s)] if me else [],
        conventions=conventions.from_rows(rule_rows, chain), builds=builds.from_rows(run_rows))
    result.events = [_event(r) for r in event_rows if str(r["id"]) not in {b.id for b in result.builds}]
    shown = {s.fact.id for s in [*result.policies, *result.preferences, *(c.statement for c in result.conventions)]}
    result.linked = [LinkedEntity(entity=m, statements=[s for s in about.get(m.id, []) if s.fact.id not in shown])
                     for m in linked]
    spans = [str(r["span"]) for r in rows if r.get("span")]  # every name the message used, linked or not
    title = _past_turns(db, owner, req, result, at, spans, early)
    _fit(result, at, req.chat_id, title)
    return result


def _past_turns(db: Database, owner: str, req: ContextRequest, result: WorldContext, at: datetime,
                spans: list[str], early: Future[context_episodes.Rows] | None) -> str:
    """The few past turns the block shows when its facts do not answer the message (one more round, only
    then, unless `early` read it beside the block), and their section's title in the owner's language."""
    facts = [s for le in result.linked for s in le.statements] + result.preferences
    names = [*spans, *(n for le in result.linked for n in (le.entity.name, le.entity.matched))]
    if context_episodes.answered(req.message, facts, names):
        if early is not None:  # its connection back in the pool before the request gives up its second slot
            wait([early])
        return ""
    asked, more = context_episodes.queries(req.message, at, req.at is not None)
    if not asked:
        return ""
    # generic plans: with the server's default the turns' statement was planned anew on every call (its generic
    # plan looks dearer to the planner and takes the same index, finder_search_episodes.sql)
    rows, language = early.result() if early is not None else db.read_round(owner, asked, generic_plans=True)
    result.episodes = context_episodes.pick(req.message, rows, req.at)
    if more and len(result.episodes) < context_episodes.MAX_EPISODES:
        seen = {r["id"] for r in rows}
        rows += [r for r in db.read_round(owner, more, generic_plans=True)[0] if r["id"] not in seen]
        result.episodes = context_episodes.pick(req.message, rows, req.at)
    return context_episodes.title(language)


def block_params(found: list[linking.Span], at: datetime, chat_id: str | None, *, limit: int = MAX_FACTS,
                 per_entity: int = PER_EVENTS["per_entity"]) -> list[Any]:
    """context_block.sql's $1 ... $10."""
    return [linking.refs(found), linking.norms(found), at, MAX_POLICIES, limit, chat_id, at - RECENT, per_entity,
            PER_EVENTS["per_chat"], PER_EVENTS["per_open"]]


def _owner(rows: list[dict[str, Any]]) -> EntityMatch | None:
    """The owner's person entity: the block's 'owner' row (wm_owner_person decides, migrations/0085; a merged
    one stands for its survivor)."""
    chosen = next((r for r in rows if r["via"] == "owner"), None)
    if chosen is None:
        return None
    return EntityMatch(id=chosen["id"], ref=chosen["ref"], kind=chosen["kind"], name=chosen["name"],
                       score=1.0, via="owner", matched="me")


def _unique(ids: Any) -> list[UUID]:
    return list(dict.fromkeys(ids))


def _chain(req: ContextRequest, me: EntityMatch | None, parents: list[dict[str, Any]]) -> list[str]:
    """The request's scopes, each followed by the projects and folders holding it, then the chat and owner."""
    chain = conventions.expand(list(dict.fromkeys(req.scope_chain)), parents)
    for ref in (f"chat:{req.chat_id}" if req.chat_id else None, me.ref if me else None):
        if ref and ref not in chain:
            chain.append(ref)
    return chain


def _resolved(rows: list[dict[str, Any]], chain: list[str]) -> dict[UUID, list[Statement]]:
    """Statements per entity they are about, each group resolved for the scope chain on its own."""
    groups: dict[UUID, list[Statement]] = {}
    for row in rows:
        groups.setdefault(row["about_id"], []).append(statement(row))
    return {k: scopes.resolve(v, chain) for k, v in groups.items()}


def _preference(st: Statement) -> bool:
    return st.fact.predicate in PREFERENCE_PREDICATES or st.fact.memory_type == "preference"


def _event(row: dict[str, Any]) -> EventNote:
    return EventNote.model_validate({**row, "id": str(row["id"])})


def _rank(st: Statement) -> tuple[int, int, float, float]:
    f = st.fact
    return (scopes.level(f.scope), f.priority, f.confidence, f.recorded_at.timestamp())


def _fit(result: WorldContext, at: datetime, chat_id: str | None, past_title: str) -> None:
    """Render the markdown within the budget; what did not fit leaves the structured data too."""
    linked: list[Entry] = []
    for le in result.linked:
        e = le.entity
        linked.append(Entry(f'- **{e.ref}** — {e.name} ({e.kind}) · from "{e.matched}"'))
        subject_facts = [s for s in le.statements if s.subject == e.ref]
        linked += [Entry(f"  - {fact_line(s)}", item=s) for s in subject_facts]
        linked += [Entry(f"  - {fact_line(s)}", _rank(s), s) for s in le.statements if s.subject != e.ref]
    linked += [Entry(f'- "{a.span}" is ambiguous ({", ".join(a.candidates)}): not linked, ask which')
               for a in result.ambiguous]
    sections: list[Section] = [
        ("Policies", [Entry(f"- {fact_line(s)}", item=s) for s in result.policies]),
        ("Preferences", [Entry(f"- {fact_line(s)}", _rank(s), s) for s in result.preferences]),
        *codemode_sections(result.conventions, result.builds),
        ("Linked entities", linked),
        ("Recent events", [Entry(f"- {event_line(ev)}", item=ev, rank=(
            CHAT_LEVEL if chat_id and ev.chat_id == chat_id else 0, 0, 1.0, ev.occurred_at.timestamp()))
            for ev in result.events]),
        # a turn that answers the message outranks the events: the facts did not answer it
        (past_title, [Entry(f"- {e.text}", item=e, rank=(CHAT_LEVEL, 1, e.score, e.occurred_at.timestamp()))
                      for e in result.episodes]),
    ]
    head = f"## Known World State\n_{day(at)} · scope {' > '.join(result.scope_chain) or 'global'}_"
    result.dropped, over = trim(head, sections, result.budget_tokens)
    result.markdown = assemble(head, sections)
    result.tokens = approx_tokens(result.markdown)
    if over:
        result.warnings.append(f"policies and linked facts alone take {result.tokens} tokens, "
                               f"over the budget of {result.budget_tokens}")
    dropped = {id(e.item) for _, es in sections for e in es if not e.keep and e.item is not None}
    result.preferences = [s for s in result.preferences if id(s) not in dropped]
    result.events = [ev for ev in result.events if id(ev) not in dropped]
    result.conventions = [c for c in result.conventions if id(c) not in dropped]
    result.builds = [b for b in result.builds if id(b) not in dropped]
    result.episodes = [e for e in result.episodes if id(e) not in dropped]
    for le in result.linked:
        le.statements = [s for s in le.statements if id(s) not in dropped]
