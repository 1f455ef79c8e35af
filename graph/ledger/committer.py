"""The committer: the only writer of the ledger. Deterministic, idempotent, all or nothing.

One proposal is one transaction with one system time. Operations apply in order; each is validated
against the registries first. If any operation is rejected, nothing of the proposal is written and
every rejection comes back typed. A retried proposal (same owner and run_id) writes nothing twice.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections import Counter
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import psycopg
from psycopg import errors as pg_errors
from psycopg.rows import class_row
from psycopg.types.json import Jsonb
from pydantic import BaseModel

from graph.errors import BadInput, Conflict, Forbidden, InvariantViolation, NotFound
from graph.governance import decisions as governance
from graph.governance import merge
from graph.ledger import commit_listeners, prefetch
from graph.ledger.cut_short import CutShort
from graph.ledger.op_context import OpContext, WriteRules
from graph.ledger.ops import APPLY
from graph.ledger.proposal import MemoryMutationProposal
from graph.ledger.tokens import Principal
from graph.ledger.trust import effective_source
from graph.ledger.writer_buffered import Buffered
from graph.ledger.writer_immediate import Immediate
from graph.platform.db import Database
from graph.settings import get_settings
from graph.sql import load

log = logging.getLogger("worldmem.committer")

FUTURE_SKEW = timedelta(seconds=5)
TICK = timedelta(microseconds=1)


# What an operation may reject itself with. Anything else (an invariant of the mirror, a constraint the
# planner should have made impossible) is our bug: the proposal fails as INTERNAL, never as the caller's.
EXPECTED = (BadInput, NotFound, Forbidden, Conflict)
# Internal failures by kind since the process started (the server logs each one with its traceback).
INTERNAL_FAILURES: Counter[str] = Counter()

# Proposals of at least this many operations, all of kinds the buffered writer knows, are written through it
# first (graph/ledger/writer_buffered.py); a single operation costs as much either way (measured), so it is
# written immediately. False: every proposal is written immediately (the benchmarks' comparison).
BATCHED = True
BATCH_MIN_OPS = 2
# A proposal of one operation runs in one pipeline with its first reads prefetched (False: as before).
PIPELINED = True
# Operations whose believed rows a single operation reads with the clock (the rest read them when they ask).
PLANNED = {"assert_fact", "assert_relationship", "retract_fact"}
# Operations whose handlers write only through the writer (or through statements that send its buffers first).
BUFFERABLE = frozenset({"upsert_entity", "add_alias", "assert_fact", "assert_relationship", "retract_fact",
                        "record_event"})
# Buffered attempts that failed on a constraint or the mirror and were repeated immediately (should stay 0).
BATCH_FALLBACKS: Counter[str] = Counter()

# Every operation's handler: the ledger's own, and the owner's governance (accept, reject, merge, split).
HANDLERS = {**APPLY, **governance.HANDLERS, **merge.HANDLERS}


class Rejected(BaseModel):
    op_index: int
    code: str
    message: str


class CommitResult(BaseModel):
    committed: int = 0
    pending: int = 0
    rejected: list[Rejected] = []
    recorded_at: datetime | None = None
    replayed: bool = False
    cut_short: list[CutShort] = []


@dataclass
class _Tally:
    committed: int = 0
    pending: int = 0
    rejected: list[Rejected] = field(default_factory=list)
    cut_short: list[CutShort] = field(default_factory=list)


class _RollBack(Exception):
    """Raised inside the proposal's savepoint to undo everything when an operation was rejected."""


class _Rejected(Exception):
    """Raised through the proposal's transaction (no savepoint: one operation) to roll all of it back."""

    def __init__(self, rejected: list[Rejected]) -> None:
        super().__init__("rejected")
        self.rejected = rejected


def _unhashed(proposal: MemoryMutationProposal) -> dict[str, Any]:
    # Flags are left out while false, so proposals hashed before they existed still replay.
    unset = {i: {"replace_later"} for i, op in enumerate(proposal.operations)
             if not getattr(op, "replace_later", True)}
    return {"created_at": True, **({} if proposal.untrusted else {"untrusted": True}),
            **({"operations": unset} if unset else {})}


ERASED_REF_STATE = "WE003"


