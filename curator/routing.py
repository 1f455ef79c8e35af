"""Provenance of the curator's operations. Pure functions.

The curator writes as the agent: every operation's source is "agent" (its token is the owner's agent
principal). Where a belief came from — the `source` the LLM named: user_assertion, assistant_output,
tool_result, system_rule, inference, observation — is kept as the evidence's kind. Routing is the ledger's
(graph.ledger.trust.route, one rule for every agent): the user's own words and direct observations are
believed; derived preferences, the assistant's words, inferences, privileged content (policy, capability) and
everything from a run that read untrusted content (the proposal's `untrusted`) wait for the owner's review.
"""

from __future__ import annotations

from typing import Any

from curator.batch import ORIGINS

WRITER = "agent"
ALIASES = {"user": "user_assertion", "assistant": "assistant_output", "agent": "assistant_output",
           "tool": "tool_result", "system": "system_rule", "derived": "inference"}
PRIVILEGED_MEMORY = frozenset({"policy", "permission", "capability"})


def origin(source: Any) -> str:
    """The LLM's `source` as one of ORIGINS; anything unrecognised counts as the curator's inference."""
    text = str(source or "").strip().lower()
    text = ALIASES.get(text, text)
    return text if text in ORIGINS else "inference"


def provenance(op: dict[str, Any], where: str) -> dict[str, Any]:
    """The operation's source becomes the writer (the agent); its origin is kept as the evidence's kind."""
    changes: dict[str, Any] = {"source": WRITER, "_origin": where}
    if op.get("evidence"):
        changes["evidence"] = {**op["evidence"], "kind": where}
    return changes
