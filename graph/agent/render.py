"""What the agent reads: the views its tools answer with, and their compact text (pure functions).

One line per fact, with a uniform provenance suffix:

    pet:luna feeding_time = "07:00" · 👤 2026-11-02 · scope chat:c1 · ●●●●

The suffix is: who said it (👤 user, 🤖 agent or another core writer, 🔌 integration), the day it was
recorded (UTC), its scope if any, the confidence as four dots (rounded to quarters) and the lifecycle
status when it is not active. A value whose valid time does not simply start on the day it was recorded
says so before the suffix: `(since 2026-10-15)` or `(valid 2026-10-01 → 2026-11-01)`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from uuid import UUID

from pydantic import BaseModel, Field

from graph.episodes.model import Episode, episode_line
from graph.errors import BadInput
from graph.ledger.trust import INTEGRATION, source_tier
from graph.reads.temporal import FactView
from graph.retention.notice import RetentionNotice

SEP = " · "
USER, AGENT, PLUG = "👤", "🤖", "🔌"


class Statement(BaseModel):
    """A fact as the agent reads it: the ref it is about (its subject) and the stored row."""

    subject: str = Field(description="Ref of the subject entity")
    functional: bool = Field(default=True, description="One value at a time (else a set predicate)")
    fact: FactView


class EntityMatch(BaseModel):
    """A candidate entity for a name, with how it matched."""

    id: UUID
    ref: str
    kind: str
    name: str
    score: float = Field(description="1.0 for an exact ref, name or alias; 0.8 for one inside the query; trigram "
                               "similarity otherwise")
    via: str = Field(description="ref | name | alias | name in query | alias in query | similar name | similar alias")
    matched: str = Field(description="The name, alias or ref that matched")


class Found(BaseModel):
    """find_entity's answer: ranked candidates, whether the name picks one, and a message if not."""

    query: str
    kind: str | None = None
    matches: list[EntityMatch] = Field(default_factory=list)
    ambiguous: bool = False
    message: str | None = None

    @property
    def unique(self) -> EntityMatch | None:
        return self.matches[0] if self.matches and not self.ambiguous else None


class MemoryMatch(BaseModel):
    """A summary, rollup or event summary the finder holds (a projection, never a belief itself): its text,
    the time it covers and the entities it is about."""

    id: UUID
    source_kind: str = Field(description="summary | rollup | event_summary")
    text: str
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    about: list[str] = Field(default_factory=list, description="Refs of the entities it is about")


class SearchHit(BaseModel):
    """An entity (by name, alias, text or meaning), a current fact (by value) or a memory (a summary or
    rollup) that matches a search, with the lists that found it and the text that matched."""

    score: float
    entity: EntityMatch | None = None
    statement: Statement | None = None
    memory: MemoryMatch | None = None
    episode: Episode | None = None
    found_by: list[str] = Field(default_factory=list,
                                description="name | fact | answer | value | text | episode | episode_meaning | meaning")
    matched: str | None = Field(default=None, description="The name, value or projection text that matched")


class ReadWindow(BaseModel):
    """A time written into a search query ("in 2025", "letzten März") and read as its window."""

    words: str = Field(description="The words of the query that named the time")
    label_de: str
    label_en: str


class SearchResult(BaseModel):
    query: str
    hits: list[SearchHit] = Field(default_factory=list)
    message: str | None = None
    mode: str | None = Field(default=None, description="hybrid (meaning + text + names), or text (full text and "
                                                        "names only: no embedding model, it failed, or nothing "
                                                        "is embedded yet)")
    waiting: str | None = Field(default=None, description="Why the meaning list did not search")
    valid_from: datetime | None = Field(default=None, description="The time window the search used")
    valid_to: datetime | None = None
    window: ReadWindow | None = Field(default=None, description="The time the question named, when the search "
                                                                 "read its window from the words")


