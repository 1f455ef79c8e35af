"""Deterministic entity linking of a message: which spans name which entities. Pure functions.

Spans are runs of 1-4 words (lower-cased, single-spaced) and ref-shaped tokens (`pet:luna`). The
database returns every entity whose ref, canonical name or believed alias equals a span; here each span
gets a score per candidate and the longest spans are decided first (a word inside a linked or ambiguous
longer span is not linked again):

- ref 4; alias of this chat (namespace `chat:<chatId>`) 3, plus up to 0.9 for recency (half-life 7
  days since the alias was recorded); canonical name or other alias 2; alias of another chat 1;
- the best candidate is linked when it leads the next one by at least 1; otherwise the span is
  ambiguous and reported with its candidates, never guessed;
- a span that names nothing exactly is tried in its German variants (graph.agent.german: "Juergen"
  for "Jürgen", the possessive "Lunas" for "Luna").

The owner's alias "me" is not linked: the owner's preferences are always in the context anyway.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pydantic import BaseModel

from graph.agent.german import variants
from graph.agent.render import EntityMatch
from graph.ledger.entity import parse_ref

MAX_WORDS = 4
MAX_SPANS = 2000
MAX_NORMS = 4000  # spans and their variants looked up in one query
MARGIN = 1.0
HALF_LIFE_DAYS = 7.0
OWNER_ALIASES = frozenset({"me"})
WORD = re.compile(r"[#@]?\w[\w.:/#@+\-]*")
TRAILING = ".:/-+"


@dataclass(frozen=True)
class Span:
    start: int
    end: int  # exclusive, in words
    text: str
    norm: str


class AmbiguousSpan(BaseModel):
    """A message span that names several entities equally well: reported, not linked."""

    span: str
    candidates: list[str]


def chat_namespace(chat_id: str | None) -> str | None:
    return f"chat:{chat_id.lower()}" if chat_id else None


def words(message: str) -> list[str]:
    out = []
    for match in WORD.finditer(message):
        word = match.group(0).rstrip(TRAILING)
        if word:
            out.append(word)
    return out


def spans(message: str) -> list[Span]:
    ws = words(message)
    found: list[Span] = []
    for n in range(MAX_WORDS, 0, -1):
        for start in range(len(ws) - n + 1):
            text = " ".join(ws[start:start + n])
            found.append(Span(start, start + n, text, text.lower()))
            if len(found) >= MAX_SPANS:
                return found
    return found


def refs(found: list[Span]) -> list[str]:
    return sorted({s.text for s in found if s.end - s.start == 1 and parse_ref(s.text) is not None})


def norms(found: list[Span]) -> list[str]:
    """The lower-case spans to look up, and their German variants while there is room."""
    exact = {s.norm for s in found}
    extra = [v for s in found for v in variants(s.norm) if v not in exact]
    return sorted(exact | set(extra[:max(0, MAX_NORMS - len(exact))]))


def score(row: dict[str, Any], chat_ns: str | None, at: datetime) -> float:
    if row["via"] == "ref":
        return 4.0
    if row["via"] == "name":
        return 2.0
    namespace: str = row["namespace"] or ""
    if chat_ns is not None and namespace == chat_ns:
        age_days = max(0.0, (at - row["seen_at"]).total_seconds() / 86400) if row["seen_at"] else 0.0
        return 3.0 + 0.9 * float(0.5 ** (age_days / HALF_LIFE_DAYS))
    return 1.0 if namespace.startswith("chat:") else 2.0


def link(found: list[Span], rows: list[dict[str, Any]], chat_ns: str | None,
         at: datetime) -> tuple[list[EntityMatch], list[AmbiguousSpan]]:
    """Linked entities (in message order, each once) and ambiguous spans. `rows`: context_entities hits."""
    by_span: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        if row["via"] in ("ref", "name", "alias") and row["span"] not in OWNER_ALIASES:
            by_span.setdefault(row["span"], []).append(row)
    claimed: set[int] = set()
    linked: dict[Any, tuple[int, EntityMatch]] = {}
    unclear: list[tuple[int, AmbiguousSpan]] = []
    for span in sorted(found, key=lambda s: (s.start - s.end, s.start)):
        words_of = set(range(span.start, span.end))
        candidates = by_span.get(span.norm, []) + (by_span.get(span.text, []) if span.text != span.norm else [])
        if not candidates:
            candidates = [row for v in variants(span.norm) for row in by_span.get(v, [])]
        if not candidates or words_of & claimed:
            continue
        best: dict[Any, tuple[float, dict[str, Any]]] = {}
        for row in candidates:
            s = score(row, chat_ns, at)
            if row["id"] not in best or s > best[row["id"]][0]:
                best[row["id"]] = (s, row)
        ranked = sorted(best.values(), key=lambda p: (-p[0], p[1]["ref"]))
        claimed |= words_of
        if len(ranked) > 1 and ranked[0][0] - ranked[1][0] < MARGIN:
            unclear.append((span.start, AmbiguousSpan(span=span.text, candidates=[r["ref"] for _, r in ranked])))
            continue
        top_score, top = ranked[0]
        if top["id"] not in linked:
            linked[top["id"]] = (span.start, EntityMatch(
                id=top["id"], ref=top["ref"], kind=top["kind"], name=top["name"], score=round(top_score, 3),
                via=top["via"], matched=span.text))
    return ([m for _, m in sorted(linked.values(), key=lambda p: p[0])],
            [a for _, a in sorted(unclear, key=lambda p: p[0])])
