"""GraphQL types of the agent's read tools and of worldContext. Each result carries typed data for the
explorer and `text`, the compact rendering the agent reads (graph.agent.render). Facts reuse the ledger's
`Fact` type; one mapping per view (`from_view`)."""

from __future__ import annotations

from datetime import datetime
from enum import Enum
from typing import Any

import strawberry
from strawberry.types import Info

from graph.agent import recall
from graph.agent import recall_graph as g
from graph.agent import render as r
from graph.agent import world_context as ctx
from graph.agent.context_episodes import ContextEpisode
from graph.agent.recall import HIDDEN
from graph.reads.causality import Effects, Explanation
from resolvers.codemode_types import BuildResult, ContextConvention
from resolvers.context import blocking, database, principal
from resolvers.episode_types import Episode
from resolvers.ledger_types import Fact, RetentionNotice


@strawberry.enum(description="Which lists searchWorldMemory fuses")
class SearchMode(Enum):
    HYBRID = strawberry.enum_value("hybrid", description="Names, words and meaning (the query embedded by the "
                                                         "server's model; text alone when none is configured)")
    TEXT = strawberry.enum_value("text", description="Names and words only: the query is not embedded (faster; "
                                                     "finds no paraphrase and nothing across languages)")


@strawberry.type(description="A fact as the agent reads it: its subject, the row, and one line of text")
class AgentFact:
    subject: str = strawberry.field(description="Ref of the subject entity")
    fact: Fact
    statement: strawberry.Private[r.Statement]

    @strawberry.field(description="The fact with its provenance suffix")
    def text(self) -> str:
        """Rendered when asked for: most reads select the fact alone, and rendering every line cost them time."""
        return r.fact_line(self.statement)

    @classmethod
    def from_view(cls, st: r.Statement) -> AgentFact:
        return cls(subject=st.subject, fact=Fact.from_view(st.fact), statement=st)


@strawberry.type(description="An entity that a name may refer to, and how it matched")
class EntityMatch:
    ref: str
    kind: str
    name: str
    score: float = strawberry.field(
        description="1.0 for an exact ref, name or alias; 0.8 for one inside the query; else trigram similarity")
    via: str = strawberry.field(
        description="ref | name | alias | name in query | alias in query | similar name | similar alias | owner")
    matched: str = strawberry.field(description="The name, alias, ref or message span that matched")

    @classmethod
    def from_view(cls, m: r.EntityMatch) -> EntityMatch:
        return cls(ref=m.ref, kind=m.kind, name=m.name, score=m.score, via=m.via, matched=m.matched)


def _matches(ms: list[r.EntityMatch]) -> list[EntityMatch]:
    return [EntityMatch.from_view(m) for m in ms]


@strawberry.type(description="Candidates for a name, best first; `ambiguous` when the name picks none")
class FindEntityResult:
    query: str
    kind: str | None
    matches: list[EntityMatch]
    ambiguous: bool
    message: str | None
    found: strawberry.Private[r.Found]

    @strawberry.field
    def text(self) -> str:
        """Rendered when asked for, as AgentFact.text."""
        return r.find_text(self.found)

    @classmethod
    def from_view(cls, f: r.Found) -> FindEntityResult:
        return cls(query=f.query, kind=f.kind, matches=_matches(f.matches), ambiguous=f.ambiguous,
                   message=f.message, found=f)


@strawberry.type(description="Facts about one entity; when no single entity is named, `entity` is null "
                             "and `candidates`/`message` say why")
class EntityFacts:
    query: str
    entity: EntityMatch | None
    aliases: list[str]
    facts: list[AgentFact]
    candidates: list[EntityMatch]
    heading: str | None
    message: str | None
    retention: RetentionNotice | None = strawberry.field(description=(
        "Set when the read reaches behind the retention edge (a time before it, or a history with pruned rows); "
        "its message also ends `text`"))
    about: strawberry.Private[r.About]

    @strawberry.field
    def text(self) -> str:
        """Rendered when asked for, as AgentFact.text."""
        return r.about_text(self.about)

    @strawberry.field
    async def description(self, info: Info[Any, Any]) -> str | None:
        """The entity's description, as known at systemTime when one was asked (read only when selected)."""
        if self.about.described or self.about.entity is None:
            return self.about.description
        return await blocking(recall.description, database(info), principal(info).owner, self.about.entity.id)

    @classmethod
    def from_view(cls, a: r.About) -> EntityFacts:
        return cls(query=a.query, entity=EntityMatch.from_view(a.entity) if a.entity else None,
                   aliases=a.aliases, facts=[AgentFact.from_view(s) for s in a.statements],
                   candidates=_matches(a.candidates), heading=a.heading, message=a.message,
                   retention=RetentionNotice.from_model(a.retention), about=a)


