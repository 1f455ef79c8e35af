"""A token bucket per owner, checked before every curator LLM call: over budget means defer, never block.

The bucket holds at most `curator_quota_burst` tokens and refills at `curator_quota_tokens_per_day`
(settings). Its level is stored with the time it was computed; the refill is computed from the elapsed
database time (`refill`, pure), so nothing has to tick. A spend larger than the capacity never fits.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime

from pydantic import BaseModel

from graph.errors import BadInput
from graph.platform.db import Database
from graph.settings import Settings, get_settings
from graph.sql import load

DAY_SECONDS = 86_400.0


class Bucket(BaseModel):
    level: float
    capacity: float
    per_day: float
    at: datetime | None = None


def refill(level: float, since: datetime, now: datetime, capacity: float, per_day: float) -> float:
    """The level after refilling from `since` to `now` (a clock going back refills nothing)."""
    elapsed = max(0.0, (now - since).total_seconds())
    return min(capacity, level + elapsed * per_day / DAY_SECONDS)


def try_spend(db: Database, owner: str, tokens: int, *, settings: Settings | None = None) -> bool:
    """Take `tokens` from the owner's bucket if they are there (True), else change nothing but the refill.

    One short transaction with the bucket row locked, so concurrent calls of one owner never overspend.
    """
    if tokens < 0:
        raise BadInput("tokens must not be negative")
    with _locked(db, owner, settings) as (level, _):
        allowed = tokens <= level.level
        level.level -= tokens if allowed else 0
    return allowed


def settle(db: Database, owner: str, reserved: int, used: int, *, settings: Settings | None = None) -> None:
    """After a call that `try_spend` reserved `reserved` tokens for: give back what was not used, or take
    what was used beyond it (the level never goes below 0; the next spend waits for the refill)."""
    if reserved < 0 or used < 0:
        raise BadInput("tokens must not be negative")
    with _locked(db, owner, settings) as (level, capacity):
        level.level = min(capacity, max(0.0, level.level + reserved - used))


@contextmanager
def _locked(db: Database, owner: str, settings: Settings | None) -> Iterator[tuple[_Level, float]]:
    """The owner's bucket row locked and refilled to now; the level the caller leaves is stored."""
    s = settings or get_settings()
    capacity, per_day = float(s.curator_quota_burst), float(s.curator_quota_tokens_per_day)
    with db.owner_tx(owner) as conn:
        conn.execute(load("curator_quota_create"), {"capacity": capacity})
        row = conn.execute(load("curator_quota_take")).fetchone()
        assert row is not None  # created just above, or there before
        level = _Level(refill(row["level"], row["updated_at"], row["now"], capacity, per_day))
        yield level, capacity
        conn.execute(load("curator_quota_set"), {"level": level.level, "at": row["now"]})


@dataclass
class _Level:
    level: float


def bucket(db: Database, owner: str, *, settings: Settings | None = None) -> Bucket:
    """The owner's bucket as of now (read only)."""
    s = settings or get_settings()
    capacity, per_day = float(s.curator_quota_burst), float(s.curator_quota_tokens_per_day)
    with db.owner_tx(owner, read_only=True) as conn:
        row = conn.execute(load("curator_quota_peek")).fetchone()
    if row is None:
        return Bucket(level=capacity, capacity=capacity, per_day=per_day)
    return Bucket(level=refill(row["level"], row["updated_at"], row["now"], capacity, per_day),
                  capacity=capacity, per_day=per_day, at=row["now"])


def used_up(b: Bucket, smallest_call: float, lang: str) -> str | None:
    """The owner-facing note when the bucket cannot pay for even the smallest call (None otherwise): the
    waiting turns are curated once it refilled, in about the time this says."""
    if b.level >= smallest_call:
        return None
    if b.per_day <= 0:
        return ("Das Kurator-Budget ist aufgebraucht und füllt sich nicht auf (WORLDMEM_CURATOR_QUOTA_TOKENS_PER_DAY "
                "ist 0)." if lang == "de" else
                "The curator's token budget is used up and does not refill (WORLDMEM_CURATOR_QUOTA_TOKENS_PER_DAY "
                "is 0).")
    minutes = max(1, math.ceil((smallest_call - b.level) / b.per_day * 1440))
    if lang == "de":
        return (f"Das tägliche Kurator-Budget ist aufgebraucht ({b.per_day:,.0f} Tokens pro Tag, "
                f"WORLDMEM_CURATOR_QUOTA_TOKENS_PER_DAY); wartende Nachrichten werden in etwa {minutes} min "
                "kuratiert.").replace(",", ".")
    return (f"The daily curator budget is used up ({b.per_day:,.0f} tokens a day, "
            f"WORLDMEM_CURATOR_QUOTA_TOKENS_PER_DAY); waiting turns are curated in about {minutes} min.")
