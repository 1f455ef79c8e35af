"""Observability: Prometheus metrics at GET /metrics, OpenTelemetry spans without captured content."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from fastapi.testclient import TestClient
from opentelemetry import trace
from opentelemetry.trace import INVALID_SPAN_CONTEXT, NonRecordingSpan

from graph.agent.world_context import ContextRequest, world_context
from graph.platform import metrics
from graph.platform.db import Database
from graph.platform.tracing import span
from tests.gql import client  # noqa: F401


class RecordingTracer(trace.Tracer):
    """Records span names and attributes through the API alone (no SDK)."""

    def __init__(self) -> None:
        self.spans: list[tuple[str, dict[str, Any]]] = []

    def start_span(self, name: str, *args: Any, **kwargs: Any) -> trace.Span:
        self.spans.append((name, dict(kwargs.get("attributes") or {})))
        return RecordingSpan(self.spans[-1][1])

    @contextmanager
    def start_as_current_span(self, name: str, *args: Any, **kwargs: Any) -> Iterator[trace.Span]:  # type: ignore[override]
        current = self.start_span(name, **kwargs)
        with trace.use_span(current, end_on_exit=True):
            yield current


class RecordingSpan(NonRecordingSpan):
    def __init__(self, attributes: dict[str, Any]) -> None:
        super().__init__(INVALID_SPAN_CONTEXT)
        self.attributes = attributes

    def set_attribute(self, key: str, value: Any) -> None:
        self.attributes[key] = value


class RecordingProvider(trace.TracerProvider):
    def __init__(self) -> None:
        self.tracer = RecordingTracer()

    def get_tracer(self, *args: Any, **kwargs: Any) -> trace.Tracer:
        return self.tracer


_PROVIDER = RecordingProvider()


@pytest.fixture
def tracer() -> RecordingTracer:
    """The process-wide provider can be set once; each test starts with an empty record."""
    if not isinstance(trace.get_tracer_provider(), RecordingProvider):
        trace.set_tracer_provider(_PROVIDER)
    _PROVIDER.tracer.spans.clear()
    return _PROVIDER.tracer


def sample(text: str, name: str, labels: str = "") -> float:
    match = re.search(rf"^{re.escape(name + labels)} (\S+)$", text, re.MULTILINE)
    assert match, f"{name}{labels} not exposed"
    return float(match.group(1))


def test_context_build_is_traced_without_content_and_timed(db: Database, owner: str, tracer: RecordingTracer) -> None:
    secret = "Meine PIN ist 4711"
    count = sample(metrics.exposition()[0].decode(), "worldmem_context_build_seconds_count")
    world_context(db, owner, ContextRequest(chat_id="c1", message=secret, budget_tokens=500))
    names = [n for n, _ in tracer.spans]
    assert names == ["context.build"]
    attributes = tracer.spans[0][1]
    assert attributes == {"budget_tokens": 500, "linked": 0, "dropped": 0}
    assert not any(secret in str(v) or "c1" == v for v in attributes.values())
    assert sample(metrics.exposition()[0].decode(), "worldmem_context_build_seconds_count") == count + 1


def test_curator_spans(tracer: RecordingTracer) -> None:
    with span("curator.analyze", turns=3):
        pass
    with pytest.raises(RuntimeError), span("curator.commit"):
        raise RuntimeError("boom")
    assert tracer.spans == [("curator.analyze", {"turns": 3}), ("curator.commit", {})]
    with pytest.raises(ValueError):
        with span("curator.whatever"):
            pass


def test_metrics_endpoint_exposes_the_curator_metrics(client: TestClient) -> None:  # noqa: F811
    metrics.record_operations("accepted", 3)
    metrics.record_operations("pending")
    metrics.record_intent_outcome("fulfilled")
    metrics.record_intent_outcome("unfulfilled")
    metrics.set_review_queue_depth("owner-a", 4)
    metrics.set_review_queue_depth("owner-b", 2)
    metrics.set_review_queue_depth("owner-a", 1)
    metrics.count_tokens(100, 20)
    response = client.get("/metrics")
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/plain")
    text = response.text
    accepted = sample(text, "worldmem_curator_operations_total", '{outcome="accepted"}')
    every = sum(sample(text, "worldmem_curator_operations_total", f'{{outcome="{o}"}}')
                for o in metrics.PROPOSAL_OUTCOMES)
    assert accepted >= 3 and sample(text, "worldmem_curator_accept_ratio") == pytest.approx(accepted / every)
    mismatched = sum(sample(text, "worldmem_intent_outcomes_total", f'{{outcome="{o}"}}') for o in metrics.MISMATCH)
    judged = sum(sample(text, "worldmem_intent_outcomes_total", f'{{outcome="{o}"}}')
                 for o in metrics.INTENT_OUTCOMES)
    assert sample(text, "worldmem_intent_mismatch_ratio") == pytest.approx(mismatched / judged)
    assert sample(text, "worldmem_review_queue_depth") >= 3  # 1 + 2: the last count per owner, summed
    assert sample(text, "worldmem_curator_tokens_today") >= 120
    assert sample(text, "worldmem_curator_tokens_total", '{direction="input"}') >= 100
    assert "owner-a" not in text  # no owner in any label
    with pytest.raises(ValueError):
        metrics.record_operations("maybe")
    with pytest.raises(ValueError):
        metrics.record_intent_outcome("meh")
