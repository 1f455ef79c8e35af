"""Scores of the recall evaluation, pure: ranked hits in, recall@k, MRR and Markdown tables out.

A question's evidence is a tuple of groups; a group is found at the rank of the first hit carrying any of its
items (a turn or a fact: several ways to the same answer). recall@k is the share of groups found in the top k
(the outside benchmark's mean evidence recall), MRR the reciprocal rank of the first group found, any@10 whether
at least one group is in the top 10. A negative question (no evidence) is right when nothing comes back; its
count of hits is reported instead of recall. `stale first`: an item that answered once (the old diet, last
year's lead) ranks above every current answer.

A list's own view (`view`) keeps the hits the list took part in, in fused order: what each list added to the
fused top 10, not the list's own ranking beyond it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from bench.recall_data import Question

DEPTH = 10


@dataclass(frozen=True)
class Ranked:
    """One hit as the scorer sees it: the evidence keys it carries and the lists that found it."""

    keys: frozenset[str]
    lists: frozenset[str]


@dataclass(frozen=True)
class Outcome:
    question: Question
    ranks: tuple[int, ...]  # per evidence group; 0 = not in the top DEPTH
    hits: int
    stale_first: bool


def view(hits: Sequence[Ranked], name: str | None) -> list[Ranked]:
    """The fused ranking (name None) or the hits list `name` took part in, in fused order."""
    return list(hits) if name is None else [h for h in hits if name in h.lists]


def score(question: Question, hits: Sequence[Ranked], depth: int = DEPTH) -> Outcome:
    top = list(hits)[:depth]

    def first(keys: Iterable[str]) -> int:
        wanted = frozenset(keys)
        return next((i for i, h in enumerate(top, start=1) if h.keys & wanted), 0)

    ranks = tuple(first(group) for group in question.evidence)
    found = [r for r in ranks if r]
    stale = first(question.stale) if question.stale else 0
    return Outcome(question, ranks, len(top), bool(stale) and (not found or stale < min(found)))


def recall_at(o: Outcome, k: int) -> float:
    return sum(1 for r in o.ranks if 0 < r <= k) / len(o.ranks) if o.ranks else 0.0


def reciprocal_rank(o: Outcome) -> float:
    found = [r for r in o.ranks if r]
    return 1 / min(found) if found else 0.0


def any_at(o: Outcome, k: int) -> bool:
    return any(0 < r <= k for r in o.ranks)


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


@dataclass(frozen=True)
class Summary:
    answerable: int
    recall5: float | None
    recall10: float | None
    mrr: float | None
    any10: float | None
    stale_first: tuple[int, int]  # (stale answer ranked first, questions with a stale answer)
    negatives: int
    negatives_empty: float | None
    negative_hits: float | None


def summarize(outcomes: Sequence[Outcome]) -> Summary:
    pos = [o for o in outcomes if o.question.evidence]
    neg = [o for o in outcomes if not o.question.evidence]
    with_stale = [o for o in pos if o.question.stale]
    return Summary(
        len(pos), _mean([recall_at(o, 5) for o in pos]), _mean([recall_at(o, 10) for o in pos]),
        _mean([reciprocal_rank(o) for o in pos]), _mean([float(any_at(o, 10)) for o in pos]),
        (sum(o.stale_first for o in with_stale), len(with_stale)),
        len(neg), _mean([float(o.hits == 0) for o in neg]), _mean([float(o.hits) for o in neg]))


def groups(outcomes: Sequence[Outcome]) -> list[tuple[str, list[Outcome]]]:
    """All questions, then per language, then per kind of question."""
    keyed: list[tuple[str, Callable[[Question], str]]] = [("lang", lambda q: q.lang), ("kind", lambda q: q.kind)]
    out: list[tuple[str, list[Outcome]]] = [("all", list(outcomes))]
    for name, key in keyed:
        for value in sorted({key(o.question) for o in outcomes}):
            out.append((f"{name} {value}", [o for o in outcomes if key(o.question) == value]))
    return out


def _cell(x: float | None) -> str:
    return "–" if x is None else f"{x:.3f}"


def table(rows: Sequence[tuple[str, Sequence[Outcome]]], first: str = "questions") -> str:
    """One Markdown table: a row per (label, outcomes)."""
    lines = [f"| {first} | n | recall@5 | recall@10 | MRR | any@10 | stale first | negatives: empty / mean hits |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for label, outcomes in rows:
        s = summarize(outcomes)
        stale = f"{s.stale_first[0]}/{s.stale_first[1]}" if s.stale_first[1] else "–"
        negative = f"{_cell(s.negatives_empty)} / {s.negative_hits:.1f} (n={s.negatives})" \
            if s.negative_hits is not None else "–"
        lines.append(f"| {label} | {s.answerable} | {_cell(s.recall5)} | {_cell(s.recall10)} | {_cell(s.mrr)} "
                     f"| {_cell(s.any10)} | {stale} | {negative} |")
    return "\n".join(lines)
