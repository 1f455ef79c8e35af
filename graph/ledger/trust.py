"""Source trust tiers: who said it decides what it may write and how far it is trusted."""

from __future__ import annotations

import re

from graph.errors import BadInput

SOURCE = re.compile(r"^[a-z][a-z0-9_.\-]*(:[A-Za-z0-9_.\-]+)*$")
TIERS = {"user": 0, "system": 0, "agent": 1, "curator": 1, "import": 1}
INTEGRATION = 2


def source_tier(source: str) -> int:
    """0 = the owner or the system itself, 1 = the agent and other core writers, 2 = integrations."""
    if not SOURCE.match(source):
        raise BadInput(f"source {source!r} is not of the form name or integration:domain", code="BAD_SOURCE")
    head = source.split(":", 1)[0]
    if head == "integration" or ":" in source:
        return INTEGRATION
    return TIERS.get(head, 1)
