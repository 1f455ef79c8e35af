"""Which Database serves an owner: the route (graph/routing/routes.py), remembered briefly, and one pool per
cluster, opened when an owner there first asks.

A route is kept `ttl_s` seconds (the token cache's time, Settings.token_cache_s), so a request of a known
owner asks the directory nothing; the price is that a changed route (a move marked or switched) reaches a
server process at most `ttl_s` later, which the move waits out (graph/routing/move.py). Without other
clusters the app has no Router at all: the hot path is the single-cluster one.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from graph.errors import Moving, Unavailable
from graph.platform.db import Database
from graph.routing.routes import DEFAULT, Route, read_route

MAX_ROUTES = 10_000  # owners whose route a process remembers; beyond it the expired ones go, then all


@dataclass(frozen=True)
class Placement:
    database: Database
    route: Route


class Router:
    """Owner -> (the pool of its cluster, its route). `urls` are the app role's URLs of the other clusters."""

    def __init__(self, directory: Database, urls: dict[str, str], *, ttl_s: float, pool_max_size: int,
                 statement_timeout_ms: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.directory, self.urls, self.ttl_s, self._clock = directory, urls, ttl_s, clock
        self._pool_args = (pool_max_size, statement_timeout_ms)
        self._lock = threading.Lock()
        self._pools: dict[str, Database] = {DEFAULT: directory}
        self._routes: dict[str, tuple[float, Route]] = {}

    def cached(self, owner: str) -> Placement | None:
        """The placement of `owner` when its route was read less than `ttl_s` ago (cheap: on the event loop)."""
        with self._lock:
            entry = self._routes.get(owner)
            if entry is None or self._clock() >= entry[0]:
                return None
            pool = self._pools.get(entry[1].cluster)
        return Placement(pool, entry[1]) if pool is not None else None

    def place(self, owner: str) -> Placement:
        """The placement of `owner`, from the cache or the directory (blocking: one point read)."""
        found = self.cached(owner)
        if found is not None:
            return found
        asked_at = self._clock()
        with self.directory.connection() as conn, conn.transaction():
            route = read_route(conn, owner)
        database = self.database(route.cluster)
        if self.ttl_s > 0:
            with self._lock:
                if len(self._routes) >= MAX_ROUTES:
                    now = self._clock()
                    self._routes = {o: e for o, e in self._routes.items() if e[0] > now}
                    if len(self._routes) >= MAX_ROUTES:
                        self._routes.clear()
                self._routes[owner] = (asked_at + self.ttl_s, route)
        return Placement(database, route)

    def writable(self, owner: str) -> Database:
        """The owner's database for a write outside a request (the curator): Moving (OWNER_MOVING) while a move
        is marked, as a mutation gets, so the caller retries after the switch (its commit would not be copied)."""
        placed = self.place(owner)
        if placed.route.moving:
            raise Moving(f"this memory is being moved to cluster {placed.route.moving_to!r}: writing waits for the "
                         f"move / dieses Gedächtnis wird auf den Cluster {placed.route.moving_to!r} verschoben: "
                         "Schreiben wartet auf den Umzug", self.ttl_s + 0.5)
        return placed.database

    def database(self, cluster: str) -> Database:
        with self._lock:
            found = self._pools.get(cluster)
            if found is not None:
                return found
            url = self.urls.get(cluster)
            if url is None:
                # a route names a cluster this process is not configured with: an operator's mistake
                raise Unavailable(f"the owner's cluster {cluster!r} is not in WORLDMEM_CLUSTERS of this server")
            size, timeout = self._pool_args
            made = self._pools[cluster] = Database(url, max_size=size, statement_timeout_ms=timeout)
            return made

    def every(self) -> dict[str, Database]:
        """Every configured cluster's pool (opened here when not yet), the directory's first: for the jobs
        that visit every cluster (retention) and the finder, which hears every cluster's commits."""
        return {DEFAULT: self.directory, **{name: self.database(name) for name in self.urls}}

    def close(self) -> None:
        with self._lock:
            pools = [db for name, db in self._pools.items() if name != DEFAULT]
            self._pools = {DEFAULT: self.directory}
        for db in pools:
            db.close()
