"""The commit step: the checked operations go through the committer, the watermark moves in the same transaction.

- `write` is the curator's ONE call of the committer (the curator writes as the agent).
- The watermark advances only inside the commit's transaction (the committer's `on_commit` hook), together
  with the run's record, its dropped operations and its vocabulary proposals. The hook first locks the
  chat's watermark and gives up (StaleBatch, nothing written) when another run curated these turns already.
- The committer is all or nothing; an operation it rejects (e.g. SUPPRESSED, ALIAS_TAKEN) is dropped with
  its code and the rest is committed again, under the same run id (a rejected proposal records nothing).
- The run id is the batch's (curator.batch.run_id_for): a retried commit of the same batch is a replay.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from curator.batch import Analysis, Batch, Dropped, Routed, RunReport, RunStatus, VocabularyItem
from curator.turns import advance_watermark
from curator.usage import record_usage
from graph.errors import Conflict
from graph.governance.review import correction_notices
from graph.ledger.committer import CommitResult, commit_proposal
from graph.ledger.op_context import WriteRules
from graph.ledger.proposal import MemoryMutationProposal
from graph.ledger.tokens import Principal
from graph.platform import metrics
from graph.platform.db import Database
from graph.sql import load

MAX_ROUNDS = 5
PROPOSER = "curator"
TRIGGER_SOURCE = "curator"


class StaleBatch(Exception):
    """The chat's watermark moved since the batch was loaded: another run curated these turns."""


def write(db: Database, owner: str, proposal: MemoryMutationProposal,
          on_commit: Callable[[psycopg.Connection[Any], CommitResult], None], rules: WriteRules | None = None
          ) -> CommitResult:
    """The curator's one call of the committer: with the owner's agent principal, never as the user (the
    ledger then routes each assertion by its evidence kind, graph.ledger.trust.route)."""
    return commit_proposal(db, Principal(owner=owner, kind="agent"), proposal, on_commit=on_commit, rules=rules)


def commit_batch(db: Database, batch: Batch, analysis: Analysis, routed: Routed, rules: WriteRules | None = None
                 ) -> RunReport:
    dropped = list(routed.dropped)
    ops, indexes = list(routed.operations), list(routed.indexes)
    report = RunReport(owner=batch.owner, chat_id=batch.chat_id, run_id=batch.run_id, status="committed",
                       from_seq=batch.from_seq, upto_seq=batch.upto_seq, retried=analysis.retried,
                       proposed=len(analysis.operations) + len(analysis.dropped))
    for _ in range(MAX_ROUNDS):
        proposal = MemoryMutationProposal.model_validate({
            "run_id": batch.run_id, "chat_id": batch.chat_id, "proposed_by": PROPOSER, "operations": ops,
            "untrusted": batch.untrusted})
        record = _Record(batch, analysis, dropped, routed.vocabulary, report.proposed)
        try:
            result = write(db, batch.owner, proposal, record, rules)
        except StaleBatch:
            return report.model_copy(update={"status": "stale", "dropped": dropped})
        except Conflict as exc:
            if exc.code != "RUN_ID_REUSED":
                raise
            # the batch was committed by an earlier attempt with other LLM output: that one counts
            return report.model_copy(update={"status": "stale", "error": "committed before by an earlier attempt"})
        if not result.rejected:
            report.committed, report.pending = result.committed, result.pending
            report.dropped = dropped
            _count(result, len(routed.dropped), len(dropped) - len(routed.dropped))
            if result.recorded_at is not None and not result.replayed:
                since = result.recorded_at - timedelta(microseconds=1)
                report.notices = [n.text for n in correction_notices(db, batch.owner, batch.chat_id, since)]
            return report
        if any(r.code == "ERASED_REF" for r in result.rejected):
            # the owner erased an entity this batch names while it was being analysed: nothing of it is
            # written, not even as a dropped operation (which would keep the erased words)
            return report.model_copy(update={"status": "stale", "error": "names an entity erased meanwhile"})
        rejected = {r.op_index: r for r in result.rejected}
        dropped += [Dropped(op_index=indexes[i], op=ops[i], code=r.code, reason=r.message) for i, r in rejected.items()]
        ops = [op for i, op in enumerate(ops) if i not in rejected]
        indexes = [x for i, x in enumerate(indexes) if i not in rejected]
    raise RuntimeError(f"curator run {batch.run_id}: the committer kept rejecting after {MAX_ROUNDS} rounds")


