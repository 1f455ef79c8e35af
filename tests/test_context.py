"""The context builder: scope resolution, entity linking and the token budget (pure), then worldContext
on the demo world against the real database."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from graph.agent import linking, scopes
from graph.agent.budget import Entry, assemble, trim
from graph.agent.render import Statement
from graph.agent.world_context import ContextRequest, build, world_context
from graph.demo import load_demo
from graph.platform.db import Database
from graph.reads.temporal import FactView

T = datetime(2026, 11, 2, tzinfo=UTC)


def st(value: str, scope: str | None = None, *, functional: bool = True, priority: int = 0,
       recorded: datetime = T, predicate: str = "answer_language") -> Statement:
    return Statement(subject="person:basti", functional=functional, fact=FactView(
        id=uuid.uuid4(), predicate=predicate, value=value, valid_from=T, valid_to=None, recorded_at=recorded,
        superseded_at=None, status="active", source="user", confidence=1.0, scope=scope, priority=priority))


def values(statements: list[Statement]) -> list[Any]:
    return [s.fact.value for s in statements]


# --- scope resolution -------------------------------------------------------------------------------

def test_most_specific_scope_in_the_chain_wins_and_storage_is_untouched() -> None:
    facts = [st("de"), st("en", "repo:home-agent"), st("fr", "chat:c1"), st("es", "device:phone")]
    assert values(scopes.resolve(facts, ["chat:c1", "repo:home-agent"])) == ["fr"]
    assert values(scopes.resolve(facts, ["repo:home-agent"])) == ["en"]
    assert values(scopes.resolve(facts, ["device:phone", "chat:c1"])) == ["es"]
    assert values(scopes.resolve(facts, [])) == ["de"]
    assert values(scopes.resolve(facts, None)) == ["de", "en", "fr", "es"]
    assert len(facts) == 4


def test_specificity_beats_chain_order_then_priority_then_newest() -> None:
    # the chain lists the person first, yet the chat is more specific by kind
    assert values(scopes.resolve([st("p", "person:basti"), st("c", "chat:c1")], ["person:basti", "chat:c1"])) == ["c"]
    same_level = [st("low", "folder:a", priority=0), st("high", "project:b", priority=5)]
    assert values(scopes.resolve(same_level, ["folder:a", "project:b"])) == ["low"]  # chain position first
    # a repo is more specific than the project holding it, whatever the chain's order
    repo_first = [st("r", "repo:a"), st("p", "project:b", priority=5)]
    assert values(scopes.resolve(repo_first, ["project:b", "repo:a"])) == ["r"]
    tie = [st("old", "chat:c1", recorded=T), st("new", "chat:c1", recorded=T + timedelta(hours=1))]
    assert values(scopes.resolve(tie, ["chat:c1"])) == ["new"]
    prio = [st("urgent", priority=3, recorded=T), st("newer", recorded=T + timedelta(days=1))]
    assert values(scopes.resolve(prio, [])) == ["urgent"]


def test_set_predicates_keep_every_applicable_member() -> None:
    prefs = [st("concise", functional=False, predicate="prefers"),
             st("metric", functional=False, predicate="prefers"),
             st("english", "repo:x", functional=False, predicate="prefers"),
             st("concise", "chat:c1", functional=False, predicate="prefers"),
             st("german", "chat:c9", functional=False, predicate="prefers")]
    kept = scopes.resolve(prefs, ["chat:c1", "repo:x"])
    assert sorted(values(kept)) == ["concise", "english", "metric"]
    assert [s.fact.scope for s in kept if s.fact.value == "concise"] == ["chat:c1"]


@pytest.mark.parametrize(("scope", "level"), [
    (None, 0), ("person:basti", 1), ("repo:x", 3), ("project:x", 2), ("folder:x", 2), ("chat:c1", 4),
    ("session:s", 5), ("task:t", 5), ("device:d", 5), ("github:issue:42", 2), ("pet:luna", 2)])
def test_scope_levels(scope: str | None, level: int) -> None:
    assert scopes.level(scope) == level


# --- entity linking ---------------------------------------------------------------------------------

def hit(span: str, ref: str, via: str = "alias", namespace: str | None = "core",
        seen: datetime | None = None) -> dict[str, Any]:
    return {"span": span, "via": via, "namespace": namespace, "seen_at": seen, "ref": ref,
            "id": uuid.uuid5(uuid.NAMESPACE_URL, ref), "kind": ref.split(":")[0], "name": ref.split(":")[1]}


def test_spans_are_word_ngrams_and_refs() -> None:
    found = linking.spans("Is pet:luna's breakfast, at the Home Agent, done?")
    assert "home agent" in linking.norms(found) and "pet:luna" in linking.refs(found)
    assert all(len(s.norm.split()) <= linking.MAX_WORDS for s in found)


def test_linking_prefers_longer_spans_and_never_guesses() -> None:
    rows = [hit("luna", "pet:luna", via="name", namespace=None), hit("max", "person:max"),
            hit("max", "pet:max", namespace="vet"), hit("luna maria", "person:luna-maria", via="name")]
    linked, unclear = linking.link(linking.spans("Max and Luna Maria met Luna"), rows, "chat:c1", T)
    assert [m.ref for m in linked] == ["person:luna-maria", "pet:luna"]
    assert [(a.span, a.candidates) for a in unclear] == [("Max", ["person:max", "pet:max"])]


def test_chat_alias_beats_a_global_one_and_decays_with_age() -> None:
    rows = [hit("the cat", "pet:luna", namespace="chat:c1", seen=T - timedelta(days=1)),
            hit("the cat", "pet:felix")]
    linked, unclear = linking.link(linking.spans("feed the cat"), rows, "chat:c1", T)
    assert [m.ref for m in linked] == ["pet:luna"] and not unclear
    assert linked[0].score > 3.7
    old = linking.score(rows[0], "chat:c1", T + timedelta(days=70))
    assert 3.0 < old < 3.01
    # in another chat the same alias counts less than the global one
    linked, _ = linking.link(linking.spans("feed the cat"), rows, "chat:c2", T)
    assert [m.ref for m in linked] == ["pet:felix"]


def test_the_owner_alias_me_is_not_linked() -> None:
    linked, unclear = linking.link(linking.spans("remind me"), [hit("me", "person:basti")], None, T)
    assert linked == [] and unclear == []


# --- budget -----------------------------------------------------------------------------------------

def test_trim_drops_the_lowest_ranked_lines_and_never_the_unranked() -> None:
    must = Entry("- " + "P" * 200)
    best, mid, worst = Entry("- best", (3, 0)), Entry("- mid " + "x" * 40, (2, 0)), Entry("- worst", (0, 0))
    sections = [("Policies", [must]), ("Preferences", [worst, best]), ("Recent events", [mid])]
    head = "## Known World State"
    limit = len(assemble(head, [("Policies", [must]), ("Preferences", [best])])) // 4 + 1
    dropped, over = trim(head, sections, limit)
    assert (dropped, over) == (2, False)
    assert [e.keep for e in (must, best, mid, worst)] == [True, True, False, False]
    assert "Recent events" not in assemble(head, sections)
    dropped, over = trim(head, sections, 10)
    assert over and must.keep and not best.keep and dropped == 3


# --- worldContext on the demo world -----------------------------------------------------------------

@pytest.fixture
def demo(db: Database, owner: str) -> str:
    load_demo(db, owner)
    return owner


def test_known_world_state_for_a_message_about_luna(db: Database, demo: str) -> None:
    w = build(db, demo, ContextRequest(chat_id="c1", message="When does the cat get fed? Is Luna hungry?"))
    md = w.markdown
    assert md.startswith("## Known World State\n")
    for title in ("### Policies", "### Preferences", "### Linked entities", "### Recent events"):
        assert title in md
    assert w.owner_ref == "person:basti" and w.scope_chain == ["chat:c1", "person:basti"]
    assert [le.entity.ref for le in w.linked] == ["pet:luna"]
    assert w.linked[0].entity.matched == "the cat"  # chat alias of c1, first in the message
    luna = {(s.subject, s.fact.predicate, s.fact.value) for s in w.linked[0].statements}
    assert ("pet:luna", "feeding_time", "08:00") in luna and ("pet:luna", "feeding_time", "18:00") in luna
    assert ("pet:luna", "feeding_time", "07:00") not in luna  # retracted retroactively
    assert ("person:basti", "owns", "pet:luna") in luna
    assert not any(s.fact.predicate == "birthday" for s in w.linked[0].statements)  # pending: never shown
    assert 'rule = "Never feed Luna after 20:00' in md
    assert [s.fact.value for s in w.preferences if s.fact.predicate == "answer_language"] == ["de"]
    assert {"concise answers", "metric units"} <= {s.fact.value for s in w.preferences}
    assert any(e.event_type == "state_change" and e.cause_type == "user_message" for e in w.events)
    assert w.tokens <= w.budget_tokens and w.warnings == [] and w.dropped == 0


def test_scope_chain_switches_the_answer_language(db: Database, demo: str) -> None:
    w = build(db, demo, ContextRequest(message="let's fix #42", scope_chain=["repo:home-agent"]))
    assert [s.fact.value for s in w.preferences if s.fact.predicate == "answer_language"] == ["en"]
    assert [le.entity.ref for le in w.linked] == ["github:issue:42"]
    assert any(s.fact.value == "blocked" for s in w.linked[0].statements)


def test_small_budget_keeps_policies_and_linked_facts(db: Database, demo: str) -> None:
    full = build(db, demo, ContextRequest(chat_id="c1", message="Luna"))
    tight = build(db, demo, ContextRequest(chat_id="c1", message="Luna", budget_tokens=50))
    assert tight.dropped > 0 and tight.events == [] and len(tight.preferences) < len(full.preferences)
    assert tight.policies == full.policies
    own = [s for s in full.linked[0].statements if s.subject == "pet:luna"]
    assert [s.fact.id for s in tight.linked[0].statements if s.subject == "pet:luna"] == [s.fact.id for s in own]
    assert any("over the budget" in w for w in tight.warnings)


def test_ambiguity_is_reported_not_guessed(db: Database, demo: str) -> None:
    from graph.ledger.committer import commit_proposal
    from graph.ledger.proposal import MemoryMutationProposal, UpsertEntity
    from graph.ledger.tokens import owner_principal

    commit_proposal(db, owner_principal(demo), MemoryMutationProposal(run_id="two-lunas", operations=[
        UpsertEntity(ref="person:luna", kind="person", canonical_name="Luna")]))
    w = build(db, demo, ContextRequest(message="Luna called"))
    assert w.linked == [] and [(a.span, a.candidates) for a in w.ambiguous] == [("Luna", ["person:luna", "pet:luna"])]
    assert '"Luna" is ambiguous (person:luna, pet:luna)' in w.markdown


def test_an_empty_world_and_a_failure_never_break_the_run(db: Database, owner: str) -> None:
    empty = world_context(db, owner, ContextRequest(message="hello"))
    assert empty.markdown.startswith("## Known World State") and empty.warnings == []
    broken = Database("postgresql://nobody:wrong@127.0.0.1:1/none", max_size=1, statement_timeout_ms=100)
    try:
        failed = world_context(broken, owner, ContextRequest(message="hello"))
    finally:
        broken.close()
    assert failed.markdown == "" and failed.warnings and "memory unavailable" in failed.warnings[0]
