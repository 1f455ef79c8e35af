"""One curator run over a chat: load → analyse → validate → commit. The same steps serve both runtimes:
the inline runner calls them in the API process, the Temporal activities call them in the worker.

No trigger in the turns (small talk): the watermark moves past them without any LLM call. A failed
analysis leaves the watermark (recorded as a failed run). A stale batch (another run curated these turns)
writes nothing. `curate` runs batches until the chat has no un-curated turn or a run did not commit.

With owners on several clusters (graph/routing) `where` says which database holds an owner's turns, asked again
at each step, so a run whose owner moved meanwhile commits where the owner is, or waits (OWNER_MOVING) while a
move is marked. Without it every step uses `db` and nothing is looked up.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Callable
from dataclasses import dataclass

from pydantic_ai.models import Model

from curator import commit as step
from curator import quota
from curator.batch import Analysis, Batch, BatchRequest, Routed, RunReport, run_id_for
from curator.context import load_curator_context
from curator.extract import analyse
from curator.prompt import SYSTEM_PROMPT
from curator.validate import validate
from graph.agent.render import approx_tokens
from graph.ledger.op_context import WriteRules
from graph.platform.db import Database
from graph.platform.tracing import span
from graph.settings import Settings

log = logging.getLogger("worldmem.curator")
OUTPUT_ESTIMATE = 1000  # tokens the quota reserves for the answer
MAX_BATCHES = 50  # one `curate` call reads at most this many batches (20 turns each): 1000 turns


@dataclass
class Curator:
    db: Database
    settings: Settings
    model: Model | None
    where: Callable[[str], Database] | None = None  # owner -> its cluster's database (graph.routing.Router)

    def at(self, owner: str) -> Database:
        """The database holding `owner`'s data."""
        return self.db if self.where is None else self.where(owner)

    def load(self, req: BatchRequest) -> Batch | None:
        with span("curator.load"):
            ctx = load_curator_context(self.at(req.owner), req.owner, req.chat_id,
                                       max_turns=self.settings.curator_max_turns,
                                       max_tokens=self.settings.curator_max_tokens)
        if ctx is None:
            return None
        return Batch(owner=req.owner, chat_id=req.chat_id, run_id=run_id_for(req.chat_id, ctx.from_seq, ctx.upto_seq),
                     from_seq=ctx.from_seq, upto_seq=ctx.upto_seq, trigger=ctx.trigger, reasons=ctx.reasons,
                     prompt=ctx.render() if ctx.trigger else "", untrusted=ctx.untrusted, explicit=ctx.explicit,
                     turn_run_ids=sorted({t.run_id for t in ctx.turns if t.run_id}),
                     user_said=ctx.user_said if ctx.trigger else [],
                     tools_said=ctx.tools_said if ctx.trigger else [])

    async def analyse(self, batch: Batch) -> Analysis:
        """The LLM call, after the owner's quota allows it (over budget: deferred, tried again later)."""
        if self.model is None:
            return Analysis(error="no curator model configured")
        estimate = approx_tokens(SYSTEM_PROMPT) + approx_tokens(batch.prompt) + OUTPUT_ESTIMATE
        db = await asyncio.to_thread(self.at, batch.owner)  # a route read (the Router's cache) may block
        if not await asyncio.to_thread(quota.try_spend, db, batch.owner, estimate, settings=self.settings):
            return Analysis(error="over the owner's curator quota: deferred", deferred=True)
        with span("curator.analyze", turns=batch.upto_seq - batch.from_seq + 1) as current:
            analysis = await analyse(batch, self.model, self.settings.curator_timeout_s,
                                     self.settings.curator_max_operations, self.settings.curator_output_mode)
            current.set_attribute("operations", len(analysis.operations))
            current.set_attribute("failed", analysis.error is not None)
        analysis.call_id = f"{batch.run_id}:{uuid.uuid4().hex[:8]}"
        used = analysis.input_tokens + analysis.output_tokens
        await asyncio.to_thread(quota.settle, db, batch.owner, estimate, used, settings=self.settings)
        return analysis

    def validate(self, batch: Batch, analysis: Analysis) -> Routed:
        with span("curator.validate", operations=len(analysis.operations)) as current:
            routed = validate(self.at(batch.owner), batch, analysis)
            current.set_attribute("dropped", len(routed.dropped))
        return routed

    def commit(self, batch: Batch, analysis: Analysis, routed: Routed) -> RunReport:
        with span("curator.commit", operations=len(routed.operations)) as current:
            report = step.commit_batch(self.at(batch.owner), batch, analysis, routed, WriteRules.of(self.settings))
            current.set_attribute("status", report.status)
        return report

    def skip(self, batch: Batch) -> RunReport:
        return step.skip_batch(self.at(batch.owner), batch)

    def fail(self, batch: Batch, analysis: Analysis) -> RunReport:
        return step.fail_batch(self.at(batch.owner), batch, analysis)

    def finish(self, batch: Batch, analysis: Analysis | None, routed: Routed | None) -> RunReport:
        """The last step in every case: skip (no trigger), fail (no usable analysis) or commit."""
        if not batch.trigger or analysis is None:
            return self.skip(batch)
        if analysis.error is not None or routed is None:
            return self.fail(batch, analysis)
        return self.commit(batch, analysis, routed)

    async def run_once(self, owner: str, chat_id: str) -> RunReport:
        """One batch of the chat, start to end (status idle when nothing was un-curated). The database
        steps run in a worker thread, so the API's event loop never waits on them."""
        batch = await asyncio.to_thread(self.load, BatchRequest(owner=owner, chat_id=chat_id))
        if batch is None:
            return RunReport(owner=owner, chat_id=chat_id, status="idle")
        analysis = await self.analyse(batch) if batch.trigger else None
        routed = None
        if analysis is not None and analysis.error is None:
            routed = await asyncio.to_thread(self.validate, batch, analysis)
        return await asyncio.to_thread(self.finish, batch, analysis, routed)

    async def curate(self, owner: str, chat_id: str) -> list[RunReport]:
        """Batches until the chat is curated, or a run fails or finds its batch stale."""
        reports: list[RunReport] = []
        for _ in range(MAX_BATCHES):
            report = await self.run_once(owner, chat_id)
            if report.status == "idle":
                break
            reports.append(report)
            if not going_on(report):
                break
        return reports


def going_on(report: RunReport) -> bool:
    """Whether a chat's next batch is worth loading after this run (both runtimes ask this)."""
    return report.status in ("committed", "skipped")
