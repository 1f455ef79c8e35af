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
# Rows a text search takes of one candidate set (a word, all words) before ranking them: ranking reads every
# row it ranks, and at 100,000 template turns a name matched 12,000 (docs/episodes.md, "Episodes at scale").
WORD_CAP = 200
MIN_SHARE = 0.5  # a value match holds at least this share of the content words (the evaluation: fewer hurt MRR)
FILLER = FUNCTION_WORDS | {
    "are", "be", "been", "can", "could", "did", "does", "had", "has", "have", "her", "his", "it", "its", "me",
    "or", "she", "he", "their", "them", "they", "this", "that", "was", "were", "which", "whom", "whose", "why",
    "will", "would", "you", "your", "user", "user's", "about", "tell", "know", "currently", "now", "still",
    "ist", "sind", "war", "waren", "welche", "welcher", "welches", "warum", "den", "dem", "des", "einen",
    "einem", "einer", "oder", "zu", "an", "dein", "deine", "sein", "seine", "ihr", "ihre", "hat", "haben",
    "hatte", "du", "er", "sie", "es", "mir", "mich", "dir", "dich", "uns", "nicht", "noch", "schon", "auch",
    "gerade", "jetzt", "derzeit", "aktuell", "bitte", "sag", "weißt",
    # verbs of saying frame a question about a conversation ("What did Miguel say about ...?"): every turn
    # was said, so they pick no turn out, and as a word of their own they cost a full-text scan
    "say", "says", "said", "mention", "mentioned", "sagen", "sagt", "sagte", "gesagt", "erwähnt", "erwähnte",
}
# Question words in German and English -> the predicate words they ask about (a label table, not a model).
LABELS: dict[str, tuple[str, ...]] = {
    "isst": ("eat", "food", "diet", "feeding"), "essen": ("eat", "food", "diet"), "frisst": ("food", "feeding", "diet"),
    "futter": ("food", "feeding", "diet"), "hungry": ("feeding", "food"), "hunger": ("feeding", "food"),
    "hungrig": ("feeding", "food"), "fed": ("feeding",), "feed": ("feeding",), "gefüttert": ("feeding",),
    "füttern": ("feeding",), "ernährung": ("diet", "food"), "eat": ("food", "diet"),
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


def tsquery_terms(content: list[str]) -> list[str]:
    """The candidate sets of the episode list, as tsquery texts (pure): each content word alone and, from two
    words on, all of them together. finder_search_episodes takes at most WORD_CAP rows of each set before
    ranking, so a common word (a speaker's name in every line of theirs) cannot make it rank thousands of
    rows, while a rare word's few rows, and the rows holding every word, are still candidates. (Each set is
    one GIN scan: all-but-one sets as well cost more scans than the ranking they spared, bench.recall_scale.)"""
    parts = list(dict.fromkeys(p for p in (_TSWORD.sub("", w) for w in content) if p))
    return [*parts, " & ".join(parts)] if len(parts) > 1 else parts


def same_word(a: str, b: str) -> bool:
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


class _Question:
    """One question's words, matched against many facts' predicates and values (a search ranks up to POOL
    facts per named entity): the asked words are put together once, each predicate is matched once per
    question (the facts of one entity repeat them), and a value's words are only split when its text holds
    the start of a content word."""

    __slots__ = ("_predicates", "asked", "content")

    def __init__(self, content: list[str]) -> None:
        self.content = content
        self.asked = _asked(content)
        self._predicates: dict[str, bool] = {}

    def asks(self, predicate: str) -> bool:
        """Whether the question asks for this predicate: a word of it matches a content word or its label."""
        known = self._predicates.get(predicate)
        if known is None:
            parts = [p for p in _SPLIT.split(predicate.lower()) if p]
            known = self._predicates[predicate] = any(same_word(a, p) for a in self.asked for p in parts)
        return known

    def parts(self, row: dict[str, Any]) -> tuple[bool, bool, float]:
        """(the question names the fact's subject or object, asks for its predicate, share of content words
        its value holds)."""
        pred = self.asks(str(row["predicate"]))
        if row.get("named_object") or not self.content:
            # an object the question names is what it asks about, not an answer word ("home agent" names the
            # repo that person:basti works_on: that relationship does not answer it)
            return bool(row["named"]), pred, 0.0
        value = row["object_value"] if row["object_kind"] == "literal" else row.get("object_name") or row["object_ref"]
        return bool(row["named"]), pred, self.share(str(value))

    def share(self, value: str) -> float:
        """The share of the content words that a word of `value` matches (same_word)."""
        text = value.lower()
        # a word matching `w` holds w's first four letters (or all of a shorter w), and every word of the value
        # is a piece of its text: a content word whose start the text lacks matches none of its words
        maybe = [w for w in self.content if w[:4] in text]
        if not maybe:
            return 0.0
        value_words = set(words(text))
        return sum(1 for w in maybe if w in value_words or any(same_word(w, v) for v in value_words)) / len(
            self.content)


def score(row: dict[str, Any], content: list[str]) -> float:
    """How well one fact answers a question of these content words (pure): 1 for a subject (or object) the
    question names, 1 for a predicate it asks about, up to 1 for the share of its words the value holds."""
    named, pred, share = _Question(content).parts(row)
    return (1.0 if named else 0.0) + (1.0 if pred else 0.0) + share


def rank(rows: list[dict[str, Any]], query: str, k: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(direct answers, value matches), each at most `k`, each row with its `score`, best first (ties by fact
    id). A direct answer is about an entity the question names and has the predicate or a value word it
    asks for; a value match names none of the question's entities but holds at least half of its content
    words. Naming a subject alone ("Luna") is the name list's hit, not an answer."""
    question = _Question(content_words(query))
    direct, values = [], []
    for r in rows:
        named, pred, share = question.parts(r)
        if named and (pred or share > 0):
            direct.append({**r, "score": 1.0 + (1.0 if pred else 0.0) + share})
        elif not named and share >= MIN_SHARE:
            values.append({**r, "score": (1.0 if pred else 0.0) + share})
    order = lambda r: (-r["score"], str(r["id"]))  # noqa: E731
    return sorted(direct, key=order)[:k], sorted(values, key=order)[:k]
