"""Who holds an alias when: pure rules over an alias's believed rows (its holdings).

An alias is held by at most one entity at any instant of valid time (migrations/0131), but over time by
several: a phone number given up and reassigned. Taking one over is allowed from the end of the last
holding on; a name resolves, in each namespace, to the holding valid at the instant asked, else to the
latest one (an ended alias still names whoever held it last).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID


@dataclass(frozen=True)
class AliasRow:
    """A believed alias row as the ledger reads it (alias_believed.sql, alias_believed_row.sql)."""

    id: UUID
    entity_id: UUID
    valid_from: datetime
    valid_to: datetime | None


# Without slots, so `columns` is a C-level copy of the instance's dict (dataclasses.asdict deep-copies each value).
@dataclass(frozen=True)
class NewAlias:
    """An alias row a proposal inserts (alias_insert.sql): who is named how from when, on whose word."""

    entity_id: UUID
    namespace: str
    alias: str
    valid_from: datetime
    at: datetime
    source: str
    run_id: str
    op_index: int

    def columns(self) -> dict[str, Any]:
        """The statement's parameters (and a row of batch_aliases_insert.sql's document)."""
        return dict(vars(self))


@dataclass(frozen=True)
class Holding:
    namespace: str
    entity_id: UUID
    valid_from: datetime
    valid_to: datetime | None


def overlapping(holdings: Sequence[Holding], start: datetime) -> list[UUID]:
    """The entities whose holding overlaps [start, open end): who would clash with a holding from `start`."""
    return list(dict.fromkeys(h.entity_id for h in holdings if h.valid_to is None or h.valid_to > start))


def naming(holdings: Sequence[Holding], at: datetime) -> list[UUID]:
    """The entities a name stands for at `at`: per namespace the holding valid then, else the latest."""
    best: dict[str, Holding] = {}
    for h in holdings:
        current = best.get(h.namespace)
        if current is None or _rank(h, at) > _rank(current, at):
            best[h.namespace] = h
    return list(dict.fromkeys(h.entity_id for h in best.values()))


def _rank(h: Holding, at: datetime) -> tuple[bool, datetime]:
    return (h.valid_from <= at and (h.valid_to is None or at < h.valid_to), h.valid_from)
