"""Live commits: one LISTEN connection per process, fanned out to each owner's subscribers.

The committer sends `pg_notify('worldmem_commit', ...)` inside the proposal's transaction (delivered at
COMMIT, so a rolled-back proposal is never announced). The payload holds the owner, counts and entity ids
only (graph/sql/live_commit_notify.sql). A subscriber only ever receives its own owner's commits: the hub
routes by the owner named in the payload, and the owner a subscriber listens for comes from its token.

The same connection hears erasures (`worldmem_erased`, graph/erasure/erase.py): each process then runs its
`on_erased` callbacks, which forget what it remembers of texts an erasure may have taken (query vectors,
GraphQL documents), whichever process the erasure went through. They also run after every (re)connect:
an erasure announced while nobody listened is then covered too (forgetting is always safe, only slower).
With callbacks, `listen` starts the connection at once instead of at the first subscriber.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Callable
from uuid import UUID

import psycopg
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from graph.sql import load

log = logging.getLogger("worldmem.live")
QUEUE_SIZE = 100  # a subscriber that falls this far behind loses the oldest news, never blocks the hub
RECONNECT_SECONDS = 1.0
ERASED = "worldmem_erased"


class Commit(BaseModel):
    """One committed proposal as announced: who, how much, which entities (never content)."""

    model_config = ConfigDict(populate_by_name=True)

    owner: str
    committed: int = 0
    pending: int = 0
    entity_ids: list[UUID] = Field(default_factory=list, alias="entityIds")


def parse(payload: str) -> Commit | None:
    """The announcement in a NOTIFY payload; None for anything malformed (logged, never raised)."""
    try:
        return Commit.model_validate(json.loads(payload))
    except (ValueError, ValidationError):
        log.warning("ignored a malformed commit notification")
        return None


def summary(commit: Commit) -> str:
    return f"{commit.committed} committed, {commit.pending} pending, {len(commit.entity_ids)} entities"


class CommitHub:
    """Listens once per event loop (a server process has one); each subscriber gets its own bounded queue.

    One app can be served on two loops at once (two test clients of one app): each loop then has its own
    listener and hears for its own subscribers only, so nothing crosses loops and nothing is heard twice."""

    def __init__(self, url: str) -> None:
        self._url = url
        self._subscribers: dict[tuple[asyncio.AbstractEventLoop, str], set[asyncio.Queue[Commit]]] = {}
        self._listeners: dict[asyncio.AbstractEventLoop, tuple[asyncio.Task[None], asyncio.Event]] = {}
        self.on_erased: list[Callable[[], None]] = []

    async def listen(self, wait_s: float | None = 0.0) -> None:
        """Listen on this loop from now on (not only once the first subscriber comes), e.g. for `on_erased`,
        waiting up to `wait_s` for the LISTEN (None: until it is in place). A database that is down at start-up
        delays the listener, not the server."""
        loop = asyncio.get_running_loop()
        found = self._listeners.get(loop)
        if found is None or found[0].done():
            ready = asyncio.Event()
            found = self._listeners[loop] = (loop.create_task(self._run(loop, ready)), ready)
        if wait_s is None:
            await found[1].wait()
        elif wait_s > 0:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(found[1].wait(), wait_s)

    async def subscribe(self, owner: str) -> AsyncIterator[Commit]:
        """Commits of `owner` from the moment the hub listens, until the caller stops iterating."""
        queue: asyncio.Queue[Commit] = asyncio.Queue(QUEUE_SIZE)
        key = (asyncio.get_running_loop(), owner)
        self._subscribers.setdefault(key, set()).add(queue)
        try:
            await self.listen(None)
            while True:
                yield await queue.get()
        finally:
            queues = self._subscribers.get(key, set())
            queues.discard(queue)
            if not queues:
                self._subscribers.pop(key, None)

    def publish(self, commit: Commit, loop: asyncio.AbstractEventLoop) -> None:
        for queue in self._subscribers.get((loop, commit.owner), ()):
            if queue.full():
                queue.get_nowait()
            queue.put_nowait(commit)

    async def _run(self, loop: asyncio.AbstractEventLoop, ready: asyncio.Event) -> None:
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self._url, autocommit=True) as conn:
                    await conn.execute(load("live_listen"))
                    self._erased()
                    ready.set()
                    async for note in conn.notifies():
                        if note.channel == ERASED:
                            self._erased()
                            continue
                        commit = parse(note.payload)
                        if commit is not None:
                            self.publish(commit, loop)
            except psycopg.Error:
                log.warning("live commit listener lost its connection; reconnecting", exc_info=True)
                await asyncio.sleep(RECONNECT_SECONDS)

    def _erased(self) -> None:
        for forget in self.on_erased:
            try:
                forget()
            except Exception:  # one callback's bug must not end the listener
                log.exception("forgetting after an erasure failed")

    async def close(self) -> None:
        """Stop this loop's listener (another loop's stops when that loop's app shuts down)."""
        found = self._listeners.pop(asyncio.get_running_loop(), None)
        if found is None:
            return
        found[0].cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await found[0]
