"""A turn is ranked with its neighbour in the chat (pure): what one turn says, the next one often takes up
("Mein Studio ist das Kraftwerk" - "Notiert: dienstags ins Kraftwerk"), so a turn whose successor also matches
is more likely the one that said it. Each episode's fused score gains AFTER times the fused score of the
turn after it in its chat, when that turn is among the candidates too, up to just below the successor's own.

Measured on the dev split of the recall evaluation (docs/recall-evaluation.md, fused MRR / recall@5, base
0.708 / 0.867): the successor at 0.25 / 0.5 / 0.75 / 1.0 without the cap gave MRR 0.703 / 0.718 / 0.749 /
0.723, but at 0.75 it put a turn before its successor that a window ranked first (tests/test_search_window.py);
with the cap 0.711 / 0.883. The predecessor instead (a reply found through its question) at 0.1 / 0.25 / 0.5
gave 0.697 / 0.700 / 0.666. recall@10 stayed 0.922 throughout.
"""

from __future__ import annotations

from collections.abc import Mapping

from graph.episodes.model import Episode

AFTER = 0.75
CAP = 0.999  # never past the successor itself (what matched; a window ranked it)
POOL = 2  # the fused keys re-ranked: POOL times the limit (the successor must be among them to count)


def with_next(scores: Mapping[str, float], episodes: Mapping[str, Episode]) -> dict[str, float]:
    """`scores` (fusion keys) with each episode key's score raised by AFTER times its successor's (pure);
    `episodes` holds the turns read for the episode keys, by turn id."""
    at = {(e.chat_id, e.seq): f"episode:{e.id}" for e in episodes.values()}
    out = dict(scores)
    for e in episodes.values():
        key, after = f"episode:{e.id}", at.get((e.chat_id, e.seq + 1))
        if key in scores and after is not None and (follows := scores.get(after, 0.0)) > 0:
            out[key] = max(scores[key], min(scores[key] + AFTER * follows, CAP * follows))
    return out
