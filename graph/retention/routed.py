"""The retention job with owners on several clusters (docs/operations/clusters.md): it runs on every cluster,
for the owners routed there, and drops that cluster's own expired partitions; one owner only on its cluster.
Without a router it is job.run on the one database. The schedule's activity and `worldmem retention run`
both come here."""

from __future__ import annotations

from graph.finder import reconciler
from graph.platform.db import Database
from graph.retention import job
from graph.routing.router import Router
from graph.routing.routes import by_cluster


def run_everywhere(db: Database, router: Router | None, options: job.Options, progress: job.Progress | None = None,
                   *, wait: bool = True) -> job.Report:
    if router is None:
        return job.run(db, options, progress, wait=wait)
    if options.owner is not None:
        return job.run(router.place(options.owner).database, options, progress, wait=wait)
    with db.connection() as conn:
        grouped = by_cluster(conn, reconciler.owners(db))  # every owner's tokens are in the directory
    return merged([job.run(at, options.model_copy(update={"owners": grouped.get(name, [])}), progress, wait=wait)
                   for name, at in router.every().items()])


def merged(reports: list[job.Report]) -> job.Report:
    """One report of the runs on several clusters: their owners, and the partitions each dropped or kept,
    the rows dropped per month added (pure)."""
    out = reports[0].model_copy(deep=True)
    for other in reports[1:]:
        out.owners += other.owners
        for month, n in other.dropped.items():
            out.dropped[month] = out.dropped.get(month, 0) + n
        out.kept.update(other.kept)
    return out
