"""The inline runtime's hand-off: a turn reported on the event loop itself is counted before idle() looks."""

from __future__ import annotations

import asyncio
from typing import Any

from curator.inline import InlineRuntime


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
