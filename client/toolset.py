"""worldmem's read tools as a pydantic-ai `FunctionToolset`. Each tool returns the text the agent reads.

Refs (`kind:slug`) that one tool prints are what the others take. A refused input (e.g. a time without
a UTC offset) comes back to the model as a retry with the server's message; when memory is unavailable
the tool says so in its answer instead of failing the run.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from datetime import date
from functools import wraps
from typing import Annotated, Any, ParamSpec

from pydantic import AwareDatetime, BeforeValidator, WithJsonSchema
from pydantic_ai import ModelRetry
from pydantic_ai.toolsets import FunctionToolset

from client.http import MemoryUnavailable, ToolInputError, WorldmemClient

P = ParamSpec("P")
DATE_ONLY = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def _only_a_date(value: object) -> object:
    """A date is the date alone (2026-01-01), as in GraphQL; a time without an offset stays ambiguous."""
    if isinstance(value, str) and not DATE_ONLY.match(value):
        raise ValueError("a date alone (2026-01-01), or a time with a UTC offset")
    return value


PlainDate = Annotated[date, BeforeValidator(_only_a_date), WithJsonSchema({"type": "string", "format": "date"})]
# What GraphQL's DateTime takes: a time with a UTC offset, or a date alone (that day's midnight UTC)
When = AwareDatetime | PlainDate
UNAVAILABLE = "Memory is unavailable right now ({reason}); answer without it and say so if it matters."


def guarded(tool: Callable[P, Awaitable[str]]) -> Callable[P, Awaitable[str]]:
    @wraps(tool)
    async def run(*args: P.args, **kwargs: P.kwargs) -> str:
        try:
            return await tool(*args, **kwargs)
        except ToolInputError as exc:
            raise ModelRetry(f"{exc.code}: {exc}") from exc
        except MemoryUnavailable as exc:
            return UNAVAILABLE.format(reason=exc)

    return run


def worldmem_toolset(client: WorldmemClient) -> FunctionToolset[Any]:
    """The tools find_entity, get_entity, recall_facts_about, get_fact_history, get_neighbors, state_at,
    state_as_known_at, effects_of, explain_change and search_world_memory, bound to `client`."""

    async def find_entity(query: str, kind: str | None = None) -> str:
        """Find the entities a name may refer to, best first. Exact ref, alias or name wins; if several
        fit equally the answer says it is ambiguous and lists their refs: ask the user, do not guess.

        Args:
            query: a name, alias or `kind:slug` ref, e.g. "Luna" or "pet:luna"
            kind: only entities of this kind, e.g. "pet"
        """
        return await client.find_entity(query, kind)

    async def get_entity(ref: str) -> str:
        """An entity with its aliases and every current fact (relationships both ways).

        Args:
            ref: the entity's `kind:slug` ref or an alias
        """
        return await client.get_entity(ref)

    async def recall_facts_about(entity_or_query: str, predicate: str | None = None, scope: str | None = None) -> str:
        """Current facts about one entity, named by ref, alias or words.

        Args:
            entity_or_query: a ref, alias or name of the entity
            predicate: only predicates matching this glob, e.g. "feeding*"
            scope: the ref of the current scope (e.g. "chat:c1"); the most specific scoped fact wins
        """
        return await client.recall_facts_about(entity_or_query, predicate, scope)

    async def get_fact_history(ref: str, predicate: str) -> str:
        """Every value ever recorded for one attribute, oldest first, with what was superseded and when.

        Args:
            ref: the entity's ref or alias
            predicate: the attribute, e.g. "feeding_time"
        """
        return await client.get_fact_history(ref, predicate)

    async def state_at(ref: str, valid_time: When | None = None) -> str:
        """What is believed now about an entity as it was (or will be) at a point of world time.

        Args:
            ref: the entity's ref or alias
            valid_time: ISO 8601 with a UTC offset (2026-10-01T12:00:00Z) or a date (2026-10-01, midnight
                UTC); omitted: now
        """
        return await client.state_at(ref, valid_time)

    async def state_as_known_at(ref: str, system_time: When, valid_time: When | None = None) -> str:
        """What memory believed at an earlier moment (system time) about an entity, e.g. to explain an
        earlier answer.

        Args:
            ref: the entity's ref or alias
            system_time: when memory knew it, ISO 8601 with a UTC offset or a date (midnight UTC)
            valid_time: the world time asked about; defaults to system_time
        """
        return await client.state_as_known_at(ref, system_time, valid_time)

    async def get_neighbors(ref: str, depth: int = 1) -> str:
        """Entities related to one entity, in both directions, with each relationship's provenance.

        Args:
            ref: the entity's ref or alias
            depth: 1 (direct relationships) to 3
        """
        return await client.get_neighbors(ref, depth)

    async def effects_of(event_or_run: str, depth: int = 3) -> str:
        """What an event or an agent run caused: the events that followed and the facts they changed.

        Args:
            event_or_run: an event id or a run id
            depth: how many causal steps to follow (0-10)
        """
        return await client.effects_of(event_or_run, depth)

    async def explain_change(ref: str | None = None, predicate: str | None = None, fact_id: str | None = None) -> str:
        """Why a fact is what it is: what it replaced, the events that caused it back to the root (e.g. the
        user's message), the intent behind them and the evidence. Name the fact by ref and predicate or by id.

        Args:
            ref: the entity's ref or alias
            predicate: the attribute or relationship, e.g. "feeding_time"
            fact_id: the fact's id, instead of ref and predicate
        """
        return await client.explain_change(ref, predicate, fact_id)

    async def search_world_memory(query: str) -> str:
        """Search memory by meaning and by words, in German or English: names, aliases, current fact values, summaries.

        Args:
            query: a few words, e.g. "vet advice"
        """
        return await client.search_world_memory(query)

    tools: list[Callable[..., Awaitable[str]]] = [
        find_entity, get_entity, recall_facts_about, get_fact_history, get_neighbors, state_at, state_as_known_at,
        effects_of, explain_change, search_world_memory]
    return FunctionToolset([guarded(t) for t in tools])

