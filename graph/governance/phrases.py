"""The owner-facing sentences of review messages and correction notices, in German and English.

The language is the owner's `answer_language` (the unscoped one of their person entity); anything
that is not German reads English. Sentences are templates with named fields, one table per language.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

import psycopg
from psycopg.rows import class_row

from graph.sql import load

Lang = Literal["de", "en"]
GERMAN = frozenset({"de", "deu", "ger", "german", "deutsch"})

PHRASES: dict[Lang, dict[str, str]] = {
    "en": {
        "about": "{name}'s {predicate}{where}",
        "where": " (in {scope})",
        "sure": "{percent}% sure",
        "pending": "{about}: {value}? ({heard})",
        "conflict": "{about}: {value} instead of {current}? ({heard})",
        "merge": "Are {a} ({a_ref}) and {b} ({b_ref}) the same {kind}?",
        "nothing": "Nothing to review.",
        "one": "one thing",
        "many": "{n} things",
        "intro": "I'd like to check {count} with you — answer with the number and yes or no:",
        "answers": "yes → {yes}",
        "answers_no": ", no → {no}",
        "notice_user": "{about}: you said {previous} before, now {current} — updating.",
        "notice_other": "{about}: I had {previous} before, now {current} — updating.",
        "cut_short_user": "{about}: you said {value} from {start}; I already knew {later} from {later_start}, "
                          "so {value} ends there.",
        "cut_short_other": "{about}: I heard {value} from {start}; I already knew {later} from {later_start}, "
                           "so {value} ends there.",
        "overdue": "{name} ({ref}) was due {due} and is still {status} — is it done?",
        "blocked": "{name} ({ref}) is blocked by {blocker} ({blocker_ref}), still {status} — is {blocker} done?",
        "open": "open",
        "in_progress": "in progress",
        "waiting": "waiting",
    },
    "de": {
        "about": "{genitive} {predicate}{where}",
        "where": " (in {scope})",
        "sure": "{percent} % sicher",
        "pending": "{about}: {value}? ({heard})",
        "conflict": "{about}: {value} statt {current}? ({heard})",
        "merge": "Sind {a} ({a_ref}) und {b} ({b_ref}) dasselbe ({kind})?",
        "nothing": "Nichts zu prüfen.",
        "one": "eine Sache",
        "many": "{n} Dinge",
        "intro": "Ich möchte {count} mit dir klären — antworte mit der Nummer und ja oder nein:",
        "answers": "ja → {yes}",
        "answers_no": ", nein → {no}",
        "notice_user": "{about}: du hattest vorher {previous} gesagt, jetzt {current} — ich aktualisiere das.",
        "notice_other": "{about}: ich hatte vorher {previous}, jetzt {current} — ich aktualisiere das.",
        "cut_short_user": "{about}: du hast {value} ab {start} gesagt; ich wusste schon von {later} ab "
                          "{later_start}, also endet {value} dort.",
        "cut_short_other": "{about}: ich habe {value} ab {start} gehört; ich wusste schon von {later} ab "
                           "{later_start}, also endet {value} dort.",
        "overdue": "{name} ({ref}) war am {due} fällig und ist noch {status} — ist es erledigt?",
        "blocked": "{name} ({ref}) wartet auf {blocker} ({blocker_ref}), noch {status} — ist {blocker} erledigt?",
        "open": "offen",
        "in_progress": "in Arbeit",
        "waiting": "wartend",
    },
}


def language_of(value: str | None) -> Lang:
    """'de', 'de-DE', 'Deutsch' … read German; everything else (and nothing) English."""
    primary = (value or "").strip().lower().replace("_", "-").split("-", 1)[0]
    return "de" if primary in GERMAN else "en"


@dataclass(frozen=True, slots=True)
class _Language:
    """The owner's stated answer language (gov_owner_language.sql), as they wrote it."""

    language: str | None


def owner_language(conn: psycopg.Connection[Any], at: datetime | None = None) -> Lang:
    cursor = conn.cursor(row_factory=class_row(_Language))
    row = cursor.execute(load("gov_owner_language"), {"at": at or datetime.now(UTC)}).fetchone()
    return language_of(row.language if row else None)


def genitive(name: str) -> str:
    """German possessive: "Lunas", "Sebastians", but "Klaus'" and "Max'" after s, ß, x, z."""
    return name + ("'" if name[-1:].lower() in {"s", "ß", "x", "z"} else "s")


MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def day(lang: Lang, at: datetime) -> str:
    """A UTC day as the owner writes it: "20 Feb 2025", "20.02.2025"."""
    d = at.astimezone(UTC)
    return f"{d.day:02d}.{d.month:02d}.{d.year}" if lang == "de" else f"{d.day} {MONTHS[d.month - 1]} {d.year}"


def say(lang: Lang, key: str, **fields: Any) -> str:
    return PHRASES[lang][key].format(**fields)


def status_word(lang: Lang, status: str) -> str:
    """A commitment's status in the owner's language (statuses without a word are shown as stored)."""
    return PHRASES[lang].get(status, status) if status in ("open", "in_progress", "waiting") else status


def about(lang: Lang, name: str, predicate: str, scope: str | None) -> str:
    where = say(lang, "where", scope=scope) if scope else ""
    return say(lang, "about", name=name, genitive=genitive(name), predicate=predicate, where=where)
