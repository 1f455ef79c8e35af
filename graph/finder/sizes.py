"""How many projections an owner has, remembered for a while: the vector list reads a small owner exactly
and a large one through HNSW (graph.finder.search.use_index). Counting is an index scan of the owner's rows
(finder_owner_projections); right after a bulk import, before a vacuum has set the visibility map, every row
is a heap fetch, and with embeddings stored in the row (0059) that was 8 ms p50 / 18 ms p95 at 3,000
projections, a third of the search (bench.search_breakdown). The choice only decides speed and which
(correct) list answers, so a count up to TTL_S old is good enough; it is kept per process. Beside the count,
whether the owner has any turn: the vector round ranks the episode list's turns by meaning only then (an
owner without turns paid for the statement on every search), so for up to TTL_S after an owner's first turns
that list may be missing while the episode and meaning lists already find them.
"""

from __future__ import annotations

import threading
from typing import Any, LiteralString, NamedTuple

from graph.sql import load

TTL_S = 60.0
MAX_OWNERS = 10_000  # beyond this many remembered owners the memory starts over (a count is cheap to redo)

_lock = threading.Lock()


class Size(NamedTuple):
    projections: int  # counted up to a cap (finder_owner_projections)
    turns: bool  # any episode among them


_known: dict[str, tuple[float, Size]] = {}


def remembered(owner: str, now: float) -> Size | None:
    """The owner's size if it was taken less than TTL_S before `now` (a monotonic clock)."""
    with _lock:
        got = _known.get(owner)
    if got is None or now - got[0] >= TTL_S:
        return None
    return got[1]


def remember(owner: str, size: Size, now: float) -> None:
    with _lock:
        if len(_known) >= MAX_OWNERS and owner not in _known:
            _known.clear()
        _known[owner] = (now, size)


def forget() -> None:
    """Every remembered count (tests, and after a bulk change that should take effect at once)."""
    with _lock:
        _known.clear()


def count(cap: int) -> tuple[LiteralString, dict[str, Any]]:
    """The statement that counts the transaction owner's projections up to `cap` (and whether any is a turn)."""
    return load("finder_owner_projections"), {"cap": cap}


def counted(owner: str | None, rows: list[dict[str, Any]], now: float) -> Size:
    """The size `count`'s rows say, remembered for `owner`."""
    size = Size(rows[0]["n"], rows[0]["turns"]) if rows else Size(0, False)
    if owner:
        remember(owner, size, now)
    return size
