"""The server's finder thread when owners live on several clusters: a nudge after a commit reconciles the
owner on the cluster the route names (a commit on cluster b must be projected on b, where its rows are).

It is the Nudger (graph/finder/nudger.py) with one step replaced: `_database_of`, where an owner's rows are. The
periodic sweep still lists the directory's owners only (owners elsewhere are swept by the finder run against
their cluster: `worldmem finder reconcile` with that cluster's settings, or a worker per cluster)."""

from __future__ import annotations

from graph.finder.embedders import Embedder
from graph.finder.nudger import Nudger
from graph.platform.db import Database
from graph.platform.session_locks import SessionLocks
from graph.routing.router import Router
from graph.routing.routes import DEFAULT


class RoutedNudger(Nudger):
    def __init__(self, router: Router, embedder: Embedder | None, interval_s: float,
                 locks: SessionLocks | None = None) -> None:
        super().__init__(router.directory, embedder, interval_s, locks)
        self._router = router

    def _heard(self) -> list[Database]:
        """Commits on any cluster: a commit through cluster b's pool is told to listeners of that pool."""
        return [self._router.database(name) for name in (DEFAULT, *self._router.urls)]

    def _database_of(self, owner: str) -> Database:
        return self._router.place(owner).database
