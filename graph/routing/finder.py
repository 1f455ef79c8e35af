"""The server's finder thread when owners live on several clusters: each owner is reconciled on the cluster its
route names (a commit on cluster b must be projected on b, where its rows are).

It is the Nudger (graph/finder/nudger.py) with two steps replaced: `_database_of`, where an owner's rows are,
and the commits it hears: those of every cluster's pool, opened when the finder starts (commit listeners are
keyed by the Database). The periodic sweep lists the directory's owners (every owner with a
token, wherever its data is) and reconciles each on its cluster."""

from __future__ import annotations

from graph.finder.embedders import Embedder
from graph.finder.nudger import Nudger
from graph.platform.db import Database
from graph.platform.session_locks import SessionLocks
from graph.routing.router import Router


class RoutedNudger(Nudger):
    def __init__(self, router: Router, embedder: Embedder | None, interval_s: float,
                 locks: SessionLocks | None = None) -> None:
        super().__init__(router.directory, embedder, interval_s, locks)
        self._router = router

    def _heard(self) -> list[Database]:
        """Commits on any cluster: a commit through cluster b's pool is told to listeners of that pool."""
        return list(self._router.every().values())

    def _database_of(self, owner: str) -> Database:
        return self._router.place(owner).database
