"""The Temporal side: the client (pydantic data converter), the worker that runs the curator's workflow and
activities (`worldmem worker`), and how a turn reaches the workflow (signal-with-start)."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from temporalio.client import Client
from temporalio.contrib.pydantic import pydantic_data_converter
from temporalio.worker import Worker

from curator.durable.activities import CuratorActivities
from curator.durable.types import SIGNAL, WORKFLOW, ChatInput, workflow_id
from curator.durable.workflow import CuratorChat
from curator.pipeline import Curator
from graph.finder.durable import FinderActivities, FinderReconcile
from graph.finder.embedders import embedder_for
from graph.retention.durable import RetentionActivities, RetentionRun
from graph.routing.router import Router
from graph.settings import Settings

CONNECT_TIMEOUT = timedelta(seconds=5)


async def connect(settings: Settings) -> Client:
    assert settings.temporal_address is not None
    return await asyncio.wait_for(
        Client.connect(settings.temporal_address, namespace=settings.temporal_namespace,
                       data_converter=pydantic_data_converter),
        CONNECT_TIMEOUT.total_seconds())


def chat_input(settings: Settings, owner: str, chat_id: str) -> ChatInput:
    return ChatInput(owner=owner, chat_id=chat_id, debounce_s=settings.curator_debounce_s,
                     debounce_turns=settings.curator_debounce_turns,
                     activity_timeout_s=settings.curator_activity_timeout_s,
                     heartbeat_timeout_s=settings.temporal_heartbeat_timeout_s)


async def signal_turn(client: Client, settings: Settings, owner: str, chat_id: str, explicit: bool) -> None:
    """Signal-with-start: the chat's running workflow gets the turn, or a new one starts with it."""
    await client.start_workflow(
        WORKFLOW, chat_input(settings, owner, chat_id), id=workflow_id(owner, chat_id),
        task_queue=settings.temporal_task_queue, start_signal=SIGNAL, start_signal_args=[explicit],
        rpc_timeout=CONNECT_TIMEOUT)


def worker(client: Client, settings: Settings, curator: Curator, router: Router | None = None) -> Worker:
    """`router` with owners on several clusters (the curator's `where` is then its `writable`): each activity
    acts on its owner's cluster, and the schedules' jobs visit every cluster."""
    acts = CuratorActivities(curator)
    # the retention schedule's workflow (graph.retention.durable) and the finder's (graph.finder.durable)
    retention = RetentionActivities(curator.db, router)
    finder = FinderActivities(curator.db, embedder_for(settings), router)
    return Worker(client, task_queue=settings.temporal_task_queue,
                  workflows=[CuratorChat, RetentionRun, FinderReconcile],
                  activities=acts.all() + retention.all() + finder.all(),
                  graceful_shutdown_timeout=timedelta(seconds=5),
                  # a workflow's next task waits this long for the worker that ran its last one (its cache)
                  # before any worker may take it: after a worker died, as long as its activities' heartbeats
                  sticky_queue_schedule_to_start_timeout=timedelta(seconds=settings.temporal_heartbeat_timeout_s))
