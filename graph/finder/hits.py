"""The finder's rows as fusion keys and, for the few that win, as hits: one mapping per list's row shape.

Fusion needs only a key and a score per row; the hits (pydantic models) are built for the `limit` keys that
fusion keeps, not for every row of the four lists (up to 80 rows for 10 hits: building a model per row was a
measurable share of a search). The first list that names a key decides its hit (names, then facts, texts, meaning).
Rows come as psycopg returns them or as JSON (wm_search_text_lists: uuids as text, which the
models parse into the same values; times as text, which `timed` reads as psycopg's loader would, a stored time
outside 0001-9999 clamped and noted for STORED_TIME_OUT_OF_RANGE as graph.platform.safe_times does).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from typing import Any

from graph.agent.render import EntityMatch, MemoryMatch, SearchHit, Statement
from graph.episodes.model import Episode
from graph.finder.fusion import Ranked
from graph.platform import safe_times
from graph.reads.temporal import FactView
from graph.timebounds import LATEST, MIN_TIME

Build = Callable[[float, list[str]], SearchHit]  # (fused score, lists that found it) -> the hit
FACT_TIMES = ("valid_from", "valid_to", "recorded_at", "superseded_at", "observed_at")
TEXT_TIMES = ("valid_from", "valid_to")


def timed(rows: list[dict[str, Any]], fields: tuple[str, ...]) -> list[dict[str, Any]]:
    """JSON rows with their time fields read (in place; None stays None)."""
    for r in rows:
        for name in fields:
            if (value := r.get(name)) is not None:
                r[name] = stored_time(value)
    return rows


def stored_time(text: str) -> datetime:
    """A timestamptz as PostgreSQL's JSON writes it; one outside what Python can hold (year 10000, BC,
    infinity) at the nearest accepted instant, noted as safe_times' loader notes it."""
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        safe_times.note(text)
        return MIN_TIME if text.endswith("BC") or text.startswith("-") or text[:4] < "0002" else LATEST


@dataclass
class Candidate:
    build: Build
    found_by: list[str] = field(default_factory=list)

    def hit(self, score: float) -> SearchHit:
        return self.build(round(score, 6), self.found_by)


Candidates = dict[str, Candidate]


def names(rows: list[dict[str, Any]], cands: Candidates) -> Ranked:
    return _ranked(rows, cands, "entity", _name_hit)


def facts(rows: list[dict[str, Any]], cands: Candidates) -> Ranked:
    return _ranked(rows, cands, "fact", _fact_hit)


def _ranked(rows: list[dict[str, Any]], cands: Candidates, prefix: str,
            make: Callable[[dict[str, Any], float, list[str]], SearchHit]) -> Ranked:
    """Each row as its fusion key `prefix:id` with its score; a key met first gets its (lazy) hit builder."""
    keys = []
    for r in rows:
        key = f"{prefix}:{r['id']}"
        if key not in cands:
            cands[key] = Candidate(partial(make, r))
        keys.append((key, float(r["score"])))
    return keys


Episodes = dict[str, Episode]  # turn id -> the episode, read for the episode keys fusion keeps


def projections(lists: list[tuple[str, list[dict[str, Any]]]], kind: str | None,
                cands: Candidates, shelf: Episodes) -> list[tuple[str, Ranked]]:
    """Projection rows as fusion keys: an entity projection is its entity as the ledger has it now (the
    survivor of a merge; each row brings its `entities`, none when of another kind than asked); an episode
    projection is its turn (`episode:<turn id>`, built from `shelf`, which the search fills for the keys
    it keeps; none when a kind is asked); other rows are memories."""
    out = []
    for name, rows in lists:
        keys = []
        for r in rows:
            key = _episode_key(r, kind, cands, shelf) if r["source_kind"] == "episode" else (
                _projection_key(r, kind, cands))
            if key is not None:
                keys.append((key, float(r["score"])))
        out.append((name, keys))
    return out


def _projection_key(r: dict[str, Any], kind: str | None, cands: Candidates) -> str | None:
    about: list[dict[str, Any]] = r["entities"]
    if r["source_kind"] == "entity":
        if not about:
            return None
        key = f"entity:{about[0]['id']}"
        if key not in cands:
            cands[key] = Candidate(partial(_projected_entity_hit, r))
        return key
    if kind is not None and not about:
        return None
    key = f"memory:{r['id']}"
    if key not in cands:
        cands[key] = Candidate(partial(_memory_hit, r))
    return key


def _episode_key(r: dict[str, Any], kind: str | None, cands: Candidates, shelf: Episodes) -> str | None:
    if kind is not None:
        return None
    key = f"episode:{r['source_key']}"
    if key not in cands:
        cands[key] = Candidate(partial(_episode_hit, r, shelf))
    return key


def episode_ids(keys: list[str]) -> list[str]:
    """The turn ids of the episode keys among `keys` (pure)."""
    return [key.removeprefix("episode:") for key in keys if key.startswith("episode:")]


def _episode_hit(r: dict[str, Any], shelf: Episodes, score: float, found_by: list[str]) -> SearchHit:
    episode = shelf.get(r["source_key"])
    if episode is None:  # the turn is gone (retention) and its projection not yet: the text alone
        return _memory_hit(r, score, found_by)
    return SearchHit(score=score, episode=episode, matched=_snippet(r), found_by=found_by)


def _name_hit(r: dict[str, Any], score: float, found_by: list[str]) -> SearchHit:
    return SearchHit(score=score, entity=EntityMatch.model_validate(r), matched=r["matched"], found_by=found_by)


def _fact_hit(r: dict[str, Any], score: float, found_by: list[str]) -> SearchHit:
    st = Statement(subject=r["subject_ref"], functional=r["functional"], fact=FactView.from_row(r))
    value = st.fact.value
    return SearchHit(score=score, statement=st, matched=value if isinstance(value, str) else str(value),
                     found_by=found_by)


def _snippet(r: dict[str, Any]) -> str:
    return " ".join(r["text"].split())[:300]


def _projected_entity_hit(r: dict[str, Any], score: float, found_by: list[str]) -> SearchHit:
    e, snippet = r["entities"][0], _snippet(r)
    match = EntityMatch(id=e["id"], ref=e["ref"], kind=e["kind"], name=e["name"], score=0.0, via="text",
                        matched=snippet)
    return SearchHit(score=score, entity=match, matched=snippet, found_by=found_by)


def _memory_hit(r: dict[str, Any], score: float, found_by: list[str]) -> SearchHit:
    memory = MemoryMatch(id=r["id"], source_kind=r["source_kind"], text=r["text"], valid_from=r["valid_from"],
                         valid_to=r["valid_to"], about=[e["ref"] for e in r["entities"]])
    return SearchHit(score=score, memory=memory, matched=_snippet(r), found_by=found_by)
