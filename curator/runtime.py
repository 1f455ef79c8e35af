"""The curator's runtime in the API process: which path a turn takes, and the catch-up reconciler.

- No model configured: no runtime (turns wait; curatorStatus says how to configure one).
- A model from the settings is checked at start (curator.check; again while it fails); when it answers,
  every waiting chat is curated at once (`watch`), so nothing waits for the catch-up's interval.
- WORLDMEM_TEMPORAL_ADDRESS unset: the inline runtime (curator.inline) debounces and curates in-process.
- Set: each turn is signalled to the chat's workflow on Temporal (signal-with-start). Temporal is a soft
  dependency: when it cannot be reached (at start or for one signal) the turn takes the inline path.
- Catch-up: every `curator_catchup_s` the reconciler finds chats whose watermark lags (curator.turns.
  lagging_chats, every owner) and curates them, durably when Temporal answers, inline otherwise.
Exactly once either way: the watermark moves only with a commit, under a lock (curator.commit.claim).
With owners on several clusters (docs/operations/clusters.md) the curator gets `where` (the router's
`writable`): each owner's turns are read, curated and committed on its cluster.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import timedelta

from pydantic_ai.models import Model
from temporalio.client import Client
from temporalio.service import RPCError

from curator.batch import RunReport
from curator.check import build, check
from curator.extract import model_label
from curator.health import ModelHealth
from curator.inline import InlineRuntime
from curator.pipeline import Curator
from curator.turns import lagging_chats
from graph.platform.db import Database
from graph.platform.session_locks import SessionLocks
from graph.settings import Settings

log = logging.getLogger("worldmem.curator")
TEMPORAL_ERRORS = (RPCError, OSError, TimeoutError, RuntimeError)
Where = Callable[[str], Database]  # owner -> the database of its cluster (graph.routing.Router.writable)


@dataclass
class Runtime:
    """The app's TurnListener while a curator model is configured."""

    inline: InlineRuntime
    settings: Settings
    client: Client | None = None
    fallbacks: int = 0
    _tasks: set[asyncio.Task[None]] = field(default_factory=set)

    @property
    def durable(self) -> bool:
        return self.client is not None

    def on_turn(self, owner: str, chat_id: str, explicit: bool) -> None:
        if self.client is None:
            self.inline.on_turn(owner, chat_id, explicit)
            return
        self.inline.loop.call_soon_threadsafe(self._spawn, owner, chat_id, explicit)

    def _spawn(self, owner: str, chat_id: str, explicit: bool) -> None:
        task = self.inline.loop.create_task(self._signal(owner, chat_id, explicit))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _signal(self, owner: str, chat_id: str, explicit: bool) -> None:
        from curator.durable.worker import signal_turn

        assert self.client is not None
        try:
            await signal_turn(self.client, self.settings, owner, chat_id, explicit)
        except TEMPORAL_ERRORS as exc:
            self.fallbacks += 1
            log.warning("Temporal unreachable (%s): chat curated inline", type(exc).__name__)
            self.inline.on_turn(owner, chat_id, explicit)

    async def catch_up(self, older_than: timedelta | None = None, owner: str | None = None) -> list[RunReport]:
        """Curate every chat (of `owner`, default every owner) whose backlog waited longer than `older_than`
        (default: curator_catchup_s)."""
        lag = older_than if older_than is not None else timedelta(seconds=self.settings.curator_catchup_s)
        curator = self.inline.curator
        chats = await asyncio.to_thread(lagging_chats, curator.db, owner, lag, curator.where)
        reports: list[RunReport] = []
        for owner, chat_id in chats:
            if self.client is not None:
                self._spawn(owner, chat_id, True)
            else:
                reports += await self.inline.claimed(owner, chat_id) or []  # None: another process has it
        return reports

    async def reconcile_forever(self) -> None:
        while True:
            await asyncio.sleep(self.settings.curator_catchup_s)
            try:
                await self.catch_up()
            except Exception:  # the reconciler never stops for one failure
                log.exception("curator catch-up failed")

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await self.inline.stop()


async def start(db: Database, settings: Settings, model: Model | None,
                where: Where | None = None) -> Runtime | None:
    """The runtime for `model` (None: no runtime), durable when Temporal is configured and reachable. `where`
    places each owner on its cluster (None: one cluster, `db`). The chats' claims stay on `db`, the directory
    every process shares: a claim only has to be seen by every process, not to sit beside the turns."""
    if model is None:
        return None
    curator = Curator(db, settings, model, where)
    inline = InlineRuntime(curator, asyncio.get_running_loop(), settings.curator_debounce_s,
                           settings.curator_debounce_turns, locks=SessionLocks(db.url))
    runtime = Runtime(inline, settings)
    if settings.temporal_address:
        from curator.durable.worker import connect

        try:
            runtime.client = await connect(settings)
        except TEMPORAL_ERRORS as exc:
            log.warning("Temporal at %s unreachable (%s): curating inline", settings.temporal_address,
                        type(exc).__name__)
    return runtime


async def watch(runtime: Runtime, model: Model, health: ModelHealth) -> None:
    """Check the model; once it answers, curate every waiting chat at once (turns stored while there was no
    working model wait no longer than this). While it fails, check again every `curator_recheck_s`."""
    settings = runtime.settings
    while True:
        try:
            result = await check(settings, model)
        except Exception:  # a bug in the check must not end the watch: the backlog would wait for the catch-up
            log.exception("curator model check crashed")
            await asyncio.sleep(settings.curator_recheck_s)
            continue
        health.record(result)
        if result.ok:
            log.info("curator model %s answered in %.1f s (output mode %s)", result.model, result.seconds,
                     result.mode)
            await runtime.catch_up(timedelta(0))
            return
        log.warning("curator model check failed (%s): %s. What to change: %s", result.kind,
                    result.problem["en"], result.fix.get("en", ""))
        await asyncio.sleep(settings.curator_recheck_s)


@asynccontextmanager
async def running(db: Database, settings: Settings, model: Model | None,
                  health: ModelHealth | None = None, where: Where | None = None) -> AsyncIterator[Runtime | None]:
    """The runtime, its reconciler and its model's check for the app's lifetime (None when no model is
    configured or the configured one cannot be built; `health` then says why)."""
    health = health if health is not None else ModelHealth()
    given = model is not None
    if model is None:
        model, failed = build(settings)
        if failed is not None:
            health.record(failed)
            if failed.kind != "not_configured":
                log.warning("the curator stays off: %s. What to change: %s", failed.problem["en"],
                            failed.fix.get("en", ""))
    if model is not None:  # trusted unchecked: a model handed to the app, or the start check turned off
        health.label, health.given = model_label(model), given or not settings.curator_check_on_start
    runtime = await start(db, settings, model, where)
    if runtime is None:
        yield None
        return
    assert model is not None  # start() made a runtime
    loop = asyncio.get_running_loop()
    tasks = [loop.create_task(runtime.reconcile_forever())]
    if not health.given:
        tasks.append(loop.create_task(watch(runtime, model, health)))
    try:
        yield runtime
    finally:
        for task in tasks:
            task.cancel()
        await runtime.stop()
