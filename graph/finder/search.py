"""Hybrid search: names and aliases (trigram KNN), fact values (full text), projection texts (German and
English full text) and projection meaning (vector KNN), each a real top-k over all of an owner's rows,
fused by reciprocal rank fusion (graph.finder.fusion).

Graph = truth, RAG = finder: a projection only points at entities; every entity hit is read from the
ledger (a merged one answers as its survivor), facts are current beliefs, and summaries or rollups are
returned as memories (texts with the time they cover), never as what is true now.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal, LiteralString

import psycopg

from graph.agent.render import EntityMatch, SearchHit
from graph.episodes.model import from_row as episode_from_row
from graph.finder import answers, hits, neighbours, recency, vector_list
from graph.finder.embedders import Embedder
from graph.finder.fusion import RRF_K as RRF_K  # re-exported (tests, benches)
from graph.finder.fusion import Ranked
from graph.finder.fusion import rrf as rrf  # the same
from graph.finder.fusion import tied_ranks as tied_ranks  # the same
from graph.finder.query_names import name_forms
from graph.finder.rounds import OwnerRounds, Rounds, in_transaction
from graph.finder.vector_list import EXACT_BELOW as EXACT_BELOW  # the same
from graph.finder.vector_list import by_score as by_score  # the same
from graph.finder.vector_list import ef_search as ef_search  # the same
from graph.finder.vector_list import embedding_param as embedding_param  # the same
from graph.finder.vector_list import nearest_to, query_vector, vector
from graph.finder.vector_list import use_index as use_index  # the same
from graph.platform.arrays import text_array
from graph.sql import load

LIST_K = 20  # each list's top-k; fusion then keeps `limit`
Rows = list[dict[str, Any]]
Lists = Literal["name", "fact", "answer", "text", "episode", "meaning"]
ALL_LISTS: tuple[Lists, ...] = ("name", "fact", "answer", "text", "episode", "meaning")
TEXT_LISTS: tuple[Lists, ...] = ("name", "fact", "text")
# In rounds of their own the meaning list runs beside the text statement (False: after it; benches compare both).
BESIDE = True
# A direct answer outranks the entity the name list puts first: a question asks for the fact. The episode
# list's turns by meaning weigh less than a list of their own: they are the episode list's candidates again,
# and a full weight lost rank on the labelled set (docs/recall-evaluation.md, "The episode list by meaning").
# The other lists weigh equally (the retrieval evaluation found no better weights).
WEIGHTS = {"answer": 1.5, "episode_meaning": 0.75}
# Cosine similarity below which a row found by meaning is no hit (offline model; measured in docs/episodes.md).
MEANING_FLOOR = 0.15
# Places a projection said within the window moves up its list (look_back) (measured on the dev split
# of the recall evaluation, docs/recall-evaluation.md).
WINDOW_BOOST = 10


@dataclass(frozen=True)
class Query:
    text: str
    kind: str | None = None
    valid_from: datetime | None = None  # a time range: facts and memories valid during it
    valid_to: datetime | None = None
    limit: int = 10
    lists: tuple[Lists, ...] = ALL_LISTS  # the evaluation runs single lists; search uses all
    as_of: datetime | None = None  # the answer list reads facts as of this valid time (None: the range's start)
    # Projections (episodes, memories) said before the range count too, those within it ranked up (boosted): a
    # question about a past state is mostly answered by what was said before the window and still held in it.
    look_back: bool = False

    @property
    def valid_at(self) -> datetime | None:
        """The instant the answer list reads facts as of: `as_of`, else the range's start, else its end."""
        return self.as_of or self.valid_from or self.valid_to


@dataclass
class Fused:
    hits: list[SearchHit]
    mode: str  # hybrid | text
    waiting: str | None = None  # why the meaning list did not search (no model, nothing embedded yet)


