"""One handler per proposal operation. Each validates first, then writes through the aggregates.

Governance operations (invalidate, accept, reject, merge, split) are in graph/governance/decisions.py and
graph/governance/merge.py. A handler raises a WorldmemError (with a code) to reject its operation; the committer
then rolls the whole proposal back. It returns "committed" or "pending".
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any
from uuid import UUID

from graph.errors import BadInput, Forbidden, NotFound
from graph.ledger import aliases, cut_short, entities, facts, registries, suppression, trust
from graph.ledger import proposal as p
from graph.ledger.cut_short import Said
from graph.ledger.entity import Entity, NewEntity, parse_ref
from graph.ledger.events import lookup as lookup_event
from graph.ledger.events import record as record_event
from graph.ledger.fact_rows import Claim, FactRow, NewFact
from graph.ledger.op_context import OpContext, OpOutcome
from graph.ledger.timeline import Interval, Plan, plan_add_member, plan_remove, plan_replace
from graph.ledger.trust import principal_tier, source_tier
from graph.reads import intent


def _entity_kind(ctx: OpContext, key: str) -> registries.EntityKind | None:
    return ctx.writer.entity_kind(key)


def _relation_type(ctx: OpContext, key: str) -> registries.RelationType | None:
    return ctx.writer.relation_type(key)


def _source(op: p._Op) -> str:
    assert op.source is not None, "the committer binds every op's source before its handler runs"
    return op.source


def upsert_entity(ctx: OpContext, op: p.UpsertEntity) -> OpOutcome:
    kind = _entity_kind(ctx, op.kind)
    if kind is None:
        raise BadInput(f"unknown entity kind {op.kind!r}", code="UNKNOWN_KIND")
    entities.check_ref(op.ref, op.kind)
    values = NewEntity(ref=op.ref, kind=op.kind, name=op.canonical_name, description=op.description,
                       external_id=op.external_id, at=ctx.at, run_id=ctx.run_id)
    entity = ctx.writer.resolve(op.ref, follow=False)
    if entity is not None and entity.ref == op.ref:
        if entity.kind != op.kind:
            raise BadInput(f"{op.ref} exists with kind {entity.kind!r}", code="KIND_MISMATCH")
        # a new name, a new description or a new alias of a known entity is routed as a rename is
        fresh = [a for a in op.aliases if entity.id not in aliases.holders(ctx, a, "core")]
        if entity.canonical_name != op.canonical_name or op.description or fresh:
            what = "rename" if entity.canonical_name != op.canonical_name else "describe or add aliases to"
            _may_change(ctx, op, kind.privileged, f"{what} {op.ref}")
        if entity.canonical_name != op.canonical_name or op.description or op.external_id:
            entity = entities.rename(ctx.writer, entity, values)
    else:
        entity = entities.create(ctx.writer, values)
    for alias in op.aliases:
        aliases.add(ctx, entity, alias, "core", ctx.at, _source(op))
    return "committed"


def add_alias(ctx: OpContext, op: p.AddAlias) -> OpOutcome:
    entity = entities.required(ctx.writer, op.ref)
    if entity.id not in aliases.holders(ctx, op.alias, op.namespace):
        _may_change(ctx, op, _privileged_kind(ctx, entity.kind), f"add an alias to {entity.ref}")
    aliases.add(ctx, entity, op.alias, op.namespace, op.valid_from or ctx.at, _source(op))
    return "committed"


def end_alias(ctx: OpContext, op: p.EndAlias) -> OpOutcome:
    """End an identity's world time, history kept (refused where a retraction of the same token would be)."""
    entity = entities.required(ctx.writer, op.ref)
    _may_change(ctx, op, _privileged_kind(ctx, entity.kind), f"end an alias of {entity.ref}")
    aliases.end(ctx, entity, op.alias, op.namespace, op.valid_to or ctx.at, _source(op))
    return "committed"


def _subject(ctx: OpContext, ref: str, source: str) -> Entity:
    """Resolve a subject (or a relationship's object); a well-formed `kind:slug` of a registered kind is
    created on first use."""
    known = ctx.writer.by_ref(ref)
    entity = entities.survivor(ctx.conn, known) if known is not None else ctx.writer.resolve(ref)
    if entity is not None:
        return entity
    parsed = parse_ref(ref)
    if parsed is None and ":" in ref:
        raise NotFound(f"no entity {ref!r}, and it is not a valid ref: {entities.ref_rules(ref)}",
                       code="UNKNOWN_ENTITY")
    if parsed is None or _entity_kind(ctx, parsed[0]) is None:
        raise NotFound(f"no entity {ref!r} (and it is not a kind:slug ref of a known kind)",
                       code="UNKNOWN_ENTITY")
    upsert_entity(ctx, p.UpsertEntity(ref=ref, kind=parsed[0], canonical_name=parsed[1], source=source))
    return entities.required(ctx.writer, ref)


