"""The deterministic validator between the LLM and the committer: check, resolve, route. Nothing here guesses.

Per operation, in proposal order (the first failing check drops the operation, with its code and reason):
- governance is the owner's (accept, reject, merge, split, dismiss, invalidate): NOT_ALLOWED;
- a system/developer instruction is never a user memory: SYSTEM_INSTRUCTION;
- refs, never UUIDs: UUID_REF; assertions carry evidence: MISSING_EVIDENCE;
- the vocabulary: an unknown predicate is dropped (UNKNOWN_PREDICATE) and an unknown kind becomes `thing`
  (the entity survives); both go to the owner as pending vocabulary, never into the registry;
- refs resolve: an existing ref or alias, an entity upserted earlier in the proposal, or a `kind:slug` of a
  known kind (created on first use); otherwise UNKNOWN_REF, and an alias of several entities AMBIGUOUS_REF;
- kinds fit the predicate (KIND_MISMATCH); nothing twice (DUPLICATE); no operation contradicting itself or
  another of the proposal (SELF_CONTRADICTORY, CONTRADICTION);
- the origin is the code's, not the model's (curator.origin): "the user said it" only where the evidence
  quotes a user turn of this batch holding the value, otherwise the curator's inference (to review);
- policy/permission-like content (privileged kinds, predicates, memory types) from a run touched by untrusted
  content: UNTRUSTED_PRIVILEGED; a retraction, a replace_later, an alias or an event (none can wait for
  review) that is not backed by the user's words (or, alias and event, a trusted tool's result): NEEDS_USER.
Entity resolution: an upsert whose external id, or whose e-mail/handle alias, already names an entity of the
kind is that entity (strong signals); anything weaker stays a new entity for the review's merge suggestions.
Every operation is written by the agent (curator.routing.provenance: source "agent", the origin as the evidence's
kind); the ledger then decides believe or review from that (graph.ledger.trust.route).
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from typing import Any

import psycopg

from curator import replace_later, routing
from curator.batch import Analysis, Batch, Dropped, Routed, VocabularyItem
from curator.origin import slug as origin_slug
from graph.errors import BadInput
from graph.ledger import entities
from graph.ledger.entity import Entity, parse_ref
from graph.ledger.registries import get_entity_kind, get_relation_type
from graph.ledger.trust import privileged_memory
from graph.platform.db import Database
from graph.sql import load

GOVERNANCE = frozenset({"accept_proposal", "reject_proposal", "merge_entities", "split_entity",
                        "dismiss_merge_suggestion", "invalidate_fact"})
ASSERTIONS = frozenset({"assert_fact", "assert_relationship", "retract_fact"})
REF_FIELDS = ("ref", "subject", "object", "scope", "actor", "target")
UUID_RE = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
FALLBACK_KIND = "thing"
STRONG_ALIAS = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$|^@[A-Za-z0-9_.\-]{2,}$")


class Drop(Exception):
    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code, self.reason = code, reason


class _State:
    """What the proposal has said so far: refs it upserted (with kinds), renamed refs, seen ops."""

    def __init__(self) -> None:
        self.kinds: dict[str, str] = {}
        self.renamed: dict[str, str] = {}
        self.seen: set[str] = set()
        self.vocabulary: dict[tuple[str, str], VocabularyItem] = {}
        self.new: set[str] = set()  # kind:slug refs named but neither stored nor upserted yet
        self.names: dict[str, list[str]] = {}  # ref -> the names the proposal or the store give it
        self.corrected: set[tuple[str, str]] = set()  # (subject, predicate) the user gave a new value for


def validate(db: Database, batch: Batch, analysis: Analysis) -> Routed:
    """Check and route the analysed operations; see the module docstring."""
    routed = Routed(dropped=list(analysis.dropped))
    state = _State()
    state.corrected = routing.corrections(analysis.operations, batch)
    with db.owner_tx(batch.owner, read_only=True) as conn:
        for index, op in zip(analysis.indexes, analysis.operations, strict=True):
            try:
                checked = _check(conn, batch, state, dict(op))
            except Drop as drop:
                routed.dropped.append(Dropped(op_index=index, op=op, code=drop.code, reason=drop.reason))
                continue
            for new in _implicit(state, checked):
                routed.operations.append(new)
                routed.indexes.append(index)
            routed.operations.append(checked)
            routed.indexes.append(index)
    _contradictions(routed)
    for op in routed.operations:
        for key in [k for k in op if k.startswith("_")]:
            del op[key]
    routed.vocabulary = list(state.vocabulary.values())
    routed.dropped.sort(key=lambda d: d.op_index)
    return routed


def _check(conn: psycopg.Connection[Any], batch: Batch, state: _State, op: dict[str, Any]) -> dict[str, Any]:
    kind, belief = op["op"], (op.get("subject"), op.get("predicate"))
    if kind in GOVERNANCE:
        raise Drop("NOT_ALLOWED", f"{kind} is the owner's decision, never the curator's")
    claimed = routing.origin(op.get("source"))
    if claimed == "system_rule":
        raise Drop("SYSTEM_INSTRUCTION", "a system or developer instruction is not a memory of the user")
    for field in REF_FIELDS:
        if isinstance(op.get(field), str) and UUID_RE.search(op[field]):
            raise Drop("UUID_REF", f"{field} names a UUID; entities are named by kind:slug refs or aliases")
    if kind in ASSERTIONS and not (op.get("evidence") or {}).get("text"):
        raise Drop("MISSING_EVIDENCE", "an assertion needs the evidence it rests on")
    if kind == "upsert_entity":
        op = _entity(conn, state, op)
    for field in ("subject", "object", "scope", "actor", "target"):
        if isinstance(op.get(field), str):
            op[field] = _ref(conn, state, op[field], op)
    if kind == "add_alias":
        op["ref"] = _ref(conn, state, op["ref"], op)
    if kind in ASSERTIONS:
        _predicate(conn, state, op)
    origin = routing.verified(op, claimed, batch, lambda ref: _names(state, ref), belief in state.corrected)
    op = {**op, **routing.provenance(op, origin)}
    if kind in ("add_alias", "record_event") and not routing.backed(origin):
        raise Drop("NEEDS_USER", f"{kind} cannot wait for review: only the user's words (or a trusted tool's "
                                 "result) in these turns can back it")
    if kind == "upsert_entity" and not routing.backed(origin) and _resolve(conn, op["ref"]) is not None:
        op["aliases"] = []  # new names for a stored entity, like add_alias, need the user's words
    if kind == "retract_fact" and (origin != "user_assertion" or batch.untrusted):
        raise Drop("NEEDS_USER", "only the user's own words retract a belief (a retraction cannot wait for review)")
    if op.get("replace_later") and (origin != "user_assertion" or batch.untrusted
                                    or not replace_later.user_said_it(batch.prompt)):
        raise Drop("NEEDS_USER", "replace_later (replacing what is known after valid_from) needs the user's own "
                                 "words saying so in this batch (\"from now on always\", \"ab jetzt immer\")")
    _privileged(conn, batch, op)
    _interval(op)
    key = _dedupe_key(op)
    if key in state.seen:
        raise Drop("DUPLICATE", "the same operation was proposed before in this run")
    state.seen.add(key)
    return op


def _entity(conn: psycopg.Connection[Any], state: _State, op: dict[str, Any]) -> dict[str, Any]:
    wanted = op["ref"]
    if get_entity_kind(conn, op["kind"]) is None:
        _vocabulary(state, "entity_kind", op["kind"], op)
        op = {**op, "kind": FALLBACK_KIND, "ref": _rekind(wanted, FALLBACK_KIND)}
    parsed = parse_ref(op["ref"])
    if parsed is None or parsed[0] != op["kind"]:
        raise Drop("BAD_REF", f"ref {op['ref']!r} is not {op['kind']}:slug")
    same = _strong_match(conn, op)
    if same is not None:
        op = {**op, "ref": same.ref, "kind": same.kind, "canonical_name": same.canonical_name}
    # an alias that already names another entity is left out: the entity is still created, the name
    # is not made ambiguous (and the committer would refuse the whole upsert with ALIAS_TAKEN)
    op["aliases"] = [a for a in op.get("aliases") or [] if _free(conn, a, op["ref"])]
    if op["ref"] != wanted:
        state.renamed[wanted] = op["ref"]
    state.kinds[op["ref"]] = op["kind"]
    state.names.setdefault(op["ref"], []).extend([op["canonical_name"], *op["aliases"]])
    state.new.discard(op["ref"])
    return op


def _free(conn: psycopg.Connection[Any], alias: str, ref: str) -> bool:
    try:
        holder = entities.resolve(conn, alias, follow=False)
    except BadInput:
        return False
    return holder is None or holder.ref == ref


def _strong_match(conn: psycopg.Connection[Any], op: dict[str, Any]) -> Entity | None:
    """The existing entity this upsert is, by a strong signal only (external id, e-mail or handle alias)."""
    if op.get("external_id"):
        row = conn.execute(load("curator_entity_by_external_id"),
                           {"kind": op["kind"], "external_id": op["external_id"]}).fetchone()
        if row is not None:
            return Entity.model_validate(row)
    for alias in op.get("aliases") or []:
        if STRONG_ALIAS.match(alias):
            found = _resolve(conn, alias)
            if found is not None and found.kind == op["kind"]:
                return found
    return None


def _ref(conn: psycopg.Connection[Any], state: _State, ref: str, op: dict[str, Any]) -> str:
    ref = state.renamed.get(ref, ref)
    if ref in state.kinds:
        return ref
    found = _resolve(conn, ref)
    if found is not None:
        state.kinds[found.ref] = found.kind
        state.names.setdefault(found.ref, []).append(found.canonical_name)
        return found.ref
    parsed = parse_ref(ref)
    if parsed is None:
        raise Drop("UNKNOWN_REF", f"{ref!r} names no known entity and is not a kind:slug ref")
    state.new.add(ref)
    if get_entity_kind(conn, parsed[0]) is None:
        _vocabulary(state, "entity_kind", parsed[0], op)
        renamed = _rekind(ref, FALLBACK_KIND)
        state.renamed[ref] = renamed
        return _ref(conn, state, renamed, op)
    state.kinds[ref] = parsed[0]
    return ref


def _names(state: _State, ref: str) -> list[str]:
    return [*state.names.get(ref, []), origin_slug(ref)]


def _implicit(state: _State, op: dict[str, Any]) -> list[dict[str, Any]]:
    """Entities an operation names by a new `kind:slug` ref (its object, scope, actor, target) are created
    first, as the committer does for a subject: an upsert with the slug as name, written like the op."""
    out = []
    for field in ("subject", "object", "scope", "actor", "target"):
        ref = op.get(field)
        if isinstance(ref, str) and ref in state.new:
            state.new.discard(ref)
            kind, slug = ref.split(":", 1)[0], ref.rsplit(":", 1)[1]
            out.append({"op": "upsert_entity", "ref": ref, "kind": state.kinds.get(ref, kind), "canonical_name": slug,
                        "source": op["source"], "confidence": 1.0, "aliases": []})
    return out


def _resolve(conn: psycopg.Connection[Any], ref: str) -> Entity | None:
    try:
        return entities.resolve(conn, ref)
    except BadInput as exc:  # an alias of several entities: never guess which one
        raise Drop("AMBIGUOUS_REF", exc.message) from None


def _predicate(conn: psycopg.Connection[Any], state: _State, op: dict[str, Any]) -> None:
    rt = get_relation_type(conn, op["predicate"])
    if rt is None or rt.state != "active":
        _vocabulary(state, "predicate", op["predicate"], op)
        raise Drop("UNKNOWN_PREDICATE", f"{op['predicate']!r} is not in the vocabulary; proposed to the owner")
    subject_kind = state.kinds.get(op["subject"])
    if rt.subject_kinds and subject_kind not in rt.subject_kinds:
        raise Drop("KIND_MISMATCH", f"{op['predicate']!r} does not apply to kind {subject_kind!r}")
    object_kind = state.kinds.get(op.get("object") or "")
    if op["op"] == "assert_relationship" and rt.object_kinds and object_kind not in rt.object_kinds:
        raise Drop("KIND_MISMATCH", f"{op['predicate']!r} does not take an object of kind {object_kind!r}")
    op["_functional"] = rt.cardinality == "functional"
    op["_privileged"] = rt.privileged


def _privileged(conn: psycopg.Connection[Any], batch: Batch, op: dict[str, Any]) -> None:
    kind = get_entity_kind(conn, op["kind"]) if op["op"] == "upsert_entity" else None
    privileged = bool(op.get("_privileged")) or (kind is not None and kind.privileged) or \
        privileged_memory(op.get("memory_type"))
    if privileged and batch.untrusted:
        raise Drop("UNTRUSTED_PRIVILEGED", "policy or permission-like content from a run that read untrusted content")
    if privileged:
        op["_privileged"] = True


def _at(value: Any) -> datetime | None:
    return datetime.fromisoformat(value) if isinstance(value, str) else value


def _interval(op: dict[str, Any]) -> None:
    start, end = _at(op.get("valid_from")), _at(op.get("valid_to"))
    if start is not None and end is not None and end <= start:
        raise Drop("SELF_CONTRADICTORY", "valid_to is not after valid_from")


def _dedupe_key(op: dict[str, Any]) -> str:
    core = {k: v for k, v in op.items() if k not in ("evidence", "reason", "confidence") and not k.startswith("_")}
    return json.dumps(core, sort_keys=True, default=str)


def _contradictions(routed: Routed) -> None:
    """Two values of one functional predicate over overlapping times, or assert and retract of one belief:
    neither is committed (the curator cannot know which one the user meant)."""
    groups: dict[str, list[int]] = {}
    for pos, op in enumerate(routed.operations):
        if op["op"] in ("assert_fact", "retract_fact") and (op.get("_functional") or op["op"] == "retract_fact"):
            groups.setdefault(json.dumps([op["subject"], op["predicate"], op.get("scope")]), []).append(pos)
    bad: set[int] = set()
    for members in groups.values():
        for i in members:
            for j in members:
                if i < j and _clash(routed.operations[i], routed.operations[j]):
                    bad |= {i, j}
    for pos in sorted(bad, reverse=True):
        routed.dropped.append(Dropped(op_index=routed.indexes[pos], op=routed.operations[pos], code="CONTRADICTION",
                                      reason="another operation of this run says the opposite for the same time"))
        del routed.operations[pos], routed.indexes[pos]


def _clash(a: dict[str, Any], b: dict[str, Any]) -> bool:
    a_from, a_to = _at(a["valid_from"]), _at(a.get("valid_to"))
    b_from, b_to = _at(b["valid_from"]), _at(b.get("valid_to"))
    assert a_from is not None and b_from is not None  # required by the proposal model
    overlap = (a_to is None or b_from < a_to) and (b_to is None or a_from < b_to)
    if not overlap:
        return False
    if a["op"] != b["op"]:
        return a.get("value") is None or b.get("value") is None or a.get("value") == b.get("value")
    # Open values from different starts follow each other: each holds until the next (graph.ledger.timeline).
    if (a["op"] == "assert_fact" and a_to is None and b_to is None and a_from != b_from
            and not (a.get("replace_later") or b.get("replace_later"))):
        return False
    return a["op"] == "assert_fact" and a.get("value") != b.get("value")


def _rekind(ref: str, kind: str) -> str:
    parsed = parse_ref(ref)
    slug = parsed[1] if parsed else re.sub(r"[^A-Za-z0-9_.\-]+", "-", ref).strip("-") or "unnamed"
    return f"{kind}:{slug}"


def _vocabulary(state: _State, item: str, key: str, op: dict[str, Any]) -> None:
    if (item, key) not in state.vocabulary:
        example = {k: v for k, v in op.items() if not k.startswith("_")}
        state.vocabulary[(item, key)] = VocabularyItem.model_validate({"item": item, "key": key, "example": example})
