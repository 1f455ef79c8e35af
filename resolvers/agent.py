"""The agent's read tools and the context builder over GraphQL (owner-scoped by the token).

Every tool field answers with typed data and `text` for the agent. Tools never guess: a name that fits
several entities comes back with `candidates`, an unknown one with a `message` (both also in `text`).
`worldContext` never fails: any error becomes an empty block with a warning.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any
from uuid import UUID

import strawberry
from strawberry.types import Info

from graph.agent import recall, recall_graph, search
from graph.agent import world_context as context
from graph.agent.render import SearchResult as SearchView
from graph.agent.world_context import ContextRequest
from graph.errors import BadInput
from graph.finder.embedders import Embedder, embedder_for
from graph.platform.db import Database
from graph.reads.temporal import Question
from resolvers import pinned
from resolvers.agent_types import (
    EffectsResult,
    EntityFacts,
    ExplanationResult,
    FindEntityResult,
    NeighborsResult,
    SearchMode,
    SearchResult,
    TimeRange,
    WorldContext,
)
from resolvers.context import blocking, database, principal, unavailable
from resolvers.fairness import offload_spare

log = logging.getLogger("worldmem.agent")
MAX_MESSAGE = 20_000
MAX_CHAIN = 20
MAX_FIND = 20


def _c(text: str | None) -> str | None:
    """Without NUL characters, which PostgreSQL text cannot hold (they would fail as an internal error)."""
    return text.replace("\x00", "") if text is not None else None


def _t(text: str) -> str:
    return text.replace("\x00", "")


def _clamp(value: int, low: int, high: int) -> int:
    return max(low, min(value, high))


async def find_entity(info: Info[Any, Any], query: str, kind: str | None = None, limit: int = 5) -> FindEntityResult:
    if not 1 <= limit <= MAX_FIND:
        raise BadInput(f"limit must be between 1 and {MAX_FIND}", code="BAD_LIMIT")
    found = await blocking(search.find_entity, database(info), principal(info).owner, _t(query), _c(kind), limit)
    return FindEntityResult.from_view(found)


async def get_entity(info: Info[Any, Any], ref: str, valid_time: datetime | None = None,
                     system_time: datetime | None = None) -> EntityFacts:
    """Now: one pinned statement. For an instant: aliases, beliefs and relationships of that instant."""
    if valid_time is None and system_time is None:
        return EntityFacts.from_view(await pinned.get_entity(database(info), principal(info).owner, _t(ref)))
    if system_time is not None:
        q = Question.known_at(system_time, valid_time)
    else:
        assert valid_time is not None
        q = Question.as_of(valid_time)
    return EntityFacts.from_view(await blocking(recall.get_entity_at, database(info), principal(info).owner,
                                                _t(ref), q))


async def recall_facts_about(info: Info[Any, Any], entity_or_query: str, predicate: str | None = None,
                             scope: str | None = None, scope_chain: list[str] | None = None) -> EntityFacts:
    chain = [_t(s) for s in [*([scope] if scope else []), *(scope_chain or [])][:MAX_CHAIN]] or None
    about = await blocking(recall.recall_facts_about, database(info), principal(info).owner, _t(entity_or_query),
                           _c(predicate), chain)
    return EntityFacts.from_view(about)


async def get_fact_history(info: Info[Any, Any], ref: str, predicate: str) -> EntityFacts:
    about = await blocking(recall.get_fact_history, database(info), principal(info).owner, _t(ref), _t(predicate))
    return EntityFacts.from_view(about)


async def get_state_at(info: Info[Any, Any], ref: str, valid_time: datetime) -> EntityFacts:
    about = await blocking(recall.state_at, database(info), principal(info).owner, _t(ref), valid_time)
    return EntityFacts.from_view(about)


async def get_state_as_known_at(info: Info[Any, Any], ref: str, system_time: datetime,
                                valid_time: datetime | None = None) -> EntityFacts:
    about = await blocking(recall.state_as_known_at, database(info), principal(info).owner, _t(ref), system_time,
                           valid_time)
    return EntityFacts.from_view(about)


async def search_world_memory(info: Info[Any, Any], query: str, limit: int = 10, kind: str | None = None,
                              time_range: TimeRange | None = None,
                              mode: SearchMode = SearchMode.HYBRID,
                              valid_time: datetime | None = None) -> SearchResult:
    span = time_range or TimeRange()
    if span.from_ and span.to and span.to <= span.from_:
        raise BadInput("timeRange: `to` must be after `from`", code="BAD_TIME")
    within = search.window(valid_time, span.from_, span.to)
    embedder = embedder_for(info.context.settings) if mode is SearchMode.HYBRID else None
    # no validTime nor timeRange: a time the query names is its window (an explicit one wins over the words)
    args = (database(info), principal(info).owner, _t(query), _clamp(limit, 1, 50), _c(kind),
            within if valid_time or span.from_ or span.to else None, embedder)
    # hybrid: the meaning list may take a second connection, only as one more slot of the owner's share
    result = await (offload_spare(_searched, *args) if embedder else blocking(_searched, False, *args))
    return SearchResult.from_view(result)


def _searched(spare: bool, db: Database, owner: str, query: str, limit: int, kind: str | None,
              within: search.Window | None, embedder: Embedder | None) -> SearchView:
    return search.search_world_memory(db, owner, query, limit, kind=kind, within=within, embedder=embedder,
                                      spare_connection=spare, read_time=within is None)


async def get_neighbors(info: Info[Any, Any], ref: str, depth: int = 1, predicates: list[str] | None = None,
                        valid_time: datetime | None = None) -> NeighborsResult:
    view = await blocking(recall_graph.get_neighbors, database(info), principal(info).owner, _t(ref),
                          _clamp(depth, 1, 3), [_t(p) for p in predicates] if predicates else None, valid_time)
    return NeighborsResult.from_view(view)


async def get_effects_of(info: Info[Any, Any], event_or_run: str, depth: int = 3) -> EffectsResult:
    effects = await blocking(recall_graph.effects_of, database(info), principal(info).owner, _t(event_or_run),
                             _clamp(depth, 0, 10))
    return EffectsResult.from_view(event_or_run, effects)


async def get_change_explanation(info: Info[Any, Any], ref: str | None = None, predicate: str | None = None,
                                 fact_id: strawberry.ID | None = None) -> ExplanationResult:
    try:
        fid = UUID(str(fact_id)) if fact_id is not None else None
    except ValueError:
        raise BadInput("factId is not a UUID", code="BAD_ID") from None
    x = await blocking(recall_graph.explain_change, database(info), principal(info).owner, _c(ref), _c(predicate),
                       fid)
    return ExplanationResult.from_view(str(fact_id) if fid else f"{ref} {predicate}", x)


async def world_context(info: Info[Any, Any], message: str, chat_id: str | None = None,
                        scope_chain: list[str] | None = None, budget_tokens: int = 1000,
                        scope: str | None = None, valid_time: datetime | None = None) -> WorldContext:
    if unavailable(info):  # the token could not even be checked: an empty block, no data
        return WorldContext.from_view(context.WorldContext(
            budget_tokens=budget_tokens, warnings=["memory unavailable (database not reachable); "
                                                   "continuing without world state"]))
    who = principal(info)  # outside the guard: an unauthenticated caller gets an error, not a block
    try:
        request = ContextRequest(chat_id=_t(chat_id)[:200] if chat_id else None, message=_t(message)[:MAX_MESSAGE],
                                 scope_chain=[_t(s) for s in [*([scope] if scope else []),
                                                              *(scope_chain or [])][:MAX_CHAIN]],
                                 budget_tokens=_clamp(budget_tokens, 50, 100_000), at=valid_time)
        view = await offload_spare(_context, database(info), who.owner, request)
    except Exception:
        log.exception("worldContext failed before the builder ran")
        view = context.WorldContext(budget_tokens=budget_tokens,
                                    warnings=["memory unavailable (internal error); continuing without world state"])
    return WorldContext.from_view(view)


def _context(spare: bool, db: Database, owner: str, request: ContextRequest) -> context.WorldContext:
    return context.world_context(db, owner, request, spare=spare)


@strawberry.type
class AgentQuery:
    find_entity: FindEntityResult = strawberry.field(
        resolver=find_entity, description="Entities a name may refer to: exact ref, alias or name first, "
                                          "then similar names; ambiguity is stated, never guessed")
    get_entity: EntityFacts = strawberry.field(
        resolver=get_entity, description="An entity by ref or alias: aliases and every fact, now or at an instant "
                                         "(validTime: as believed now about then; systemTime: as known then)")
    recall_facts_about: EntityFacts = strawberry.field(
        resolver=recall_facts_about, description="Current facts about an entity named by ref, alias or words; "
                                                 "`predicate` is a glob (feeding*); a scope (chain, most specific "
                                                 "first) resolves scoped facts")
    get_fact_history: EntityFacts = strawberry.field(
        resolver=get_fact_history, description="Every recorded value of (ref, predicate), superseded included")
    get_state_at: EntityFacts = strawberry.field(
        resolver=get_state_at, description="stateAt for the agent: what is believed now about validTime")
    get_state_as_known_at: EntityFacts = strawberry.field(
        resolver=get_state_as_known_at, description="stateAsKnownAt for the agent: what was believed at "
                                                    "systemTime about validTime (default systemTime)")
    get_neighbors: NeighborsResult = strawberry.field(
        resolver=get_neighbors, description="Entities related to one entity, both directions, depth 1-3 (only "
                                            "inference-enabled predicates past depth 1), as believed now")
    get_effects_of: EffectsResult = strawberry.field(
        resolver=get_effects_of, description="What an event (by id) or a run (by run id) caused")
    get_change_explanation: ExplanationResult = strawberry.field(
        resolver=get_change_explanation, description="Why a fact is what it is (factId, or ref + predicate): "
                                                     "what it replaced and its causes back to the root")
    search_world_memory: SearchResult = strawberry.field(
        resolver=search_world_memory, description="Hybrid search: names and aliases, current fact values, "
                                                  "and what the finder holds (entity texts, summaries, rollups) "
                                                  "by words (German and English) and by meaning, fused by "
                                                  "reciprocal rank fusion; `kind` filters entities, "
                                                  "`timeRange` the valid time of facts (episodes and memories: "
                                                  "those before its end, within it first); "
                                                  "`validTime`: facts as of it, episodes said up to a week after it "
                                                  "(those within a week of it first); "
                                                  "without either, a time the query names (\"in 2025\", "
                                                  "\"letzten März\") is the window (see `window`); "
                                                  "`mode` TEXT skips meaning (no query embedding)")
    world_context: WorldContext = strawberry.field(
        resolver=world_context, description="The Known World State block for one turn of a chat, within "
                                            "budgetTokens (about 4 characters each); never an error. `scope` "
                                            "(e.g. repo:home-agent) goes first in the scope chain; a repo, "
                                            "project or folder in it adds conventions and build state; "
                                            "`validTime`: the facts as believed now about that time "
                                            "(default now)")
