"""How far the curator has read a chat, and whether it can read at all (curatorStatus).

With no model configured the service still runs: turns are stored and wait; the status says so and how
to configure one. A configured model counts only once it answered its check (curator.check): until then
the status says it is being checked, and after a failure what is wrong and what to change.
Owner-facing text in English and German.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Literal

from pydantic import BaseModel

from curator.check import configured_label
from curator.check_text import LOCAL_DE, LOCAL_EN, texts
from curator.health import ModelHealth
from graph.errors import BadInput
from graph.platform.db import Database
from graph.settings import Settings
from graph.sql import load

Language = Literal["en", "de"]
HOW_TO = {"en": LOCAL_EN, "de": LOCAL_DE}
# A run's error as curator.model_errors classifies it: the kinds that mean the model does not answer now.
MODEL_DOWN = re.compile(r"^model error \((auth|rate_limit|timeout|unreachable)\):")
# The check's words for each (curator.check_text), with the detail a run can give.
AS_CHECK = {"auth": ("auth", ""), "unreachable": ("unreachable", "the last curator run could not reach it"),
            "timeout": ("slow", ""), "rate_limit": ("failed", "rate limit or quota reached")}


class ModelView(BaseModel):
    """The curator model as the owner should see it."""

    model: str | None = None
    usable: bool = False
    checking: bool = False
    problem: dict[str, str] = {}
    fix: dict[str, str] = {}
    checked_at: datetime | None = None


class Status(BaseModel):
    chat_id: str
    backlog: int = 0
    explicit_backlog: int = 0
    watermark: int = 0
    last_seq: int = 0
    last_turn_at: datetime | None = None
    view: ModelView = ModelView()

    @property
    def model(self) -> str | None:
        return self.view.model

    @property
    def model_configured(self) -> bool:
        """True only for a model that answered (never for one that is merely named in the settings)."""
        return bool(self.view.model) and self.view.usable


def model_view(settings: Settings, health: ModelHealth | None) -> ModelView:
    """From the app's health record; without one (an app given its own turn listener), from the settings."""
    if health is None:
        label = configured_label(settings)
        return ModelView(model=label, usable=label is not None)
    last = health.last
    if last is not None and last.kind == "not_configured":  # nothing to check: the plain "configure one" path
        return ModelView(checked_at=health.checked_at)
    if last is not None and not last.ok:
        return ModelView(model=last.model or configured_label(settings), problem=last.problem, fix=last.fix,
                         checked_at=health.checked_at)
    return ModelView(model=health.label, usable=health.usable, checking=health.checking,
                     checked_at=health.checked_at)


def after_last_run(view: ModelView, settings: Settings, error: str | None, at: datetime | None) -> ModelView:
    """`view`, unless the chat's last curator run failed on the model after the view's check passed: a model
    that answered at start can stop (a key revoked, the server gone), and a status that still said
    "configured" would promise curation that is not happening. The next run that reaches the model clears it."""
    down = MODEL_DOWN.match(error or "")
    if not view.usable or down is None or at is None or (view.checked_at is not None and at <= view.checked_at):
        return view
    kind, detail = AS_CHECK[down.group(1)]
    said = texts(kind, settings, view.model, detail, 0.0)
    return ModelView(model=view.model, problem=said.problem, fix=said.fix, checked_at=at)


def language(value: str) -> Language:
    if value == "en":
        return "en"
    if value == "de":
        return "de"
    raise BadInput("language must be en or de", code="BAD_LANGUAGE")


def chat_status(db: Database, owner: str, chat_id: str, view: ModelView | None = None) -> Status:
    view = view or ModelView()
    with db.owner_tx(owner, read_only=True) as conn:
        row = conn.execute(load("curator_state_get"), {"chat_id": chat_id}).fetchone()
    if row is None:
        return Status(chat_id=chat_id, view=view)
    return Status(chat_id=chat_id, backlog=row["backlog"], explicit_backlog=row["explicit_backlog"],
                  watermark=row["watermark_seq"], last_seq=row["last_seq"], last_turn_at=row["last_turn_at"],
                  view=view)


def how_to_configure(status: Status, lang: Language) -> str | None:
    if status.model_configured or status.view.checking:
        return None
    return status.view.fix.get(lang) or HOW_TO[lang]


def model_problem(status: Status, lang: Language) -> str | None:
    return status.view.problem.get(lang)


def message(status: Status, lang: Language) -> str:
    """One sentence for the owner."""
    n, view = status.backlog, status.view
    if lang == "de":
        waiting = "Nichts wartet auf den Kurator" if n == 0 else (
            "1 Nachricht wartet auf den Kurator" if n == 1 else f"{n} Nachrichten warten auf den Kurator")
        if status.model_configured:
            return f"{waiting} (Modell: {view.model})."
        if view.checking:
            return f"{waiting}; das Kurator-Modell {view.model} wird gerade geprüft."
        if view.problem:
            return (f"{waiting}; kuratiert wird erst, wenn das behoben ist: {view.problem['de']}. "
                    f"{view.fix.get('de', '')}").strip()
        return f"{waiting}; es ist kein Modell eingerichtet. {HOW_TO['de']}"
    waiting = "Nothing is waiting for the curator" if n == 0 else (
        "1 turn is waiting for the curator" if n == 1 else f"{n} turns are waiting for the curator")
    if status.model_configured:
        return f"{waiting} (model: {view.model})."
    if view.checking:
        return f"{waiting}; the curator model {view.model} is being checked."
    if view.problem:
        return f"{waiting}; nothing is curated until this is fixed: {view.problem['en']}. {view.fix.get('en', '')}"\
            .strip()
    return f"{waiting}; no model is configured. {HOW_TO['en']}"
