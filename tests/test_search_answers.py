"""Facts as answers: a question finds the fact that answers it, best first, in German and English; question
words never veto a match; facts as of a valid time; nothing relevant is said so."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

import pytest

from graph.agent import search
from graph.finder import answers
from graph.ledger.committer import commit_proposal
from graph.ledger.proposal import AssertFact, AssertRelationship, MemoryMutationProposal, UpsertEntity
from graph.ledger.registries import register_relation_types
from graph.ledger.tokens import owner_principal
from graph.platform.db import Database

Y2025, Y2026 = datetime(2025, 1, 1, tzinfo=UTC), datetime(2026, 1, 1, tzinfo=UTC)
TYPES: list[dict[str, Any]] = [
    {"key": "diet", "name": "diet", "cardinality": "functional"},
    {"key": "food", "name": "food", "cardinality": "functional"},
    {"key": "lead", "name": "lead", "cardinality": "functional", "object_kinds": ["person"]},
]


@pytest.fixture
def world(db: Database) -> str:
    owner = f"answers-{uuid.uuid4().hex[:8]}"
    register_relation_types(db, TYPES)
    proposal = MemoryMutationProposal(run_id="answers", operations=[
        UpsertEntity(ref="person:user", kind="person", canonical_name="User", aliases=["me"]),
        UpsertEntity(ref="pet:luna", kind="pet", canonical_name="Luna"),
        UpsertEntity(ref="project:aurora", kind="project", canonical_name="Aurora"),
        UpsertEntity(ref="person:mia", kind="person", canonical_name="Mia"),
        UpsertEntity(ref="person:tom", kind="person", canonical_name="Tom"),
        AssertFact(subject="person:user", predicate="diet", value="vegetarian", valid_from=Y2025),
        AssertFact(subject="person:user", predicate="prefers", value="concise answers", valid_from=Y2025),
        AssertFact(subject="pet:luna", predicate="food", value="Lachs mit Reis", valid_from=Y2025),
        AssertFact(subject="pet:luna", predicate="feeding_time", value="08:00", valid_from=Y2025),
        AssertFact(subject="pet:luna", predicate="birthday", value="2021-04-01", valid_from=Y2025),
        AssertRelationship(subject="project:aurora", predicate="lead", object="person:mia", valid_from=Y2025,
                           valid_to=Y2026),
        AssertRelationship(subject="project:aurora", predicate="lead", object="person:tom", valid_from=Y2026),
    ])
    result = commit_proposal(db, owner_principal(owner), proposal)
    assert not result.rejected, result.rejected
    return owner


def first_fact(db: Database, owner: str, query: str, **kw: object) -> tuple[str, str, object]:
    hits = search.search_world_memory(db, owner, query, **kw).hits  # type: ignore[arg-type]
    st = next(h.statement for h in hits if h.statement is not None)
    return st.subject, st.fact.predicate, st.fact.value if st.fact.object_ref is None else st.fact.object_ref


def test_questions_find_the_fact_that_answers_them(db: Database, world: str) -> None:
    assert first_fact(db, world, "What is the user's diet?") == ("person:user", "diet", "vegetarian")
    assert first_fact(db, world, "Was isst Luna?") == ("pet:luna", "food", "Lachs mit Reis")
    assert first_fact(db, world, "Who leads project Aurora?") == ("project:aurora", "lead", "person:tom")
    assert first_fact(db, world, "Wann hat Luna Geburtstag?") == ("pet:luna", "birthday", "2021-04-01")
    top = search.search_world_memory(db, world, "What is the user's diet?").hits[0]
    assert top.statement is not None and "answer" in top.found_by


def test_question_words_do_not_veto_a_value_match(db: Database, world: str) -> None:
    # "Lachs" is in a value; the fact list needs every word, the answer list only a content word
    assert first_fact(db, world, "Who likes Lachs?") == ("pet:luna", "food", "Lachs mit Reis")


def test_facts_as_of_a_valid_time(db: Database, world: str) -> None:
    then = search.window(datetime(2025, 6, 1, tzinfo=UTC))
    assert first_fact(db, world, "Who leads project Aurora?", within=then) == ("project:aurora", "lead",
                                                                               "person:mia")
    result = search.search_world_memory(db, world, "Who leads project Aurora?", within=then)
    assert result.valid_from == datetime(2025, 5, 25, tzinfo=UTC) and result.valid_to == datetime(2025, 6, 8,
                                                                                                   tzinfo=UTC)


def test_nothing_relevant_is_said(db: Database, world: str) -> None:
    result = search.search_world_memory(db, world, "Quantenchromodynamik")
    assert result.hits == [] and result.message is not None


def test_content_words_and_scores() -> None:
    assert answers.content_words("What is the user's diet?") == ["diet"]
    assert answers.content_words("Wann hat meine Mutter Geburtstag?") == ["mutter", "geburtstag"]
    assert answers.tsquery_text(["a&b", "c|d", "x"]) == "ab | cd | x"
    row = {"predicate": "lead", "object_kind": "entity", "object_value": None, "object_ref": "person:tom",
           "object_name": "Tom", "subject_name": "Aurora", "named": True}
    assert answers.score(row, answers.content_words("Who leads project Aurora?")) == pytest.approx(1 + 1 + 0)
    assert answers.score({**row, "predicate": "budget"}, ["leads"]) == 1.0
    assert answers.rank([{**row, "id": 1, "predicate": "budget"}], "Aurora", 5) == ([], [])  # a name alone: none
