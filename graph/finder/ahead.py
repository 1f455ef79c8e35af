"""Embedding texts that are already known ahead of the statements that store their vectors.

An import knows its texts before its turns are committed. The model (one core: numpy releases the GIL in its
matrix products) embeds them batch by batch in a worker thread while the caller commits the turns and then
writes each batch's vectors, whose HNSW index inserts keep the database's core busy. So the import takes
about the longer of the two instead of their sum (docs/episodes.md, "Importing 10,000 turns").

At most `depth` batches wait for their writer, so a slow database holds back the model instead of filling
memory. Leaving the `with` block (the commit failed, a write failed, the caller returned) stops the worker
before its next batch.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from types import TracebackType

from graph.finder.embedders import Embedder

DEPTH = 8  # batches embedded but not yet written: about a commit's worth of the model's head start
# A pool of its own, not the searches' (graph.finder.vector_list.EMBEDDING): an import holds its worker for
# as long as its model runs, and queries waiting behind imports would wait seconds for their embedding.
# Two: each takes a core; a third import's model waits for one of them.
MODELS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="finder-ahead")


class Ahead:
    """`with Ahead(model, texts, batch=256) as ahead: for start, vectors in ahead: ...` yields each batch's
    vectors in order (`start` its first text's index); a batch the model failed on raises its error there,
    after the batches before it."""

    def __init__(self, embedder: Embedder, texts: Sequence[str], *, batch: int, depth: int = DEPTH) -> None:
        self._embedder, self.texts, self.batch = embedder, list(texts), batch
        self._ready: queue.Queue[tuple[int, list[list[float]]] | BaseException] = queue.Queue(depth)
        self._stop = threading.Event()
        self._worker: Future[None] | None = None

    def __enter__(self) -> Ahead:
        self._worker = MODELS.submit(self._run)
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self._stop.set()

    def __iter__(self) -> Iterator[tuple[int, list[list[float]]]]:
        for _ in range(0, len(self.texts), self.batch):
            item = self._next()
            if isinstance(item, BaseException):
                raise item
            yield item

    def _next(self) -> tuple[int, list[list[float]]] | BaseException:
        while True:
            try:
                return self._ready.get(timeout=0.5)
            except queue.Empty:
                assert self._worker is not None, "iterated outside its with block"
                if self._worker.done() and self._ready.empty():  # ended without handing over this batch
                    self._worker.result()  # what ended it, if it raised
                    raise RuntimeError("the embedding worker stopped before the last batch") from None

    def _run(self) -> None:
        for start in range(0, len(self.texts), self.batch):
            if self._stop.is_set():
                return
            try:
                item: tuple[int, list[list[float]]] | BaseException = (
                    start, self._embedder.embed(self.texts[start:start + self.batch]))
            except Exception as exc:  # raised to the consumer at this batch (EmbeddingFailed, or a bug)
                item = exc
            if not self._put(item) or isinstance(item, BaseException):
                return

    def _put(self, item: tuple[int, list[list[float]]] | BaseException) -> bool:
        while not self._stop.is_set():  # a consumer that left never takes it: give up instead of blocking
            try:
                self._ready.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False
