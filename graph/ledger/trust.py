"""Trust tiers: the token decides who said it, what it may write and how far it is trusted.

A request never raises its own trust. Every operation's source is derived from the token's principal
(owner -> `user`, agent -> `agent`, integration N -> `integration:N`); the `source` an operation names
may only lower that (an owner importing what the agent or a feed said), never raise it. Routing of an
assertion is decided here too, by pure functions: what an owner says is believed; the agent's relayed
user assertions and its direct observations are believed; its derived preferences, its inferences and
anything from a run that read untrusted content wait for the owner's review; a privileged belief (policy,
capability) from anyone but the owner waits for review, never believed.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Literal

from graph.errors import BadInput, Forbidden

if TYPE_CHECKING:
    from graph.ledger.tokens import Principal

SOURCE = re.compile(r"^[a-z][a-z0-9_.\-]*(:[A-Za-z0-9_.\-]+)*$")
OWNER, AGENT, INTEGRATION = 0, 1, 2
TIERS = {"user": OWNER, "system": OWNER, "agent": AGENT, "curator": AGENT, "import": AGENT}
# Evidence an agent token may write as believed (what the user said, relayed; what a tool observed).
USER_ASSERTION = "user_assertion"
DIRECT_OBSERVATIONS = frozenset({"observation", "tool_result"})
# Memory types an agent derives from behaviour rather than hears: the owner reviews them first.
DERIVED_TYPES = frozenset({"preference", "pattern", "routine", "habit"})
# Memory types that grant or restrict what the agent may do: privileged like a privileged kind or predicate,
# whatever the predicate they ride on (a `capability` on `prefers` is still a capability).
PRIVILEGED_MEMORY_TYPES = frozenset({"policy", "permission", "capability"})
# Event types the ledger writes for the owner's own decisions (graph.governance): no proposal may write one,
# or an agent could forge "the owner accepted all pending facts" into the audit trail.
RESERVED_EVENT_TYPES = frozenset({"governance"})
Route = Literal["believe", "pending"]


def source_tier(source: str) -> int:
    """0 = the owner or the system itself, 1 = the agent and other core writers, 2 = integrations."""
    if not SOURCE.match(source):
        raise BadInput(f"source {source!r} is not of the form name or integration:domain", code="BAD_SOURCE")
    head = source.split(":", 1)[0]
    if head == "integration" or ":" in source:
        return INTEGRATION
    return TIERS.get(head, AGENT)


def principal_tier(principal: Principal) -> int:
    return {"owner": OWNER, "agent": AGENT, "integration": INTEGRATION}[principal.kind]


def effective_source(principal: Principal, declared: str | None) -> str:
    """The source an operation is recorded with: the token's, or a declared one that claims no more.

    An owner token may record what it imports as said by the agent or a feed (lower trust). An agent token
    may name an agent component (`agent`, `curator`), never the user or a feed. An integration token is
    always itself.
    """
    own = principal.source
    if declared is None or declared == own:
        return own
    tier = source_tier(declared)
    allowed = (principal.kind == "owner"
               or (principal.kind == "agent" and tier == AGENT and not declared.startswith("integration")))
    if not allowed:
        raise Forbidden(f"this {principal.kind} token writes as {own!r}; it may not claim source {declared!r}",
                        code="SOURCE_NOT_ALLOWED")
    return declared


def route(principal: Principal, source: str, *, privileged: bool, evidence_kind: str | None,
          memory_type: str | None, untrusted_run: bool) -> Route:
    """Whether an assertion of this token (recorded as `source`) is believed now or waits for review.

    A privileged belief (a privileged kind or predicate, or a privileged memory type) is believed only from
    the owner speaking as themself; an owner importing what a feed or the agent said about a policy gets it
    for review like the feed or agent would.
    """
    privileged = privileged or privileged_memory(memory_type)
    if privileged and (principal.kind != "owner" or source_tier(source) != OWNER):
        return "pending"
    if principal.kind == "owner":
        return "believe"
    if untrusted_run:
        return "pending"
    if principal.kind == "integration":
        return "believe"
    if evidence_kind == USER_ASSERTION:
        return "believe"
    if evidence_kind in DIRECT_OBSERVATIONS and (memory_type or "").lower() not in DERIVED_TYPES:
        return "believe"
    return "pending"


def privileged_memory(memory_type: str | None) -> bool:
    return (memory_type or "").strip().lower() in PRIVILEGED_MEMORY_TYPES


def require_event_type(event_type: str) -> None:
    """A proposal's event may not be of a type reserved to the ledger's own governance records."""
    if event_type.strip().lower() in RESERVED_EVENT_TYPES:
        raise Forbidden(f"event type {event_type!r} is reserved to the owner's governance decisions "
                        "(accept, reject, invalidate, merge, split)", code="OWNER_ONLY")


def lifts_suppression(principal: Principal, source: str) -> bool:
    """Only the owner, speaking as themself, lifts a rejection; a relayed "the user said" does not."""
    return principal.kind == "owner" and source == "user"


def require_owner(principal: Principal, source: str, action: str) -> None:
    """Governance (accept, reject, invalidate, merge, split, dismiss) is the owner's alone, speaking as
    themself (an owner token that declares the agent as the source is not the owner deciding)."""
    if principal.kind != "owner":
        raise Forbidden(f"only an owner token may {action} (this is an {principal.kind} token)")
    if source_tier(source) != OWNER:
        raise Forbidden(f"only the owner may {action} (source {source!r} may not)")
