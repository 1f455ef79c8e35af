"""The full-text lists of searchWorldMemory take their GIN indexes right after a bulk write (0060).

Rows written since the last vacuum used to wait in GIN's pending list, which every scan reads whole and
the planner prices accordingly (a manual ANALYZE does not empty it), so right after an owner's import a
search read all of the owner's rows by an owner btree and filtered them (2.5-10 ms per list at 6,000
entities). Here an owner writes 12,000 facts and projections that differ by one word (twice that size;
500 topics, so the statistics know rare words as they do in real text), the tables are analyzed
but not vacuumed, and a search for one of those words must be answered by the (owner_sub, tsvector) index.
"""

from __future__ import annotations

import json
import re
import time
from datetime import UTC, datetime, timedelta
from typing import Any, LiteralString

import psycopg

from graph.demo import load_demo
from graph.episodes import store
from graph.episodes.model import EpisodeIn
from graph.finder import reconciler, sizes
from graph.finder import search as finder
from graph.finder.answers import WORD_CAP
from graph.finder.embedders import embedder_for
from graph.finder.rounds import OwnerRounds, Round
from graph.platform.db import Database
from graph.settings import Settings
from graph.sql import load, trusted

ROWS = 12_000


def _fill(admin: psycopg.Connection, owner: str) -> None:
    admin.execute(
        "INSERT INTO entities (owner_sub, ref, kind, canonical_name, created_at, updated_at) "
        "VALUES (%(o)s, 'person:n', 'person', 'Notes', now(), now())", {"o": owner})
    admin.execute(
        "INSERT INTO facts (owner_sub, subject_id, predicate, functional, object_kind, object_value, valid_from, "
        "recorded_at, believed, source, confidence, status) "
        "SELECT %(o)s, e.id, 'description', false, 'literal', to_jsonb('marker' || g || ' about topic' || g %% 500), "
        "'2024-01-01', now(), true, 'user', 1.0, 'active' "
        "FROM entities e, generate_series(1, %(n)s) g WHERE e.owner_sub = %(o)s", {"o": owner, "n": ROWS})
    admin.execute(
        "INSERT INTO memory_projections (owner_sub, source_kind, source_key, text) "
        "SELECT %(o)s, 'summary', 'k' || g, 'marker' || g || ' about topic' || g %% 500 "
        "FROM generate_series(1, %(n)s) g",
        {"o": owner, "n": ROWS})
    admin.execute("ANALYZE facts, memory_projections")


def _indexes(db: Database, owner: str, query: LiteralString, params: dict[str, Any] | None) -> set[str]:
    """The indexes of the statement's plan: custom for `params`, generic (every parameter unknown) for None."""
    with db.owner_tx(owner, read_only=True) as conn:
        if params is None:
            numbers: dict[str, int] = {}
            text = re.sub(r"%\((\w+)\)s", lambda m: f"${numbers.setdefault(m.group(1), len(numbers) + 1)}", query)
            row = conn.execute(trusted("EXPLAIN (FORMAT JSON, GENERIC_PLAN) " + text)).fetchone()
        else:
            row = conn.execute(b"EXPLAIN (FORMAT JSON) " + query.encode(), params).fetchone()
    assert row is not None
    text = json.dumps(row["QUERY PLAN"])
    return {name for name in ("facts_owner_value_tsv", "memory_projections_owned_words", "facts_run", "facts_current",
                              "memory_projections_owner_sub_source_kind_source_key_key", "facts_open_value_tsv",
                              "facts_ending_literal", "facts_value_tsv", "facts_codemode")
            if f'"{name}"' in text}


def test_full_text_lists_take_their_indexes_right_after_a_bulk_write(db: Database, owner: str,
                                                                   admin_conn: psycopg.Connection) -> None:
    _fill(admin_conn, owner)
    options: dict[str, list[str]] = dict(admin_conn.execute(
        "SELECT relname, reloptions FROM pg_class WHERE relname IN ('facts_owner_value_tsv', "
        "'memory_projections_owned_words', 'facts_open_value_tsv')").fetchall())
    assert sorted(options.values()) == [["fastupdate=off"]] * 3
    params = {"query": "marker1234", "kind": None, "at": datetime.now(UTC), "k": 20, "from": None, "to": None,
              "cap": WORD_CAP, "episodes": True}
    facts = _indexes(db, owner, load("agent_search_facts"), params)
    since = datetime(2020, 1, 1, tzinfo=UTC)
    during = _indexes(db, owner, load("agent_search_facts_during"), {**params, "from": since})
    texts = _indexes(db, owner, load("finder_search_text"), params)
    assert facts == {"facts_open_value_tsv", "facts_ending_literal"}, facts
    assert during == {"facts_owner_value_tsv"}, during
    assert texts == {"memory_projections_owned_words"}, texts
    generic = _indexes(db, owner, load("finder_search_text"), None)
    assert generic == {"memory_projections_owned_words"}, generic
    with db.owner_tx(owner, read_only=True) as conn:
        found = conn.execute(load("agent_search_facts"), params).fetchall()
    assert [r["object_value"] for r in found] == ["marker1234 about topic234"]


