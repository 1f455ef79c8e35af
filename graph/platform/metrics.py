"""Prometheus metrics of the curator and the context builder, served at GET /metrics.

Aggregates only: no owner, chat or content in any label. The curator increments these through the
helpers below; ratios are also exposed as gauges computed at scrape time, so a dashboard needs no PromQL.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import UTC, date, datetime

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest

REGISTRY = CollectorRegistry()
PROPOSAL_OUTCOMES = ("accepted", "pending", "rejected", "dropped")
INTENT_OUTCOMES = ("fulfilled", "partial", "unfulfilled")
MISMATCH = ("partial", "unfulfilled")

proposals = Counter("worldmem_curator_operations", "Curator-proposed operations by outcome: accepted (committed "
                    "as belief), pending (sent to review), rejected (by the committer), dropped (by the validator)",
                    ["outcome"], registry=REGISTRY)
tokens = Counter("worldmem_curator_tokens", "Curator LLM tokens, by direction (input|output)", ["direction"],
                 registry=REGISTRY)
intent_outcomes = Counter("worldmem_intent_outcomes", "Judged intent outcomes of consequential actions",
                          ["outcome"], registry=REGISTRY)
context_build_seconds = Histogram(
    "worldmem_context_build_seconds", "Latency of the context builder (worldContext)", registry=REGISTRY,
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0))
review_queue = Gauge("worldmem_review_queue_depth", "Items waiting for owner review (sum of the last count "
                     "seen per owner in this process)", registry=REGISTRY)
accept_ratio = Gauge("worldmem_curator_accept_ratio", "accepted / all curator operations (0 when none)",
                     registry=REGISTRY)
mismatch_ratio = Gauge("worldmem_intent_mismatch_ratio", "(partial + unfulfilled) / judged intent outcomes "
                       "(0 when none)", registry=REGISTRY)
finder_sweeps = Counter("worldmem_finder_sweeps", "Sweeps of every owner by this process's finder thread (with "
                        "several processes on one database only the leader sweeps)", registry=REGISTRY)
erasure_forgets = Counter("worldmem_erasure_forgets", "Times this process forgot its remembered query vectors "
                          "and documents because an erasure was announced (or its listener reconnected)",
                          registry=REGISTRY)
tokens_today = Gauge("worldmem_curator_tokens_today", "Curator LLM tokens since 00:00 UTC (this process)",
                     registry=REGISTRY)

# Every label value exposed from the start (0), so rates and ratios exist before the first event.
for _o in PROPOSAL_OUTCOMES:
    proposals.labels(_o)
for _o in INTENT_OUTCOMES:
    intent_outcomes.labels(_o)
for _d in ("input", "output"):
    tokens.labels(_d)

_lock = threading.Lock()
_queue: dict[str, int] = {}
# The same counts as the counters, kept here for the ratio gauges (the client has no public getter).
_seen: dict[str, float] = {}
_today: list[tuple[date, int]] = [(datetime.now(UTC).date(), 0)]


def record_operations(outcome: str, n: int = 1) -> None:
    """Count `n` curator operations with `outcome` (accepted | pending | rejected | dropped)."""
    if outcome not in PROPOSAL_OUTCOMES:
        raise ValueError(f"unknown outcome {outcome!r}")
    proposals.labels(outcome).inc(n)
    _add(outcome, n)


def record_intent_outcome(outcome: str) -> None:
    """Count one judged intent outcome (fulfilled | partial | unfulfilled)."""
    if outcome not in INTENT_OUTCOMES:
        raise ValueError(f"unknown intent outcome {outcome!r}")
    intent_outcomes.labels(outcome).inc()
    _add(f"intent:{outcome}", 1)


def count_tokens(input_tokens: int, output_tokens: int, now: Callable[[], datetime] = lambda: datetime.now(UTC)
                 ) -> None:
    tokens.labels("input").inc(input_tokens)
    tokens.labels("output").inc(output_tokens)
    day = now().date()
    with _lock:
        seen, total = _today[0]
        _today[0] = (day, (total if seen == day else 0) + input_tokens + output_tokens)


def set_review_queue_depth(owner: str, depth: int) -> None:
    """The owner's review queue as last counted; the gauge is the sum over owners (no owner label)."""
    with _lock:
        _queue[owner] = max(0, depth)
        review_queue.set(sum(_queue.values()))


def _add(key: str, n: float) -> None:
    with _lock:
        _seen[key] = _seen.get(key, 0.0) + n


def _ratio(top: tuple[str, ...], every: tuple[str, ...]) -> float:
    with _lock:
        total = sum(_seen.get(k, 0.0) for k in every)
        return sum(_seen.get(k, 0.0) for k in top) / total if total else 0.0


def _tokens_today() -> float:
    with _lock:
        seen, total = _today[0]
    return float(total) if seen == datetime.now(UTC).date() else 0.0


accept_ratio.set_function(lambda: _ratio(("accepted",), PROPOSAL_OUTCOMES))
mismatch_ratio.set_function(lambda: _ratio(tuple(f"intent:{o}" for o in MISMATCH),
                                           tuple(f"intent:{o}" for o in INTENT_OUTCOMES)))
tokens_today.set_function(_tokens_today)


def exposition() -> tuple[bytes, str]:
    """The text exposition format and its content type."""
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST
