"""The seed of bench.recall_scale, written in bulk: people through the ledger, episodes and vectors by COPY.

A seed of 100,000 episodes through importConversation and the finder would take the better part of an hour
on this machine (the model and the row-by-row HNSW insert); a bench may write rows directly: the turns and
their finder projections by COPY (as the admin role, each row naming its owner), every vector the offline
model's embedding of one of a pool of the generated texts plus a little noise (distinct, model-shaped
vectors), and the HNSW index of 512 dimensions dropped before and built once after the rows. The database
has a fixed name; a kept one whose marker says it holds the same seed is reused.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import numpy as np
import psycopg
from psycopg import sql

from bench.fresh_owner import import_people
from graph.episodes.model import line
from graph.finder.embedders import OFFLINE_NAME, embedder_for, vector_literal
from graph.finder.reconciler import sweep_entities
from graph.platform.connect import admin_url, role_url
from graph.platform.db import Database
from graph.platform.migrate import migrate
from graph.settings import Settings, get_settings

NAME = "worldmem_recall_scale"
INDEX = "memory_projections_hnsw_512"
POOL = 3000  # distinct texts the model embeds for the seed's vectors
NOISE = 0.01  # per dimension, before normalising: cosine about 0.97 to the pool vector


@dataclass(frozen=True)
class Seed:
    episodes: int
    entities: int
    owner: str  # with episodes
    quiet: str  # the same people, no episodes

    @property
    def marker(self) -> str:
        return f"recall-scale seed: {self.episodes} episodes, {self.entities} entities"


Turns = Callable[[int], list[tuple[str, dict[str, Any]]]]


@contextmanager
def seeded(seed: Seed, turns: Turns, *, keep: bool) -> Iterator[tuple[str, str]]:
    """(admin url, app url) of a migrated database holding the seed; dropped at the end unless `keep`."""
    settings = get_settings()
    admin, app = admin_url(settings, NAME), role_url(settings, "app", NAME)
    if not _holds(settings, admin, seed):
        _drop(settings)
        with psycopg.connect(admin_url(settings, "postgres"), autocommit=True) as conn:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(NAME)))
        migrate(settings, admin)
        started = time.perf_counter()
        _seed(admin, app, seed, turns)
        print(f"[seed] {seed.marker}: {time.perf_counter() - started:.0f} s", flush=True)
    else:
        migrate(settings, admin)  # a kept database takes this checkout's migrations and functions
        print(f"[seed] reused the kept database ({seed.marker})", flush=True)
    try:
        yield admin, app
    finally:
        if not keep:
            _drop(settings)


def _holds(settings: Settings, admin: str, seed: Seed) -> bool:
    with psycopg.connect(admin_url(settings, "postgres"), autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s AND datconnlimit <> -2", (NAME,)).fetchone():
            return False
    with psycopg.connect(admin, autocommit=True) as conn:
        row = conn.execute("SELECT shobj_description(oid, 'pg_database') AS d FROM pg_database "
                           "WHERE datname = current_database()").fetchone()
    return row is not None and row[0] == seed.marker


def _drop(settings: Settings) -> None:
    with psycopg.connect(admin_url(settings, "postgres"), autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(NAME)))


def _seed(admin: str, app: str, seed: Seed, turns: Turns) -> None:
    model = embedder_for(Settings(embedding_provider="offline"))
    assert model is not None
    generated = turns(seed.episodes)
    said = [(chat, t, datetime.fromisoformat(t["occurredAt"])) for chat, t in generated]
    texts = [line(t["speaker"], t["role"].lower(), at, t["text"]) for _, t, at in said]
    step = max(1, len(texts) // POOL)
    pool = np.array(model.embed(texts[::step][:POOL]), dtype=np.float32)
    rng = np.random.default_rng(37)
    with psycopg.connect(admin, autocommit=True) as conn:
        definition = conn.execute("SELECT indexdef FROM pg_indexes WHERE indexname = %s", (INDEX,)).fetchone()
        assert definition is not None
        conn.execute(sql.SQL("DROP INDEX {}").format(sql.Identifier(INDEX)))
    db = Database(app, max_size=2, statement_timeout_ms=600_000)
    try:
        for owner in (seed.owner, seed.quiet):
            import_people(db, owner, seed.entities)
            sweep_entities(db, owner)
    finally:
        db.close()

    def vectors(n: int) -> Iterator[str]:
        for i in range(n):
            v = pool[i % len(pool)] + np.asarray(rng.normal(0, NOISE, pool.shape[1]), dtype=np.float32)
            yield vector_literal((v / np.linalg.norm(v)).tolist())

    with psycopg.connect(admin) as conn:
        ids = [uuid.uuid4() for _ in said]
        with conn.cursor().copy("COPY chat_turns (id, owner_sub, chat_id, seq, role, speaker, text, occurred_at, "
                                "external_id, created_at) FROM STDIN") as copy:
            seqs: dict[str, int] = {}
            for key, (chat, t, at) in zip(ids, said, strict=True):
                seqs[chat] = seqs.get(chat, 0) + 1
                copy.write_row((key, seed.owner, chat, seqs[chat], t["role"].lower(), t["speaker"], t["text"], at,
                                t["externalId"], at))
        for chat, last in seqs.items():
            conn.execute("INSERT INTO curator_state (owner_sub, chat_id, last_seq, watermark_seq) "
                         "VALUES (%s, %s, %s, %s)", (seed.owner, chat, last, last))
        with conn.cursor().copy("COPY memory_projections (owner_sub, source_kind, source_key, text, valid_from, "
                                "valid_to, retention_class, embedding, embedding_model, embedding_pending) "
                                "FROM STDIN") as copy:
            for key, (_, _, at), text, vector in zip(ids, said, texts, vectors(len(said)), strict=True):
                copy.write_row((seed.owner, "episode", str(key), text, at, at + timedelta(seconds=1), "episodic",
                                vector, OFFLINE_NAME, False))
        entity_rows = conn.execute("SELECT id FROM memory_projections WHERE source_kind = 'entity'").fetchall()
        conn.execute("CREATE TEMP TABLE seed_vectors (id uuid, embedding text)")
        with conn.cursor().copy("COPY seed_vectors FROM STDIN") as copy:
            for (key,), vector in zip(entity_rows, vectors(len(entity_rows)), strict=True):
                copy.write_row((key, vector))
        conn.execute("UPDATE memory_projections p SET embedding = v.embedding::vector, embedding_model = %s, "
                     "embedding_pending = false FROM seed_vectors v WHERE p.id = v.id", (OFFLINE_NAME,))
        conn.commit()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute("SET maintenance_work_mem = '1GB'")
        conn.execute(definition[0])
        conn.execute("VACUUM ANALYZE memory_projections, chat_turns, curator_state")
        conn.execute(sql.SQL("COMMENT ON DATABASE {} IS {}").format(sql.Identifier(NAME), sql.Literal(seed.marker)))