def test_an_owner_count_is_remembered_for_a_while() -> None:
    sizes.forget()
    assert sizes.remembered("a", 100.0) is None
    sizes.remember("a", sizes.Size(12, False), 100.0)
    assert sizes.remembered("a", 100.0 + sizes.TTL_S - 1) == sizes.Size(12, False)
    assert sizes.remembered("a", 100.0 + sizes.TTL_S) is None  # too old: counted again
    assert sizes.remembered("b", 100.0) is None
    sizes.forget()
    assert sizes.remembered("a", 101.0) is None


def test_ended_beliefs_holding_the_words_are_never_read(db: Database, owner: str,
                                                       admin_conn: psycopg.Connection) -> None:
    """0069: current beliefs whose valid time has ended are bounded out by an index condition, in the custom
    and in the generic plan, so many of them holding the query's word cost nothing ("draft" at 1M facts: 312
    ms before); open ones and ones ending in the future are still found, ended ones are not."""
    admin_conn.execute(
        "INSERT INTO entities (owner_sub, ref, kind, canonical_name, created_at, updated_at) "
        "VALUES (%(o)s, 'person:n', 'person', 'Notes', now(), now())", {"o": owner})
    now = datetime.now(UTC)
    for n, valid_to in [(ROWS, now - timedelta(days=100)), (1, None), (1, now + timedelta(days=100))]:
        admin_conn.execute(
            "INSERT INTO facts (owner_sub, subject_id, predicate, functional, object_kind, object_value, valid_from, "
            "valid_to, recorded_at, believed, source, confidence, status) SELECT %(o)s, e.id, 'status', false, "
            "'literal', to_jsonb('draft ' || g), '2024-01-01', %(to)s, now(), true, 'user', 1.0, 'active' "
            "FROM entities e, generate_series(1, %(n)s) g WHERE e.owner_sub = %(o)s",
            {"o": owner, "n": n, "to": valid_to})
    admin_conn.execute("ANALYZE facts")
    params = {"query": "draft", "kind": None, "at": datetime.now(UTC), "k": 20, "from": None, "to": None,
              "cap": WORD_CAP}
    assert _indexes(db, owner, load("agent_search_facts"), params) == {"facts_open_value_tsv",
                                                                        "facts_ending_literal"}
    generic = _indexes(db, owner, load("agent_search_facts"), None)
    assert generic == {"facts_open_value_tsv", "facts_ending_literal"}, generic
    with db.owner_tx(owner, read_only=True) as conn:
        found = conn.execute(load("agent_search_facts"), params).fetchall()
    assert len(found) == 2 and all(r["valid_to"] is None or r["valid_to"] > params["at"] for r in found), found


def test_the_owner_and_class_tags_narrow_the_text_list_and_never_widen_it(db: Database, owner: str,
                                                                          admin_conn: psycopg.Connection) -> None:
    """0186 indexes each lexeme tagged with its row's owner and class (wm_owned_words) and the text list tags
    the query alike (wm_owned_query): a query whose words are all stop words matches nothing (it must not
    become "every row of the owner"), another owner's text with the same words is not found, another owner's
    text holding this owner's tagged word brings no row in, the turns are left out when the list asks so,
    and a text with a word too long to tag is still stored and found by its other words."""
    other = owner + "-other"
    with db.owner_tx(owner, read_only=True) as conn:
        row = conn.execute("SELECT wm_owned_query('gartenhaus'::tsquery, false, true)::text AS q").fetchone()
        both = conn.execute("SELECT wm_owned_query('gartenhaus'::tsquery, true, true)::text AS q").fetchone()
    assert row is not None and both is not None
    tagged = row["q"].strip("'")
    assert tagged.endswith("xgartenhaus") and len(tagged) == len("gartenhaus") + 17, tagged
    assert both["q"].count("gartenhaus") == 2, both
    long_word = "w" * 2040  # with the tag past tsvector's limit: left out of the index, the row still written
    for who, kind, text in [(owner, "summary", "Gartenhaus am See"), (other, "summary", "Gartenhaus am Fluss"),
                            (other, "summary", f"spoof {tagged} See"), (owner, "episode", "Im Gartenhaus am Teich"),
                            (owner, "summary", f"Baumhaus {long_word}")]:
        admin_conn.execute(
            "INSERT INTO memory_projections (owner_sub, source_kind, source_key, text) "
            "VALUES (%(o)s, %(k)s, md5(%(t)s), %(t)s)", {"o": who, "k": kind, "t": text})
    params = {"query": "", "kind": None, "k": 20, "from": None, "to": None, "cap": WORD_CAP, "episodes": True}
    with db.owner_tx(owner, read_only=True) as conn:
        def texts(query: str, episodes: bool = True) -> list[str]:
            return sorted(r["text"] for r in conn.execute(load("finder_search_text"),
                                                          {**params, "query": query, "episodes": episodes}))
        assert texts("Gartenhaus") == ["Gartenhaus am See", "Im Gartenhaus am Teich"]
        assert texts("Gartenhaus", episodes=False) == ["Gartenhaus am See"]
        assert texts("See") == ["Gartenhaus am See"]
        assert texts("the of and") == [] and texts("und der die") == []
        assert texts(tagged) == []
        assert texts("Baumhaus") == [f"Baumhaus {long_word}"]
    with db.owner_tx(other, read_only=True) as conn:
        found = [r["text"] for r in conn.execute(load("finder_search_text"), {**params, "query": "Gartenhaus"})]
    assert found == ["Gartenhaus am Fluss"]


