"""The context every proposal operation's handler receives, below the handlers (graph.ledger.ops, governance)
and the aggregates they write through (aliases, events, suppression)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

import psycopg

from graph.ledger.cut_short import CutShort
from graph.ledger.fact_rows import Stamp
from graph.ledger.tokens import Principal
from graph.settings import Settings

if TYPE_CHECKING:
    from graph.ledger.writer import Writer

OpOutcome = Literal["committed", "pending"]


@dataclass(frozen=True)
class WriteRules:
    """The settings a proposal's handlers apply, taken from the Settings the caller was given (create_app's,
    the CLI's), so a service configured in code writes by its own rules, not the environment's."""

    max_value_bytes: int
    pending_below_confidence: float

    @classmethod
    def of(cls, settings: Settings) -> WriteRules:
        return cls(settings.max_value_bytes, settings.pending_below_confidence)


@dataclass
class OpContext:
    """One proposal's transaction. Every op reaching a handler has its `source` bound to the principal's
    (graph.ledger.trust.effective_source), so handlers read `op.source` as who said it. Handlers write through
    `writer` (graph/ledger/writer.py), chosen by the committer."""

    writer: Writer
    principal: Principal
    run_id: str
    chat_id: str | None
    at: datetime
    rules: WriteRules
    op_index: int = 0
    untrusted: bool = False
    # open assertions that ended early at a change already known (graph.ledger.cut_short)
    cut_short: list[CutShort] = field(default_factory=list)

    @property
    def conn(self) -> psycopg.Connection[Any]:
        """The transaction's connection for statements the writer does not know; what it holds is sent first."""
        return self.writer.conn

    @property
    def owner(self) -> str:
        return self.principal.owner

    @property
    def stamp(self) -> Stamp:
        """What every row the current operation writes records: the proposal's time and run, the op's index."""
        return Stamp(self.at, self.run_id, self.op_index)
