"""The agent's read tools on the demo world: Python layer, named queries, GraphQL fields, isolation."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cli.main import main
from graph.agent import recall, recall_graph, search
from graph.demo import load_demo
from graph.ledger.committer import commit_proposal
from graph.ledger.proposal import AssertFact, MemoryMutationProposal, RecordEvent, UpsertEntity
from graph.ledger.tokens import owner_principal
from graph.platform.db import Database
from graph.settings import get_settings
from graph.sql import load
from tests.conftest import TEST_DB
from tests.gql import MakeToken, client, gql, make_token  # noqa: F401
from tests.test_n_plus_one import Counter, counter  # noqa: F401

NOW = datetime.now(UTC).replace(second=0, microsecond=0)


@pytest.fixture
def demo(db: Database, owner: str) -> str:
    load_demo(db, owner, now=NOW)
    return owner


def facts(about: Any) -> list[tuple[str, str, Any, str]]:
    return [(s.subject, s.fact.predicate, s.fact.value, s.fact.status) for s in about.statements]


def test_find_entity_exact_fuzzy_ambiguous_and_none(db: Database, demo: str) -> None:
    for name in ("pet:luna", "Luni", "luna", "LUNA"):
        found = search.find_entity(db, demo, name)
        assert found.unique is not None and found.unique.ref == "pet:luna", name
    fuzzy = search.find_entity(db, demo, "Lunna")
    assert fuzzy.matches[0].ref == "pet:luna" and fuzzy.matches[0].via == "similar name"
    assert search.find_entity(db, demo, "#42").matches[0].ref == "github:issue:42"
    assert search.find_entity(db, demo, "Luna", kind="person").matches == []
    none = search.find_entity(db, demo, "Bello")
    assert none.matches == [] and none.message == 'No entity matches "Bello".'
    commit_proposal(db, owner_principal(demo), MemoryMutationProposal(run_id="second-luna", operations=[
        UpsertEntity(ref="person:luna", kind="person", canonical_name="Luna")]))
    both = search.find_entity(db, demo, "Luna")
    assert both.ambiguous and {m.ref for m in both.matches} == {"pet:luna", "person:luna"}
    assert search.find_entity(db, demo, "Luni").unique is not None  # the alias still names one


def test_get_entity_shows_current_facts_both_ways_and_never_pending(db: Database, demo: str) -> None:
    about = recall.get_entity(db, demo, "Luni")
    assert about.entity is not None and about.entity.ref == "pet:luna"
    assert sorted(about.aliases) == ["Luni", "the cat"]
    shown = facts(about)
    assert ("pet:luna", "feeding_time", "08:00", "active") in shown
    assert ("pet:luna", "feeding_time", "18:00", "active") in shown
    assert ("person:basti", "owns", "pet:luna", "active") in shown
    assert not [f for f in shown if f[1] == "birthday" or f[2] == "07:00"]
    missing = recall.get_entity(db, demo, "Bello")
    assert missing.entity is None and missing.message == 'No entity matches "Bello".'
    near = recall.get_entity(db, demo, "Lunna")  # exact names only: a close one is offered, not taken
    assert near.entity is None and [c.ref for c in near.candidates] == ["pet:luna"]


def test_recall_with_a_glob_and_a_scope(db: Database, demo: str) -> None:
    feeding = recall.recall_facts_about(db, demo, "Luna", "feeding*")
    assert {f[1] for f in facts(feeding)} == {"feeding_time"} and len(feeding.statements) == 2
    langs = recall.recall_facts_about(db, demo, "Basti", "answer_language")
    assert sorted(f[2] for f in facts(langs)) == ["de", "en"]
    in_repo = recall.recall_facts_about(db, demo, "Basti", "answer_language", ["repo:home-agent"])
    assert [f[2] for f in facts(in_repo)] == ["en"]
    elsewhere = recall.recall_facts_about(db, demo, "Basti", "answer_language", ["chat:c1"])
    assert [f[2] for f in facts(elsewhere)] == ["de"]


def test_history_and_the_retroactive_change(db: Database, demo: str) -> None:
    history = recall.get_fact_history(db, demo, "pet:luna", "feeding_time")
    rows = [(s.fact.value, s.fact.status, s.fact.valid_to is not None) for s in history.statements]
    assert ("07:00", "superseded", False) in rows and ("07:00", "active", True) in rows
    assert ("08:00", "active", False) in rows
    assert recall.get_fact_history(db, demo, "pet:luna", "birthday").statements == []  # pending: hidden
    before = recall.state_at(db, demo, "pet:luna", NOW - timedelta(days=20))
    assert sorted(f[2] for f in facts(before)) == ["07:00", "18:00"]
    week_ago = NOW - timedelta(days=7)
    assert sorted(f[2] for f in facts(recall.state_at(db, demo, "pet:luna", week_ago))) == ["08:00", "18:00"]
    # ten days ago, memory did not yet know that breakfast had moved a week earlier
    then = recall.state_as_known_at(db, demo, "pet:luna", NOW - timedelta(days=10), week_ago)
    assert sorted(f[2] for f in facts(then)) == ["07:00", "18:00"]


def test_search_names_aliases_and_values(db: Database, demo: str) -> None:
    vet = search.search_world_memory(db, demo, "vet")
    assert [h.statement.subject for h in vet.hits if h.statement] == ["policy:no-late-food"]
    repo = search.search_world_memory(db, demo, "home agent")
    assert repo.hits[0].entity is not None and repo.hits[0].entity.ref == "repo:home-agent"
    assert search.search_world_memory(db, demo, "2021-04-01").hits == []  # the pending birthday
    none = search.search_world_memory(db, demo, "zebra crossing")
    assert none.hits == [] and none.message


def test_other_owners_see_nothing(db: Database, demo: str) -> None:
    stranger = f"owner-{uuid.uuid4().hex[:12]}"
    assert search.find_entity(db, stranger, "Luna").matches == []
    assert search.search_world_memory(db, stranger, "vet").hits == []
    assert recall.get_entity(db, stranger, "pet:luna").entity is None


NAMED_QUERIES: dict[str, tuple[dict[str, Any], set[str]]] = {
    "agent_find_entity": ({"query": "Luna", "kind": None, "at": NOW, "limit": 5, "pool": 20,
                           "system_time": None, "follow": True},
                          {"id", "ref", "kind", "name", "via", "matched", "score"}),
    "agent_search_entities": ({"query": "Luna", "kind": None, "at": NOW, "k": 5, "forms": ["luna"]},
                              {"id", "ref", "kind", "name", "via", "matched", "score"}),
    "context_events": ({"ids": [], "chat_id": "c1", "since": NOW - timedelta(days=30), "per_entity": 3,
                        "per_chat": 5, "per_open": 3, "limit": 8},
                       {"id", "occurred_at", "event_type", "summary", "chat_id", "intent", "intent_outcome",
                        "target", "cause_type", "cause_summary"}),
}
FACT_COLUMNS = {"id", "about_id", "subject_ref", "predicate", "functional", "object_kind", "object_value",
                "object_ref", "valid_from", "valid_to", "recorded_at", "superseded_at", "observed_at", "status",
                "source", "confidence", "scope_ref", "priority", "memory_type", "reason", "evidence",
                "supersedes_fact_id", "run_id"}
NAMED_QUERIES["agent_entity_recorded_later"] = ({"ref": "pet:luna", "system_time": NOW - timedelta(days=3650)},
                                                {"created_at"})
NAMED_QUERIES["agent_facts_by_ids"] = ({"ids": []}, FACT_COLUMNS)
NAMED_QUERIES["agent_facts_about"] = ({"ids": [], "incoming_ids": [], "at": NOW, "limit": 5}, FACT_COLUMNS)
NAMED_QUERIES["agent_search_facts"] = ({"query": "vet", "kind": None, "k": 5, "from": None, "to": None, "at": NOW},
                                       FACT_COLUMNS | {"score"})
NAMED_QUERIES["agent_search_facts_during"] = ({"query": "vet", "kind": None, "k": 5, "from": NOW, "to": None,
                                               "at": NOW}, FACT_COLUMNS | {"score"})


@pytest.mark.parametrize("name", sorted(NAMED_QUERIES))
def test_named_query_returns_its_fields(db: Database, demo: str, name: str) -> None:
    params, columns = NAMED_QUERIES[name]
    with db.owner_tx(demo, read_only=True) as conn:
        cur = conn.execute(load(name), params)
        assert cur.description is not None
        assert {c.name for c in cur.description} == columns


TOOLS = """query($t: DateTime!, $r: DateTime!) {
  findEntity(query: "Luni") { text ambiguous matches { ref via score } }
  getEntity(ref: "pet:luna") { text entity { ref } aliases facts { subject text fact { predicate value status } } }
  recallFactsAbout(entityOrQuery: "Basti", predicate: "answer*", scope: "repo:home-agent") { text facts { text } }
  getFactHistory(ref: "pet:luna", predicate: "feeding_time") { text facts { fact { status } } }
  getStateAt(ref: "pet:luna", validTime: $t) { text }
  getStateAsKnownAt(ref: "pet:luna", systemTime: $r) { text }
  searchWorldMemory(query: "vet") { text hits { score entity { ref } fact { subject } } }
  nobody: getEntity(ref: "Bello") { text entity { ref } message }
}"""


def test_graphql_fields_answer_typed_data_and_text(client: TestClient, make_token: MakeToken,  # noqa: F811
                                                   db: Database, demo: str) -> None:
    body = gql(client, make_token(), TOOLS, {"t": (NOW - timedelta(days=20)).isoformat(),
                                             "r": (NOW - timedelta(days=10)).isoformat()})
    assert "errors" not in body, body
    d = body["data"]
    assert d["findEntity"]["matches"][0]["ref"] == "pet:luna" and d["findEntity"]["text"].startswith('"Luni" is')
    assert d["getEntity"]["entity"]["ref"] == "pet:luna" and "feeding_time" in d["getEntity"]["text"]
    assert all(f["fact"]["status"] == "active" for f in d["getEntity"]["facts"])
    assert [f["text"].split(" · ")[0] for f in d["recallFactsAbout"]["facts"]] == [
        'person:basti answer_language = "en"']
    assert "superseded" in d["getFactHistory"]["text"]
    assert '"07:00"' in d["getStateAt"]["text"] and '"08:00"' not in d["getStateAt"]["text"]
    assert "As known on" in d["getStateAsKnownAt"]["text"]
    assert d["searchWorldMemory"]["hits"][0]["fact"]["subject"] == "policy:no-late-food"
    assert d["nobody"]["entity"] is None and d["nobody"]["text"] == 'No entity matches "Bello".'


def test_graphql_world_context_and_bad_times(client: TestClient, make_token: MakeToken,  # noqa: F811
                                             db: Database, demo: str) -> None:
    token = make_token()
    body = gql(client, token, """{ worldContext(chatId: "c1", message: "Is Luna fed?", budgetTokens: 2000) {
        markdown tokens warnings ownerRef linked { entity { ref matched } facts { text } } policies { text } } }""")
    assert "errors" not in body, body
    w = body["data"]["worldContext"]
    assert w["markdown"].startswith("## Known World State") and w["warnings"] == []
    assert w["linked"][0]["entity"]["ref"] == "pet:luna" and w["ownerRef"] == "person:basti"
    bad = gql(client, token, '{ getStateAt(ref: "pet:luna", validTime: "2026-01-01T00:00:00") { text } }')
    assert bad["errors"][0]["extensions"]["code"] in ("BAD_INPUT", "BAD_TIME", "GRAPHQL_VALIDATION_FAILED")
    assert gql(client, None, '{ findEntity(query: "Luna") { text } }')["errors"][0]["extensions"]["code"] == (
        "UNAUTHENTICATED")


def test_world_context_costs_the_same_statements_for_one_or_many_entities(
        client: TestClient, make_token: MakeToken, db: Database, demo: str, counter: Counter) -> None:  # noqa: F811
    token = make_token()
    gql(client, token, "{ __typename }")  # the token is verified (and then cached) before counting
    # and the owner's size counted (once a minute, in the block's round: graph.finder.sizes)
    gql(client, token, '{ worldContext(message: "Luna") { tokens } }')
    costs = []
    for message in ("Luna", "Luna, Basti, the home agent, #42 and Sebastian"):
        counter.statements, counter.on = 0, True
        body = gql(client, token, "query($m: String!) { worldContext(message: $m) { linked { entity { ref } } } }",
                   {"m": message})
        counter.on = False
        assert "errors" not in body, body
        costs.append((counter.statements, len(body["data"]["worldContext"]["linked"])))
    assert costs[0][1] == 1 and costs[1][1] == 4
    assert costs[0][0] == costs[1][0], f"statements grew with the number of entities: {costs}"


def test_demo_command_is_idempotent(db: Database, owner: str, monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("WORLDMEM_DB_NAME", TEST_DB)
    get_settings.cache_clear()
    try:
        assert main(["demo", "--owner", owner]) == 0
        assert "loaded demo-1-setup" in capsys.readouterr().err
        assert main(["demo", "--owner", owner]) == 0
        assert "loaded nothing new; already there: demo-1-setup" in capsys.readouterr().err
    finally:
        get_settings.cache_clear()
    assert recall.get_entity(db, owner, "person:basti").entity is not None


def test_neighbors_effects_and_explanations(db: Database, demo: str) -> None:
    hood = recall_graph.get_neighbors(db, demo, "Luni")
    assert {(h.source, h.label, h.target) for h in hood.hops} == {
        ("pet:luna", "owned_by", "person:basti"), ("pet:luna", "governed_by", "policy:no-late-food")}
    assert all(h.statement is not None and h.statement.fact.status == "active" for h in hood.hops)
    text = recall_graph.neighbors_text(hood)
    assert text.splitlines()[0] == "Neighbours of pet:luna — Luna (pet):"
    assert "- pet:luna owned_by person:basti (since " in text and "· 👤 " in text
    assert recall_graph.neighbors_text(recall_graph.get_neighbors(db, demo, "Bello")) == 'No entity matches "Bello".'

    effects = recall_graph.effects_of(db, demo, "demo-2-breakfast")
    assert effects is not None
    assert [e.event_type for e in effects.events][:2] == ["user_message", "state_change"]
    assert [(f.subject_ref, f.fact.value) for f in effects.facts] == [("pet:luna", "08:00")]
    lines = recall_graph.effects_text("demo-2-breakfast", effects).splitlines()
    assert lines[1].startswith("- ") and "user_message" in lines[1]
    assert lines[2].startswith("  - ") and "state_change" in lines[2]
    assert lines[3].startswith('    - pet:luna feeding_time = "08:00"')
    assert recall_graph.effects_text("nope", recall_graph.effects_of(db, demo, "nope")) == (
        'No event or run "nope" is recorded.')

    commit_proposal(db, owner_principal(demo), MemoryMutationProposal(run_id="guess", operations=[
        RecordEvent(event_type="state_change", occurred_at=NOW, target="pet:luna", external_ref="guess:1",
                    summary="the agent guessed a weight"),
        AssertFact(subject="pet:luna", predicate="description", value="about 4 kg", valid_from=NOW, source="agent",
                   confidence=0.2, caused_by_event="guess:1")]))
    guessed = recall_graph.effects_of(db, demo, "guess")
    assert guessed is not None and [f.fact.status for f in guessed.facts] == ["pending"]
    assert "4 kg" not in recall_graph.effects_text("guess", guessed)  # pending: never shown to the agent

    why = recall_graph.explain_change(db, demo, "github:issue:42", "status")
    text = recall_graph.explanation_text("github:issue:42 status", why)
    assert text.splitlines()[0].startswith('Why: github:issue:42 status = "blocked" · 🔌 ')
    assert "Because: " in text and "integration_sync" in text


GRAPH_TOOLS = """{
  getNeighbors(ref: "pet:luna") { text hops { depth label source target fact { text } } }
  getEffectsOf(eventOrRun: "demo-2-breakfast") { found text events { eventType } facts { subject } }
  getChangeExplanation(ref: "pet:luna", predicate: "feeding_time") { text fact { subject } causes { eventType } }
  none: getEffectsOf(eventOrRun: "nope") { found text }
}"""


def test_graphql_graph_tools(client: TestClient, make_token: MakeToken, db: Database, demo: str) -> None:  # noqa: F811
    body = gql(client, make_token(), GRAPH_TOOLS)
    assert "errors" not in body, body
    d = body["data"]
    assert {h["label"] for h in d["getNeighbors"]["hops"]} == {"owned_by", "governed_by"}
    assert all(h["fact"]["text"].startswith("pet:luna ") is False for h in d["getNeighbors"]["hops"])
    assert d["getEffectsOf"]["found"] and d["getEffectsOf"]["facts"] == [{"subject": "pet:luna"}]
    assert d["getChangeExplanation"]["fact"]["subject"] == "pet:luna"
    assert d["getChangeExplanation"]["causes"][-1]["eventType"] == "user_message"
    assert d["none"] == {"found": False, "text": 'No event or run "nope" is recorded.'}


def test_nul_characters_are_not_internal_errors(client: TestClient, make_token: MakeToken,  # noqa: F811
                                                db: Database, demo: str) -> None:
    body = gql(client, make_token(), """query($q: String!) {
      findEntity(query: $q) { text } getEntity(ref: $q) { text } recallFactsAbout(entityOrQuery: $q) { text }
      getFactHistory(ref: $q, predicate: $q) { text } searchWorldMemory(query: $q) { text }
      getNeighbors(ref: $q) { text } getEffectsOf(eventOrRun: $q) { text }
      getChangeExplanation(ref: $q, predicate: $q) { text }
      worldContext(message: $q, chatId: $q, scopeChain: [$q]) { markdown warnings } }""", {"q": "Lu\u0000na"})
    assert "errors" not in body, body
    assert body["data"]["findEntity"]["text"].startswith('"Luna" is pet:luna')
    assert body["data"]["worldContext"]["warnings"] == []
