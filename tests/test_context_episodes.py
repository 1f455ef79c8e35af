"""worldContext shows the few past turns that answer the message when the linked facts do not
(graph/agent/context_episodes.py): within the budget, around a valid time, titled in the owner's language."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID

import pytest
from fastapi.testclient import TestClient

from graph.agent import context_episodes
from graph.agent.context_episodes import MAX_EPISODES, answered, pick
from graph.agent.render import Statement
from graph.agent.world_context import ContextRequest, build
from graph.demo import load_demo
from graph.episodes import store
from graph.episodes.model import EpisodeIn
from graph.finder import sizes
from graph.ledger.committer import commit_proposal
from graph.ledger.proposal import AssertFact, MemoryMutationProposal, UpsertEntity
from graph.ledger.registries import register_relation_types
from graph.ledger.tokens import owner_principal
from graph.platform.db import Database
from graph.reads.temporal import FactView
from graph.sql import load
from tests.gql import MakeToken, client, gql, make_token  # noqa: F401

T0 = datetime(2026, 3, 3, 18, tzinfo=UTC)
NOW = datetime(2026, 11, 16, 12, 0, tzinfo=UTC)


def said(db: Database, owner: str, chat: str, *turns: tuple[str, str, datetime]) -> None:
    store.import_turns(db, owner, chat, [EpisodeIn(external_id=i, speaker="Anna", text=text, occurred_at=at)
                                         for i, text, at in turns], curate=False)


def fact(predicate: str, value: str) -> Statement:
    return Statement(subject="pet:luna", fact=FactView(id=UUID(int=1),
                                                       predicate=predicate, value=value, valid_from=T0,
                                                       valid_to=None, recorded_at=T0, superseded_at=None,
                                                       status="active", source="user", confidence=1.0))


def test_facts_answer_when_a_predicate_or_value_is_asked_for_and_names_ask_for_nothing() -> None:
    luna = [fact("feeding_time", "18:00")]
    assert answered("Is Luna hungry?", luna, ["luna"])  # hungry asks for feeding (answers.LABELS)
    assert answered("Wann wird Luna gefüttert?", luna, ["luna"])
    assert answered("Luna, Basti and the home agent", [], ["luna", "basti", "the home agent"])
    assert not answered("Where does Luna see the vet?", luna, ["luna"])
    assert answered("Is Luna at 18:00 fed?", [fact("x", "18:00 daily")], ["luna"])


def test_pick_keeps_turns_holding_half_the_words_but_never_the_message_itself() -> None:
    rows = [{"source_key": str(i), "valid_from": T0 + timedelta(days=i), "text": f"Anna (user) · 2026-03-0{i}: {t}"}
            for i, t in enumerate(["Wo ist mein Fitnessstudio?", "Mein Fitnessstudio ist das Studio am Markt",
                                   "Das Wetter ist schön", "Fitnessstudio", "Fitnessstudio gekündigt"], start=1)]
    got = pick("Wo ist mein Fitnessstudio?", rows, None)
    assert [e.id for e in got] == ["5", "4", "2"][:MAX_EPISODES]  # equally good: the newest first


def test_a_question_only_a_past_turn_answers_gets_that_turn(db: Database, owner: str) -> None:
    said(db, owner, "old", ("g1", "Ich gehe dienstags ins Fitnessstudio am Marktplatz, Studio Kraftwerk", T0),
         ("g2", "Das Wetter war heute furchtbar", T0 + timedelta(minutes=1)))
    said(db, owner, "now", ("q1", "In welches Fitnessstudio gehe ich?", NOW))  # the message, recorded first
    view = build(db, owner, ContextRequest(chat_id="now", message="In welches Fitnessstudio gehe ich?",
                                           budget_tokens=1000))
    assert [e.text for e in view.episodes] == ["Anna (user) · 2026-03-03: Ich gehe dienstags ins Fitnessstudio "
                                               "am Marktplatz, Studio Kraftwerk"]
    assert "### Past conversations\n- Anna (user) · 2026-03-03: Ich gehe dienstags" in view.markdown
    assert "Wetter" not in view.markdown and view.tokens <= view.budget_tokens


def test_a_message_the_facts_answer_gets_no_past_turns(db: Database, owner: str) -> None:
    load_demo(db, owner, now=NOW)
    said(db, owner, "old", ("h1", "Luna is hungry all the time lately", T0))
    view = build(db, owner, ContextRequest(message="Is Luna hungry?", chat_id="c1"))
    assert view.linked and view.episodes == [] and "Past conversations" not in view.markdown
    asked = build(db, owner, ContextRequest(message="Why is Luna hungry all the time lately?", chat_id="c1"))
    assert asked.episodes == []  # still answered by the feeding facts: the facts come first


def test_the_past_turns_fit_the_budget_and_are_dropped_first(db: Database, owner: str) -> None:
    long = " ".join(["Der Tierarzt Doktor Berger in der Lindenstraße"] * 8)
    said(db, owner, "old", *[(f"v{i}", f"{long} Termin {i}", T0 + timedelta(days=i)) for i in range(3)])
    roomy = build(db, owner, ContextRequest(message="Wer ist mein Tierarzt?", budget_tokens=2000))
    assert len(roomy.episodes) == 3
    tight = build(db, owner, ContextRequest(message="Wer ist mein Tierarzt?", budget_tokens=150))
    assert tight.tokens <= 150 and 0 < len(tight.episodes) < 3 and tight.dropped == 3 - len(tight.episodes)


def test_with_a_valid_time_the_turns_around_it_come_first_titled_in_the_owners_language(db: Database,
                                                                                         owner: str) -> None:
    register_relation_types(db, [{"key": "answer_language", "name": "answer language",
                                  "cardinality": "functional", "subject_kinds": ["person"]}])
    lang = commit_proposal(db, owner_principal(owner), MemoryMutationProposal(run_id="lang", operations=[
        UpsertEntity(ref="person:me", kind="person", canonical_name="Anna"),
        AssertFact(subject="person:me", predicate="answer_language", value="de", valid_from=T0 - timedelta(days=900))]))
    assert not lang.rejected, lang.rejected
    said(db, owner, "gym", ("a", "Mein Fitnessstudio ist das Kraftwerk am Markt", T0),
         ("b", "Mein Fitnessstudio ist jetzt das Movement in der Altstadt", T0 + timedelta(days=120)))
    now = build(db, owner, ContextRequest(message="Welches Fitnessstudio?", budget_tokens=1000))
    then = build(db, owner, ContextRequest(message="Welches Fitnessstudio?", budget_tokens=1000,
                                           at=T0 + timedelta(days=2)))
    assert "### Frühere Gespräche" in then.markdown
    assert "Kraftwerk" in then.episodes[0].text and "Movement" in now.episodes[0].text


def test_graphql_world_context_carries_the_past_turns(db: Database, owner: str, client: TestClient,  # noqa: F811
                                                      make_token: MakeToken) -> None:  # noqa: F811
    said(db, owner, "old", ("g1", "Ich gehe dienstags ins Fitnessstudio am Marktplatz", T0))
    body = gql(client, make_token(owner), """{ worldContext(message: "Welches Fitnessstudio?") {
        markdown pastTurns { id occurredAt text } } }""")
    assert "errors" not in body, body
    [turn] = body["data"]["worldContext"]["pastTurns"]
    assert turn["text"] == "Anna (user) · 2026-03-03: Ich gehe dienstags ins Fitnessstudio am Marktplatz"
    assert turn["occurredAt"].startswith("2026-03-03T18:00:00")


def test_only_a_question_reads_past_turns(db: Database, owner: str) -> None:
    said(db, owner, "old", ("g1", "Ich gehe dienstags ins Fitnessstudio am Marktplatz", T0))
    assert build(db, owner, ContextRequest(message="Welches Fitnessstudio")).episodes  # a question word
    assert build(db, owner, ContextRequest(message="Fitnessstudio Marktplatz?")).episodes
    assert build(db, owner, ContextRequest(message="Buch mir das Fitnessstudio für Dienstag")).episodes == []


def test_about_now_the_turns_with_every_word_are_read_first_and_each_word_only_when_they_are_too_few(
        db: Database, owner: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A turn holding every content word has the best share, so enough of them answer a question about now
    without a full-text scan per word; with fewer, the turns holding any word are read as before."""
    dentist = [(f"d{i}", f"The dentist appointment is moved to day {i}", T0 + timedelta(days=i)) for i in range(4)]
    said(db, owner, "old", *dentist, ("d9", "The dentist called back", T0 + timedelta(days=9)))
    sets: list[str] = []  # per round that reads turns: its candidate sets (a Postgres text array)
    real = db.read_round

    def recording(who: str, statements: list[Any], **kw: Any) -> list[list[dict[str, Any]]]:
        sets.extend(p["terms"] for text, p in statements if text == load("finder_search_episodes"))
        return real(who, statements, **kw)

    monkeypatch.setattr(db, "read_round", recording)
    view = build(db, owner, ContextRequest(message="When is the dentist appointment?", budget_tokens=1000))
    assert sets == ['{"dentist & appointment"}']  # one round, one set: the turns with both words
    assert len(view.episodes) == MAX_EPISODES
    assert all("appointment" in e.text for e in view.episodes)
    sets.clear()
    view = build(db, owner, ContextRequest(message="When did the dentist call back?", budget_tokens=1000))
    # no turn holds all three words: then each word alone (with the first round's rows, as one read before)
    assert sets == ['{"dentist & call & back"}', '{"dentist","call","back"}']
    assert any("called back" in e.text for e in view.episodes)


