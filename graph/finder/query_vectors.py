"""Query embeddings remembered per process: the last SIZE (model, query text) pairs and their vectors.

An agent asks the same words again (a retry, the next turn about the same thing, several tools for one
message), and embedding a query is the search's longest step on a busy machine (the offline model's forward
pass is pure CPU: 1.5 ms on a quiet core, tens of ms under load; an endpoint is a network call). A vector
depends only on the model and the exact text, so a remembered one is the same answer. Keyed by the model's
name (a different model is a different key) and the text as searched (after whitespace folding, before any
lower-casing: the model sees case). A miss costs one dictionary lookup. `WORLDMEM_QUERY_VECTORS=0` turns it
off (bench.http_reads --cold measures searches without it).
"""

from __future__ import annotations

import threading
from collections import OrderedDict

SIZE = 512  # the default (settings.query_vectors): 512 vectors of 512 floats, about 10 MB per process at most

_lock = threading.Lock()
_known: OrderedDict[tuple[str, str], list[float]] = OrderedDict()
_size = SIZE


def keep(size: int) -> None:
    """Remember at most `size` vectors from now on (0: none); the app factory sets settings.query_vectors."""
    global _size
    with _lock:
        _size = size
        while len(_known) > _size:
            _known.popitem(last=False)


def remembered(model: str, text: str) -> list[float] | None:
    """The vector of `text` under `model` if it is among the last remembered (and now the newest)."""
    key = (model, text)
    with _lock:
        vector = _known.get(key)
        if vector is not None:
            _known.move_to_end(key)
        return vector


def remember(model: str, text: str, vector: list[float]) -> None:
    with _lock:
        _known[(model, text)] = vector
        _known.move_to_end((model, text))
        while len(_known) > _size:
            _known.popitem(last=False)


def forget() -> None:
    """Every remembered vector (tests; a changed model is a new key anyway)."""
    with _lock:
        _known.clear()
