"""OpenTelemetry spans (API only): curator.analyze, curator.validate, curator.commit, context.build.

No content is captured: attributes are counts and kinds, never message text, values or names. Without an
SDK configured the API's tracer is a no-op; a deployment installs an SDK and exporter to see the spans.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from opentelemetry import trace
from opentelemetry.trace import Span

SPAN_NAMES = frozenset({"curator.analyze", "curator.validate", "curator.commit", "curator.load", "context.build"})
AttributeValue = str | bool | int | float


@contextmanager
def span(name: str, **attributes: AttributeValue) -> Iterator[Span]:
    """A span named `name` (one of SPAN_NAMES) around the block; an exception is recorded on it."""
    if name not in SPAN_NAMES:
        raise ValueError(f"unknown span name {name!r}")
    tracer = trace.get_tracer("worldmem")
    with tracer.start_as_current_span(name, attributes=attributes) as current:
        yield current
