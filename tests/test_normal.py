"""graph.ledger.normal and the suppression rule that uses it, as pure functions."""

from __future__ import annotations

import uuid
from dataclasses import replace

import pytest

from graph.ledger.normal import normal_text, normal_value_key
from graph.ledger.suppression import Key, Marker, covers


@pytest.mark.parametrize(("a", "b"), [
    ("suppress me", "suppress-me"), ("suppress me", "Suppress me "), ("Straße", "STRASSE"),
    ("ｆｕｌｌ　ｗｉｄｔｈ", "full width"), ("07:30", "7.30"), ("a\u00a0b", "a b"), ("don't", "don t"),
])
def test_same_words_compare_equal(a: str, b: str) -> None:
    assert normal_text(a) == normal_text(b)


@pytest.mark.parametrize(("a", "b"), [("07:30", "17:30"), ("suppress me", "suppress"), ("10", "100")])
def test_other_words_stay_apart(a: str, b: str) -> None:
    assert normal_text(a) != normal_text(b)


def test_value_keys() -> None:
    assert normal_value_key('literal:"Suppress-Me "') == normal_value_key('literal:"suppress me"')
    assert normal_value_key('literal:{"a":"X Y"}') == normal_value_key('literal:{"a":"x-y"}')
    assert normal_value_key("literal:5") != normal_value_key('literal:"6"')
    entity = f"entity:{uuid.uuid4()}"
    assert normal_value_key(entity) == entity


def test_a_global_rejection_holds_in_every_scope_and_a_scoped_one_only_there() -> None:
    scope, other = uuid.uuid4(), uuid.uuid4()
    belief = Key(uuid.uuid4(), "nickname", 'literal:"suppress-me"', scope)
    same = 'literal:"suppress me"'
    assert covers(Marker(uuid.uuid4(), same, None), belief)
    assert covers(Marker(uuid.uuid4(), same, scope), belief)
    assert not covers(Marker(uuid.uuid4(), same, other), belief)
    assert not covers(Marker(uuid.uuid4(), same, scope), replace(belief, scope_id=None))
    assert not covers(Marker(uuid.uuid4(), 'literal:"keep me"', None), belief)