def test_turns_read_beside_the_block_are_the_ones_read_after_it_and_unused_when_the_facts_answer(
        db: Database, owner: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """`spare`: a question's first round of turns goes out on a second connection before the block's rounds
    (context_episodes.ahead); what the block shows is the same as when it is read after them."""
    load_demo(db, owner, now=NOW)
    said(db, owner, "old", ("g1", "Ich gehe dienstags ins Fitnessstudio am Marktplatz", T0),
         ("h1", "Luna is hungry all the time lately", T0))
    beside: list[str] = []
    real = context_episodes.ahead

    def counting(*args: Any) -> Any:
        got = real(*args)
        beside.append("read" if got is not None else "none")
        return got

    monkeypatch.setattr(context_episodes, "ahead", counting)
    for message in ("Welches Fitnessstudio?", "In welches Fitnessstudio gehe ich dienstags?"):
        after = build(db, owner, ContextRequest(message=message))
        ahead = build(db, owner, ContextRequest(message=message), spare=True)
        assert ahead.episodes and ahead.episodes == after.episodes and ahead.markdown == after.markdown
    answered_view = build(db, owner, ContextRequest(message="Is Luna hungry?", chat_id="c1"), spare=True)
    assert answered_view.linked and answered_view.episodes == []  # read beside, and not used
    assert build(db, owner, ContextRequest(message="Buch mir das Fitnessstudio"), spare=True).episodes == []
    assert beside == ["read", "read", "read", "none"]  # no question, nothing read beside


def test_nothing_is_read_beside_for_an_owner_without_turns(db: Database, owner: str,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The read beside the block is for an owner known to have turns (graph.finder.sizes, counted in the
    block's round): an owner without any made every question hold a second connection for nothing."""
    load_demo(db, owner, now=NOW)
    calls: list[str] = []
    real = context_episodes.ahead

    def counting(*args: Any) -> Any:
        calls.append("ahead")
        return real(*args)

    monkeypatch.setattr(context_episodes, "ahead", counting)
    for _ in range(3):
        view = build(db, owner, ContextRequest(message="Where does Luna see the vet?"), spare=True)
        assert view.episodes == []
    assert calls == []
    said(db, owner, "old", ("v1", "Luna sees the vet at the Lindenhof clinic", T0))
    sizes.forget()  # a minute later: counted anew
    build(db, owner, ContextRequest(message="Where does Luna see the vet?"), spare=True)  # counts
    view = build(db, owner, ContextRequest(message="Where does Luna see the vet?"), spare=True)
    assert calls == ["ahead"] and [e.id for e in view.episodes]