def _count(result: CommitResult, dropped: int, rejected: int) -> None:
    metrics.record_operations("accepted", result.committed)
    metrics.record_operations("pending", result.pending)
    metrics.record_operations("dropped", dropped)
    metrics.record_operations("rejected", rejected)


class _Record:
    """The `on_commit` hook: watermark, run record, dropped operations and vocabulary, in the commit's transaction."""

    def __init__(self, batch: Batch, analysis: Analysis, dropped: list[Dropped], vocabulary: list[VocabularyItem],
                 proposed: int) -> None:
        self.batch, self.analysis, self.dropped, self.vocabulary = batch, analysis, dropped, vocabulary
        self.proposed = proposed

    def __call__(self, conn: psycopg.Connection[Any], result: CommitResult) -> None:
        b = self.batch
        claim(conn, b)
        record_run(conn, b, "committed", self.analysis, counts=(self.proposed, result.committed, result.pending,
                                                                 len(self.dropped)))
        for d in self.dropped:
            conn.execute(load("curator_dropped_insert"), {"run_id": b.run_id, "op_index": d.op_index,
                                                          "op": Jsonb(d.op), "code": d.code, "reason": d.reason})
        for v in self.vocabulary:
            conn.execute(load("curator_vocabulary_upsert"), {"item": v.item, "key": v.key,
                                                             "example": Jsonb(v.example), "run_id": b.run_id})
        usage(conn, b, self.analysis)


def usage(conn: psycopg.Connection[Any], batch: Batch, analysis: Analysis) -> None:
    """The LLM call's usage record (its own run id), in the transaction that records the run."""
    if analysis.model and analysis.call_id:
        record_usage(conn, batch.owner, analysis.call_id, analysis.model, analysis.input_tokens,
                     analysis.output_tokens, TRIGGER_SOURCE, turns=batch.upto_seq - batch.from_seq + 1)


def claim(conn: psycopg.Connection[Any], batch: Batch) -> None:
    """Lock the chat's watermark; StaleBatch unless it still stands right before the batch; then move it."""
    row = conn.execute(load("curator_watermark_lock"), {"chat_id": batch.chat_id}).fetchone()
    if row is None or row["watermark_seq"] != batch.from_seq - 1:
        raise StaleBatch(batch.run_id)
    advance_watermark(conn, batch.chat_id, batch.upto_seq)


def record_run(conn: psycopg.Connection[Any], batch: Batch, status: str, analysis: Analysis | None,
               counts: tuple[int, int, int, int] = (0, 0, 0, 0)) -> None:
    proposed, committed, pending, dropped = counts
    conn.execute(load("curator_run_insert"), {
        "run_id": batch.run_id, "chat_id": batch.chat_id, "from_seq": batch.from_seq, "upto_seq": batch.upto_seq,
        "status": status, "model": analysis.model if analysis else None,
        "retried": analysis.retried if analysis else False, "proposed": proposed, "committed": committed,
        "pending": pending, "dropped": dropped, "error": analysis.error if analysis else None})


def skip_batch(db: Database, batch: Batch) -> RunReport:
    """Nothing durable in the turns (the prefilter): the watermark moves past them, no LLM call is made.
    A repeat of a recorded skip (a retried step) reports the skip again and writes nothing."""
    try:
        with db.owner_tx(batch.owner) as conn:
            claim(conn, batch)
            record_run(conn, batch, "skipped", None)
    except StaleBatch:
        with db.owner_tx(batch.owner, read_only=True) as conn:
            row = conn.execute(load("curator_run_skipped"), {"run_id": batch.run_id}).fetchone()
        if row is None or not row["skipped"]:
            return RunReport(owner=batch.owner, chat_id=batch.chat_id, run_id=batch.run_id, status="stale")
    return RunReport(owner=batch.owner, chat_id=batch.chat_id, run_id=batch.run_id, status="skipped",
                     from_seq=batch.from_seq, upto_seq=batch.upto_seq)


def fail_batch(db: Database, batch: Batch, analysis: Analysis) -> RunReport:
    """The analysis failed (or was deferred by the quota): recorded, the watermark stays, the same turns are
    curated by a later run."""
    status: RunStatus = "deferred" if analysis.deferred else "failed"
    with db.owner_tx(batch.owner) as conn:
        record_run(conn, batch, status, analysis)
        usage(conn, batch, analysis)
    return RunReport(owner=batch.owner, chat_id=batch.chat_id, run_id=batch.run_id, status=status,
                     from_seq=batch.from_seq, upto_seq=batch.upto_seq, retried=analysis.retried,
                     error=analysis.error)
