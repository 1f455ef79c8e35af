"""Past turns in the context block: when the linked facts do not answer the message, the few turns said before that
do (what was said and never became a fact, or not yet).

The facts answer when a linked entity's fact has a predicate the message asks about or a value holding its words
(graph.finder.answers matches words the same way); then no turn is read at all, nor for a message that is no
question. Otherwise one more round reads candidate turns (finder_search_episodes.sql: words only, no model call
on the hot path) and the owner's answer language (the section's title): about now, for two or three content
words, the turns holding all of them, and only when they give fewer than MAX_EPISODES a second round the turns
holding each (each word is one more full-text scan); otherwise those holding any at once. A turn counts when it
holds at least half of the message's content words, the message itself (recorded before the call) is left out;
of equally good turns the newest comes first. With a valid time, turns said up to a week after it, those within
a week of it ranked first.
"""

from __future__ import annotations

import contextvars
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import datetime, timedelta
from typing import Any, LiteralString

from pydantic import BaseModel, Field

from graph.agent.render import Statement
from graph.finder.answers import LABELS, content_words, same_word, tsquery_terms, tsquery_text
from graph.finder.query_names import words
from graph.finder.search import boosted
from graph.governance.phrases import Lang, language_of
from graph.platform.arrays import text_array
from graph.platform.db import Database
from graph.sql import load

MAX_EPISODES = 3
CANDIDATES = 10  # turns read before the share rule picks
# Turns of one candidate set ranked (the search ranks graph.finder.answers.WORD_CAP): ranking reads each
# candidate's row (3 a page, the vector inline), and the block shows three of ten
CAP = 50
MIN_SHARE = 0.5  # of the message's content words a turn holds
AROUND = timedelta(days=7)  # a valid time's turns: said within a week of it first, up to a week after it
MAX_CHARS = 400  # of one turn's text in the block
QUESTION_WORDS = frozenset({
    "who", "what", "when", "where", "which", "why", "how", "whose", "whom", "do", "does", "did", "is", "are", "was",
    "were", "can", "could", "have", "has", "wer", "wann", "wo", "woher", "wohin", "wie", "welche", "welcher",
    "welches", "welchen", "warum", "weshalb", "wieso", "wem", "wen", "wessen", "ist", "sind", "hat", "habe", "hast",
    "kann", "gibt", "weißt"})
TITLE: dict[Lang, str] = {"de": "Frühere Gespräche", "en": "Past conversations"}
# The first round of past turns, read beside the block's rounds (`ahead`): as many at once as the app's pool
# has connections
BESIDE = ThreadPoolExecutor(max_workers=8, thread_name_prefix="context-turns")
Rows = list[list[dict[str, Any]]]


class ContextEpisode(BaseModel):
    """A past turn as the block shows it (the finder's rendering: speaker, day and words)."""

    id: str = Field(description="The turn's id")
    occurred_at: datetime
    text: str = Field(description="`Anna (user) · 2025-03-04: …`, at most MAX_CHARS characters")
    score: float = Field(description="Share of the message's content words the turn holds")


def answered(message: str, statements: Sequence[Statement], names: Sequence[str] = ()) -> bool:
    """Whether the facts answer the message (pure): one has a predicate it asks about (its words or their
    labels, "isst" asks for food and diet) or a value holding at least half of its content words. The words
    of `names` (the linked entities' names and the spans that named them) ask for nothing: a message of
    names only, or without content words, is answered by what the block shows of them."""
    named = {w for n in names for w in words(n)}
    content = [w for w in content_words(message) if w not in named]
    if not content:
        return True
    asked = set(content) | {label for w in content for label in LABELS.get(w, ())}
    for st in statements:
        predicate = [p for p in st.fact.predicate.lower().replace("-", "_").split("_") if p]
        if any(same_word(a, p) for a in asked for p in predicate):
            return True
        said = set(words(str(st.fact.object_ref or st.fact.value)))
        if sum(1 for w in content if any(same_word(w, v) for v in said)) >= MIN_SHARE * len(content):
            return True
    return False


def asks(message: str) -> bool:
    """Whether the message is a question (pure): it holds "?" or starts with a question word. Only a question
    reads past turns: the round costs a few ms on a busy owner, and an instruction is served by its facts."""
    first = next(iter(words(message)), "")
    return "?" in message or first in QUESTION_WORDS