def search(where: psycopg.Connection[Any] | Rounds, q: Query, embedder: Embedder | None, at: datetime) -> Fused:
    """One search: in the caller's owner transaction (a connection) or in rounds of its own (graph.finder.rounds).
    The name, fact, text, answer and episode lists go out in rounds of their own and without a time range as ONE
    statement that pins the owner itself (wm_search_text_lists), else as one round. The query is embedded in a worker
    thread meanwhile; in rounds of their own that may hold a second connection (`OwnerRounds.spare`) that thread
    also sends the vector list, on a pooled connection of its own (vector_list.beside: the search waits for the
    longer of the two), otherwise the vector list is a second round after the first. Projection rows bring the
    entities they point at; hits are built for the rows fusion keeps (graph.finder.hits). Fewer round trips
    are the point: on this service a round trip costs more than the statements of a small owner."""
    run = in_transaction(where) if isinstance(where, psycopg.Connection) else where
    params = {"query": q.text, "kind": q.kind, "at": at, "k": LIST_K, "from": q.valid_from, "to": q.valid_to,
              "cap": answers.WORD_CAP, "episodes": "episode" in q.lists}
    loose = {**params, "from": None} if q.look_back else params  # the projection lists' window
    named = _question_params(q, params, loose)
    said = _episode_params(named) if "episode" in q.lists and "meaning" in q.lists and named["words"] else None
    meaning = vector_list.beside(run, embedder, q.text, loose, said) if (
        BESIDE and isinstance(run, OwnerRounds) and run.spare and "meaning" in q.lists and embedder) else None
    embedding = query_vector(embedder, q.text) if "meaning" in q.lists and embedder and not meaning else None
    rows, owner = _text_lists(run, q, named, params, loose, bool(embedding))
    cands: hits.Candidates = {}
    ranked: list[tuple[str, Ranked]] = []
    if "name" in rows:
        ranked.append(("name", hits.names(rows["name"], cands)))
    if "fact" in rows:
        ranked.append(("fact", hits.facts(rows["fact"], cands)))
    if "answer" in rows:
        ranked.append(("answer", hits.facts(rows["answer"], cands)))
        ranked.append(("value", hits.facts(rows["value"], cands)))
    projections: list[tuple[str, list[dict[str, Any]]]] = [("text", rows["text"])] if "text" in rows else []
    if "episode" in rows:
        projections.append(("episode", rows["episode"]))
    got = meaning.result() if meaning is not None else None
    if embedding is not None and embedder is not None and (found := vector(embedding)) is not None:
        got = vector_list.near(run, found, embedder.name, loose, owner, said)
    nearest = got.nearest if got is not None else None
    mode, waiting = meaning_mode(q, embedder, nearest)
    if nearest:
        projections.append(("meaning", _episodes_if(q, floored(nearest))))
    if got is not None and got.said:  # the episode list's turns again, ranked by meaning
        projections.append(("episode_meaning", got.said))
    if q.look_back:
        projections = [(name, boosted(found_rows, q.valid_from, q.valid_to)) for name, found_rows in projections]
    shelf: hits.Episodes = {}
    ranked += hits.projections(projections, q.kind, cands, shelf)
    scores = rrf(ranked, WEIGHTS)
    for name, items in ranked:
        for key in dict.fromkeys(key for key, _ in items):
            cands[key].found_by.append(name)
    best = sorted(scores, key=lambda key: (-scores[key], key))[: q.limit * neighbours.POOL]
    # the turns of the pool, read once for neighbours and hits; none when no turn made the top `limit` (a
    # search that shows no turn reads none, as before)
    if hits.episode_ids(best[: q.limit]) and (ids := hits.episode_ids(best)):
        shelf.update((e.id, e) for e in map(episode_from_row, run([(load("episodes_by_ids"), {"ids": ids})])[0]))
        scores = neighbours.with_next(scores, shelf)  # a turn ranks with the one after it
        best = sorted(best, key=lambda key: (-scores[key], key))
    if not q.look_back and recency.asks_about_now(q.text):  # the newer of two turns on the same thing first
        best = _newer_first(q.text, best, scores, projections)
    return Fused(hits=[cands[key].hit(scores[key]) for key in best[: q.limit]], mode=mode, waiting=waiting)


def _newer_first(query: str, best: list[str], scores: dict[str, float],
                 projections: list[tuple[str, list[dict[str, Any]]]]) -> list[str]:
    """graph.finder.recency over the episode keys among the fused keys (their time and text from the rows)."""
    rows = {f"episode:{r['source_key']}": r for _, found in projections for r in found
            if r["source_kind"] == "episode" and r.get("valid_from") is not None}
    if len(rows) < 2:
        return best
    said = {key: (r["valid_from"], recency.role_of(r["text"])) for key, r in rows.items()}
    return recency.newer_first(best, scores, said, recency.topics(query, {k: r["text"] for k, r in rows.items()}))


