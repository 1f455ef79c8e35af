"""Autonomy: which checked operation commits by itself and which waits for the owner. Pure functions.

- The user's own assertions and trusted direct observations commit (tool results too, when every tool
  output of the run is trusted).
- Derived preferences and patterns (inference), what the assistant said, privileged content (policies,
  capabilities) and everything from a run touched by untrusted content go to the owner's review: they are
  stored as pending (the committer's pending mechanism: confidence below the threshold), never believed.
- Confidence is a secondary signal: a low one goes to review anyway (the committer's own rule).
The curator writes as the agent: every operation's source is "agent"; where a belief came from (the
`source` the LLM named: user_assertion, assistant_output, ...) is kept as the evidence's kind.
"""

from __future__ import annotations

from typing import Any

from curator.batch import ORIGINS, Batch

WRITER = "agent"
ALIASES = {"user": "user_assertion", "assistant": "assistant_output", "agent": "assistant_output",
           "tool": "tool_result", "system": "system_rule", "derived": "inference"}
AUTONOMOUS = frozenset({"user_assertion", "observation"})
REVIEWED_MEMORY = frozenset({"pattern", "derived_preference", "inferred_preference", "routine_guess"})
PRIVILEGED_MEMORY = frozenset({"policy", "permission", "capability"})
REVIEWABLE = frozenset({"assert_fact", "assert_relationship"})
REVIEW_MARGIN = 0.01


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


def needs_review(op: dict[str, Any], batch: Batch) -> bool:
    where = op.get("_origin", "inference")
    if batch.untrusted or op.get("_privileged") or op.get("memory_type") in REVIEWED_MEMORY:
        return True
    if where == "tool_result":
        return False  # the run's tool output is all trusted (else batch.untrusted)
    return where not in AUTONOMOUS


def route(op: dict[str, Any], batch: Batch, pending_below: float) -> int:
    """Mark `op` for review when it needs it (1), else leave it to commit (0)."""
    if op["op"] not in REVIEWABLE or not needs_review(op, batch):
        return 0
    op["confidence"] = max(0.0, min(float(op.get("confidence", 1.0)), pending_below - REVIEW_MARGIN))
    return 1
