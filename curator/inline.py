"""The inline runtime: the curator's debounce in the API process (asyncio), when Temporal is not configured.

Per chat: `debounce_turns` new turns, an explicit turn, or `debounce_s` without a turn start one coalesced
run (curator.pipeline.Curator.curate); one run per chat at a time, and turns that arrive during a run start
the next one. `on_turn` may be called from any thread (resolvers run blocking code in a pool).

With several server processes on one database a chat's turns can reach any of them, and each catch-up sees
every lagging chat. So a run first claims its chat (`locks`: a session advisory lock, graph.platform.
session_locks): a process that finds the chat claimed tries again CLAIM_RETRY_S later instead of calling the
model for the same turns; by then the holder has curated them, and the retry finds nothing or the turns that
came after. The commit stays exactly once without the claim (the watermark, curator.commit.claim); the claim
saves the second LLM call.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from dataclasses import dataclass, field

from curator.batch import RunReport
from curator.pipeline import Curator
from graph.errors import Moving
from graph.platform.session_locks import CURATOR_CHAT, SessionLocks

log = logging.getLogger("worldmem.curator")
Key = tuple[str, str]
RECENT_REPORTS = 200  # the latest run reports, kept for inspection (bounded: the API process runs for long)
CLAIM_RETRY_S = 1.0


@dataclass
class _Chat:
    waiting: int = 0
    explicit: bool = False
    timer: asyncio.TimerHandle | None = None
    task: asyncio.Task[None] | None = None
    again: bool = False


@dataclass
class InlineRuntime:
    curator: Curator
    loop: asyncio.AbstractEventLoop
    debounce_s: float = 30.0
    debounce_turns: int = 5
    reports: deque[RunReport] = field(default_factory=lambda: deque(maxlen=RECENT_REPORTS))
    locks: SessionLocks | None = None
    _chats: dict[Key, _Chat] = field(default_factory=dict)

    def on_turn(self, owner: str, chat_id: str, explicit: bool) -> None:
        if _running_loop() is self.loop:  # on the loop already: counted now, so idle() sees it at once
            self._turn((owner, chat_id), explicit)
        else:
            self.loop.call_soon_threadsafe(self._turn, (owner, chat_id), explicit)

    def _turn(self, key: Key, explicit: bool) -> None:
        chat = self._chats.setdefault(key, _Chat())
        chat.waiting += 1
        chat.explicit = chat.explicit or explicit
        if chat.timer is not None:
            chat.timer.cancel()
        if chat.explicit or chat.waiting >= self.debounce_turns:
            self._fire(key)
        else:
            chat.timer = self.loop.call_later(self.debounce_s, self._fire, key)

    def _fire(self, key: Key) -> None:
        chat = self._chats[key]
        if chat.timer is not None:
            chat.timer.cancel()
            chat.timer = None
        if chat.task is not None and not chat.task.done():
            chat.again = True
            return
        chat.waiting, chat.explicit = 0, False
        chat.task = self.loop.create_task(self._run(key))

    async def claimed(self, owner: str, chat_id: str) -> list[RunReport] | None:
        """`Curator.curate` while this process holds the chat's claim; None when another process holds it."""
        name = f"{owner}\n{chat_id}"
        if self.locks is not None and not await asyncio.to_thread(self.locks.try_lock, CURATOR_CHAT, name):
            return None
        try:
            return await self.curator.curate(owner, chat_id)
        finally:
            if self.locks is not None:
                await asyncio.to_thread(self.locks.release, CURATOR_CHAT, name)

    async def _run(self, key: Key) -> None:
        chat = self._chats[key]
        retry_s = CLAIM_RETRY_S
        try:
            reports = await self.claimed(*key)
        except Moving as moving:  # the owner is being moved to another cluster: curated there after the switch
            reports, retry_s = None, moving.retry_after_s
        except Exception:  # never breaks the API; the reconciler retries through the watermark
            log.exception("inline curator run failed for a chat")
            reports = []
        if reports is None:  # claimed elsewhere or moving: once more later, which also covers turns that came meanwhile
            chat.again = False
            if chat.timer is None:
                chat.timer = self.loop.call_later(retry_s, self._fire, key)
            return
        self.reports.extend(reports)
        if chat.again:
            chat.again = False
            chat.waiting, chat.explicit = 0, False
            chat.task = self.loop.create_task(self._run(key))
        elif chat.timer is None and chat.waiting == 0:
            self._chats.pop(key, None)  # nothing pending: forget the chat until its next turn

    async def idle(self) -> None:
        """Wait until no chat has a run going or a debounce pending (tests; shutdown)."""
        while True:
            chats = list(self._chats.values())
            busy = [c.task for c in chats if c.task is not None and not c.task.done()]
            pending = any(c.timer is not None for c in chats)
            if not busy and not pending:
                return
            if busy:
                await asyncio.gather(*busy, return_exceptions=True)
            else:
                await asyncio.sleep(0.05)

    async def stop(self) -> None:
        for chat in list(self._chats.values()):
            if chat.timer is not None:
                chat.timer.cancel()
                chat.timer = None
        await self.idle()
        if self.locks is not None:
            await asyncio.to_thread(self.locks.close)


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:  # a resolver's worker thread
        return None
