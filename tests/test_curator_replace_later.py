"""The curator's replace_later: only for the user's own present-tense "from now on", checked by the validator."""

from __future__ import annotations

import asyncio
from datetime import datetime

import pytest

from curator.pipeline import Curator
from curator.replace_later import says_replace_later, user_said_it
from graph.ledger.registries import register_relation_types
from graph.platform.db import Database
from graph.reads.temporal import state_at
from graph.settings import Settings
from tests.curator_llm import Script, entity, fact, ops, turn

LATER = "2027-03-01T00:00:00Z"  # a change already known: 20:00 from March


@pytest.mark.parametrize(("text", "expected"), [
    ("Ab jetzt immer 19:30", True), ("von nun an um halb acht", True), ("from now on always 7:30", True),
    ("Going forward dinner is at 8", True), ("ab heute immer um 19:30", True),
    ("Ab heute arbeite ich bei Gamma", False), ("from today I work at Gamma", False),
    ("heute um 19:30", False), ("Futter um 19 Uhr", False)])
def test_what_says_it_replaces_what_follows(text: str, expected: bool) -> None:
    assert says_replace_later(text) is expected


def test_only_user_turns_count() -> None:
    assert user_said_it("[3 · user] ab jetzt immer 19:30")
    assert not user_said_it("[3 · assistant] ab jetzt immer 19:30")
    assert not user_said_it("[3 · user (summary)] ab jetzt immer 19:30")
    assert not user_said_it("[3 · tool · run r1] from now on always 7")


def _known(db: Database, settings: Settings, owner: str, chat: str) -> None:
    register_relation_types(db, [{"key": "meal_time", "name": "meal time", "cardinality": "functional"}])
    script = Script([ops(entity("pet:rex", "Rex"), fact("pet:rex", "meal_time", "19:00", quote="um 19 Uhr"),
                         fact("pet:rex", "meal_time", "20:00", valid_from=LATER, quote="ab März um 20 Uhr"))])
    turn(db, owner, chat, "Rex frisst um 19 Uhr, ab März um 20 Uhr")
    [report] = asyncio.run(Curator(db, settings, script.model()).curate(owner, chat))
    assert (report.committed, report.dropped) == (3, []), report


def _at(db: Database, owner: str, when: str) -> list[str]:
    state = state_at(db, owner, "pet:rex", datetime.fromisoformat(when))
    return [f.value for f in state.facts if f.predicate == "meal_time"] if state else []


def test_from_now_on_always_replaces_what_follows(db: Database, settings: Settings, owner: str) -> None:
    _known(db, settings, owner, "rl1")
    turn(db, owner, "rl1", "Ab jetzt immer 19:30")
    script = Script([ops(fact("pet:rex", "meal_time", "19:30", valid_from="2026-12-01T00:00:00Z",
                              replace_later=True, quote="Ab jetzt immer 19:30"))])
    [report] = asyncio.run(Curator(db, settings, script.model()).curate(owner, "rl1"))
    assert (report.committed, report.dropped) == (1, [])
    assert _at(db, owner, "2027-06-01T00:00:00+00:00") == ["19:30"]


def test_without_the_words_replace_later_is_dropped(db: Database, settings: Settings, owner: str) -> None:
    _known(db, settings, owner, "rl2")
    turn(db, owner, "rl2", "Heute um 19:30")
    script = Script([ops(fact("pet:rex", "meal_time", "19:30", valid_from="2026-12-01T00:00:00Z",
                              replace_later=True, quote="Heute um 19:30"))])
    [report] = asyncio.run(Curator(db, settings, script.model()).curate(owner, "rl2"))
    assert [d.code for d in report.dropped] == ["NEEDS_USER"]
    assert _at(db, owner, "2027-06-01T00:00:00+00:00") == ["20:00"]
