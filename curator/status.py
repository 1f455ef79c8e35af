"""How far the curator has read a chat, and whether it can read at all (curatorStatus).

With no model configured the service still runs: turns are stored and wait; the status says so and how
to configure a model (the setting WORLDMEM_CURATOR_MODEL). Owner-facing text in English and German.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel

from graph.errors import BadInput
from graph.platform.db import Database
from graph.sql import load

Language = Literal["en", "de"]
MODEL_SETTING = "WORLDMEM_CURATOR_MODEL"
HOW_TO = {
    "en": f"Set {MODEL_SETTING} to a pydantic-ai model (e.g. openai:gpt-4o-mini, or an OpenAI-compatible "
          "server such as a local Ollama) and restart the service.",
    "de": f"Setze {MODEL_SETTING} auf ein pydantic-ai-Modell (z. B. openai:gpt-4o-mini, oder einen "
          "OpenAI-kompatiblen Server wie ein lokales Ollama) und starte den Dienst neu.",
}


class Status(BaseModel):
    chat_id: str
    backlog: int = 0
    explicit_backlog: int = 0
    watermark: int = 0
    last_seq: int = 0
    last_turn_at: datetime | None = None
    model: str | None = None

    @property
    def model_configured(self) -> bool:
        return bool(self.model)


def language(value: str) -> Language:
    if value == "en":
        return "en"
    if value == "de":
        return "de"
    raise BadInput("language must be en or de", code="BAD_LANGUAGE")


def chat_status(db: Database, owner: str, chat_id: str, model: str | None) -> Status:
    with db.owner_tx(owner, read_only=True) as conn:
        row = conn.execute(load("curator_state_get"), {"chat_id": chat_id}).fetchone()
    if row is None:
        return Status(chat_id=chat_id, model=model or None)
    return Status(chat_id=chat_id, backlog=row["backlog"], explicit_backlog=row["explicit_backlog"],
                  watermark=row["watermark_seq"], last_seq=row["last_seq"], last_turn_at=row["last_turn_at"],
                  model=model or None)


def how_to_configure(status: Status, lang: Language) -> str | None:
    return None if status.model_configured else HOW_TO[lang]


def message(status: Status, lang: Language) -> str:
    """One sentence for the owner."""
    n = status.backlog
    if lang == "de":
        waiting = "Nichts wartet auf den Kurator" if n == 0 else (
            "1 Nachricht wartet auf den Kurator" if n == 1 else f"{n} Nachrichten warten auf den Kurator")
        tail = f" (Modell: {status.model})." if status.model_configured else \
            f"; es ist kein Modell eingerichtet. {HOW_TO['de']}"
    else:
        waiting = "Nothing is waiting for the curator" if n == 0 else (
            "1 turn is waiting for the curator" if n == 1 else f"{n} turns are waiting for the curator")
        tail = f" (model: {status.model})." if status.model_configured else \
            f"; no model is configured. {HOW_TO['en']}"
    return waiting + tail