@strawberry.type(description="A summary, rollup or event summary the finder holds: a hint with the time it "
                               "covers, never a current belief (read those from the ledger)")
class MemoryMatch:
    id: strawberry.ID
    source_kind: str = strawberry.field(description="summary | rollup | event_summary")
    text: str
    valid_from: datetime | None
    valid_to: datetime | None
    about: list[str] = strawberry.field(description="Refs of the entities it is about")

    @classmethod
    def from_view(cls, m: r.MemoryMatch) -> MemoryMatch:
        return cls(id=strawberry.ID(str(m.id)), source_kind=m.source_kind, text=m.text, valid_from=m.valid_from,
                   valid_to=m.valid_to, about=m.about)


@strawberry.type(description="An entity (by name, alias, text or meaning), a current fact (by value or as the "
                             "answer to a question), an episode (a chat turn) or a memory (a summary or rollup)")
class SearchHit:
    score: float = strawberry.field(description="Reciprocal rank fusion of the lists that found it")
    entity: EntityMatch | None
    fact: AgentFact | None
    memory: MemoryMatch | None
    episode: Episode | None
    found_by: list[str] = strawberry.field(description=(
        "name | fact | answer | value | text | episode | episode_meaning | meaning"))
    matched: str | None = strawberry.field(description="The name, value or text that matched")
    hit: strawberry.Private[r.SearchHit]

    @strawberry.field(description="The hit as the agent reads it (an episode: speaker, day and words)")
    def text(self) -> str:
        return r.hit_line(self.hit)


@strawberry.input(description="World (valid) time: facts and memories valid at some point in [from, to)")
class TimeRange:
    from_: datetime | None = strawberry.field(name="from", default=None)
    to: datetime | None = None


@strawberry.type(description="The time a search query named and the search used as its window")
class SearchWindow:
    words: str = strawberry.field(description="The words of the query that named it")
    label_de: str = strawberry.field(description="The window in German (\"März 2025\")")
    label_en: str = strawberry.field(description="The window in English (\"March 2025\")")


@strawberry.type
class SearchResult:
    query: str
    hits: list[SearchHit]
    message: str | None
    mode: str | None = strawberry.field(description="hybrid (meaning + text + names: the meaning list searched "
                                                    "embedded rows), or text (see `waiting`)")
    waiting: str | None = strawberry.field(description="Why the meaning list did not search, when it did not")
    valid_from: datetime | None = strawberry.field(description="The time window used (validTime or timeRange)")
    valid_to: datetime | None
    window: SearchWindow | None = strawberry.field(
        description="Without validTime and timeRange: the time the query named, read as the window "
                    "(validFrom, validTo)")
    result: strawberry.Private[r.SearchResult]

    @strawberry.field
    def text(self) -> str:
        """Rendered when asked for, as AgentFact.text."""
        return r.search_text(self.result)

    @classmethod
    def from_view(cls, s: r.SearchResult) -> SearchResult:
        hits = [SearchHit(score=h.score, entity=EntityMatch.from_view(h.entity) if h.entity else None,
                          fact=AgentFact.from_view(h.statement) if h.statement else None,
                          memory=MemoryMatch.from_view(h.memory) if h.memory else None,
                          episode=Episode.from_view(h.episode) if h.episode else None,
                          found_by=h.found_by, matched=h.matched, hit=h) for h in s.hits]
        return cls(query=s.query, hits=hits, message=s.message, mode=s.mode, waiting=s.waiting,
                   valid_from=s.valid_from, valid_to=s.valid_to,
                   window=SearchWindow(words=s.window.words, label_de=s.window.label_de, label_en=s.window.label_en)
                   if s.window else None, result=s)


@strawberry.type(description="A past turn that answers the message where the linked facts do not")
class ContextTurn:
    id: strawberry.ID = strawberry.field(description="The turn's id")
    occurred_at: datetime
    text: str = strawberry.field(description="Speaker, day and words, as search hits render a turn")

    @classmethod
    def from_view(cls, e: ContextEpisode) -> ContextTurn:
        return cls(id=strawberry.ID(e.id), occurred_at=e.occurred_at, text=e.text)


@strawberry.type(description="A world event and its direct cause")
class ContextEvent:
    id: strawberry.ID
    occurred_at: datetime
    event_type: str
    summary: str | None
    target: str | None
    chat_id: str | None
    cause_type: str | None
    cause_summary: str | None
    intent: str | None
    intent_outcome: str | None
    text: str

    @classmethod
    def from_view(cls, e: r.EventNote) -> ContextEvent:
        return cls(**e.model_dump(exclude={"id"}), id=strawberry.ID(e.id), text=r.event_line(e))


@strawberry.type
class LinkedEntity:
    entity: EntityMatch
    facts: list[AgentFact]


@strawberry.type(description="A message span that names several entities equally well: not linked")
class AmbiguousSpan:
    span: str
    candidates: list[str]


