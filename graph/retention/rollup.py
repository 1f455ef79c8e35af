"""What a rollup keeps of the rows it replaces: statistics (merged when a later run finds more rows of the
same month) and the text rendered from them, the one that is embedded and found by search. Pure functions.

Times of day are UTC hours (the ledger knows no owner time zone): nights 0-6, mornings 6-12, afternoons
12-18, evenings 18-24.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from datetime import date, datetime
from typing import Any

from pydantic import BaseModel, Field

from graph.governance.phrases import Lang

MAX_VALUES = 50  # distinct non-numeric values (or event summaries) counted one by one; the rest is "other"
OTHER = "…"
PARTS = ("night", "morning", "afternoon", "evening")
PART_WORDS: dict[Lang, dict[str, str]] = {
    "en": {"night": "nights", "morning": "mornings", "afternoon": "afternoons", "evening": "evenings"},
    "de": {"night": "nachts", "morning": "morgens", "afternoon": "nachmittags", "evening": "abends"},
}


class Sum(BaseModel):
    n: int = 0
    total: float = 0.0
    low: float | None = None
    high: float | None = None

    def add(self, x: float) -> None:
        self.n += 1
        self.total += x
        self.low = x if self.low is None else min(self.low, x)
        self.high = x if self.high is None else max(self.high, x)

    def merged(self, other: Sum) -> Sum:
        lows = [v for v in (self.low, other.low) if v is not None]
        highs = [v for v in (self.high, other.high) if v is not None]
        return Sum(n=self.n + other.n, total=self.total + other.total,
                   low=min(lows) if lows else None, high=max(highs) if highs else None)

    @property
    def mean(self) -> float | None:
        return self.total / self.n if self.n else None


class Stats(BaseModel):
    """The statistics of one rolled-up series and month (stored as retention_rollups.stats)."""

    n: int = Field(default=0, description="Rows (readings or events) rolled up")
    first: datetime | None = None
    last: datetime | None = None
    numeric: Sum = Field(default_factory=Sum)
    parts: dict[str, Sum] = Field(default_factory=dict, description="Numeric readings by UTC time of day")
    values: dict[str, int] = Field(default_factory=dict, description="Other values (or summaries) counted")


def number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value) if math.isfinite(value) else None
    if isinstance(value, str):
        try:
            x = float(value.strip())
        except ValueError:
            return None
        return x if math.isfinite(x) else None
    return None


def part_of(t: datetime) -> str:
    return PARTS[t.hour // 6]


def _count(values: dict[str, int], key: str, n: int = 1) -> None:
    if key in values or len(values) < MAX_VALUES:
        values[key] = values.get(key, 0) + n
    else:
        values[OTHER] = values.get(OTHER, 0) + n


def _label(value: Any) -> str:
    return value if isinstance(value, str) else str(value)


def of_readings(readings: Iterable[tuple[datetime, Any]]) -> Stats:
    """Statistics of (valid_from, value) readings; numbers by time of day, anything else counted."""
    s = Stats()
    for t, value in readings:
        s.n += 1
        s.first = t if s.first is None else min(s.first, t)
        s.last = t if s.last is None else max(s.last, t)
        x = number(value)
        if x is None:
            _count(s.values, _label(value))
            continue
        s.numeric.add(x)
        s.parts.setdefault(part_of(t), Sum()).add(x)
    return s


def of_events(groups: Iterable[tuple[str, int, datetime, datetime]]) -> Stats:
    """Statistics of events grouped by summary: (summary, count, first, last)."""
    s = Stats()
    for summary, n, first, last in groups:
        s.n += n
        s.first = first if s.first is None else min(s.first, first)
        s.last = last if s.last is None else max(s.last, last)
        _count(s.values, summary or "-", n)
    return s


def merge(a: Stats, b: Stats) -> Stats:
    firsts = [t for t in (a.first, b.first) if t is not None]
    lasts = [t for t in (a.last, b.last) if t is not None]
    values = dict(a.values)
    for key, n in b.values.items():
        _count(values, key, n)
    parts = {p: a.parts.get(p, Sum()).merged(b.parts.get(p, Sum())) for p in PARTS if p in a.parts or p in b.parts}
    return Stats(n=a.n + b.n, first=min(firsts) if firsts else None, last=max(lasts) if lasts else None,
                 numeric=a.numeric.merged(b.numeric), parts=parts, values=values)


def fmt(x: float, lang: Lang) -> str:
    text = f"{x:.1f}" if abs(x) < 1e6 else f"{x:.3g}"
    return text.replace(".", ",") if lang == "de" else text


def _span(s: Stats, lang: Lang) -> str:
    if s.first is None or s.last is None:
        return ""
    if lang == "de":
        return f"{s.first:%d.%m.} bis {s.last:%d.%m.}"
    return f"{s.first:%m-%d} to {s.last:%m-%d}"


def _top(values: dict[str, int], total: int, lang: Lang) -> str:
    ranked = sorted(values.items(), key=lambda kv: (-kv[1], kv[0]))[:5]
    shown = [f"'{k}' ({round(100 * n / total)} %)" for k, n in ranked if total]
    if not shown:
        return ""
    return ("meist " if lang == "de" else "mostly ") + ", ".join(shown)


def fact_text(label: str, predicate: str, month: date, s: Stats, lang: Lang) -> str:
    """E.g. "Living room (sensor:living-room) temperature, 2026-07, rolled up from 8640 observations
    (07-01 to 07-31): mean 21.4, min 18.9, max 24.1; evenings ~21.7, nights ~19.2"."""
    de = lang == "de"
    head = (f"{label} {predicate}, {month:%Y-%m}, "
            + (f"zusammengefasst aus {s.n} Beobachtungen" if de else f"rolled up from {s.n} observations")
            + (f" ({_span(s, lang)})" if s.first else ""))
    parts: list[str] = []
    if s.numeric.n and s.numeric.mean is not None and s.numeric.low is not None and s.numeric.high is not None:
        parts.append(("Mittel" if de else "mean") + f" {fmt(s.numeric.mean, lang)}, min {fmt(s.numeric.low, lang)}, "
                     f"max {fmt(s.numeric.high, lang)}")
        by_part = sorted(((p, v) for p, v in s.parts.items() if v.mean is not None), key=lambda pv: -pv[1].n)
        parts.append(", ".join(f"{PART_WORDS[lang][p]} ~{fmt(v.mean, lang)}" for p, v in by_part if v.mean is not None))
    others = s.n - s.numeric.n
    if others:
        parts.append(_top(s.values, others, lang))
    return head + ": " + "; ".join(p for p in parts if p)


def events_text(label: str, event_type: str, month: date, s: Stats, lang: Lang) -> str:
    """E.g. "12 observation events about Front door (sensor:door), 2026-07 (07-01 to 07-29): mostly 'opened' (67 %)"."""
    about = (f" zu {label}" if lang == "de" else f" about {label}") if label else ""
    head = (f"{s.n} {event_type}-Ereignisse{about}, {month:%Y-%m}" if lang == "de"
            else f"{s.n} {event_type} events{about}, {month:%Y-%m}")
    return head + (f" ({_span(s, lang)})" if s.first else "") + ": " + _top(s.values, s.n, lang)