def recording(sent: list[list[str]]) -> type[OwnerRounds]:
    """Rounds of their own that note each round's statement texts in `sent`."""
    class Recording(OwnerRounds):
        def __call__(self, statements: Round) -> list[list[dict[str, Any]]]:
            sent.append([text for text, _ in statements])
            return super().__call__(statements)
    return Recording


def test_own_rounds_plan_generically_and_leave_nothing_behind(db: Database, owner: str) -> None:
    """In rounds of their own the text lists are one statement (wm_search_text_lists, 0082) that sets generic
    plans transaction-locally, so the pooled connection is back to auto after it, and only the vector list (with
    the episode list's turns by meaning) goes out as a round; a search with a time range keeps its first round
    of statements (custom plans, as before); in a caller's transaction neither is sent. All give the same
    fused answer."""
    model = embedder_for(Settings(embedding_provider="offline"))
    assert model is not None
    load_demo(db, owner)
    store.import_turns(db, owner, "c1", [EpisodeIn(external_id="t1", speaker="Anna", text="Luna gets fed at six",
                                                   occurred_at=datetime(2026, 1, 5, tzinfo=UTC))], curate=False)
    reconciler.reconcile_owner(db, owner, model)
    sent: list[list[str]] = []
    Recording = recording(sent)

    at = datetime.now(UTC)
    q = finder.Query(text="Luna feeding")
    beside = finder.search(Recording(db, owner), q, model, at)
    assert sent and all(load("finder_search_text") not in r for r in sent)
    # the vector round ranks the episode list's turns by meaning with their generic plan, and sets the plans
    # back before the vector statement (whose generic plan would not use the HNSW index)
    [vector_round] = [r for r in sent if load("finder_set_plans") in r]
    assert vector_round[:3] == [load(n) for n in ("finder_set_plans", "finder_search_episodes", "finder_unset_plans")]
    assert db.read_round(owner, [("SHOW plan_cache_mode", ())]) == [[{"plan_cache_mode": "auto"}]]
    sent.clear()
    ranged = finder.Query(text="Luna feeding", valid_from=at - timedelta(days=3650))
    finder.search(Recording(db, owner), ranged, model, at)
    # the text lists' round; the vector list's round, sent from the meaning list's thread, may come first
    text_round = [r for r in sent if load("agent_search_facts_during") in r]
    assert len(text_round) == 1 and load("finder_set_plans") not in text_round[0]
    with db.owner_tx(owner, read_only=True) as conn:
        sequential = finder.search(conn, q, model, at)
        assert conn.execute("SHOW plan_cache_mode").fetchone() == {"plan_cache_mode": "auto"}
    assert beside.mode == sequential.mode == "hybrid"
    assert [(h.entity or h.memory, h.score) for h in beside.hits] == [(h.entity or h.memory, h.score)
                                                                      for h in sequential.hits]
    assert beside.hits and any("meaning" in h.found_by for h in beside.hits)


def test_an_owner_without_turns_gets_no_turns_ranked_by_meaning(db: Database, owner: str) -> None:
    """The vector round ranks the episode list's turns by meaning only for an owner with turns
    (graph.finder.sizes remembers it with the count): an owner without any paid for the statement on every
    search."""
    model = embedder_for(Settings(embedding_provider="offline"))
    assert model is not None
    load_demo(db, owner)
    reconciler.reconcile_owner(db, owner, model)
    sent: list[list[str]] = []
    Recording = recording(sent)

    fused = finder.search(Recording(db, owner), finder.Query(text="Luna feeding"), model, datetime.now(UTC))
    assert fused.mode == "hybrid" and fused.hits
    assert sent and all(load("finder_search_episodes") not in r for r in sent)
    known = sizes.remembered(owner, time.monotonic())
    assert known is not None and known.turns is False and known.projections > 0
