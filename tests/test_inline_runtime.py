"""The inline runtime's hand-off: a turn reported on the event loop itself is counted before idle() looks; two
runtimes on one database take turns on a chat."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from curator.inline import InlineRuntime
from graph.platform.session_locks import SessionLocks


class Recorder:
    """Stands in for the curator pipeline: records the chats it was asked to curate."""

    def __init__(self) -> None:
        self.chats: list[tuple[str, str]] = []

    async def curate(self, owner: str, chat_id: str) -> list[Any]:
        await asyncio.sleep(0.01)
        self.chats.append((owner, chat_id))
        return []


def test_turn_on_the_loop_is_seen_by_idle() -> None:
    async def go() -> list[tuple[str, str]]:
        recorder = Recorder()
        inline = InlineRuntime(recorder, asyncio.get_running_loop(), debounce_s=0.05)  # type: ignore[arg-type]
        inline.on_turn("o", "c", True)  # what the durable runtime's fallback does, on the loop
        await inline.idle()
        return recorder.chats

    assert asyncio.run(go()) == [("o", "c")]


def test_turn_from_a_worker_thread_still_arrives() -> None:
    async def go() -> list[tuple[str, str]]:
        recorder = Recorder()
        inline = InlineRuntime(recorder, asyncio.get_running_loop(), debounce_s=0.05)  # type: ignore[arg-type]
        await asyncio.to_thread(inline.on_turn, "o", "c", False)  # a resolver's thread; debounced
        await asyncio.sleep(0)
        await inline.idle()
        return recorder.chats

    assert asyncio.run(go()) == [("o", "c")]


class Timed(Recorder):
    """A curate that takes a while and notes when it ran (monotonic start and end)."""

    def __init__(self) -> None:
        super().__init__()
        self.spans: list[tuple[float, float]] = []

    async def curate(self, owner: str, chat_id: str) -> list[Any]:
        began = time.monotonic()
        await asyncio.sleep(0.3)
        self.spans.append((began, time.monotonic()))
        return []


def test_two_runtimes_on_one_database_never_curate_one_chat_at_once(app_db_url: str) -> None:
    """As two server processes that both got a turn of the chat: the second finds the chat claimed and tries
    again once the first is done (the real curate then finds what is left), instead of running beside it."""

    async def go() -> tuple[Timed, Timed]:
        loop = asyncio.get_running_loop()
        first, second = Timed(), Timed()
        runtimes = [InlineRuntime(r, loop, debounce_s=0.05, locks=SessionLocks(app_db_url))  # type: ignore[arg-type]
                    for r in (first, second)]
        for runtime in runtimes:
            runtime.on_turn("o", "shared", True)
        for runtime in runtimes:
            await runtime.idle()
        for runtime in runtimes:
            await runtime.stop()
        return first, second

    first, second = asyncio.run(go())
    spans = sorted(first.spans + second.spans)
    assert len(spans) == 2, spans  # both turns led to a run: none was dropped
    assert spans[0][1] <= spans[1][0], spans  # one after the other, never side by side