class EventNote(BaseModel):
    """A world event with its immediate cause, as the context builder and the tools show it."""

    id: str
    occurred_at: datetime
    event_type: str
    summary: str | None = None
    target: str | None = Field(default=None, description="Ref of the entity the event is about")
    chat_id: str | None = None
    cause_type: str | None = None
    cause_summary: str | None = None
    intent: str | None = None
    intent_outcome: str | None = None


class About(BaseModel):
    """What a read tool says about one entity: its facts, or why there is no single entity to talk about."""

    query: str = Field(description="What the caller named (a ref, an alias or words)")
    entity: EntityMatch | None = None
    aliases: list[str] = Field(default_factory=list)
    statements: list[Statement] = Field(default_factory=list)
    candidates: list[EntityMatch] = Field(default_factory=list, description="When the name was ambiguous")
    heading: str | None = Field(default=None, description="What the statements are, e.g. a history")
    message: str | None = None
    notice: str | None = Field(default=None, description="Said after the facts, e.g. that a read reaches "
                                                         "behind the retention edge (graph.retention.notice)")
    retention: RetentionNotice | None = Field(default=None, description="The retention notice, typed")
    described: bool = Field(default=False, description="`description` was read (for an instant); else ask "
                                                       "graph.agent.recall.description when it is wanted")
    description: str | None = Field(default=None, description="The entity's description as known then")


def source_icon(source: str) -> str:
    if source == "user":
        return USER
    try:
        return PLUG if source_tier(source) >= INTEGRATION else AGENT
    except BadInput:
        return AGENT


def dots(confidence: float) -> str:
    """Confidence as four dots, rounded half up to the nearest quarter: 0.75 -> ●●●○."""
    filled = min(4, max(0, math.floor(confidence * 4 + 0.5)))
    return "●" * filled + "○" * (4 - filled)


def day(t: datetime) -> str:
    return t.astimezone(UTC).date().isoformat()


def minute(t: datetime) -> str:
    return t.astimezone(UTC).strftime("%Y-%m-%d %H:%M")


def value(fact: FactView) -> str:
    """The object: a ref for relationships, compact JSON for literals (strings keep their quotes)."""
    if fact.object_ref is not None:
        return fact.object_ref
    return json.dumps(fact.value, ensure_ascii=False, separators=(", ", ": "))


def validity(fact: FactView) -> str:
    """Empty when the value simply holds from the day it was recorded on."""
    if fact.valid_to is not None:
        return f" (valid {day(fact.valid_from)} → {day(fact.valid_to)})"
    if day(fact.valid_from) != day(fact.recorded_at):
        return f" (since {day(fact.valid_from)})"
    return ""


def provenance(fact: FactView) -> str:
    parts = [f"{source_icon(fact.source)} {day(fact.recorded_at)}"]
    if fact.scope:
        parts.append(f"scope {fact.scope}")
    parts.append(dots(fact.confidence))
    if fact.status != "active":
        parts.append(fact.status)
    return SEP.join(parts)


def fact_line(st: Statement) -> str:
    f = st.fact
    claim = f"{st.subject} {f.predicate} {value(f)}" if f.object_ref else f"{st.subject} {f.predicate} = {value(f)}"
    return claim_line(claim, f)


def claim_line(claim: str, fact: FactView) -> str:
    """Any wording of a fact (e.g. a relationship read backwards) with the fact's validity and provenance."""
    return f"{claim}{validity(fact)}{SEP}{provenance(fact)}"


def entity_line(match: EntityMatch) -> str:
    return f"{match.ref} — {match.name} ({match.kind})"


def candidate_line(match: EntityMatch) -> str:
    how = f'{match.via} "{match.matched}"' if match.via != "ref" else "ref"
    return f"- {entity_line(match)}{SEP}{how}{SEP}{match.score:.2f}"


def bullets(lines: Iterable[str], indent: str = "") -> list[str]:
    return [f"{indent}- {line}" for line in lines]


