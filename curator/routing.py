"""Provenance of the curator's operations. Pure functions.

The curator writes as the agent: every operation's source is "agent" (its token is the owner's agent
principal). Where a belief came from is kept as the evidence's kind: the `source` the LLM named
(user_assertion, assistant_output, tool_result, system_rule, inference, observation) only where the batch's
real turns back it (curator.origin), the curator's inference everywhere else. Routing is the ledger's
(graph.ledger.trust.route, one rule for every agent): the user's own words and direct observations are
believed; derived preferences, the assistant's words, inferences, privileged content (policy, capability) and
everything from a run that read untrusted content (the proposal's `untrusted`) wait for the owner's review.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from curator import origin as o
from curator.batch import ORIGINS, Batch

WRITER = "agent"
ALIASES = {"user": "user_assertion", "assistant": "assistant_output", "agent": "assistant_output",
           "tool": "tool_result", "system": "system_rule", "derived": "inference"}


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


def backed(where: str) -> bool:
    """The origin is the user's words or a trusted tool's result, checked against the batch."""
    return where == o.USER or where in o.OBSERVED


def verified(op: dict[str, Any], claimed: str, batch: Batch, names: Callable[[str], list[str]],
             corrected: bool) -> str:
    """The origin `op` is written with (curator.origin.decide), given what it asserts. `names(ref)` gives an
    entity's names; `corrected`: the proposal holds the user's own new value for the retraction's key (a
    correction, "eigentlich um 19:30", retracts the old value without repeating it)."""
    evidence = (op.get("evidence") or {}).get("text")
    said = o.Said(user=batch.user_said, tools=batch.tools_said)
    kind = op["op"]
    if kind == "retract_fact" and claimed == o.USER and corrected and o.quoted(evidence, said.user) is not None:
        return o.USER
    return o.decide(claimed, evidence, terms(op, names), said)


def terms(op: dict[str, Any], names: Callable[[str], list[str]]) -> o.Terms | None:
    """What the quoted span must hold for `op` to be the user's (or a tool's)."""
    kind = op["op"]
    if kind == "assert_fact":
        return o.value_terms(op.get("value"))
    if kind == "assert_relationship":
        return o.name_terms(names(op["object"]))
    if kind == "retract_fact":
        if op.get("object"):
            return o.name_terms(names(op["object"]))
        return o.value_terms(op["value"]) if op.get("value") is not None else o.name_terms(names(op["subject"]))
    if kind == "upsert_entity":
        return o.name_terms([op["canonical_name"], *(op.get("aliases") or [])])
    if kind == "add_alias":
        return o.name_terms([op["alias"]])
    return []  # an event: the quote itself


def corrections(ops: Collection[dict[str, Any]], batch: Batch) -> set[tuple[str, str]]:
    """(subject, predicate) of every assertion the batch's user turns back with its value (as proposed)."""
    said = o.Said(user=batch.user_said, tools=())
    return {(op["subject"], op["predicate"]) for op in ops
            if op.get("op") == "assert_fact" and origin(op.get("source")) == o.USER
            and o.decide(o.USER, (op.get("evidence") or {}).get("text"), o.value_terms(op.get("value")),
                         said) == o.USER}
