"""GraphQL's point reads (stateAt, stateAsKnownAt, factHistory, getEntity): one statement awaited on the event loop.

Each of these reads is one statement that pins its owner (Database.read_pinned). Over GraphQL that statement
now goes out on the app's loop pool (graph.platform.db_async.LoopReads) instead of a worker thread when the
request is the only one in flight (resolvers.fairness.alone: the single client an agent or the explorer
mostly is; with others in flight a thread gives more throughput), within the owner's share as before
(resolvers.fairness.on_loop). What the rows alone do not answer still runs in a worker thread, as the
library does it, with the same functions: the owner's language for a retention notice (temporal.notice_due),
and getEntity of a name that is not a ref (recall.by_name). Without a loop pool on this loop (an app without
its lifespan, a test's own loop), the statement goes to a worker thread as before.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from datetime import datetime
from typing import Any, LiteralString

from graph.agent import recall
from graph.agent.render import About
from graph.agent.search import now
from graph.governance.phrases import Lang
from graph.platform.db import Database
from graph.reads import temporal
from graph.reads.temporal import EntityStateView, FactView, Question
from resolvers.fairness import alone, offload, on_loop


async def rows(db: Database, owner: str, query: LiteralString, params: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The rows of one statement that pins `owner` (Database.read_pinned): on the loop when the app's loop
    pool runs on this loop and the request is alone in flight (fairness.alone), else in a worker thread."""
    reads = db.loop_reads
    # with standbys, Database.read_pinned decides where the read goes (graph/platform/standby.py)
    if reads is None or db.standbys is not None or reads.loop is not asyncio.get_running_loop() or not alone():
        return await offload(db.read_pinned, owner, query, params)
    return await on_loop(reads.read_pinned, owner, query, params)


async def state(db: Database, owner: str, ref: str, q: Question) -> EntityStateView | None:
    """temporal.state_at / state_as_known_at: the same statement and the same view of its rows."""
    found = await rows(db, owner, *temporal.answer_query(ref, q))
    language: Lang = "en"  # asked only for a notice, and then read
    if temporal.notice_due(found, q):
        language = await offload(temporal.owner_language_now, db, owner)
    return temporal.state_view(ref, q, found, lambda: language)


async def state_at(db: Database, owner: str, ref: str, valid_time: datetime) -> EntityStateView | None:
    return await state(db, owner, ref, Question.as_of(valid_time))


async def state_as_known_at(db: Database, owner: str, ref: str, system_time: datetime,
                            valid_time: datetime | None = None) -> EntityStateView | None:
    return await state(db, owner, ref, Question.known_at(system_time, valid_time))


async def fact_history(db: Database, owner: str, ref: str, predicate: str) -> list[FactView]:
    """temporal.fact_history: the same statement and the same view of its rows."""
    return temporal.history_view(ref, await rows(db, owner, *temporal.answer_query(ref, Question.history(predicate))))


async def get_entity(db: Database, owner: str, ref: str) -> About:
    """recall.get_entity: its first statement on the loop, a name that is not a ref in a worker thread."""
    at = now()
    about = recall.by_ref(ref, await rows(db, owner, *recall.entity_query(ref, at)))
    return about if about is not None else await offload(recall.by_name, db, owner, ref, at)
