"""How many projections an owner has, remembered for a while: the vector list reads a small owner exactly
and a large one through HNSW (graph.finder.search.use_index). Counting is an index scan of the owner's rows
(finder_owner_projections); right after a bulk import, before a vacuum has set the visibility map, every row
is a heap fetch, and with embeddings stored in the row (0059) that was 8 ms p50 / 18 ms p95 at 3,000
projections, a third of the search (bench.search_breakdown). The choice only decides speed and which
(correct) list answers, so a count up to TTL_S old is good enough; it is kept per process.
"""

from __future__ import annotations

import threading

TTL_S = 60.0
MAX_OWNERS = 10_000  # beyond this many remembered owners the memory starts over (a count is cheap to redo)

_lock = threading.Lock()
_known: dict[str, tuple[float, int]] = {}


def remembered(owner: str, now: float) -> int | None:
    """The owner's count if it was taken less than TTL_S before `now` (a monotonic clock)."""
    with _lock:
        got = _known.get(owner)
    if got is None or now - got[0] >= TTL_S:
        return None
    return got[1]


def remember(owner: str, count: int, now: float) -> None:
    with _lock:
        if len(_known) >= MAX_OWNERS and owner not in _known:
            _known.clear()
        _known[owner] = (now, count)


def forget() -> None:
    """Every remembered count (tests, and after a bulk change that should take effect at once)."""
    with _lock:
        _known.clear()
