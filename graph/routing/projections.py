"""The owner's entity projections (the finder's search texts and their embeddings), copied with the move.

They are derived, so an export leaves them out and the finder could compute them again; but on a copy that
is the slow part (the texts, one sweep of every entity) and the costly one (the embeddings, a model call per
text). Keyed by the entity's ref, they land on the copy's new entity ids. Rows stream from the source in
batches, so a large owner never sits in memory at once."""

from __future__ import annotations

import json

import psycopg

from graph.sql import load

BATCH = 1000


def copy_projections(source: str, target: str, owner: str) -> int:
    """Copy; the number of projections read from the source (admin URLs of both clusters)."""
    copied = 0
    with psycopg.connect(source) as src, src.transaction(), psycopg.connect(target) as dst, dst.transaction():
        with src.cursor(name="route_projections") as cur:
            cur.execute(load("route_projections_out"), {"owner": owner})
            while rows := cur.fetchmany(BATCH):
                dst.execute(load("route_projections_in"),
                            {"owner": owner, "rows": json.dumps([r[0] for r in rows])})
                copied += len(rows)
    return copied
