"""Reciprocal rank fusion (RRF) of the finder's ranked lists (pure): score = sum over lists of
1 / (RRF_K + rank); hits a list scores equally share the average of their ranks."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

# 5, not the customary 60: with lists 20 deep, 60 makes a list's first hit worth 1.3 times its twentieth, so
# fusion counts lists and look-alikes found by two lists anywhere beat the one hit meaning put first; at 5
# it is worth 4 times, and hybrid search beats the meaning list alone on the labelled queries.
RRF_K = 5

Ranked = list[tuple[str, float]]  # (fusion key, the list's own score), best first


def rrf(ranked: Iterable[tuple[str, Ranked]], weights: Mapping[str, float] | None = None) -> dict[str, float]:
    """Reciprocal rank fusion of named ranked lists of (key, score) (pure). A key's first place in a list
    counts; keys a list scores equally share the average of their ranks, so the order within a tie (by
    row id) decides nothing. Each list's terms are multiplied by its weight (1 when not named)."""
    scores: dict[str, float] = {}
    for name, items in ranked:
        weight = (weights or {}).get(name, 1.0)
        for key, rank in tied_ranks(items).items():
            scores[key] = scores.get(key, 0.0) + weight / (RRF_K + rank)
    return scores


def tied_ranks(items: Ranked) -> dict[str, float]:
    """Each key's rank from 1 at its first place (pure); a run of equal scores gets its average rank."""
    firsts: Ranked = []
    seen: set[str] = set()
    for key, score in items:
        if key not in seen:
            seen.add(key)
            firsts.append((key, score))
    ranks: dict[str, float] = {}
    start = 0
    while start < len(firsts):
        end = start
        while end + 1 < len(firsts) and firsts[end + 1][1] == firsts[start][1]:
            end += 1
        for key, _ in firsts[start:end + 1]:
            ranks[key] = (start + end) / 2 + 1
        start = end + 1
    return ranks
