"""The server's finder thread when owners live on several clusters: a nudge after a commit reconciles the
owner on the cluster the route names (a commit on cluster b must be projected on b, where its rows are).

It is the Nudger (graph/finder/nudger.py) with one step replaced: `_once`, which reconciles one owner. The
periodic sweep still lists the directory's owners only (owners elsewhere are swept by the finder run against
their cluster: `worldmem finder reconcile` with that cluster's settings, or a worker per cluster)."""

from __future__ import annotations

import logging

from graph.finder.embedders import Embedder
from graph.finder.nudger import Nudger
from graph.finder.reconciler import reconcile_owner
from graph.routing.router import Router

log = logging.getLogger("worldmem.finder")


class RoutedNudger(Nudger):
    def __init__(self, router: Router, embedder: Embedder | None, interval_s: float) -> None:
        super().__init__(router.directory, embedder, interval_s)
        self._router, self._model = router, embedder

    def _once(self, owner: str, refs: list[str] | None) -> None:
        try:
            reconcile_owner(self._router.place(owner).database, owner, self._model, refs=refs)
        except Exception:  # best effort, as the Nudger's: logged, retried by the next nudge
            log.exception("finder: reconciling an owner failed")