def _episodes_if(q: Query, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The meaning list's rows, without episodes unless the query asks for the episode list (the context
    builder's entity fallback does not: a turn is no entity, and reading its episode would cost the builder a
    round trip). The text list leaves them out in its statement (finder_search_text's %(episodes)s)."""
    return rows if "episode" in q.lists else [r for r in rows if r["source_kind"] != "episode"]


def boosted(rows: list[dict[str, Any]], start: datetime | None, end: datetime | None) -> list[dict[str, Any]]:
    """A list's rows with those said within [start, end) moved up WINDOW_BOOST places (pure), the rest in order:
    the window ranks what it names first without hiding the episodes said before it. A memory (summary,
    rollup) covers a time of its own and stays one only while valid during the window."""
    def inside(r: dict[str, Any]) -> bool:
        said = r.get("valid_from")
        return said is not None and (start is None or said >= start) and (end is None or said < end)
    rows = [r for r in rows if r.get("source_kind") == "episode" or start is None or r.get("valid_to") is None
            or r["valid_to"] > start]
    within = [inside(r) for r in rows]
    order = sorted(range(len(rows)), key=lambda i: (i - WINDOW_BOOST if within[i] else i, not within[i], i))
    return [rows[i] for i in order]


def floored(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The meaning list without its weak rows (pure): a row less similar than MEANING_FLOOR is no hit, so a
    query with nothing relevant finds nothing by meaning alone."""
    return [r for r in rows if float(r["score"]) >= MEANING_FLOOR]


def meaning_mode(q: Query, embedder: Embedder | None, nearest: list[dict[str, Any]] | None) -> tuple[str, str | None]:
    """`hybrid` only when the meaning list searched embedded rows (pure); else `text` and what waits."""
    if "meaning" not in q.lists:
        return "text", None
    if embedder is None:
        return "text", "meaning: no embedding model is configured (or TEXT mode was asked)"
    if nearest is None:
        return "text", "meaning: the query could not be embedded"
    if not nearest:
        return "text", "meaning: nothing is embedded yet (the finder embeds new texts in the background)"
    return "hybrid", None


Statements = list[tuple[str, LiteralString, Mapping[str, Any]]]  # (list, statement, parameters)


def _question_params(q: Query, params: dict[str, Any], loose: dict[str, Any]) -> dict[str, Any]:
    """The parameters of the lists that read a query as a question: the answer list (candidate facts, ranked
    by graph.finder.answers into answers and value matches) and the episode list (turns holding any content
    word, in capped candidate sets). `words` is '' without a content word (only question words and filler)."""
    # without the answer and episode lists ('' words) the one statement skips them too
    content = answers.content_words(q.text) if "answer" in q.lists or "episode" in q.lists else []
    timed = q.valid_at is not None
    return {**params, "words": answers.tsquery_text(content), "terms": text_array(answers.tsquery_terms(content)),
            "forms": text_array(name_forms(q.text)), "pool": answers.POOL, "valid_at": q.valid_at or params["at"],
            "timed": timed, "during": timed and q.as_of is None, "loose_from": loose["from"],
            "near": None, "model": None}  # the episode list by its words (finder_search_episodes)


def _episode_params(named: dict[str, Any]) -> dict[str, Any]:
    """finder_search_episodes' parameters: the question lists' with the projection lists' window."""
    return {**named, "from": named["loose_from"]}


def _question_statements(q: Query, named: dict[str, Any]) -> Statements:
    """The answer and episode statements the query asks for (none without a content word)."""
    if not named["words"]:
        return []
    return [(name, load(statement), named if name == "answer" else _episode_params(named))
            for name, statement in (("answer", "finder_search_answers"), ("episode", "finder_search_episodes"))
            if name in q.lists]


def _question_rows(q: Query, rows: dict[str, Rows]) -> dict[str, Rows]:
    """The question lists' rows by list, the answer list's ranked into answers and value matches."""
    if "answer" in rows:
        rows["answer"], rows["value"] = answers.rank(rows["answer"], q.text, LIST_K)
    return rows


def _text_lists(run: Rounds, q: Query, named: dict[str, Any], params: dict[str, Any], loose: dict[str, Any],
                owner_wanted: bool) -> tuple[dict[str, Rows], str | None]:
    """The rows of the name, fact and text lists and of the question lists the query asks for, by list, and
    the owner (when the vector list will need it for graph.finder.sizes). In rounds of their own, without a
    time range, all of them are one statement that pins the owner (wm_search_text_lists: one message);
    otherwise one round of statements. `named`: the parameters of the question lists (_question_params)."""
    plain = statement_for("agent_search_facts", q) == "agent_search_facts"
    if isinstance(run, OwnerRounds) and plain and all(name in q.lists for name in TEXT_LISTS):
        row = run.pinned(load("finder_search_lists"), named)[0]
        asked: dict[str, Rows] = {name: hits.timed(row[column], times) for name, column, times in (
            ("answer", "answers", hits.FACT_TIMES), ("episode", "episodes", hits.TEXT_TIMES))
            if name in q.lists and named["words"]}
        return {"name": row["names"], "fact": hits.timed(row["facts"], hits.FACT_TIMES),
                "text": hits.timed(row["texts"], hits.TEXT_TIMES), **_question_rows(q, asked)}, run.owner
    questions = _question_statements(q, named)
    lists = [(name, load(statement_for(statement, q))) for statement, name in
             (("agent_search_entities", "name"), ("agent_search_facts", "fact"), ("finder_search_text", "text"))
             if name in q.lists]
    first: list[tuple[str, LiteralString, Mapping[str, Any] | tuple[()]]] = []  # (label, statement, params)
    if isinstance(run, OwnerRounds) and plain:
        first.append(("set plans", load("finder_set_plans"), ()))
    if "name" in q.lists:
        first.append(("set names", load("finder_set_names"), ()))
    if owner_wanted and not isinstance(run, OwnerRounds):
        first.append(("owner", load("finder_current_owner"), ()))
    first += [(name, text, named if name == "name" else loose if name == "text" else params) for name, text in lists]
    first += questions
    rows = dict(zip([label for label, _, _ in first], run([(text, p) for _, text, p in first]), strict=True))
    rows.update(_question_rows(q, {name: rows.pop(name) for name, _, _ in questions}))
    if isinstance(run, OwnerRounds):
        return rows, run.owner
    owned = rows.get("owner", [])
    return rows, owned[0]["owner"] if owned else None


def statement_for(name: str, q: Query) -> str:
    """The named statement a list runs (pure): the fact list has its own for a time range, whose start may
    reach far back (agent_search_facts bounds its rows by "valid now or later", migration 0069)."""
    if name == "agent_search_facts" and (q.valid_from is not None or q.valid_to is not None):
        return "agent_search_facts_during"
    return name


def nearest(where: psycopg.Connection[Any] | Rounds, text: str, embedder: Embedder,
            params: dict[str, Any]) -> list[dict[str, Any]] | None:
    """The vector list for `text`, or None when it cannot be embedded (the evaluation runs lists alone)."""
    run = in_transaction(where) if isinstance(where, psycopg.Connection) else where
    found = vector(query_vector(embedder, text))
    if found is None:
        return None
    if isinstance(run, OwnerRounds):
        return nearest_to(run, found, embedder.name, params, run.owner)
    owned = run([(load("finder_current_owner"), ())])[0]
    return nearest_to(run, found, embedder.name, params, owned[0]["owner"] if owned else None)


CONTEXT_LISTS: tuple[Lists, ...] = ("name", "text")
MAX_CONTEXT = 3


def context_entities(where: psycopg.Connection[Any] | Rounds, message: str, at: datetime) -> list[EntityMatch]:
    """The context builder's fallback when deterministic linking found nothing: the entities that names and
    projection texts point at (no model call: the hot path stays fast), at most MAX_CONTEXT, via "finder".
    The builder gives it rounds of their own (`owner_rounds`): one round trip, and the lists' generic plans
    (finder_set_plans), where a transaction of the caller's planned both statements anew on every call."""
    fused = search(where, Query(text=" ".join(message.split())[:300], limit=MAX_CONTEXT, lists=CONTEXT_LISTS),
                   None, at)
    return [h.entity.model_copy(update={"via": "finder", "score": h.score}) for h in fused.hits if h.entity]