@strawberry.type(description="The Known World State for one turn: markdown for the prompt, and its parts")
class WorldContext:
    markdown: str = strawberry.field(description="Empty when memory was unavailable (see warnings)")
    tokens: int = strawberry.field(description="Approximate size (characters / 4)")
    budget_tokens: int
    scope_chain: list[str]
    owner_ref: str | None
    linked: list[LinkedEntity]
    ambiguous: list[AmbiguousSpan]
    policies: list[AgentFact]
    preferences: list[AgentFact]
    events: list[ContextEvent]
    conventions: list[ContextConvention] = strawberry.field(
        description="Code mode (a repo, project or folder in the scope chain): in effect, most specific first")
    builds: list[BuildResult] = strawberry.field(description="Code mode: newest build and test results")
    past_turns: list[ContextTurn] = strawberry.field(
        description="At most 3 past turns that answer the message when the linked facts do not, best first "
                    "(with validTime: those said around it)")
    dropped: int = strawberry.field(description="Lines left out to fit the budget")
    warnings: list[str]

    @classmethod
    def from_view(cls, w: ctx.WorldContext) -> WorldContext:
        def facts(sts: list[r.Statement]) -> list[AgentFact]:
            return [AgentFact.from_view(s) for s in sts]

        return cls(
            markdown=w.markdown, tokens=w.tokens, budget_tokens=w.budget_tokens, scope_chain=w.scope_chain,
            owner_ref=w.owner_ref, dropped=w.dropped, warnings=w.warnings,
            linked=[LinkedEntity(entity=EntityMatch.from_view(le.entity), facts=facts(le.statements))
                    for le in w.linked],
            ambiguous=[AmbiguousSpan(span=a.span, candidates=a.candidates) for a in w.ambiguous],
            policies=facts(w.policies), preferences=facts(w.preferences),
            events=[ContextEvent.from_view(e) for e in w.events],
            conventions=[ContextConvention.from_view(c) for c in w.conventions],
            builds=[BuildResult.from_view(b) for b in w.builds],
            past_turns=[ContextTurn.from_view(e) for e in w.episodes])


@strawberry.type(description="A relationship met while walking out from an entity")
class NeighborHop:
    depth: int = strawberry.field(description="1 = touches the entity asked about")
    label: str = strawberry.field(description="The predicate read from `source` (inverse for incoming)")
    source: str
    target: str
    fact: AgentFact | None


@strawberry.type(description="Entities related to one entity; `entity` null (with `message`) when none is named")
class NeighborsResult:
    query: str
    entity: EntityMatch | None
    hops: list[NeighborHop]
    candidates: list[EntityMatch]
    message: str | None
    text: str

    @classmethod
    def from_view(cls, n: g.Neighbors) -> NeighborsResult:
        hops = [NeighborHop(depth=h.depth, label=h.label, source=h.source, target=h.target,
                            fact=AgentFact.from_view(h.statement) if h.statement else None) for h in n.hops]
        return cls(query=n.query, entity=EntityMatch.from_view(n.entity) if n.entity else None, hops=hops,
                   candidates=_matches(n.candidates), message=n.message, text=g.neighbors_text(n))


@strawberry.type(description="What an event or a run caused: events (depth 0 = where it started) and facts")
class EffectsResult:
    query: str
    found: bool
    events: list[ContextEvent]
    facts: list[AgentFact]
    text: str

    @classmethod
    def from_view(cls, query: str, e: Effects | None) -> EffectsResult:
        return cls(query=query, found=e is not None, text=g.effects_text(query, e),
                   events=[ContextEvent.from_view(g.note(ev)) for ev in e.events] if e else [],
                   facts=[AgentFact.from_view(r.Statement(subject=f.subject_ref, fact=f.fact)) for f in e.facts
                          if f.fact.status not in HIDDEN] if e else [])


@strawberry.type(description="Why a fact is what it is: what it replaced, its causes back to the root")
class ExplanationResult:
    query: str
    fact: AgentFact | None
    causes: list[ContextEvent] = strawberry.field(description="The causing event first, the root last")
    hypothesis: bool = strawberry.field(description="True when a link of the chain is only inferred")
    retention: RetentionNotice | None = strawberry.field(description="Set when the chain ends where retention "
                                                                     "pruned older rows of the series")
    text: str

    @classmethod
    def from_view(cls, query: str, x: Explanation | None) -> ExplanationResult:
        return cls(query=query, text=g.explanation_text(query, x), hypothesis=bool(x and x.hypothesis),
                   retention=RetentionNotice.from_model(x.retention if x else None),
                   fact=AgentFact.from_view(r.Statement(subject=x.subject_ref, fact=x.fact)) if x else None,
                   causes=[ContextEvent.from_view(g.note(c)) for c in x.causes] if x else [])
