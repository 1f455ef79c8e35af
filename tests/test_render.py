"""The agent's text: provenance suffix, fact and event lines, tool answers. Pure, no database."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

import pytest

from graph.agent.render import (
    About,
    EntityMatch,
    EventNote,
    Found,
    SearchHit,
    SearchResult,
    Statement,
    about_text,
    dots,
    event_line,
    fact_line,
    find_text,
    search_text,
    source_icon,
)
from graph.reads.temporal import FactView

NOV2 = datetime(2026, 11, 2, 9, 30, tzinfo=UTC)


def fact(**kw: Any) -> FactView:
    base: dict[str, Any] = {"id": uuid.uuid4(), "predicate": "feeding_time", "value": "07:00", "valid_from": NOV2,
                            "valid_to": None, "recorded_at": NOV2, "superseded_at": None, "status": "active",
                            "source": "user", "confidence": 1.0}
    return FactView.model_validate({**base, **kw})


def match(ref: str, name: str, score: float = 1.0, via: str = "alias") -> EntityMatch:
    return EntityMatch(id=uuid.uuid4(), ref=ref, kind=ref.split(":")[0], name=name, score=score, via=via,
                       matched=name)


@pytest.mark.parametrize(("confidence", "shown"), [
    (1.0, "●●●●"), (0.75, "●●●○"), (0.5, "●●○○"), (0.6, "●●○○"), (0.63, "●●●○"), (0.125, "●○○○"),
    (0.1, "○○○○"), (0.0, "○○○○")])
def test_confidence_is_four_dots_rounded_to_quarters(confidence: float, shown: str) -> None:
    assert dots(confidence) == shown


@pytest.mark.parametrize(("source", "icon"), [
    ("user", "👤"), ("agent", "🤖"), ("curator", "🤖"), ("system", "🤖"), ("integration:github", "🔌"),
    ("github:sync", "🔌"), ("Not A Source!", "🤖")])
def test_source_icons(source: str, icon: str) -> None:
    assert source_icon(source) == icon


def test_the_example_line_of_the_issue() -> None:
    st = Statement(subject="pet:luna", fact=fact(scope="chat:c1"))
    assert fact_line(st) == 'pet:luna feeding_time = "07:00" · 👤 2026-11-02 · scope chat:c1 · ●●●●'


def test_lifecycle_validity_and_relationships() -> None:
    superseded = fact(status="superseded", confidence=0.75, source="agent",
                      valid_from=datetime(2026, 10, 1, tzinfo=UTC), valid_to=datetime(2026, 11, 1, tzinfo=UTC))
    assert fact_line(Statement(subject="pet:luna", fact=superseded)) == (
        'pet:luna feeding_time = "07:00" (valid 2026-10-01 → 2026-11-01) · 🤖 2026-11-02 · ●●●○ · superseded')
    retro = fact(valid_from=datetime(2026, 10, 15, tzinfo=UTC), source="integration:github")
    assert fact_line(Statement(subject="pet:luna", fact=retro)).endswith(
        '"07:00" (since 2026-10-15) · 🔌 2026-11-02 · ●●●●')
    rel = fact(predicate="owns", value="pet:luna", object_ref="pet:luna")
    assert fact_line(Statement(subject="person:basti", fact=rel)) == "person:basti owns pet:luna · 👤 2026-11-02 · ●●●●"
    number = fact(predicate="weight_kg", value=4.2)
    assert "weight_kg = 4.2 ·" in fact_line(Statement(subject="pet:luna", fact=number))


def test_event_line_carries_its_cause_and_intent() -> None:
    note = EventNote(id="e1", occurred_at=NOV2, event_type="agent_tool_call", summary="scheduled a reminder",
                     target="pet:luna", cause_type="user_message", cause_summary="feed her at 8",
                     intent="remind Basti", intent_outcome="fulfilled")
    assert event_line(note) == ('2026-11-02 09:30 · agent_tool_call · scheduled a reminder · about pet:luna '
                                '← caused by user_message "feed her at 8" · intent "remind Basti" → fulfilled')
    bare = EventNote(id="e2", occurred_at=NOV2, event_type="test_result")
    assert event_line(bare) == "2026-11-02 09:30 · test_result"


def test_find_text_unique_ambiguous_and_empty() -> None:
    luna = match("pet:luna", "Luna")
    one = find_text(Found(query="Luna", matches=[luna, match("person:lunatic", "Lunatic", 0.7, "similar name")]))
    assert one.splitlines()[0] == '"Luna" is pet:luna:'
    assert "Less likely:" in one and "person:lunatic" in one
    two = find_text(Found(query="Max", matches=[match("person:max", "Max"), match("pet:max", "Max")], ambiguous=True))
    assert two.startswith('"Max" is ambiguous: 2 entities match') and "person:max" in two and "pet:max" in two
    assert find_text(Found(query="Bello", message='No entity matches "Bello".')) == 'No entity matches "Bello".'
    assert "No entity matches" in find_text(Found(query="Bello"))


def test_about_text_states_why_there_is_no_entity() -> None:
    luna = match("pet:luna", "Luna")
    card = about_text(About(query="pet:luna", entity=luna, aliases=["Luni"], heading="Current facts:",
                            statements=[Statement(subject="pet:luna", fact=fact())]))
    assert card.splitlines() == ["pet:luna — Luna (pet) · aliases: Luni", "Current facts:",
                                 '- pet:luna feeding_time = "07:00" · 👤 2026-11-02 · ●●●●']
    assert about_text(About(query="pet:luna", entity=luna)).endswith("(no current facts)")
    unclear = about_text(About(query="Max", candidates=[match("person:max", "Max")], message='"Max" is ambiguous'))
    assert unclear.splitlines()[0] == '"Max" is ambiguous' and "person:max" in unclear
    assert "No entity matches" in about_text(About(query="Bello"))


def test_search_text_lists_entities_and_facts() -> None:
    hits = [SearchHit(score=1.0, entity=match("pet:luna", "Luna", via="name")),
            SearchHit(score=0.8, statement=Statement(subject="policy:x", fact=fact(predicate="rule", value="vet")))]
    text = search_text(SearchResult(query="luna", hits=hits))
    assert text.splitlines() == ['Search "luna": 2 hits, best first', '- pet:luna — Luna (pet) · name "Luna"',
                                 '- policy:x rule = "vet" · 👤 2026-11-02 · ●●●●']
    assert search_text(SearchResult(query="zebra")) == 'Nothing in memory matches "zebra".'