def _interval(op: p._Timed) -> Interval:
    if op.valid_to is not None and op.valid_to <= op.valid_from:
        raise BadInput("validTo must be after validFrom", code="BAD_INTERVAL")
    return Interval(op.valid_from, op.valid_to)


def _predicate(ctx: OpContext, op: p._Timed, subject: Entity) -> registries.RelationType:
    rt = _relation_type(ctx, op.predicate)
    if rt is None or rt.state != "active":
        raise BadInput(f"unknown predicate {op.predicate!r}", code="UNKNOWN_PREDICATE")
    if rt.subject_kinds and subject.kind not in rt.subject_kinds:
        raise BadInput(f"{op.predicate!r} does not apply to kind {subject.kind!r}", code="KIND_MISMATCH")
    return rt


def _scope(ctx: OpContext, ref: str | None) -> Entity | None:
    return entities.required(ctx.writer, ref) if ref else None


def _assert(ctx: OpContext, op: p.AssertFact | p.AssertRelationship, obj: Entity | None) -> OpOutcome:
    source = _source(op)
    subject = _subject(ctx, op.subject, source)
    rt = _predicate(ctx, op, subject)
    new = _interval(op)
    scope = _scope(ctx, op.scope)
    if obj is not None and rt.object_kinds and obj.kind not in rt.object_kinds:
        raise BadInput(f"{op.predicate!r} does not take an object of kind {obj.kind!r}", code="KIND_MISMATCH")
    value = op.value if isinstance(op, p.AssertFact) else None
    if obj is None and len(json.dumps(value)) > ctx.rules.max_value_bytes:
        raise BadInput("the value is too large", code="VALUE_TOO_LARGE")
    caused_by = _event_id(ctx, op.caused_by_event)
    if op.replace_later:
        if rt.cardinality != "functional":
            raise BadInput("replaceLater replaces a functional value; set members are independent",
                           code="INVALID_OPERATION")
        if op.valid_to is not None:
            raise BadInput("replaceLater replaces everything after validFrom: it takes no validTo",
                           code="BAD_INTERVAL")
        _may_change(ctx, op, rt.privileged or _privileged_kind(ctx, subject.kind),
                    f"replace what is known after validFrom of {op.predicate!r}")
    claim = Claim(
        subject_id=subject.id, predicate=op.predicate, functional=rt.cardinality == "functional",
        object_kind="entity" if obj else "literal", object_value=value, object_entity_id=obj.id if obj else None,
        observed_at=op.observed_at, source=source,
        source_trust_tier=max(source_tier(source), principal_tier(ctx.principal)), changed_by=ctx.run_id,
        caused_by_event_id=caused_by, confidence=op.confidence, memory_type=op.memory_type,
        scope_entity_id=scope.id if scope else None, scope_kind=scope.kind if scope else None,
        priority=op.priority, evidence=op.evidence.model_dump() if op.evidence else {}, reason=op.reason)
    if ctx.writer.live_markers:  # without a live marker, screening neither rejects nor lifts
        suppression.screen(ctx, source, claim)
    if op.confidence < ctx.rules.pending_below_confidence or _route(ctx, op, source, subject, obj, rt):
        facts.insert(ctx.writer, claim.placed(new, "pending", None, ctx.stamp))
        return "pending"
    believe(ctx, claim, new, replace_later=op.replace_later, said=Said(subject, rt, obj, source == "user"))
    return "committed"


def _route(ctx: OpContext, op: p.AssertFact | p.AssertRelationship, source: str, subject: Entity,
           obj: Entity | None, rt: registries.RelationType) -> bool:
    """True when the assertion waits for the owner's review (graph.ledger.trust.route)."""
    privileged = rt.privileged or any(e is not None and _privileged_kind(ctx, e.kind) for e in (subject, obj))
    return trust.route(ctx.principal, source, privileged=privileged,
                       evidence_kind=op.evidence.kind if op.evidence else None,
                       memory_type=op.memory_type, untrusted_run=ctx.untrusted) == "pending"


def _privileged_kind(ctx: OpContext, key: str) -> bool:
    kind = _entity_kind(ctx, key)
    return kind is not None and kind.privileged


