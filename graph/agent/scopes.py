"""Scope resolution at read time. Pure functions; storage keeps every scoped belief active.

Several active facts of one (subject, predicate) may hold in different scopes (a chat, a repo, the
owner, or none = global). Given the current scope chain (refs, most specific first), a fact applies when
it is global or its scope is in the chain, and among the applicable ones:

- the most specific scope wins: device/task/session > chat > repo > project/folder > person > global
  (kinds not listed rank with project; a repo is more specific than the project or folder holding it, so
  a repo's convention shadows a project's whatever order a caller lists them in), ties broken by the
  position in the chain;
- then the higher priority, then the newest (recorded later, then valid from later).

A functional predicate keeps only the winner. A set predicate keeps every applicable value (values are
members, not alternatives), each value once, in its most specific scope.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from graph.agent.render import Statement

LEVELS = {"device": 5, "task": 5, "session": 5, "chat": 4, "repo": 3, "project": 2, "folder": 2, "person": 1}
OTHER_KIND_LEVEL = 2
GLOBAL_LEVEL = 0

Rank = tuple[int, int, int, datetime, datetime]


def scope_kind(ref: str) -> str:
    """`chat:c1` -> chat; `github:issue:42` -> github:issue (kinds may be namespaced)."""
    return ref.rsplit(":", 1)[0] if ":" in ref else ref


def level(scope: str | None) -> int:
    if scope is None:
        return GLOBAL_LEVEL
    kind = scope_kind(scope)
    return LEVELS.get(kind, LEVELS.get(kind.rsplit(":", 1)[-1], OTHER_KIND_LEVEL))


def applies(scope: str | None, chain: Sequence[str]) -> bool:
    return scope is None or scope in chain


def rank(st: Statement, chain: Sequence[str]) -> Rank:
    """Bigger wins: specificity, then position in the chain, priority, recency."""
    f = st.fact
    position = -chain.index(f.scope) if f.scope in chain else -len(chain)
    return (level(f.scope), position, f.priority, f.recorded_at, f.valid_from)


def resolve(statements: Sequence[Statement], chain: Sequence[str] | None) -> list[Statement]:
    """The statements that hold in `chain`, in their input order. None = no resolution (all of them)."""
    if chain is None:
        return list(statements)
    chosen: dict[tuple[str, str], Statement] = {}
    for st in statements:
        if not applies(st.fact.scope, chain):
            continue
        key = _key(st)
        best = chosen.get(key)
        if best is None or rank(st, chain) > rank(best, chain):
            chosen[key] = st
    keep = {id(st) for st in chosen.values()}
    return [st for st in statements if id(st) in keep]


def shadowed(statements: Sequence[Statement], chain: Sequence[str]) -> dict[int, list[Statement]]:
    """What each winner of `resolve` hides: per winner (by id()), the applicable statements of the same
    key that lost to it, most specific first. A set predicate's members never hide each other."""
    winners = {_key(st): st for st in resolve(statements, chain)}
    out: dict[int, list[Statement]] = {}
    for st in statements:
        best = winners.get(_key(st))
        if best is not None and best is not st and applies(st.fact.scope, chain):
            out.setdefault(id(best), []).append(st)
    for lost in out.values():
        lost.sort(key=lambda s: rank(s, chain), reverse=True)
    return out


def _key(st: Statement) -> tuple[str, str]:
    """Functional: one winner per (subject, predicate); set: one per (subject, predicate, value)."""
    f = st.fact
    member = "" if st.functional else f"{f.object_ref}|{f.value!r}"
    return (st.subject, f"{f.predicate}\x00{member}")
