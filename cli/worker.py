"""`worldmem worker`: runs the curator's Temporal worker (workflow `curator:chat:{chat_id}` and its activities),
plus the schedules `worldmem-retention` and `worldmem-finder` and their workflows.

Needs WORLDMEM_TEMPORAL_ADDRESS and a curator model (WORLDMEM_CURATOR_MODEL or WORLDMEM_CURATOR_BASE_URL).
Any number of workers may poll one task queue: each batch and job is done once, and a dead worker's work
moves to another after WORLDMEM_TEMPORAL_HEARTBEAT_TIMEOUT_S (docs/operations/temporal.md).
"""

from __future__ import annotations

import argparse
import asyncio

from cli.curator import render
from curator.check import check
from curator.durable.worker import connect, worker
from curator.extract import ModelNotConfigured, build_model
from curator.pipeline import Curator
from graph.finder import durable as finder_durable
from graph.finder.embedders import embedder_for
from graph.finder.nudger import Nudger
from graph.platform import embedded
from graph.platform.connect import role_url
from graph.platform.db import Database
from graph.platform.errors import PlatformError
from graph.retention.durable import ensure_schedule
from graph.routing.config import router_for
from graph.routing.finder import RoutedNudger
from graph.routing.router import Router
from graph.settings import Settings


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sub.add_parser("worker", help="run the curator's Temporal worker (needs WORLDMEM_TEMPORAL_ADDRESS)")


def run(args: argparse.Namespace, settings: Settings) -> int:
    if not settings.temporal_address:
        raise PlatformError("set WORLDMEM_TEMPORAL_ADDRESS (host:port of Temporal) to run the worker")
    try:
        model = build_model(settings)
    except ModelNotConfigured as exc:
        raise PlatformError(str(exc)) from exc
    if model is None:
        raise PlatformError("set WORLDMEM_CURATOR_MODEL or WORLDMEM_CURATOR_BASE_URL: the worker needs a model")
    database = Database(role_url(settings, "app"), max_size=settings.pool_max_size,
                        statement_timeout_ms=settings.statement_timeout_ms)
    router = router_for(settings, database)  # None with one cluster: no route lookups
    try:
        curator = Curator(database, settings, model, router.writable if router is not None else None)
        asyncio.run(_serve(settings, curator, router))
    finally:
        if router is not None:
            router.close()
        database.close()
    return 0


async def _check(settings: Settings, curator: Curator) -> None:
    checked = await check(settings, curator.model)
    embedded.progress(f"curator model check: {render(checked, ['en', 'de'])}"
                      + ("" if checked.ok else "\n  the worker runs; curator runs fail until this is fixed"))


async def _serve(settings: Settings, curator: Curator, router: Router | None = None) -> None:
    # beside the worker, not before it: a slow model must not delay the retention and finder schedules
    checking = asyncio.create_task(_check(settings, curator)) if settings.curator_check_on_start else None
    client = await connect(settings)
    await ensure_schedule(client, settings)  # the retention job, every retention_every_hours
    await finder_durable.ensure_schedule(client, settings)  # the finder's reconciler, every finder_sweep_s
    embedded.progress(f"curator worker on {settings.temporal_address}, task queue {settings.temporal_task_queue}")
    # the curator's commits in this process are projected and embedded right after them (the schedule's
    # sweep only catches what other processes wrote)
    embedder = embedder_for(settings)
    finder = Nudger(curator.db, embedder, 0) if router is None else RoutedNudger(router, embedder, 0)
    finder.start()
    try:
        await worker(client, settings, curator, router).run()
    finally:
        finder.stop()
        if checking is not None:
            checking.cancel()
