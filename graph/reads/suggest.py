"""Typed "unknown name" errors with a "did you mean" for the reads, as the agent tools already give.

Called on the error path only (a read found nothing), in its own read-only transaction: a typo never
costs the good path anything. Codes: UNKNOWN_REF, UNKNOWN_PREDICATE, UNKNOWN_RUN.
"""

from __future__ import annotations

import difflib
from datetime import datetime
from typing import Any

import psycopg

from graph.agent.render import day
from graph.agent.search import find
from graph.erasure import erase
from graph.errors import NotFound
from graph.ledger import entities
from graph.platform.db import Database
from graph.sql import load

MAX_SUGGESTIONS = 3
RECENT_RUNS = 500


def did_you_mean(names: list[str]) -> str:
    return f"; did you mean {', '.join(names[:MAX_SUGGESTIONS])}?" if names else ""


def close(word: str, candidates: list[str]) -> list[str]:
    return difflib.get_close_matches(word, candidates, n=MAX_SUGGESTIONS, cutoff=0.6)


def unknown_ref(conn: psycopg.Connection[Any], ref: str) -> NotFound:
    erased = erase.erased_error(conn, ref)  # an erased ref says when, never a neighbour's name
    if erased is not None:
        return erased
    refs = [m.ref for m in find(conn, ref).matches]
    if ":" in ref:  # a ref-shaped typo: also compare with the refs found for its slug
        refs += [m.ref for m in find(conn, ref.split(":", 1)[1]).matches]
    suggestions = list(dict.fromkeys(refs))[:MAX_SUGGESTIONS]
    return NotFound(f'no entity "{ref}"' + did_you_mean(suggestions), code="UNKNOWN_REF")


def unknown_predicate(conn: psycopg.Connection[Any], predicate: str) -> NotFound | None:
    keys = [r["key"] for r in conn.execute(load("registries_relation_types_list")).fetchall()]
    if predicate in keys:
        return None
    return NotFound(f'no predicate "{predicate}"' + did_you_mean(close(predicate, keys)), code="UNKNOWN_PREDICATE")


def unknown_run(conn: psycopg.Connection[Any], run_id: str) -> NotFound:
    runs = [r["run_id"] for r in conn.execute(load("suggest_run_ids"), {"limit": RECENT_RUNS}).fetchall()]
    return NotFound(f'no run "{run_id}"' + did_you_mean(close(run_id, runs)), code="UNKNOWN_RUN")


def explain_empty_state(db: Database, owner: str, ref: str, system_time: datetime | None = None) -> NotFound:
    """Why stateAt / stateAsKnownAt found no entity: the unknown ref, with suggestions; as known at a
    system time before the entity was recorded, that it came later (it was unknown then, not misspelt)."""
    with db.owner_tx(owner, read_only=True) as conn:
        later = recorded_later(conn, ref, system_time)
        if later is not None and system_time is not None:
            return NotFound(f'no entity "{ref}" as known on {day(system_time)}: it was first recorded on '
                            f"{day(later)}", code="UNKNOWN_REF")
        return unknown_ref(conn, ref)


def recorded_later(conn: psycopg.Connection[Any], ref: str, system_time: datetime | None) -> datetime | None:
    """When the entity `ref` was first recorded, if after `system_time` (None: no such ref, or known then)."""
    if system_time is None:
        return None
    row = conn.execute(load("agent_entity_recorded_later"), {"ref": ref, "system_time": system_time}).fetchone()
    return row["created_at"] if row else None


def explain_empty_history(db: Database, owner: str, ref: str, predicate: str) -> NotFound | None:
    """Why factHistory is empty, if it is a typo (unknown ref or predicate); None when it is simply empty."""
    with db.owner_tx(owner, read_only=True) as conn:
        if entities.resolve(conn, ref) is None:
            return unknown_ref(conn, ref)
        return erase.erased_error(conn, ref, predicate) or unknown_predicate(conn, predicate)


def explain_empty_run(db: Database, owner: str, run_id: str) -> NotFound | None:
    """Why effectsOf(runId) found nothing: an unknown run (with suggestions); None for a known run
    that simply recorded no events."""
    with db.owner_tx(owner, read_only=True) as conn:
        if conn.execute(load("proposal_get"), {"run_id": run_id}).fetchone() is not None:
            return None
        return unknown_run(conn, run_id)
