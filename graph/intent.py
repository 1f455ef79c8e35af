"""Intent outcomes: did a consequential action have the effect it expected?

An action states `expected_effect = {target, predicate, expected_value}` (target: one ref or a list;
optional `within_seconds`, default 15 minutes). Its outcome compares that with the facts its effects
caused (through direct or trigger links, or later events of its correlation; inferred links are
hypotheses and never count):

- fulfilled: every target's latest observed value is the expected one;
- partial: some targets are, others are not (yet);
- unfulfilled: values were observed and none is the expected one, or the window closed with nothing;
- null: no expected effect, or nothing observed while the window is still open.

The committer re-judges the affected actions whenever a fact with a cause is recorded (`on_effect`);
`reconcile` closes windows and picks up effects that arrived late.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, Literal
from uuid import UUID

import psycopg
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from graph import entities
from graph.db import Database
from graph.errors import BadInput
from graph.registries import describe
from graph.sql import load

Outcome = Literal["fulfilled", "partial", "unfulfilled"]
DEFAULT_WINDOW = timedelta(minutes=15)
HORIZON = timedelta(days=7)
RECONCILE_BATCH = 1000


class ExpectedEffect(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    target: str | list[str] = Field(description="Ref (or refs) of the entity the action should change")
    predicate: str = Field(min_length=1, max_length=100)
    expected_value: Any = Field(description="Literal value, or the object's ref for a relationship")
    within_seconds: int | None = Field(default=None, ge=1, le=30 * 86_400,
                                       description="How long to wait for the effect (default 15 minutes)")

    @property
    def targets(self) -> list[str]:
        return [self.target] if isinstance(self.target, str) else list(self.target)

    @property
    def window(self) -> timedelta:
        return timedelta(seconds=self.within_seconds) if self.within_seconds else DEFAULT_WINDOW


class OutcomeChange(BaseModel):
    event_id: UUID
    old: str | None
    new: Outcome


def parse_expected(raw: Mapping[str, Any] | None) -> ExpectedEffect | None:
    """The expected effect of an action; BadInput when it is malformed."""
    if raw is None:
        return None
    try:
        effect = ExpectedEffect.model_validate(raw)
    except ValidationError as exc:
        raise BadInput(f"expectedEffect: {describe(exc)}", code="BAD_EXPECTED_EFFECT") from None
    if not effect.targets or len(effect.targets) > 50:
        raise BadInput("expectedEffect: target must name 1 to 50 refs", code="BAD_EXPECTED_EFFECT")
    return effect


def check_action(consequential: bool, source: str, intent: str | None, expected: Mapping[str, Any] | None) -> None:
    """The agent's consequential actions carry an intent; an expected effect must be well formed.

    Events recorded by others (a user's import, an integration) describe actions after the fact and may
    not know the intent, so only source `agent` is held to it.
    """
    if consequential and source == "agent" and not intent:
        raise BadInput("a consequential agent action needs an intent", code="INTENT_REQUIRED")
    parse_expected(expected)


def judge(targets: Sequence[str], expected: Any, latest: Mapping[str, Any], window_closed: bool) -> Outcome | None:
    """The outcome from the latest observed value per target (absent = not observed)."""
    matched = sum(1 for t in targets if t in latest and latest[t] == expected)
    if targets and matched == len(targets):
        return "fulfilled"
    if matched:
        return "partial"
    if latest or window_closed:
        return "unfulfilled"
    return None


def evaluate(conn: psycopg.Connection[Any], action: Mapping[str, Any], now: datetime) -> Outcome | None:
    """Judge one action row (id, occurred_at, correlation_id, expected_effect) as of `now`."""
    try:
        effect = parse_expected(action["expected_effect"])
    except BadInput:
        return None  # stored before validation existed: not observable
    if effect is None:
        return None
    ids: dict[UUID, str] = {}
    for ref in effect.targets:
        entity = entities.resolve(conn, ref)
        if entity is not None:
            ids[entity.id] = ref
    latest: dict[str, Any] = {}
    if ids:
        rows = conn.execute(load("intent_observations"), {
            "action_id": action["id"], "correlation_id": action["correlation_id"],
            "occurred_at": action["occurred_at"], "targets": list(ids), "predicate": effect.predicate}).fetchall()
        for row in rows:
            value = row["object_ref"] if row["object_kind"] == "entity" else row["object_value"]
            latest[ids[row["subject_id"]]] = value
    return judge(effect.targets, effect.expected_value, latest, now >= action["occurred_at"] + effect.window)


def _settle(conn: psycopg.Connection[Any], actions: Sequence[Mapping[str, Any]], now: datetime) -> list[OutcomeChange]:
    changes = []
    for action in actions:
        outcome = evaluate(conn, action, now)
        if outcome is None or outcome == action["intent_outcome"]:
            continue
        if conn.execute(load("intent_set_outcome"), {"id": action["id"], "outcome": outcome}).fetchone():
            changes.append(OutcomeChange(event_id=action["id"], old=action["intent_outcome"], new=outcome))
    return changes


def on_effect(conn: psycopg.Connection[Any], event_id: UUID, predicate: str, now: datetime) -> list[OutcomeChange]:
    """Re-judge the actions a fact just recorded may affect: those expecting `predicate` among the causes
    of its event `event_id` and earlier in that event's correlation. Only facts are observations, so
    recording an event alone changes no outcome (the reconciler closes windows)."""
    actions = conn.execute(load("intent_actions_for_effect"), {"event_id": event_id,
                                                               "predicate": predicate}).fetchall()
    return _settle(conn, actions, now)


def reconcile(db: Database, owner: str, now: datetime | None = None, horizon: timedelta = HORIZON,
              open_only: bool = False) -> list[OutcomeChange]:
    """Close expired windows (unfulfilled) and take in late effects, for actions within `horizon`.

    `open_only` looks only at actions not judged yet: enough to close windows, since a late fact with a
    cause re-judges its actions as it is committed; the full pass also catches anything else. Pages
    through the actions RECONCILE_BATCH at a time, one transaction per page.
    """
    at = now or datetime.now(UTC)
    if at.tzinfo is None:
        raise BadInput("now needs a UTC offset", code="BAD_TIME")
    changes: list[OutcomeChange] = []
    after: tuple[datetime, UUID] = (at - horizon, UUID(int=0))
    while True:
        with db.owner_tx(owner) as conn:
            actions = conn.execute(load("intent_open_actions"), {
                "since": at - horizon, "now": at, "after_at": after[0], "after_id": after[1],
                "open_only": open_only, "limit": RECONCILE_BATCH}).fetchall()
            changes += _settle(conn, actions, at)
        if len(actions) < RECONCILE_BATCH:
            return changes
        after = (actions[-1]["occurred_at"], actions[-1]["id"])
