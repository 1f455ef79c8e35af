"""Intent outcomes: did a consequential action have the effect it expected?

An action states `expected_effect = {target, predicate, expected_value}` (target: one ref or a list;
optional `within_seconds`, default 15 minutes). Its outcome compares that with what its effects observed
(through direct or trigger links, or later events of its correlation; inferred links are hypotheses and
never count):

- facts those events caused (subject = a target, the predicate; a relationship's value is its object's ref);
- events alone, by a convention: a `state_change`, `test_result` or `integration_sync` event (OBSERVING)
  whose payload is `{"target": ref, "predicate": p, "value": v}` (`target` defaults to the event's
  target) observes value v of p on that target, provided the event has a cause over a direct or trigger
  link and is not the action itself. At the same system and world time a fact decides over an event.

The outcome, from the latest observed value per target:

- fulfilled: every target's latest observed value is the expected one;
- partial: some targets are, others are not (yet);
- unfulfilled: values were observed and none is the expected one, or the window closed with nothing;
- null: no expected effect, or nothing observed while the window is still open.

The committer re-judges the affected actions whenever a fact with a cause, or an observing event (above),
is recorded (`on_effect`); `reconcile` closes windows and picks up effects that arrived late.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, Literal
from uuid import UUID

import psycopg
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from graph.errors import BadInput
from graph.ledger import entities
from graph.ledger.registries import describe
from graph.platform import metrics
from graph.platform.db import Database
from graph.sql import load

IntentOutcome = Literal["fulfilled", "partial", "unfulfilled"]
DEFAULT_WINDOW = timedelta(minutes=15)
HORIZON = timedelta(days=7)
RECONCILE_BATCH = 1000
# Event types whose payload {"target", "predicate", "value"} is an observation of an effect.
OBSERVING = ("state_change", "test_result", "integration_sync")


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
    new: IntentOutcome


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


def judge(targets: Sequence[str], expected: Any, latest: Mapping[str, Any],
          window_closed: bool) -> IntentOutcome | None:
    """The outcome from the latest observed value per target (absent = not observed)."""
    matched = sum(1 for t in targets if t in latest and latest[t] == expected)
    if targets and matched == len(targets):
        return "fulfilled"
    if matched:
        return "partial"
    if latest or window_closed:
        return "unfulfilled"
    return None


def evaluate(conn: psycopg.Connection[Any], action: Mapping[str, Any], now: datetime) -> IntentOutcome | None:
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
            "occurred_at": action["occurred_at"], "targets": list(ids), "predicate": effect.predicate,
            "event_types": list(OBSERVING)}).fetchall()
        named: dict[str, UUID | None] = {}
        for row in rows:
            target = row["subject_id"] if row["target_ref"] is None else _named(conn, row["target_ref"], named)
            if target in ids:
                latest[ids[target]] = row["object_ref"] if row["object_kind"] == "entity" else row["object_value"]
    return judge(effect.targets, effect.expected_value, latest, now >= action["occurred_at"] + effect.window)


def _named(conn: psycopg.Connection[Any], ref: str, cache: dict[str, UUID | None]) -> UUID | None:
    """The entity an event's payload names (following merges), None when it names none or several."""
    if ref not in cache:
        try:
            entity = entities.resolve(conn, ref)
        except BadInput:
            entity = None
        cache[ref] = entity.id if entity is not None else None
    return cache[ref]


def observation(event_type: str, payload: Mapping[str, Any]) -> str | None:
    """The predicate an event observes by the payload convention, or None when it observes nothing."""
    predicate = payload.get("predicate")
    if event_type in OBSERVING and isinstance(predicate, str) and predicate and "value" in payload:
        return predicate
    return None


def _settle(conn: psycopg.Connection[Any], actions: Sequence[Mapping[str, Any]], now: datetime) -> list[OutcomeChange]:
    changes = []
    for action in actions:
        outcome = evaluate(conn, action, now)
        if outcome is None or outcome == action["intent_outcome"]:
            continue
        if conn.execute(load("intent_set_outcome"), {"id": action["id"], "outcome": outcome,
                                                     "previous": action["intent_outcome"]}).fetchone():
            changes.append(OutcomeChange(event_id=action["id"], old=action["intent_outcome"], new=outcome))
            metrics.record_intent_outcome(outcome)
    return changes


def on_effect(conn: psycopg.Connection[Any], event_id: UUID, predicate: str, now: datetime) -> list[OutcomeChange]:
    """Re-judge the actions an observation just recorded may affect: those expecting `predicate` among
    `event_id` (the event that caused the fact, or the observing event itself) and its causes, and earlier
    in that event's correlation. An event that observes nothing changes no outcome (the reconciler closes
    windows)."""
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
