"""The recall evaluation's BEFORE figures without a database: plain BM25 over each owner's turns, and what turn
context and a time read from the question add to it (guidance for the episode lists, not a search of ours).

Variants (each over the same turns and questions):
- plain: the turn's words (the figure to beat);
- speaker: "Speaker: text", as an episode is rendered;
- speaker and date: plus the month and year it was said, so "March 2025" in a question can meet it;
- time removed: the time expression (graph.agent.when) taken out of the question;
- window first: time removed, and the turns said within a month of the window ranked before the others;
- previous turn: speaker and date, and the words of the turn before it in its chat (a reply is found by the
  question it answers);
- previous turn, half weight: the same, ranked by the turn's own score plus half of its predecessor's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime, timedelta

from bench.bm25 import BM25
from bench.recall_data import REFERENCE_NOW, RecallSet, Turn, turn_key
from bench.recall_scoring import DEPTH, Outcome, Ranked, score
from graph.agent.when import find_window

Doc = Callable[[Turn], str]
MARGIN = timedelta(days=31)


def plain(t: Turn) -> str:
    return t.text


def with_speaker(t: Turn) -> str:
    return f"{t.speaker}: {t.text}"


def with_date(t: Turn) -> str:
    said = datetime.fromisoformat(t.occurred_at)
    return f"{t.speaker}: {t.text} {said:%B} {said.year}"


def previous(turns: Sequence[Turn]) -> list[int | None]:
    """Each turn's predecessor in its chat (the turns in their given order), or None."""
    last: dict[str, int] = {}
    out: list[int | None] = []
    for i, t in enumerate(turns):
        out.append(last.get(t.chat_id))
        last[t.chat_id] = i
    return out


def bm25_outcomes(data: RecallSet, doc: Doc = plain, *, strip_time: bool = False,
                  window_first: bool = False, before: float = 0.0, joined: bool = False) -> list[Outcome]:
    out = []
    for lang in sorted({t.lang for t in data.turns}):
        turns = [t for t in data.turns if t.lang == lang]
        prev = previous(turns)
        index = BM25([doc(t) + (" " + turns[p].text if joined and (p := prev[i]) is not None else "")
                      for i, t in enumerate(turns)])
        for q in (q for q in data.questions if q.lang == lang):
            window = find_window(q.query, REFERENCE_NOW) if strip_time or window_first else None
            own = index.scores(window.query if window else q.query)
            scores = [s + (before * own[p] if before and (p := prev[i]) is not None else 0.0)
                      for i, s in enumerate(own)]
            ranked = sorted((i for i, s in enumerate(scores) if s > 0), key=lambda i: (-scores[i], i))
            if window is not None and window_first:
                lo, hi = window.start - MARGIN, window.end + MARGIN
                inside = {i for i in ranked if lo <= datetime.fromisoformat(turns[i].occurred_at) < hi}
                ranked = [i for i in ranked if i in inside] + [i for i in ranked if i not in inside]
            out.append(score(q, [Ranked(frozenset({turn_key(turns[i].external_id)}), frozenset({"bm25"}))
                                 for i in ranked[:DEPTH]]))
    return out


def variants(data: RecallSet) -> Sequence[tuple[str, list[Outcome]]]:
    return [("plain", bm25_outcomes(data)),
            ("speaker", bm25_outcomes(data, with_speaker)),
            ("speaker and date", bm25_outcomes(data, with_date)),
            ("time removed", bm25_outcomes(data, strip_time=True)),
            ("window first", bm25_outcomes(data, window_first=True)),
            ("previous turn", bm25_outcomes(data, with_date, joined=True)),
            ("previous turn, half weight", bm25_outcomes(data, with_date, before=0.5))]
