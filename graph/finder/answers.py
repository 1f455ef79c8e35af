"""Facts as answers: a question ("Was isst Luna?", "What is the user's diet?", "Who leads project Aurora?")
finds the current fact that answers it, not only its entity.

A fact is a retrieval unit of its own: its subject's name (and the aliases the question used), its
predicate's words (snake_case split, with a small German/English label table) and its value. The statement
finder_search_answers brings the candidates (facts about the entities the question names, and facts whose
value holds any content word); `rank` (pure) orders them: a named subject counts, a predicate the question
asks about counts as much, value words add. Question words and filler are dropped, never required.
"""

from __future__ import annotations

import re
from typing import Any

from graph.finder.query_names import FUNCTION_WORDS, words

POOL = 200  # facts per named entity read before ranking
FILLER = FUNCTION_WORDS | {
    "are", "be", "been", "can", "could", "did", "does", "had", "has", "have", "her", "his", "it", "its", "me",
    "or", "she", "he", "their", "them", "they", "this", "that", "was", "were", "which", "whom", "whose", "why",
    "will", "would", "you", "your", "user", "user's", "about", "tell", "know", "currently", "now", "still",
    "ist", "sind", "war", "waren", "welche", "welcher", "welches", "warum", "den", "dem", "des", "einen",
    "einem", "einer", "oder", "zu", "an", "dein", "deine", "sein", "seine", "ihr", "ihre", "hat", "haben",
    "hatte", "du", "er", "sie", "es", "mir", "mich", "dir", "dich", "uns", "nicht", "noch", "schon", "auch",
    "gerade", "jetzt", "derzeit", "aktuell", "bitte", "sag", "weißt",
}
# Question words in German and English -> the predicate words they ask about (a label table, not a model).
LABELS: dict[str, tuple[str, ...]] = {
    "isst": ("eat", "food", "diet", "feeding"), "essen": ("eat", "food", "diet"), "frisst": ("food", "feeding", "diet"),
    "futter": ("food", "feeding", "diet"), "ernährung": ("diet", "food"), "eat": ("food", "diet"),
    "eats": ("food", "diet"), "food": ("diet", "feeding"), "diet": ("food",),
    "wohnt": ("lives", "home", "address", "city"), "lebt": ("lives", "home", "city"), "live": ("home", "address"),
    "lives": ("home", "address", "city"), "wohnort": ("home", "city", "address"),
    "leitet": ("lead", "leader", "manager", "owner"), "leads": ("lead", "leader", "manager", "owner"),
    "lead": ("leader", "manager", "owner"), "leiter": ("lead", "leader", "manager"),
    "leiterin": ("lead", "leader", "manager"), "manages": ("manager", "lead"),
    "geburtstag": ("birthday", "born", "birth"), "birthday": ("born", "birth"), "geboren": ("born", "birth"),
    "arbeitet": ("works", "employer", "job"), "works": ("employer", "job"), "job": ("employer", "role"),
    "beruf": ("job", "occupation", "role"), "alt": ("age",), "old": ("age",), "tierarzt": ("vet", "veterinarian"),
    "farbe": ("color", "colour"), "lieblingsfarbe": ("favorite", "color"), "favourite": ("favorite",),
    "gym": ("gym", "fitness"), "fitnessstudio": ("gym", "fitness"), "sport": ("sport", "gym", "training"),
    "haustier": ("pet",), "katze": ("cat",), "hund": ("dog",), "mutter": ("mother",), "vater": ("father",),
    "frau": ("wife", "spouse"), "mann": ("husband", "spouse"), "partner": ("partner", "spouse"),
    "sprache": ("language",), "spricht": ("language", "speaks"), "telefon": ("phone",), "nummer": ("number", "phone"),
    "adresse": ("address",), "stadt": ("city",), "allergie": ("allergy", "allergies"), "allergisch": ("allergy",),
    "mag": ("likes", "preference", "favorite"), "likes": ("preference", "favorite"), "status": ("status", "state"),
    "fällig": ("due", "deadline"), "deadline": ("due",), "termin": ("appointment", "date", "due"),
}
_SPLIT = re.compile(r"[_.:\s/-]+")
_TSWORD = re.compile(r"[^\w]+")


def content_words(query: str) -> list[str]:
    """The query's words that may carry meaning (pure): lower case, possessive endings dropped, filler out."""
    out: dict[str, None] = {}
    for w in words(query):
        w = re.sub(r"['’]s?$", "", w)
        if len(w) > 1 and w not in FILLER:
            out[w] = None
    return list(out)


def tsquery_text(content: list[str]) -> str:
    """An OR tsquery text of the content words (pure; only word characters reach to_tsquery)."""
    parts = [p for p in (_TSWORD.sub("", w) for w in content) if p]
    return " | ".join(dict.fromkeys(parts))


def _same(a: str, b: str) -> bool:
    """Two words match when equal or when one starts the other and both have 4+ letters ("leads"/"lead")."""
    if a == b:
        return True
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    return len(short) >= 4 and long_.startswith(short)


def _asked(content: list[str]) -> set[str]:
    asked = set(content)
    for w in content:
        asked.update(LABELS.get(w, ()))
    return asked


def score(row: dict[str, Any], content: list[str]) -> float:
    """How well one fact answers a question of these content words (pure): 1 for a subject (or object) the
    question names, 1 for a predicate it asks about, up to 1 for the share of its words the value holds."""
    asked = _asked(content)
    predicate = [p for p in _SPLIT.split(str(row["predicate"]).lower()) if p]
    pred = 1.0 if any(_same(a, p) for a in asked for p in predicate) else 0.0
    value = row["object_value"] if row["object_kind"] == "literal" else row.get("object_name") or row["object_ref"]
    value_words = set(words(str(value))) | set(words(str(row.get("subject_name") or "")))
    shared = sum(1 for w in content if any(_same(w, v) for v in value_words))
    return (1.0 if row["named"] else 0.0) + pred + (shared / len(content) if content else 0.0)


def rank(rows: list[dict[str, Any]], query: str, k: int) -> list[dict[str, Any]]:
    """The `k` best answers, each row with its `score`, best first (ties by fact id); rows that neither
    name a subject of the question nor share a word or predicate with it are left out."""
    content = content_words(query)
    scored = [{**r, "score": score(r, content)} for r in rows]
    kept = [r for r in scored if r["score"] >= 1.0 or (r["score"] > 0 and not r["named"])]
    return sorted(kept, key=lambda r: (-r["score"], str(r["id"])))[:k]