def no_match(query: str, what: str = "entity") -> str:
    return f'No {what} matches "{query}". Try find_entity or search_world_memory with other words.'


def ambiguous(query: str, candidates: Sequence[EntityMatch]) -> str:
    head = f'"{query}" is ambiguous: {len(candidates)} entities match. Name one by its ref:'
    return "\n".join([head, *(candidate_line(c) for c in candidates)])


def event_line(event: EventNote) -> str:
    parts = [minute(event.occurred_at), event.event_type]
    if event.summary:
        parts.append(event.summary)
    if event.target:
        parts.append(f"about {event.target}")
    line = SEP.join(parts)
    if event.cause_type:
        cause = f"{event.cause_type} {_quote(event.cause_summary)}" if event.cause_summary else event.cause_type
        line += f" ← caused by {cause}"
    if event.intent:
        line += f"{SEP}intent {_quote(event.intent)}"
        if event.intent_outcome:
            line += f" → {event.intent_outcome}"
    return line


def _quote(text: str | None) -> str:
    return json.dumps(text or "", ensure_ascii=False)


def facts_block(statements: Sequence[Statement], empty: str = "(no current facts)") -> list[str]:
    return bullets(fact_line(s) for s in statements) if statements else [empty]


def approx_tokens(text: str) -> int:
    """The budget's unit: about four characters per token."""
    return math.ceil(len(text) / 4)


def find_text(found: Found) -> str:
    if not found.matches:
        return found.message or no_match(found.query)
    if found.ambiguous:
        return ambiguous(found.query, found.matches)
    best, others = found.matches[0], found.matches[1:]
    lines = [f'"{found.query}" is {best.ref}:', candidate_line(best)]
    if others:
        lines += ["Less likely:", *(candidate_line(c) for c in others)]
    return "\n".join(lines)


def search_text(result: SearchResult) -> str:
    if not result.hits:
        return result.message or f'Nothing in memory matches "{result.query}".'
    n = len(result.hits)
    lines = [f'Search "{result.query}": {n} {"hit" if n == 1 else "hits"}, best first'
             + (" (by text and names only)" if result.mode == "text" else "")]
    lines += [f"- {hit_line(hit)}" for hit in result.hits]
    return "\n".join(lines)


def hit_line(hit: SearchHit) -> str:
    """One hit as the agent reads it; an episode with its speaker, the day it was said and the words."""
    if hit.entity is not None:
        return f"{entity_line(hit.entity)}{SEP}{hit.entity.via} \"{hit.entity.matched}\""
    if hit.statement is not None:
        return fact_line(hit.statement)
    if hit.episode is not None:
        return f"(said in chat {hit.episode.chat_id}) {episode_line(hit.episode)[:600]}"
    if hit.memory is not None:
        return memory_line(hit.memory)
    return hit.matched or ""


def memory_line(m: MemoryMatch) -> str:
    """A summary as a hint, never as a current belief: its kind, the time it covers, what it is about."""
    span = f"{_day(m.valid_from)} → {_day(m.valid_to)}" if m.valid_from or m.valid_to else ""
    about = f"{SEP}about {', '.join(m.about)}" if m.about else ""
    text = " ".join(m.text.split())
    return f"({m.source_kind}{' ' + span if span else ''}) {text[:300]}{about}"


def _day(t: datetime | None) -> str:
    return t.astimezone(UTC).date().isoformat() if t else "…"


def about_text(about: About, empty: str = "(no current facts)") -> str:
    if about.entity is None:
        if about.candidates and about.message:
            return "\n".join([about.message, *(candidate_line(c) for c in about.candidates)])
        return about.message or no_match(about.query)
    head = entity_line(about.entity)
    if about.aliases:
        head += f"{SEP}aliases: {', '.join(about.aliases)}"
    lines = [head]
    if about.heading:
        lines.append(about.heading)
    lines += facts_block(about.statements, empty)
    if about.notice:
        lines.append(about.notice)
    return "\n".join(lines)
