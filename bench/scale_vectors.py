"""The vectors of bench.search_scale's projections: the offline model's embeddings of their texts (the
default, what users have), or random unit vectors (`--random-vectors`, the hardest case for HNSW).

The texts are read as the sweep writes them (bench/sql/scale_projection_texts.sql), embedded in batches in
this process (74,000 texts: about 1.5 ms each on a quiet core, against hours through the reconciler's
sweeps), copied into a temporary table and inserted set-based (bench/sql/scale_projections.sql).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import psycopg

from bench import load
from graph.finder.embedders import Embedder, vector_literal

BATCH = 32  # texts per forward pass: the fastest of 32 / 128 / 512 measured (1.5 against 3.8 / 1.8 ms a text)
DIMENSIONS = 512


def random_unit(n: int, seed: int = 11) -> list[list[float]]:
    """n random unit vectors of DIMENSIONS floats (uniform directions)."""
    rows = np.random.default_rng(seed).standard_normal((n, DIMENSIONS))
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    return [[float(x) for x in row] for row in rows]


def embedded(model: Embedder, texts: Sequence[str]) -> list[list[float]]:
    out: list[list[float]] = []
    started = time.perf_counter()
    for at in range(0, len(texts), BATCH):
        out += model.embed(texts[at:at + BATCH])
        if at and at % (BATCH * 500) == 0:
            print(f"[scale] {at} of {len(texts)} texts embedded ({time.perf_counter() - started:.0f} s)", flush=True)
    return out


def insert(conn: psycopg.Connection[Any], owner: str, model: Embedder, *, random_vectors: bool) -> tuple[int, float]:
    """Insert `owner`'s entity projections with their vectors; (rows inserted, seconds spent embedding)."""
    rows = conn.execute(load("scale_projection_texts"), {"owner": owner}).fetchall()
    started = time.perf_counter()
    texts = [text for _, text in rows]
    vectors = random_unit(len(texts)) if random_vectors else embedded(model, texts)
    embedding_s = time.perf_counter() - started
    conn.execute(load("scale_vectors_table"))
    with conn.cursor().copy(load("scale_vectors_copy")) as copy:
        for (entity_id, text), vector in zip(rows, vectors, strict=True):
            copy.write_row((entity_id, text, vector_literal(vector)))
    added = conn.execute(load("scale_projections"), {"owner": owner, "model": model.name}).rowcount
    return added, embedding_s
