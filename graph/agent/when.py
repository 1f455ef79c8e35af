"""A time written into a question ("in 2025", "letzten März", "am 3. Mai", "last week"), as a window of valid time.

`find_window(text, now)` returns the half-open window [start, end) the text names, the words that named it,
labels for the answer in German and English, and the question without those words (so the search sees only
the subject). Pure: the caller passes `now`, and every window is in `now`'s time zone.

Memory questions ask about the past, so a month or a day written without a year is the latest one that has
begun ("im Mai" in December: May of this year; in April: May of last year), and "last"/"letzten" names the
latest one that has ended ("last March" in March: March of last year; "letzten Dienstag": the Tuesday before
today). A number is a year after a preposition or "Jahr"/"year" ("in 2025", "im Jahr 2025") or when it closes the
question ("war ich 2025?") and no number-taking noun precedes it, so "Raum 2025", "the 2025 roadmap" or "$175"
stay words of the question. Not read: ranges ("seit 2025", "between May and July"), seasons, "two weeks ago",
"next ..." (a question about the future asks for plans, which have no window of their own).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta

MONTHS_DE = ("Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober",
             "November", "Dezember")
MONTHS_EN = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
             "November", "December")
# Spellings and abbreviations (German and English) -> month number; abbreviations only appear next to a day.
_MONTH_WORDS: dict[str, int] = {
    **{m.lower(): i for i, m in enumerate(MONTHS_DE, start=1)},
    **{m.lower(): i for i, m in enumerate(MONTHS_EN, start=1)},
    "jänner": 1, "maerz": 3, "märz": 3,
}
_ABBREV: dict[str, int] = {
    "jan": 1, "feb": 2, "mär": 3, "mrz": 3, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9,
    "sept": 9, "okt": 10, "oct": 10, "nov": 11, "dez": 12, "dec": 12,
}
_WEEKDAYS = {**{d: i for i, d in enumerate(("montag", "dienstag", "mittwoch", "donnerstag", "freitag",
                                             "samstag", "sonntag"))},
             "sonnabend": 5,
             **{d: i for i, d in enumerate(("monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
                                             "sunday"))}}
_FULL = "|".join(sorted(_MONTH_WORDS, key=len, reverse=True))
_ANY_MONTH = "|".join(sorted([*_MONTH_WORDS, *_ABBREV], key=len, reverse=True))
_YEAR = r"(?:19|20)\d\d"
_LAST_DE = r"(?:(?:im\s+)?(?:letzte[nmrs]?|vorige[nmrs]?|vergangene[nmrs]?)\s+)"
_LAST_EN = r"(?:last\s+|this\s+past\s+)"
_THIS = r"(?:this|diese[nmrs]?)"
# Nouns a number follows as a name, not a time ("Raum 2025", "issue 2025"): a bare year after them is no year.
_NUMBERED = frozenset({
    "raum", "room", "zimmer", "nr", "no", "nummer", "number", "haus", "house", "bus", "linie", "line", "gleis",
    "platform", "version", "build", "sprint", "ticket", "issue", "flug", "flight", "seite", "page", "kapitel",
    "chapter", "platz", "tor", "gate", "code", "pin", "id", "konto", "account", "modell", "model", "euro", "eur",
    "usd", "dollar", "dollars", "kosten", "costs", "cost", "preis", "price",
})

# Each pattern names its groups; the longest match in a text wins, the first on a tie.
_PATTERNS: dict[str, re.Pattern[str]] = {
    "iso": re.compile(r"(?:\b(?:am|on)\s+)?\b(?P<y>\d{4})-(?P<m>\d{2})-(?P<d>\d{2})\b"),
    "dotted": re.compile(
        r"(?:\b(?:am|on|vom)\s+)?(?<![\d.])(?P<d>\d{1,2})\.(?P<m>\d{1,2})\.(?P<y>\d{4}|\d{2})?(?![\d.])"),
    "day_month": re.compile(
        rf"(?:\b(?:am|on|vom|the)\s+)?(?<![\d.])(?P<d>\d{{1,2}})(?:\.|st|nd|rd|th)?\s+(?:of\s+)?"
        rf"(?P<mon>{_ANY_MONTH})\b\.?(?:,?\s+(?P<y>{_YEAR})\b)?", re.IGNORECASE),
    "month_day": re.compile(
        rf"(?:\bon\s+)?\b(?P<mon>{_ANY_MONTH})\.?\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\b(?!:)(?:,?\s+(?P<y>{_YEAR})\b)?",
        re.IGNORECASE),
    "last_month": re.compile(rf"\b(?:{_LAST_DE}|{_LAST_EN})(?P<mon>{_FULL})\b", re.IGNORECASE),
    "month_year": re.compile(
        rf"(?:\b(?:im|in|during|from|aus|von)\s+)?\b(?P<mon>{_FULL})\s+(?:of\s+)?(?P<y>{_YEAR})\b", re.IGNORECASE),
    "month": re.compile(rf"\b(?:im|in|during)\s+(?P<mon>{_FULL})\b", re.IGNORECASE),
    "year": re.compile(
        rf"\b(?:(?:im|in|aus|von|during|from)\s+(?:(?:dem\s+)?jahr|the\s+year)\s+|(?:in|during|from|aus)\s+|"
        rf"(?:das|dem)\s+jahr\s+)(?P<y>{_YEAR})\b", re.IGNORECASE),
    # "war ich 2025?": a year closing the question, unless a number-taking noun or a currency precedes it
    "bare_year": re.compile(rf"(?<![\w$€£#.,-])(?P<y>{_YEAR})(?=\s*(?:[?!.;:]|,\s|$))"),
    "relative": re.compile(
        rf"\b(?:(?P<ago>vorgestern|the\s+day\s+before\s+yesterday)|(?P<yesterday>gestern|yesterday)|"
        rf"(?P<today>heute|today)|"
        rf"(?P<last>{_LAST_DE}|{_LAST_EN}|(?:im\s+)?{_THIS}\s+|(?:in\s+)?this\s+)"
        rf"(?P<unit>jahr(?:es)?|year|monat(?:s)?|month|woche|week))\b", re.IGNORECASE),
    # "letzten Dienstag", "last Tuesday": the latest such day before today
    "last_weekday": re.compile(
        rf"\b(?:(?:am\s+)?{_LAST_DE}|(?:on\s+)?{_LAST_EN})(?P<wd>{'|'.join(_WEEKDAYS)})\b", re.IGNORECASE),
}


@dataclass(frozen=True)
class Window:
    start: datetime
    end: datetime  # exclusive
    matched: str  # the words of the text that named it
    label_de: str
    label_en: str
    query: str  # the text without those words

    def label(self, lang: str) -> str:
        return self.label_de if lang == "de" else self.label_en


def find_window(text: str, now: datetime) -> Window | None:
    """The first longest time expression of `text` as a window, or None when it names no time."""
    best: tuple[re.Match[str], tuple[datetime, datetime, str, str]] | None = None
    for kind, pattern in _PATTERNS.items():
        for m in pattern.finditer(text):
            span = _resolve(kind, m, now)
            if span is None:
                continue
            if best is None or _better(m, best[0]):
                best = (m, span)
    if best is None:
        return None
    m, (start, end, de, en) = best
    return Window(start, end, m.group(0).strip(), de, en, _without(text, m.start(), m.end()))


def _better(m: re.Match[str], old: re.Match[str]) -> bool:
    size, old_size = m.end() - m.start(), old.end() - old.start()
    return size > old_size or (size == old_size and m.start() < old.start())


def _without(text: str, start: int, end: int) -> str:
    rest = f"{text[:start]} {text[end:]}"
    rest = re.sub(r"\s+([?.!,;:])", r"\1", re.sub(r"\s{2,}", " ", rest))
    return rest.strip(" ,;")


def _month(word: str) -> int | None:
    w = word.lower().rstrip(".")
    return _MONTH_WORDS.get(w) or _ABBREV.get(w)


def _resolve(kind: str, m: re.Match[str], now: datetime) -> tuple[datetime, datetime, str, str] | None:
    g = m.groupdict()
    if kind == "relative":
        return _relative(g, now)
    if kind == "last_weekday":
        today = now.replace(hour=0, minute=0, second=0, microsecond=0)
        start = today - timedelta(days=(today.weekday() - _WEEKDAYS[(g["wd"] or "").lower()] - 1) % 7 + 1)
        return start, start + timedelta(days=1), _day_de(start), _day_en(start)
    if kind == "year":
        return _year_window(int(g["y"]), now)
    if kind == "bare_year":
        before = re.findall(r"[\w.]+", m.string[:m.start()])
        return None if before and before[-1].lower().rstrip(".") in _NUMBERED else _year_window(int(g["y"]), now)
    month = int(g["m"]) if kind in ("iso", "dotted") else _month(g["mon"])
    if month is None or not 1 <= month <= 12:
        return None
    year = _full_year(g.get("y"))
    if "d" in g:
        return _day_window(year, month, int(g["d"]), now)
    if year is None:
        latest_begun = month <= now.month if kind == "month" else month < now.month
        year = now.year if latest_begun else now.year - 1
    return _month_window(year, month, now)


def _full_year(text: str | None) -> int | None:
    if text is None:
        return None
    year = int(text)
    return 2000 + year if year < 100 else year


def _year_window(year: int, now: datetime) -> tuple[datetime, datetime, str, str]:
    start = now.replace(year=year, month=1, day=1, hour=0, minute=0, second=0, microsecond=0)
    return start, start.replace(year=year + 1), str(year), str(year)


def _month_window(year: int, month: int, now: datetime) -> tuple[datetime, datetime, str, str]:
    start = now.replace(year=year, month=month, day=1, hour=0, minute=0, second=0, microsecond=0)
    end = start.replace(year=year + 1, month=1) if month == 12 else start.replace(month=month + 1)
    return start, end, f"{MONTHS_DE[month - 1]} {year}", f"{MONTHS_EN[month - 1]} {year}"


def _day_window(year: int | None, month: int, day: int, now: datetime) -> tuple[datetime, datetime, str, str] | None:
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    try:
        start = midnight.replace(year=year or now.year, month=month, day=day)
        if year is None and start > midnight:
            start = start.replace(year=now.year - 1)
    except ValueError:  # 31.4., 30 February: not a date, so not a time expression
        return None
    return start, start + timedelta(days=1), _day_de(start), _day_en(start)


def _day_de(t: datetime) -> str:
    return f"{t.day}. {MONTHS_DE[t.month - 1]} {t.year}"


def _day_en(t: datetime) -> str:
    return f"{t.day} {MONTHS_EN[t.month - 1]} {t.year}"


def _relative(g: dict[str, str | None], now: datetime) -> tuple[datetime, datetime, str, str]:
    today = now.replace(hour=0, minute=0, second=0, microsecond=0)
    for key, days in (("today", 0), ("yesterday", 1), ("ago", 2)):
        if g[key]:
            start = today - timedelta(days=days)
            return start, start + timedelta(days=1), _day_de(start), _day_en(start)
    unit, last = (g["unit"] or "").lower(), not re.match(r"(?:im\s+|in\s+)?(?:this|diese)", g["last"] or "",
                                                         re.IGNORECASE)
    if unit.startswith(("jahr", "year")):
        return _year_window(now.year - last, now)
    if unit.startswith(("monat", "month")):
        if not last:
            return _month_window(now.year, now.month, now)
        return _month_window(now.year, now.month - 1, now) if now.month > 1 else _month_window(now.year - 1, 12, now)
    monday = today - timedelta(days=today.weekday()) - timedelta(weeks=last)
    return (monday, monday + timedelta(weeks=1), f"Woche ab {_day_de(monday)}", f"week of {_day_en(monday)}")
