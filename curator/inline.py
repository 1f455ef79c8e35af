"""The inline runtime: the curator's debounce in the API process (asyncio), when Temporal is not configured.

Per chat: `debounce_turns` new turns, an explicit turn, or `debounce_s` without a turn start one coalesced
run (curator.pipeline.Curator.curate); one run per chat at a time, and turns that arrive during a run start
the next one. `on_turn` may be called from any thread (resolvers run blocking code in a pool).
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from dataclasses import dataclass, field

from curator.batch import RunReport
from curator.pipeline import Curator

log = logging.getLogger("worldmem.curator")
Key = tuple[str, str]
RECENT_REPORTS = 200  # the latest run reports, kept for inspection (bounded: the API process runs for long)


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

    async def _run(self, key: Key) -> None:
        chat = self._chats[key]
        try:
            self.reports.extend(await self.curator.curate(*key))
        except Exception:  # never breaks the API; the reconciler retries through the watermark
            log.exception("inline curator run failed for a chat")
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


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:  # a resolver's worker thread
        return None
