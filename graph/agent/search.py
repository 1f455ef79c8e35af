"""Finding things by name: find_entity (ranked candidates, ambiguity stated) and search_world_memory.

find_entity: exact matches (ref, canonical name, believed alias) score 1.0; otherwise pg_trgm similarity
of the query against names and aliases. search_world_memory is the finder's hybrid search
(graph.finder.search). Only current beliefs are searched; pending ones never.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg

from graph.agent.german import variants
from graph.agent.render import EntityMatch, Found, ReadWindow, SearchResult, Statement
from graph.agent.when import find_window
from graph.finder import search as finder
from graph.finder.embedders import Embedder
from graph.finder.rounds import owner_rounds
from graph.platform.db import Database
from graph.reads.temporal import FactView
from graph.sql import load

EXACT = 1.0
# Fuzzy candidates closer than this to the best one leave the choice open.
CLEAR_LEAD = 0.15
MAX_QUERY = 300
POOL = 200  # fuzzy candidates scored per kind (see the queries)
AROUND = timedelta(days=7)  # a single valid time looks at the episodes said this long before and after it


def now() -> datetime:
    return datetime.now(UTC)


def _query(text: str) -> str:
    return " ".join(text.split())[:MAX_QUERY]


def find(conn: psycopg.Connection[Any], query: str, kind: str | None = None, limit: int = 5, *,
         system_time: datetime | None = None, follow: bool = True) -> Found:
    """Candidates for `query`, best first. Several exact matches, or close fuzzy ones, are ambiguous.

    Names and aliases as believed at `system_time` (now when None); with `follow`, a merged entity stands
    for the survivor it was merged into as of that time."""
    q = _query(query)
    if not q:
        return Found(query=query, kind=kind, message="Give a name, alias or ref to look for.")
    params = {"query": q, "kind": kind, "at": system_time or now(), "system_time": system_time,
              "follow": follow, "limit": max(1, min(limit, 20)), "pool": POOL}
    rows = conn.execute(load("agent_find_entity"), params).fetchall()
    if not rows or rows[0]["score"] < EXACT:  # "Juergen" for Jürgen, "Lunas" for Luna: exact in a variant?
        for variant in variants(q.lower())[:4]:
            exact = conn.execute(load("agent_find_entity"), {**params, "query": variant}).fetchall()
            if exact and exact[0]["score"] >= EXACT:
                rows = exact
                break
    matches = [EntityMatch.model_validate(r) for r in rows]
    found = Found(query=q, kind=kind, matches=matches, ambiguous=is_ambiguous(matches))
    if not matches:
        found.message = f'No entity matches "{q}"' + (f" of kind {kind}." if kind else ".")
    elif found.ambiguous:
        found.message = f'"{q}" could mean {len(matches)} entities; name one by its ref.'
    return found


def is_ambiguous(matches: list[EntityMatch]) -> bool:
    exact = [m for m in matches if m.score >= EXACT]
    if exact:
        return len(exact) > 1 and exact[0].via != "ref"
    return len(matches) > 1 and matches[0].score - matches[1].score < CLEAR_LEAD


def find_entity(db: Database, owner: str, query: str, kind: str | None = None, limit: int = 5) -> Found:
    with db.owner_tx(owner, read_only=True) as conn:
        return find(conn, query, kind, limit)


def statement(row: dict[str, Any]) -> Statement:
    """The one mapping from an agent_* fact row (subject_ref, functional + the FactView columns)."""
    return Statement(subject=row["subject_ref"], functional=row["functional"], fact=FactView.from_row(row))


@dataclass(frozen=True)
class Window:
    """The valid time a search looks at: facts as of `as_of` (or during the range), episodes said before
    `valid_to`, those in [valid_from, valid_to) ranked up. All None: now, and every episode."""

    valid_from: datetime | None = None
    valid_to: datetime | None = None
    as_of: datetime | None = None
    read: ReadWindow | None = None  # the time the query's words named, when the window was read from them


def window(valid_time: datetime | None = None, valid_from: datetime | None = None,
           valid_to: datetime | None = None) -> Window:
    """The window of a search (pure): a range as given; a single valid time reads facts as of it and the
    episodes said within AROUND of it; a range and a time together: the range, facts as of the time."""
    if valid_time is not None and valid_from is None and valid_to is None:
        return Window(valid_time - AROUND, valid_time + AROUND, valid_time)
    return Window(valid_from, valid_to, valid_time)


def read_window(query: str, at: datetime) -> Window | None:
    """The window of the time `query` names, as of `at` (pure); None when it names none."""
    found = find_window(query, at)
    if found is None:
        return None
    return Window(found.start, found.end, None,
                  ReadWindow(words=found.matched, label_de=found.label_de, label_en=found.label_en))


def search_world_memory(db: Database, owner: str, query: str, limit: int = 10, *, kind: str | None = None,
                        valid_from: datetime | None = None, valid_to: datetime | None = None,
                        within: Window | None = None, embedder: Embedder | None = None,
                        spare_connection: bool = True, read_time: bool = False) -> SearchResult:
    """Entities (by name, alias, text or meaning), current facts (by value, and as answers to a question),
    episodes (chat turns) and memories (summaries, rollups), fused by reciprocal rank fusion, best first
    (graph.finder.search). `within` (else `valid_from`/`valid_to`): the valid-time window (facts as of it,
    episodes around it); the result says which it used. Without an embedder, or before anything is
    embedded, the search runs on text and names only, and says so (`mode`, `waiting`). `spare_connection`:
    the meaning list may run beside the text lists on a second pooled connection (else after them).
    `read_time` without a window: a time the query names ("in 2025", "letzten März") is its window, and the
    result's `window` says which. The words stay in the searched text: an episode's text carries its date, and
    taking them out lost more than it gained (docs/recall-evaluation.md). With any window, episodes and
    memories said before it count too, those within it ranked up: a question about a past state is mostly
    answered by what was said before the window and still held in it."""
    q = _query(query)
    if not q:
        return SearchResult(query=query, message="Give some words to search for.")
    at = now()
    w = within or Window(valid_from, valid_to)
    if read_time and within is None and valid_from is None and valid_to is None:
        w = read_window(q, at) or w
    request = finder.Query(text=q, kind=kind, valid_from=w.valid_from, valid_to=w.valid_to, as_of=w.as_of,
                           limit=max(1, min(limit, 50)), look_back=w.valid_from is not None or w.valid_to is not None)
    fused = finder.search(owner_rounds(db, owner, spare=spare_connection), request, embedder, at)
    result = SearchResult(query=q, hits=fused.hits, mode=fused.mode, waiting=fused.waiting,
                          valid_from=w.valid_from, valid_to=w.valid_to, window=w.read)
    if not fused.hits:
        result.message = f'Nothing in memory matches "{q}"' + (f" of kind {kind}." if kind else ".")
    return result
