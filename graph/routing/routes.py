"""The routing table: owner -> cluster, kept in the directory (the default cluster's database, beside the tokens).

Each owner's data lives wholly on one cluster: no query crosses owners, so none crosses clusters. An owner
without a row lives on the default cluster (DEFAULT), so an install with one cluster never reads the table.
Pure parsing of the setting is here too (`parse_clusters`), tested directly.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg.rows import dict_row

from graph.errors import BadInput
from graph.sql import load

DEFAULT = "main"  # the cluster of WORLDMEM_DATABASE_URL or the embedded primary: the directory's
CLUSTER_NAME = re.compile(r"^[a-z][a-z0-9_]{0,30}$")


@dataclass(frozen=True)
class Route:
    cluster: str
    moving_to: str | None = None

    @property
    def moving(self) -> bool:
        return self.moving_to is not None


HOME = Route(DEFAULT)


def parse_clusters(text: str) -> dict[str, str]:
    """`a=postgresql://...,b=postgresql://...` as {name: admin URL}; BadInput (BAD_CLUSTERS) for anything else.

    The default cluster is not listed (it is WORLDMEM_DATABASE_URL or the embedded one) and cannot be renamed."""
    found: dict[str, str] = {}
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        name, sep, url = part.partition("=")
        name, url = name.strip(), url.strip()
        if not sep or not CLUSTER_NAME.match(name) or not url.startswith(("postgresql://", "postgres://")):
            raise BadInput(f"WORLDMEM_CLUSTERS: {part.split('=', 1)[0]!r} is not `name=postgresql://...` "
                           "(name: a-z, 0-9, _)", code="BAD_CLUSTERS")
        if name == DEFAULT or name in found:
            raise BadInput(f"WORLDMEM_CLUSTERS: {name!r} is named twice (`{DEFAULT}` is the default cluster)",
                           code="BAD_CLUSTERS")
        found[name] = url
    return found


def read_route(conn: psycopg.Connection[Any], owner: str) -> Route:
    with conn.cursor(row_factory=dict_row) as cur:
        row = cur.execute(load("route_get"), {"owner": owner}).fetchone()
    return HOME if row is None else Route(row["cluster"], row["moving_to"])


def by_cluster(conn: psycopg.Connection[Any], owners: list[str]) -> dict[str, list[str]]:
    """`owners` grouped by the cluster their route names (one read of the table): for a job that visits every
    cluster and must find an owner's rows on its cluster only. A moving owner is still with its source."""
    with conn.cursor(row_factory=dict_row) as cur:
        routes = {r["routed_owner"]: r["cluster"] for r in cur.execute(load("route_all"))}
    grouped: dict[str, list[str]] = {}
    for owner in owners:
        grouped.setdefault(routes.get(owner, DEFAULT), []).append(owner)
    return grouped
