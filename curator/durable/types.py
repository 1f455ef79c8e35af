"""The one input of each workflow and activity (pydantic, so fields can be added compatibly)."""

from __future__ import annotations

from pydantic import BaseModel

from curator.batch import Analysis, Batch, Routed

WORKFLOW = "CuratorChat"
SIGNAL = "turn"


class ChatInput(BaseModel):
    owner: str
    chat_id: str
    debounce_s: float = 30.0
    debounce_turns: int = 5
    activity_timeout_s: float = 120.0
    # every activity heartbeats (graph.platform.heartbeat): this long without one, its worker is taken for
    # dead and the step goes to another
    heartbeat_timeout_s: float = 10.0


class ValidateInput(BaseModel):
    batch: Batch
    analysis: Analysis


class FinishInput(BaseModel):
    batch: Batch
    analysis: Analysis | None = None
    routed: Routed | None = None


def workflow_id(owner: str, chat_id: str) -> str:
    """`curator:chat:{chat_id}`, with the owner after it: two owners may name a chat alike."""
    return f"curator:chat:{chat_id}:{owner}"