def believe(ctx: OpContext, claim: Claim, new: Interval, supersedes: str | None = None, *,
            replace_later: bool = False, said: Said | None = None) -> None:
    """Make `claim` believed over `new` (an open `new` until the next change already known, unless
    `replace_later`: graph.ledger.timeline).

    `supersedes` names the row it replaces when the plan closes none (e.g. an accepted pending fact).
    `said` (what the operation named) lets a cut be reported to the caller (graph.ledger.cut_short).
    """
    current = facts.believed(ctx.writer, claim.subject_id, claim.predicate, claim.scope_entity_id)
    key = facts.value_key(claim)
    if claim.functional:
        plan = plan_replace(facts.as_beliefs(current), new, key, replace_later=replace_later)
    else:
        plan = plan_add_member([b for b in facts.as_beliefs(current) if b.value == key], new)
    if plan.until is not None and said is not None:
        ctx.cut_short.append(cut_short.report(ctx.writer.reader, ctx.op_index, claim,
                                              Interval(new.start, plan.until.interval.start), said,
                                              next(r for r in current if str(r.id) == plan.until.id)))
    _carry_out(ctx, plan, current, claim, supersedes)
    if claim.caused_by_event_id is not None:
        # the action behind the cause may be fulfilled now
        intent.on_effect(ctx.conn, claim.caused_by_event_id, claim.predicate, ctx.at)


def _carry_out(ctx: OpContext, plan: Plan, current: list[FactRow], claim: Claim | None,
               supersedes: str | None = None) -> None:
    by_id = {str(r.id): r for r in current}
    rows: list[NewFact] = []
    new_value: int | None = None
    pieces: dict[str, int] = {}  # a closed row's first piece: what is left of it
    for piece in plan.insert:
        if piece.split_from is None:
            assert claim is not None
            new_value = len(rows)
            rows.append(claim.placed(piece.interval, "active", plan.close[0] if plan.close else supersedes,
                                     ctx.stamp))
        else:
            pieces.setdefault(piece.split_from, len(rows))
            # what is left of a row keeps what it said and who changed it; the key's first row decides functional
            kept = by_id[piece.split_from]
            left = kept.claim(functional=current[0].functional, changed_by=kept.changed_by)
            rows.append(left.placed(piece.interval, "active", piece.split_from, ctx.stamp))
    # every closed row names its successor: the new value that replaced it, else what is left of it
    successors = {closed: index for closed in plan.close
                  if (index := new_value if new_value is not None else pieces.get(closed)) is not None}
    facts.replace(ctx.writer, [by_id[c] for c in plan.close], ctx.at, rows, successors)


def assert_fact(ctx: OpContext, op: p.AssertFact) -> OpOutcome:
    return _assert(ctx, op, None)


def assert_relationship(ctx: OpContext, op: p.AssertRelationship) -> OpOutcome:
    return _assert(ctx, op, _subject(ctx, op.object, _source(op)))  # an object, too, is created on first use


def _may_change(ctx: OpContext, op: p._Op, privileged: bool, what: str) -> None:
    """A change that cannot wait for review (a retraction, a rename) is refused where an assertion of the
    same token would be sent to review (graph.ledger.trust.route)."""
    if trust.route(ctx.principal, _source(op), privileged=privileged, untrusted_run=ctx.untrusted,
                   evidence_kind=op.evidence.kind if op.evidence else None, memory_type=None) == "pending":
        raise Forbidden(f"this {ctx.principal.kind} token may {what} only as the user's own words (evidence "
                        "kind user_assertion) or a direct observation; otherwise ask the owner")


def retract_fact(ctx: OpContext, op: p.RetractFact) -> OpOutcome:
    """End a belief over a period (refused where the same token's assertion would wait for review)."""
    subject = entities.required(ctx.writer, op.subject)
    rt = _predicate(ctx, op, subject)
    _may_change(ctx, op, rt.privileged or _privileged_kind(ctx, subject.kind), f"end {op.predicate!r}")
    cut = _interval(op)
    scope = _scope(ctx, op.scope)
    current = facts.believed(ctx.writer, subject.id, op.predicate, scope.id if scope else None)
    beliefs = facts.as_beliefs(current)
    if op.object is not None:
        target = entities.required(ctx.writer, op.object)
        beliefs = [b for b in beliefs if b.value == f"entity:{target.id}"]
    elif op.value is not None:
        key = facts.object_key("literal", op.value, None)
        beliefs = [b for b in beliefs if b.value == key]
    _carry_out(ctx, plan_remove(beliefs, cut), current, None)
    return "committed"


def _event_id(ctx: OpContext, key: str | None) -> UUID | None:
    if key is None:
        return None
    event = lookup_event(ctx.conn, key)
    if event is None:
        raise NotFound(f"no event {key!r}", code="UNKNOWN_EVENT")
    return event.id


def record_event_op(ctx: OpContext, op: p.RecordEvent) -> OpOutcome:
    """A proposal's event; the governance audit events are written by graph.governance, never through here."""
    trust.require_event_type(op.event_type)
    record_event(ctx, op)
    return "committed"


APPLY: dict[str, Callable[[OpContext, Any], OpOutcome]] = {
    "upsert_entity": upsert_entity,
    "add_alias": add_alias,
    "end_alias": end_alias,
    "assert_fact": assert_fact,
    "assert_relationship": assert_relationship,
    "retract_fact": retract_fact,
    "record_event": record_event_op,
}
