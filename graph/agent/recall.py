"""The agent's read tools about one entity: get_entity, recall_facts_about, get_fact_history, state_at,
state_as_known_at. Each answers with an `About` (graph.agent.render turns it into text).

An entity is named by ref or alias, or, for recall_facts_about, by words (the closest name, if it is a
clear winner). Ambiguous names are never guessed: the answer lists the candidates instead. Pending
beliefs are never shown; history shows superseded and invalidated rows with their status.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from fnmatch import fnmatchcase
from typing import Any, LiteralString
from uuid import UUID

import psycopg

from graph.agent import scopes
from graph.agent.render import About, EntityMatch, Statement, day
from graph.agent.search import EXACT, find, now, statement
from graph.erasure import erase
from graph.platform.db import Database
from graph.reads import suggest, temporal
from graph.reads.temporal import Question
from graph.sql import load

MAX_FACTS = 500
HIDDEN = ("pending", "proposed")


def named(conn: psycopg.Connection[Any], name: str, *, fuzzy: bool, q: Question | None = None) -> About:
    """An About naming one entity, or one with candidates and a message saying why not; resolved as of
    the question's system time (graph.reads.temporal.Question), now by default."""
    found = find(conn, name, system_time=q.system_time if q else None, follow=q.follows_merges if q else True)
    about = About(query=name)
    best = found.unique
    if best is not None and (fuzzy or best.score >= EXACT):
        about.entity = best
    elif found.ambiguous:
        about.candidates, about.message = found.matches, f'"{found.query}" is ambiguous; name one by its ref:'
    elif found.matches:
        about.candidates = found.matches
        about.message = f'No entity is named "{found.query}". Did you mean:'
    else:
        erased = erase.erased_error(conn, name)  # an erased ref says when it was erased, not "no entity"
        about.message = erased.message if erased else _later(conn, name, q) or found.message
    return about


def _later(conn: psycopg.Connection[Any], ref: str, q: Question | None) -> str | None:
    """Why a ref that exists now names nothing at the question's system time: it was recorded later."""
    later = suggest.recorded_later(conn, ref, q.system_time) if q is not None else None
    if later is None or q is None or q.system_time is None:
        return None
    return f'No entity "{ref}" was known on {day(q.system_time)}: it was first recorded on {day(later)}.'


def facts_query(ids: Sequence[UUID], incoming: Sequence[UUID], at: datetime
                ) -> tuple[LiteralString, dict[str, Any]]:
    """The statement of current facts of `ids` and relationships pointing at `incoming` (to send alone or
    along with others)."""
    return load("agent_facts_about"), {"ids": list(ids), "incoming_ids": list(incoming), "at": at,
                                       "limit": MAX_FACTS}


def facts_about(conn: psycopg.Connection[Any], ids: Sequence[UUID], incoming: Sequence[UUID],
                at: datetime) -> list[dict[str, Any]]:
    """Current facts of `ids` and relationships pointing at `incoming`, in one query."""
    return list(conn.execute(*facts_query(ids, incoming, at)).fetchall())


def get_entity(db: Database, owner: str, ref: str) -> About:
    """The entity (by ref or alias), its aliases and every current fact, relationships both ways. A ref names
    it in one statement that pins the owner itself, one round trip (agent_get_entity.sql,
    Database.read_pinned); any other name (an alias, a canonical name, a typo) is looked up by
    graph.agent.search.find as before, then read by the ref found (by_name)."""
    at = now()
    return by_ref(ref, db.read_pinned(owner, *entity_query(ref, at))) or by_name(db, owner, ref, at)


def get_entity_at(db: Database, owner: str, ref: str, q: Question) -> About:
    """getEntity for an instant: the entity as resolved at the question's system time, its aliases valid at
    its valid time and known then, and the beliefs both ways held then about that valid time."""
    valid_time = q.valid_time or now()
    with db.owner_tx(owner, read_only=True) as conn:
        about = named(conn, ref, fuzzy=False, q=q)
        if about.entity is None:
            return about
        params = {"id": about.entity.id, "valid_time": valid_time, "system_time": q.system_time, "limit": MAX_FACTS}
        rows = conn.execute(load("agent_entity_at"), params).fetchall()
        held = conn.execute(load("agent_aliases_at"), params).fetchone()
        named_then = conn.execute(load("agent_entity_named_at"), params).fetchone()
    about.statements = [statement(r) for r in rows]
    about.aliases = (held["aliases"] if held else None) or []
    if named_then is not None:
        about.entity = about.entity.model_copy(update={"name": named_then["name"]})
        about.described, about.description = True, named_then["description"]
    return about


def description(db: Database, owner: str, entity_id: UUID) -> str | None:
    """An entity's description as known now (getEntity reads it only when asked)."""
    with db.owner_tx(owner, read_only=True) as conn:
        row = conn.execute(load("agent_entity_named_at"), {"id": entity_id, "system_time": None}).fetchone()
    return row["description"] if row else None