def payload_hash(proposal: MemoryMutationProposal) -> str:
    """SHA-256 of canonical JSON (sorted keys, no spaces): a retry with reordered keys is the same proposal."""
    body = json.dumps(proposal.model_dump(mode="json", exclude=_unhashed(proposal)), sort_keys=True,
                      separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(body.encode()).hexdigest()


def _legacy_hash(proposal: MemoryMutationProposal) -> str:
    """The hash proposals were stored with before keys were sorted (key order as given), so their retries replay."""
    return hashlib.sha256(proposal.model_dump_json(exclude=_unhashed(proposal)).encode()).hexdigest()


def commit_proposal(db: Database, principal: Principal, proposal: MemoryMutationProposal, *,
                    recorded_at: datetime | None = None,
                    on_commit: Callable[[psycopg.Connection[Any], CommitResult], None] | None = None,
                    rules: WriteRules | None = None) -> CommitResult:
    """Apply `proposal` for `principal`: its owner's ledger, its token's trust (graph.ledger.trust), by `rules`
    (the caller's settings; without them, the process's: graph.settings.get_settings).

    `on_commit(conn, result)` runs inside the transaction once every operation applied (not on a replay, not
    when any was rejected); if it raises, nothing of the proposal is written."""
    if recorded_at is not None and not principal.can_import:
        raise Forbidden("an explicit recordedAt needs an owner token allowed to import (--import)")
    owner = principal.owner
    rules = rules or WriteRules.of(get_settings())
    digest = payload_hash(proposal)
    # One operation runs in one pipeline from BEGIN to COMMIT (only fetches wait) and without a savepoint:
    # a rejection rolls the whole transaction back. Two or more keep a savepoint per operation (to judge the
    # later ones after a rejection) and their round trips, so an error is always reported at its operation;
    # so does a proposal with an `on_commit` hook, whose statements' errors are its caller's to see.
    alone = PIPELINED and len(proposal.operations) == 1 and on_commit is None
    try:
        with db.owner_tx(owner, pipelined=alone) as conn:
            result = _commit(conn, principal, proposal, digest, recorded_at, on_commit, alone, rules)
        if not result.rejected and not result.replayed:  # committed: the finder re-projects what it touched
            commit_listeners.tell(db, owner, proposal)
        return result
    except _Rejected as rejected:
        return CommitResult(rejected=rejected.rejected)
    except pg_errors.IntegrityError as exc:
        if not alone:
            raise
        # a write whose result nobody fetched (a successor, an alias) reports its refusal at COMMIT
        raise _internal(f"constraint {type(exc).__name__}", 0, exc) from exc
    except psycopg.DatabaseError as exc:
        # a proposal made before an erasure (a curator run in flight) names an erased ref: the database refused
        # to create it again (the wm_erasure_entity_guard trigger); nothing of the proposal was written
        if exc.sqlstate != ERASED_REF_STATE:
            raise
        return CommitResult(rejected=[Rejected(op_index=-1, code="ERASED_REF", message=(
            "the proposal names an entity that was erased at the owner's request; nothing was written"))])


def _commit(conn: psycopg.Connection[Any], principal: Principal, proposal: MemoryMutationProposal, digest: str,
            recorded_at: datetime | None,
            on_commit: Callable[[psycopg.Connection[Any], CommitResult], None] | None, alone: bool,
            rules: WriteRules) -> CommitResult:
    # One round trip: the owner's clock row, locked, the stored proposal, and for one operation what it will
    # ask first (graph/ledger/prefetch.py). An owner's first commit creates the row and asks again.
    clock, stored, known = _lock_clock(conn, proposal, alone, create=False)
    if clock is None:
        clock, stored, known = _lock_clock(conn, proposal, alone, create=True)
    assert clock is not None
    if stored is not None:
        if stored.payload_hash not in (digest, _legacy_hash(proposal)):
            raise Conflict(f"run_id {proposal.run_id!r} was already committed with other operations",
                           code="RUN_ID_REUSED")
        return CommitResult.model_validate({**stored.result, "replayed": True})
    at = _system_time(clock, recorded_at)
    tally = _buffered(conn, principal, proposal, at, rules)
    batched = tally is not None
    if tally is None:
        tally = _Tally()
        ctx = OpContext(Immediate(conn, principal.owner, known), principal, proposal.run_id, proposal.chat_id, at,
                        rules, untrusted=proposal.untrusted)
        try:
            with nullcontext() if alone else conn.transaction():
                try:
                    _apply(ctx, proposal.operations, tally, savepoints=len(proposal.operations) > 1)
                except pg_errors.IntegrityError as exc:
                    # Every operation is validated and planned against locked rows before it writes, so a
                    # constraint that still refuses the write means the planner (or a handler) is wrong.
                    raise _internal(f"constraint {type(exc).__name__}", ctx.op_index, exc) from exc
                except InvariantViolation as exc:
                    raise _internal("invariant", ctx.op_index, exc) from exc
                tally.cut_short = ctx.cut_short
                if tally.rejected:
                    raise _RollBack
        except _RollBack:
            if alone:
                raise _Rejected(tally.rejected) from None
            return CommitResult(rejected=tally.rejected)
    result = CommitResult(committed=tally.committed, pending=tally.pending, recorded_at=at,
                          cut_short=tally.cut_short)
    if on_commit is not None:
        on_commit(conn, result)
    with nullcontext() if alone else conn.pipeline():  # one round trip with COMMIT (alone) or before it
        conn.execute(load("commit_record"), {
            "run_id": proposal.run_id, "chat_id": proposal.chat_id, "payload_hash": digest,
            "recorded_at": at, "result": Jsonb(result.model_dump(mode="json")), "committed": result.committed,
            "pending": result.pending})
        if batched:  # a bulk write: statistics that keep up with the tables' growth (0072)
            conn.execute(load("ledger_statistics"))
    return result


@dataclass(frozen=True)
class Clock:
    """The owner's clock row (clock_lock.sql), locked until COMMIT."""

    last_recorded_at: datetime | None
    now: datetime


def _lock_clock(conn: psycopg.Connection[Any], proposal: MemoryMutationProposal, alone: bool, *, create: bool
                ) -> tuple[Clock | None, prefetch.Stored | None, prefetch.Known | None]:
    """(the owner's clock row locked until COMMIT, the stored proposal, the prefetch): None without a row."""
    with nullcontext() if alone else conn.pipeline():
        if create:
            conn.execute(load("clock_init"))
        locked = conn.cursor(row_factory=class_row(Clock)).execute(load("clock_lock"))
        # A retry replays before its recordedAt is judged: the first attempt moved the clock past it. The
        # stored proposal is read by a statement after the lock's (its own snapshot: a retry that waited for
        # the lock sees what the first attempt committed); for one operation, by the prefetch's.
        if alone:
            fetch = prefetch.start(conn, proposal.operations, proposal.run_id,
                                   believed=proposal.operations[0].op in PLANNED)
        else:
            found = conn.cursor(row_factory=class_row(prefetch.Stored)).execute(load("proposal_get"),
                                                                                 {"run_id": proposal.run_id})
    clock = locked.fetchone()
    if not alone:
        return clock, found.fetchone(), None
    known = fetch()
    return clock, known.stored, known


def _buffered(conn: psycopg.Connection[Any], principal: Principal, proposal: MemoryMutationProposal,
              at: datetime, rules: WriteRules) -> _Tally | None:
    """Apply the proposal through the buffered writer, without a savepoint per operation; None (and nothing
    written) when it is not bufferable or any operation was rejected, so the immediate writer decides every
    rejection and names the operation of an internal failure."""
    ops = proposal.operations
    if not BATCHED or len(ops) < BATCH_MIN_OPS or any(op.op not in BUFFERABLE for op in ops):
        return None
    tally = _Tally()
    try:
        with conn.pipeline(), conn.transaction():
            writer = Buffered(conn, principal.owner, 2 * len(ops))
            writer.prefetch(ops)
            ctx = OpContext(writer, principal, proposal.run_id, proposal.chat_id, at, rules,
                            untrusted=proposal.untrusted)
            _apply(ctx, ops, tally, savepoints=False)
            if tally.rejected:
                raise _RollBack
            writer.finish()
            tally.cut_short = ctx.cut_short
    except (_RollBack, *EXPECTED):
        return None
    except (pg_errors.IntegrityError, InvariantViolation) as exc:
        # the immediate writer repeats it and reports it as INTERNAL at its operation, if it is real
        BATCH_FALLBACKS[type(exc).__name__] += 1
        log.warning("buffered commit failed (%s), repeating immediately: %s", type(exc).__name__, _first_line(exc))
        return None
    return tally


def _apply(ctx: OpContext, operations: list[Any], tally: _Tally, *, savepoints: bool) -> None:
    """Run every operation's handler through `ctx.writer`. With `savepoints`, each operation has its own, so the
    later ones are judged after one was rejected; without (a single operation, or the buffered writer, whose
    attempt is replayed on any rejection), the first rejection ends the run."""
    for index, op in enumerate(operations):
        ctx.op_index = index
        try:
            source = effective_source(ctx.principal, op.source)
            bound = op if source == op.source else op.model_copy(update={"source": source})
            with ctx.conn.transaction() if savepoints else nullcontext():
                outcome = HANDLERS[op.op](ctx, bound)
        except EXPECTED as exc:
            tally.rejected.append(Rejected(op_index=index, code=exc.code, message=exc.message))
            if not savepoints:
                return
            continue
        if outcome == "pending":
            tally.pending += 1
        else:
            tally.committed += 1
        ctx.writer.flush_if_full()


def _system_time(clock: Clock, requested: datetime | None) -> datetime:
    """The proposal's system time: strictly increasing per owner; an import may name it, never in the past."""
    last, now = clock.last_recorded_at, clock.now
    if requested is None:
        current: datetime = now if last is None else max(now, last + TICK)
        return current
    if requested.tzinfo is None:
        raise BadInput("recordedAt needs a UTC offset", code="BAD_TIME")
    if requested > now + FUTURE_SKEW:
        raise BadInput("recordedAt lies in the future", code="RECORDED_AT_IN_FUTURE")
    if last is not None and requested < last:
        raise Conflict(f"recordedAt {requested.isoformat()} is earlier than this owner's latest system "
                       f"time {last.isoformat()}", code="RECORDED_AT_NOT_MONOTONIC")
    # The same recordedAt as the latest proposal is ordered one tick after it: with equal system times the
    # earlier proposal's rows would be superseded at the instant they were recorded, invisible to every
    # as-of query. The result's recordedAt says which time was used.
    return requested if last is None or requested > last else last + TICK


def _internal(kind: str, index: int, exc: Exception) -> InvariantViolation:
    INTERNAL_FAILURES[kind] += 1
    log.error("commit failed internally at operation %d (%s): %s", index, kind, _first_line(exc), exc_info=exc)
    return InvariantViolation(f"operation {index}: {kind}: {_first_line(exc)}")


def _first_line(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
