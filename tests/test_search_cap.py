"""The text lists rank a capped set of candidates: a word in thousands of turns (a speaker's name) cannot make
a search rank every one of them, and a rare word's turn is still found among them."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from graph.agent import search
from graph.episodes import store
from graph.episodes.model import EpisodeIn
from graph.finder.answers import WORD_CAP, tsquery_terms
from graph.platform.arrays import text_array
from graph.platform.db import Database
from graph.sql import load

T0 = datetime(2025, 3, 4, 9, 30, tzinfo=UTC)
PLACES = ["Berlin", "Kassel", "Bristol", "Lisbon", "Leipzig"]


def test_candidate_sets_are_each_word_and_all_words() -> None:
    assert tsquery_terms([]) == []
    assert tsquery_terms(["priya"]) == ["priya"]
    assert tsquery_terms(["priya", "oskar", "priya"]) == ["priya", "oskar", "priya & oskar"]
    assert tsquery_terms(["mom's", "b-day"]) == ["moms", "bday", "moms & bday"]  # only word characters


def _common_then_rare(db: Database, owner: str) -> None:
    common = [EpisodeIn(external_id=f"c{i}", text=f"Priya said the flight moved to {PLACES[i % 5]}.",
                        occurred_at=T0 + timedelta(minutes=i)) for i in range(WORD_CAP + 60)]
    rare = EpisodeIn(external_id="rare", text="Priya and Oskar booked the ferry to Tromsø.",
                     occurred_at=T0 + timedelta(days=1))
    store.import_turns(db, owner, f"chat-{uuid.uuid4().hex[:8]}", [*common, rare], curate=False)


def _heap_rows(plan: Any) -> list[int]:
    """Rows each loop of a scan of the projections returned, in a JSON plan."""
    found, stack = [], [plan[0]["Plan"]]
    while stack:
        node = stack.pop()
        if node.get("Relation Name") == "memory_projections" and node.get("Alias") == "p":
            found.append(int(node["Actual Rows"]))
        stack += node.get("Plans", [])
    return found


def test_a_rare_words_turn_is_found_among_more_turns_of_a_common_word_than_the_cap(db: Database,
                                                                                    owner: str) -> None:
    _common_then_rare(db, owner)  # the rare turn is written last: the scan reaches it after every common one
    found = search.search_world_memory(db, owner, "What did Priya say about Oskar?")
    assert found.hits and found.hits[0].episode is not None and found.hits[0].episode.external_id == "rare"
    assert search.search_world_memory(db, owner, "Oskar").hits[0].episode is not None


def test_each_candidate_set_reads_at_most_the_cap(db: Database, owner: str) -> None:
    _common_then_rare(db, owner)
    content = ["priya", "oskar"]
    episodes = {"words": "priya | oskar", "terms": text_array(tsquery_terms(content)), "cap": WORD_CAP, "k": 20,
                "from": None, "to": None, "near": None, "model": None}
    texts = {"query": "Priya", "kind": None, "k": 20, "from": None, "to": None, "cap": WORD_CAP, "episodes": True}
    with db.owner_tx(owner, read_only=True) as conn:
        plans = {name: conn.execute(f"EXPLAIN (ANALYZE, FORMAT JSON) {load(name)}".encode(), params).fetchone()
                 for name, params in (("finder_search_episodes", episodes), ("finder_search_text", texts))}
        every = conn.execute(load("finder_search_text"), {**texts, "cap": 10_000}).fetchall()
    scans = {name: _heap_rows(row["QUERY PLAN"]) for name, row in plans.items() if row is not None}
    assert scans["finder_search_episodes"] and scans["finder_search_text"], json.dumps(scans)
    assert all(0 < n <= WORD_CAP for rows in scans.values() for n in rows), scans
    assert len(every) == 20  # more than the cap hold "Priya": the cap, not the data, bounded what was read