Round = list[tuple[LiteralString, dict[str, Any]]]


def queries(message: str, at: datetime, valid_time: bool) -> tuple[Round, Round]:
    """The round that reads the candidate turns and the owner's language, and the round that may follow it
    (both empty: no question, or no content word). About now, with two or three content words, the first
    reads only the turns holding all of them and the second those holding each word alone, to be read only
    when the first gave fewer than MAX_EPISODES (`pick` then takes both rounds' rows). A turn with every word
    has the best share, so about now (ordered by share) enough of them are the answer; each word alone is one
    more full-text scan, about 3 ms for a common word at 100,000 turns (bench.recall_scale)."""
    content = content_words(message) if asks(message) else []
    terms = tsquery_terms(content)
    if not terms:
        return [], []
    language = (load("gov_owner_language"), {"at": at})
    if not _staged(terms, valid_time):
        return [_episodes(content, terms, at, valid_time), language], []
    return ([_episodes(content, terms[-1:], at, valid_time), language],
            [_episodes(content, terms[:-1], at, valid_time)])


def ahead(db: Database, owner: str, message: str, at: datetime, valid_time: bool) -> Future[Rows] | None:
    """The first round of `queries` sent at once on a pooled connection of its own, beside the block's rounds
    (graph.agent.world_context), or None when a question would read no turn. Whether the facts answer is known
    only after those rounds; reading the turns meanwhile takes their 1-3 ms at 100,000 turns off a question's
    time (bench.recall_scale), and when the facts do answer, the rows are not used."""
    asked, _ = queries(message, at, valid_time)
    if not asked:
        return None
    # in the caller's context: what the request collects (safe_times' notes of clamped times) sees its rows too
    return BESIDE.submit(contextvars.copy_context().run, db.read_round, owner, asked, generic_plans=True)


def _staged(terms: list[str], valid_time: bool) -> bool:
    """Whether the turns holding all the words are read first (pure): about now, for two or three words. With
    four or more, few turns hold them all (bench.recall_scale: "What did Miguel say about the contract
    renewal?" then paid for both rounds), so each word is read at once, as with a valid time."""
    return not valid_time and 3 <= len(terms) <= 4  # two or three words, and all of them together


def _episodes(content: list[str], terms: list[str], at: datetime,
              valid_time: bool) -> tuple[LiteralString, dict[str, Any]]:
    return (load("finder_search_episodes"), {"words": tsquery_text(content), "terms": text_array(terms),
                                             "cap": CAP, "k": CANDIDATES, "from": None,
                                             "to": at + AROUND if valid_time else None,
                                             "near": None, "model": None})


def pick(message: str, rows: list[dict[str, Any]], at: datetime | None) -> list[ContextEpisode]:
    """The turns worth showing, best first (pure): at least MIN_SHARE of the content words, not the message
    itself, at most MAX_EPISODES; with a valid time `at`, those said within AROUND of it first."""
    content = content_words(message)
    if at is not None:
        rows = boosted(rows, at - AROUND, at + AROUND)
    own = " ".join(message.split()).casefold()
    out: list[ContextEpisode] = []
    for r in rows:
        said_text = r["text"].partition(": ")[2] or r["text"]
        if " ".join(said_text.split()).casefold() == own:
            continue
        said = set(words(said_text))
        share = sum(1 for w in content if any(same_word(w, s) for s in said)) / len(content)
        if share >= MIN_SHARE:
            out.append(ContextEpisode(id=r["source_key"], occurred_at=r["valid_from"], text=_short(r["text"]),
                                      score=round(share, 3)))
    if at is None:  # about now: the best share first, the newest of equal ones (an update before its past)
        out.sort(key=lambda e: (-e.score, -e.occurred_at.timestamp()))
    return out[:MAX_EPISODES]


def title(rows: list[dict[str, Any]]) -> str:
    """The section's title in the owner's answer language (gov_owner_language's row; English without one)."""
    return TITLE[language_of(rows[0]["language"] if rows else None)]


def _short(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= MAX_CHARS else flat[:MAX_CHARS - 1] + "…"
