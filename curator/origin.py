"""Where a curated operation's words came from: decided from the batch's real turns, never from the model.

The model names an origin for every operation (`source`: user_assertion, tool_result, ...), and its text can
be steered by anything it read: an assistant turn, a tool's output, the Known World State. So the claim is
checked against what the batch really holds:
- user_assertion stands only when the evidence quotes one USER turn of this batch and the quoted span holds
  the asserted value (the fact's value, the relationship's object, the alias, the entity's name);
- tool_result and observation stand only when the evidence quotes a TRUSTED tool result of this batch the
  same way (untrusted tool output never makes anything trusted);
- every other claim, and every claim that fails its check, is the curator's inference.
Quotes and values are compared in normal form (graph.ledger.normal: case, spacing, Unicode form,
punctuation); a quote may leave words out with an ellipsis, each piece then must be in the same turn.
Pure functions.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from graph.ledger.normal import normal_text

USER = "user_assertion"
INFERENCE = "inference"
OBSERVED = frozenset({"tool_result", "observation"})
ELLIPSIS = re.compile(r"\[?(?:\.\.\.|…)\]?")
WHOLE_HOUR = re.compile(r"^(\d{1,2}) 0$")
ISO_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")
MONTHS = (("januar", "january", "jan"), ("februar", "february", "feb"), ("märz", "march", "mar"),
          ("april", "april", "apr"), ("mai", "may", "may"), ("juni", "june", "jun"), ("juli", "july", "jul"),
          ("august", "august", "aug"), ("september", "september", "sep"), ("oktober", "october", "oct"),
          ("november", "november", "nov"), ("dezember", "december", "dec"))
# Alternatives: any one of them in the quoted span satisfies a term; every term must be satisfied.
Terms = list[list[str]]


@dataclass(frozen=True)
class Said:
    """What the batch really holds, as the model read it (secrets scrubbed): the user's turns, and the
    results of the trusted tools."""

    user: Sequence[str]
    tools: Sequence[str]


def decide(claimed: str, evidence: str | None, terms: Terms | None, said: Said) -> str:
    """The origin an operation is written with. `terms` is what the quote must hold (None: nothing the
    words could show, e.g. a bare boolean; then no claim of the user's or a tool's stands)."""
    if claimed == USER:
        return USER if backs(evidence, terms, said.user) else INFERENCE
    if claimed in OBSERVED:
        return claimed if backs(evidence, terms, said.tools) else INFERENCE
    return claimed


def backs(evidence: str | None, terms: Terms | None, texts: Sequence[str]) -> bool:
    """Whether `evidence` quotes one of `texts` and the quoted span holds every term."""
    if terms is None:
        return False
    pieces = quoted(evidence, texts)
    return pieces is not None and all(holds(pieces, alternatives) for alternatives in terms)


def quoted(evidence: str | None, texts: Sequence[str]) -> list[str] | None:
    """The evidence's pieces (normal form) when all of them are in one of `texts`; None otherwise."""
    pieces = [p for p in (normal_text(part) for part in ELLIPSIS.split(evidence or "")) if p]
    if not pieces:
        return None
    for text in texts:
        hay = f" {normal_text(text)} "
        if all(f" {piece} " in hay for piece in pieces):
            return pieces
    return None


def holds(pieces: Sequence[str], alternatives: Sequence[str]) -> bool:
    wanted = [w for w in (normal_text(a) for a in alternatives) if w]
    return any(f" {w} " in f" {piece} " for piece in pieces for w in wanted)


def value_terms(value: Any) -> Terms | None:
    """Each string or number inside a value is a term (a whole hour also as "19", "19 Uhr", "19h"); None when
    the value has none (true, null, an empty list)."""
    leaves: Terms = []
    _leaves(value, leaves)
    return leaves or None


def _leaves(value: Any, out: Terms) -> None:
    if isinstance(value, bool) or value is None:
        return
    if isinstance(value, int | float):
        out.append([str(value)])
    elif isinstance(value, str):
        if normal_text(value):
            out.append(_spellings(value))
    elif isinstance(value, list):
        for item in value:
            _leaves(item, out)
    elif isinstance(value, dict):
        for item in value.values():
            _leaves(item, out)


def _spellings(value: str) -> list[str]:
    """A value as people say it: a whole hour ("19:00": "19 Uhr", "19h"), an ISO date ("2020-05-01":
    "1. Mai 2020", "May 1, 2020", "1.5.2020")."""
    hour = WHOLE_HOUR.match(normal_text(value))
    if hour is not None:
        h = hour.group(1)
        return [value, h, f"{h} uhr", f"{h}h", f"{h} h", f"{h} o clock"]
    date = ISO_DATE.match(value.strip())
    if date is not None and 1 <= int(date.group(2)) <= 12:
        y, m, d = date.group(1), int(date.group(2)), int(date.group(3))
        names = MONTHS[m - 1]
        return [value, f"{d} {m} {y}", *(f"{d} {n} {y}" for n in names), *(f"{n} {d} {y}" for n in names)]
    return [value]


def name_terms(names: Sequence[str]) -> Terms:
    """One term: any of an entity's names (its ref's slug, canonical name, aliases)."""
    return [[n for n in names if n]]


def slug(ref: str) -> str:
    return ref.rsplit(":", 1)[-1]
