"""Conventions and decisions, resolved for a scope chain.

A convention (or decision) is a topic entity, `convention:test-runner` / `decision:no-orm`, whose text is a
functional fact (`convention` / `decision`) per scope: global (no scope), or scoped to a repo, project or
folder (`scope: "repo:home-agent"`). Functional exclusivity is per (subject, predicate, scope), so a repo's
text and the global one are both believed; at read time the most specific scope of the chain wins
(graph.agent.scopes: repo > project/folder > person > global) and the others are *shadowed*, which the
context block and the export say.

The chain of a coding chat is its scopes followed by their containers: a repo `part_of` a folder or project
brings those in after it (`expand`), so `scopeChain: ["repo:home-agent"]` is enough.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

import psycopg
from pydantic import BaseModel, Field

from graph.agent import scopes
from graph.agent.render import Statement
from graph.agent.search import statement
from graph.sql import load

PREDICATES = ("convention", "decision")
CODE_KINDS = frozenset({"repo", "project", "folder"})
MAX_CONVENTIONS = 200


class Convention(BaseModel):
    """One topic's text in effect for a scope chain, and what it shadows there."""

    topic: str = Field(description="The topic entity's ref, e.g. convention:test-runner")
    name: str = Field(description="The topic's name, e.g. test runner")
    kind: str = Field(description="convention | decision")
    statement: Statement
    shadowed: list[Statement] = Field(default_factory=list,
                                      description="Less specific texts of the same topic, not in effect here")

    @property
    def text(self) -> str:
        value = self.statement.fact.value
        return value if isinstance(value, str) else str(value)


def is_code_scope(ref: str) -> bool:
    return scopes.scope_kind(ref) in CODE_KINDS


def expand(chain: Sequence[str], parents: Iterable[dict[str, Any]]) -> list[str]:
    """`chain` with each ref's containers (rows child, parent, depth) right after it, nearest first."""
    above: dict[str, list[str]] = {}
    for row in sorted(parents, key=lambda r: r["depth"]):
        above.setdefault(row["child"], []).append(row["parent"])
    out: list[str] = []
    for ref in chain:
        for r in (ref, *above.get(ref, [])):
            if r not in out:
                out.append(r)
    return out


def resolve(statements: Sequence[Statement], chain: Sequence[str], names: dict[str, tuple[str, str]]
            ) -> list[Convention]:
    """The texts in effect, most specific scope first, then by topic; `names` maps topic ref to (name, kind)."""
    hidden = scopes.shadowed(statements, chain)
    found = [Convention(topic=st.subject, name=names.get(st.subject, (st.subject, ""))[0],
                        kind=names.get(st.subject, ("", st.fact.predicate))[1] or st.fact.predicate,
                        statement=st, shadowed=hidden.get(id(st), []))
             for st in scopes.resolve(statements, chain)]
    found.sort(key=lambda c: (-scopes.level(c.statement.fact.scope), c.kind, c.topic))
    return found


def parents_params(refs: Sequence[str], at: datetime) -> dict[str, Any]:
    return {"refs": list(refs), "at": at}


def conventions_params(chain: Sequence[str], at: datetime) -> dict[str, Any]:
    return {"chain": list(chain), "at": at, "limit": MAX_CONVENTIONS}


def from_rows(rows: Sequence[dict[str, Any]], chain: Sequence[str]) -> list[Convention]:
    """Rows of codemode_conventions.sql, resolved for `chain`."""
    names = {r["subject_ref"]: (r["subject_name"], r["subject_kind"]) for r in rows}
    return resolve([statement(r) for r in rows], chain, names)


def read(conn: psycopg.Connection[Any], chain: Sequence[str], at: datetime) -> tuple[list[str], list[Convention]]:
    """The expanded chain and the conventions in effect in it (two queries)."""
    parents = conn.execute(load("codemode_scope_parents"), parents_params(chain, at)).fetchall()
    full = expand(chain, parents)
    rows = conn.execute(load("codemode_conventions"), conventions_params(full, at)).fetchall()
    return full, from_rows(rows, full)
