"""A text search's three lists are one statement that pins its owner (wm_search_text_lists): the function
is what its three named files say, a text search is one message and one round trip, and its answer is the
one the same lists give in a caller's transaction (or as a round of statements)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from graph.agent.search import search_world_memory
from graph.demo import load_demo
from graph.finder import hits, reconciler, vector_list
from graph.finder import search as finder
from graph.finder.answers import POOL, WORD_CAP
from graph.finder.embedders import Embedder, EmbeddingFailed, embedder_for
from graph.finder.rounds import OwnerRounds, owner_rounds
from graph.platform import safe_times
from graph.platform.db import Database
from graph.settings import Settings
from graph.sql import load
from graph.timebounds import LATEST, MIN_TIME
from tests.libpq_trace import of_pool, sent

# the function's argument for each placeholder of the three files (none is a column name: in a SQL function
# a column of the same name would win)
ARGUMENTS = {"%(query)s": "words", "%(forms)s": "name_forms", "%(kind)s": "of_kind", "%(at)s": "at_time",
             "%(k)s": "k_rows", "%(from)s": "since", "%(to)s": "until", "%(cap)s": str(WORD_CAP),
             "%(episodes)s": "with_turns"}
FILES = ("agent_search_entities", "agent_search_facts", "finder_search_text")
# the question lists' own arguments (the function runs them without a time range: valid now)
QUESTION_ARGUMENTS = {"finder_search_answers": {"%(words)s": "question_words", "%(pool)s": str(POOL),
                                                "%(valid_at)s": "at_time", "%(timed)s": "false",
                                                "%(during)s": "false"},
                      "finder_search_episodes": {"%(words)s": "question_words", "%(terms)s": "word_sets",
                                                 "%(near)s": "NULL", "%(model)s": "NULL"}}


def composed(name: str) -> str:
    """A named statement as wm_search_text_lists holds it: comment lines left out, placeholders named."""
    body = "\n".join(line for line in load(name).splitlines() if not line.startswith("--"))
    for placeholder, argument in {**QUESTION_ARGUMENTS.get(name, {}), **ARGUMENTS}.items():
        body = body.replace(placeholder, argument)
    return body.replace("%%", "%")  # psycopg's escape of pg_trgm's `<%`


def test_the_function_the_database_runs_is_what_its_files_say(db: Database) -> None:
    """wm_search_text_lists includes the three named files (graph.platform.repeatables' `-- include:`), so
    the body the database holds is each file's, as the round of statements runs it."""
    with db.owner_tx("nobody", read_only=True) as conn:
        row = conn.execute("SELECT prosrc FROM pg_proc WHERE proname = 'wm_search_text_lists'").fetchone()
    assert row is not None
    for name in (*FILES, *QUESTION_ARGUMENTS):
        assert f"-- BEGIN {name}\n{composed(name)}\n-- END {name}" in row["prosrc"], name
    # every placeholder has its argument
    assert "%(" not in "".join(composed(name) for name in (*FILES, *QUESTION_ARGUMENTS))


@pytest.fixture
def one(app_db_url: str) -> Iterator[Database]:
    database = Database(app_db_url, max_size=1)
    yield database
    database.close()


@pytest.fixture
def demo(db: Database, owner: str) -> tuple[str, Embedder]:
    model = embedder_for(Settings(embedding_provider="offline"))
    assert model is not None
    load_demo(db, owner)
    reconciler.reconcile_owner(db, owner, model)
    return owner, model


def test_a_text_search_is_one_round_trip(one: Database, demo: tuple[str, Embedder]) -> None:
    owner, model = demo
    result = search_world_memory(one, owner, "Luna feeding", embedder=model)  # the owner's size now remembered
    assert result.hits and result.mode == "hybrid"
    kinds = sent(of_pool(one, lambda: search_world_memory(one, owner, "Luna feeding")))
    # every list, the question lists too, in one statement: one message
    assert (kinds["round trips"], kinds["Bind"], kinds["Sync"]) == (1, 1, 1), kinds
    kinds = sent(of_pool(one, lambda: search_world_memory(one, owner, "what is it")))  # no content word
    assert (kinds["round trips"], kinds["Bind"], kinds["Sync"]) == (1, 1, 1), kinds
    # the counter counts: hybrid adds the vector list's round; a time range keeps the lists' round of statements
    kinds = sent(of_pool(one, lambda: search_world_memory(one, owner, "Luna feeding", embedder=model)))
    assert kinds["round trips"] == 2 and kinds["Bind"] > 1, kinds
    since = datetime.now(UTC) - timedelta(days=3650)
    kinds = sent(of_pool(one, lambda: search_world_memory(one, owner, "Luna feeding", valid_from=since)))
    assert kinds["round trips"] == 1 and kinds["Bind"] > 5, kinds


def _dumped(fused: finder.Fused) -> tuple[str, list[dict[str, Any]]]:
    return fused.mode, [h.model_dump(mode="json") for h in fused.hits]


@pytest.mark.parametrize("text", ["Luna feeding", "Luna", "Basti", "08:00", "no late food", "issue 42 reminder",
                                  "Fütterung", "nothing like this at all"])
@pytest.mark.parametrize("kind", [None, "pet"])
def test_one_statement_answers_as_the_statements_do(db: Database, demo: tuple[str, Embedder], text: str,
                                                    kind: str | None) -> None:
    """Every field of every hit (entities, facts with their times, memories, scores, lists), text and hybrid."""
    owner, model = demo
    at = datetime.now(UTC)
    for embedder in (None, model):
        q = finder.Query(text=text, kind=kind)
        pinned = finder.search(owner_rounds(db, owner), q, embedder, at)
        with db.owner_tx(owner, read_only=True) as conn:
            statements = finder.search(conn, q, embedder, at)
        assert _dumped(pinned) == _dumped(statements)
    assert isinstance(owner_rounds(db, owner), OwnerRounds)


def test_the_pinned_lists_pin_only_their_owner(db: Database, demo: tuple[str, Embedder]) -> None:
    owner, _ = demo
    other_owner = f"{owner}-other"
    params = {"query": "Luna", "forms": ["luna"], "kind": None, "at": datetime.now(UTC), "k": 20, "from": None,
              "to": None, "words": "luna", "terms": ["luna"], "episodes": True}
    mine = db.read_pinned(owner, load("finder_search_lists"), params)[0]
    assert mine["names"] and mine["texts"]
    theirs = db.read_pinned(other_owner, load("finder_search_lists"), params)[0]
    assert theirs == {"names": [], "facts": [], "texts": [], "answers": [], "episodes": []}
    with db.owner_tx(owner, read_only=True) as conn:  # only the app role's own statement may pin an owner
        assert conn.execute("SELECT has_function_privilege('worldmem_console', 'wm_search_text_lists(text, text, "
                            "text[], text, timestamptz, integer, timestamptz, timestamptz, text, text[], boolean)', "
                            "'EXECUTE') AS x"
                            ).fetchone() == {"x": False}


class _Down:
    """A model that is down: every embedding fails."""

    name = "down"

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        raise EmbeddingFailed("model down")


def test_a_failed_embedding_beside_the_text_lists_searches_by_text(db: Database, demo: tuple[str, Embedder]) -> None:
    """The meaning list runs in a worker thread beside the text statement (rounds of their own); when the model
    fails there, the search answers in text mode with what the text lists found, as in a caller's transaction."""
    owner, _ = demo
    at = datetime.now(UTC)
    q = finder.Query(text="Luna feeding")
    beside = finder.search(owner_rounds(db, owner), q, _Down(), at)
    text = finder.search(owner_rounds(db, owner), q, None, at)
    with db.owner_tx(owner, read_only=True) as conn:
        sequential = finder.search(conn, q, _Down(), at)
    assert beside.hits and _dumped(beside) == _dumped(text) == _dumped(sequential) and beside.mode == "text"


def test_json_times_are_read_as_the_loader_reads_them() -> None:
    """Times in the lists' json: as psycopg would load them; one Python cannot hold is clamped and noted, so the
    answer reports STORED_TIME_OUT_OF_RANGE beside the data as for every other read (tests/test_time_range.py)."""
    assert hits.stored_time("2022-03-20T21:48:36.5+05:30") == datetime(2022, 3, 20, 16, 18, 36, 500000, tzinfo=UTC)
    with safe_times.collecting() as notes:
        assert hits.stored_time("10000-01-01T00:00:00+00:00") == LATEST
        assert hits.stored_time("0044-03-15T00:00:00+00:00 BC") == MIN_TIME
        assert hits.stored_time("infinity") == LATEST and hits.stored_time("-infinity") == MIN_TIME
    assert notes == ["10000-01-01T00:00:00+00:00", "0044-03-15T00:00:00+00:00 BC", "infinity", "-infinity"]
    rows = hits.timed([{"valid_from": "2020-01-01T00:00:00+00:00", "valid_to": None}], hits.TEXT_TIMES)
    assert rows == [{"valid_from": datetime(2020, 1, 1, tzinfo=UTC), "valid_to": None}]


def test_the_meaning_list_beside_runs_in_the_callers_context(db: Database, demo: tuple[str, Embedder],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """What a request collects through context variables (safe_times' notes) sees the worker thread's rows."""
    owner, model = demo
    seen: list[list[str] | None] = []
    nearest = vector_list._nearest_beside

    def spy(*args: Any) -> vector_list.Near | None:
        safe_times.note("from the worker")
        seen.append(None)
        return nearest(*args)

    monkeypatch.setattr(vector_list, "_nearest_beside", spy)
    with safe_times.collecting() as notes:
        fused = finder.search(owner_rounds(db, owner), finder.Query(text="Luna feeding"), model, datetime.now(UTC))
    assert seen and fused.mode == "hybrid" and notes == ["from the worker"]


def test_without_a_spare_connection_the_meaning_list_runs_after_the_text_lists(
        db: Database, demo: tuple[str, Embedder], monkeypatch: pytest.MonkeyPatch) -> None:
    """A request whose owner has no second slot free (resolvers.fairness.offload_spare) searches on ONE
    connection: the meaning list is a round after the text lists, with the same answer."""
    owner, model = demo
    called: list[bool] = []
    beside = vector_list.beside

    def spy(*args: Any) -> Any:
        called.append(True)
        return beside(*args)

    monkeypatch.setattr(vector_list, "beside", spy)
    one = search_world_memory(db, owner, "Luna feeding", embedder=model, spare_connection=False)
    assert called == [] and one.mode == "hybrid" and one.hits
    two = search_world_memory(db, owner, "Luna feeding", embedder=model)
    assert called == [True] and [h.model_dump() for h in two.hits] == [h.model_dump() for h in one.hits]