def entity_query(ref: str, at: datetime) -> tuple[LiteralString, dict[str, Any]]:
    """get_entity's first statement (it pins the owner: Database.read_pinned)."""
    return load("agent_get_entity"), {"ref": ref, "at": at, "limit": MAX_FACTS}


def by_ref(ref: str, rows: list[dict[str, Any]]) -> About | None:
    """get_entity's answer from entity_query's rows, when they found the entity by its exact ref (None:
    the name is something else, by_name then)."""
    return _entity(About(query=ref, entity=_match(rows[0], ref)), rows) if _by_ref(rows[0]) else None


def by_name(db: Database, owner: str, ref: str, at: datetime) -> About:
    """get_entity of a name that is not a ref: looked up by find, then read by the ref found."""
    with db.owner_tx(owner, read_only=True) as conn:
        about = named(conn, ref, fuzzy=False)
    if about.entity is None:
        return about
    rows = db.read_pinned(owner, *entity_query(about.entity.ref, at))
    if rows[0]["outcome"] != "found":
        return about  # gone between the two rounds
    return _entity(about, rows)


def _entity(about: About, rows: list[dict[str, Any]]) -> About:
    about.statements = [statement(r) for r in rows if r["id"] is not None]
    about.aliases = rows[0]["aliases"] or []
    return about


def _by_ref(head: dict[str, Any]) -> bool:
    """Whether a read's statement found its entity by exact ref: find's answer for that name, too (an exact
    ref is never ambiguous there, and both follow merges as of the same system time)."""
    return bool(head["outcome"] == "found" and head["via"] == "ref")


def _match(head: dict[str, Any], ref: str) -> EntityMatch:
    return EntityMatch(id=head["entity_id"], ref=head["entity_ref"], kind=head["entity_kind"],
                       name=head["entity_name"], score=1.0, via="ref", matched=ref)


def recall_facts_about(db: Database, owner: str, entity_or_query: str, predicate: str | None = None,
                       scope_chain: Sequence[str] | None = None) -> About:
    """Current facts about an entity, optionally only predicates matching a glob (`feeding*`), resolved
    for a scope chain (most specific scope first) when one is given."""
    at = now()
    with db.owner_tx(owner, read_only=True) as conn:
        about = named(conn, entity_or_query, fuzzy=True)
        if about.entity is None:
            return about
        eid = about.entity.id
        rows = facts_about(conn, [eid], [eid], at)
    statements = [statement(r) for r in rows if predicate is None or fnmatchcase(r["predicate"], predicate)]
    about.statements = scopes.resolve(statements, list(scope_chain) if scope_chain else None)
    notes = [f"predicates {predicate}" if predicate else "", f"in scope {' > '.join(scope_chain)}"
             if scope_chain else ""]
    about.heading = "Current facts" + "".join(f", {n}" for n in notes if n) + ":"
    return about


def get_fact_history(db: Database, owner: str, ref: str, predicate: str) -> About:
    """Every recorded row of (ref, predicate), oldest first, superseded and invalidated ones included."""
    about = _ask(db, owner, ref, Question.history(predicate))
    about.statements = [s for s in about.statements if s.fact.status not in HIDDEN]
    about.heading = f"History of {predicate} (oldest first):"
    return about


def state_at(db: Database, owner: str, ref: str, valid_time: datetime) -> About:
    """What is believed now about valid time `valid_time`."""
    about = _ask(db, owner, ref, Question.as_of(valid_time))
    about.heading = f"As believed now, for {day(valid_time)}:"
    return about


def state_as_known_at(db: Database, owner: str, ref: str, system_time: datetime,
                      valid_time: datetime | None = None) -> About:
    """What was believed at `system_time` about `valid_time` (defaults to system_time)."""
    q = Question.known_at(system_time, valid_time)
    about = _ask(db, owner, ref, q)
    about.heading = f"As known on {day(system_time)}, for {day(q.valid_time or system_time)}:"
    return about


def _ask(db: Database, owner: str, ref: str, q: Question) -> About:
    """The agent's rendering of graph.reads.temporal.answer: the same rows, as statements. A ref is answered
    by the read's one statement; any other name is looked up by find (as of the question's system time) and
    the read asked again by the ref found."""
    rows = temporal.answer(db, owner, ref, q)
    if _by_ref(rows[0]):
        about = About(query=ref, entity=_match(rows[0], ref))
    else:
        with db.owner_tx(owner, read_only=True) as conn:
            about = named(conn, ref, fuzzy=False, q=q)
        if about.entity is None:
            return about
        rows = temporal.answer(db, owner, about.entity.ref, q)
        if rows[0]["outcome"] != "found":
            return about
    about.retention = temporal.retention(rows, q, temporal.language_reader(db, owner))
    if about.retention is not None:
        about.notice = about.retention.text
    subject = about.entity.ref if about.entity else ref
    about.statements = [Statement(subject=subject, functional=r["functional"], fact=fact)
                        for r, fact in zip((r for r in rows if r["id"] is not None), temporal.facts(rows),
                                           strict=True)]
    return about
