"""curator.origin: the origin of a curated operation is decided from the batch's real turns (pure functions)."""

from __future__ import annotations

import pytest

from curator.origin import INFERENCE, USER, Said, decide, name_terms, value_terms

SAID = Said(user=["Luna ist meine Katze, Futter um 19 Uhr", "Ab jetzt frisst sie um 07:30."],
            tools=['tool calendar (trusted): {"args": {}, "result": "Zahnarzt am 2027-03-04"}'])


@pytest.mark.parametrize(("claimed", "evidence", "value", "expected"), [
    (USER, "Futter um 19 Uhr", "19:00", USER),  # a whole hour as people say it
    (USER, "futter  UM 19 uhr", "19:00", USER),  # case and spacing
    (USER, "Ab jetzt frisst sie um 7.30", "07:30", USER),  # punctuation and leading zeros
    (USER, "Luna ist meine Katze … um 19 Uhr", "19:00", USER),  # an ellipsis leaves words out
    (USER, "Futter um 19 Uhr", "23:45", INFERENCE),  # quotes the user, but another value
    (USER, "Luna ist meine Katze", "19:00", INFERENCE),  # the quoted span does not hold the value
    (USER, "Futter um 23:45 Uhr", "23:45", INFERENCE),  # invented evidence
    (USER, "Luna ist meine Katze … ab jetzt frisst sie um 07:30", "07:30", INFERENCE),  # pieces of two turns
    (USER, "", "19:00", INFERENCE),
    (USER, None, "19:00", INFERENCE),
    (USER, "Futter um 19 Uhr", True, INFERENCE),  # nothing the words could show
    ("tool_result", "Zahnarzt am 2027-03-04", "2027-03-04", "tool_result"),
    ("tool_result", "Futter um 19 Uhr", "19:00", INFERENCE),  # the user's words are not a tool's result
    ("observation", "Zahnarzt am 2027-03-04", "2027-03-04", "observation"),
    (USER, "Zahnarzt am 2027-03-04", "2027-03-04", INFERENCE),  # a tool's result is not the user's words
    ("assistant_output", "Futter um 19 Uhr", "19:00", "assistant_output"),
    ("inference", "Futter um 19 Uhr", "19:00", "inference"),
])
def test_decide(claimed: str, evidence: str | None, value: object, expected: str) -> None:
    assert decide(claimed, evidence, value_terms(value), SAID) == expected


def test_untrusted_or_unlisted_texts_back_nothing() -> None:
    nothing = Said(user=[], tools=[])
    assert decide(USER, "Futter um 19 Uhr", value_terms("19:00"), nothing) == INFERENCE
    assert decide("tool_result", "Zahnarzt", value_terms("Zahnarzt"), nothing) == INFERENCE


@pytest.mark.parametrize(("value", "words"), [
    ("2020-05-01", "am 1. Mai 2020"), ("2020-05-01", "on May 1, 2020"), ("2020-05-01", "am 1.5.2020"),
    ({"time": "19:00", "days": ["Mo", "Di"]}, "Mo und Di um 19 Uhr"), (3, "3 Mal"), ("Straße", "STRASSE"),
])
def test_spellings(value: object, words: str) -> None:
    assert decide(USER, words, value_terms(value), Said(user=[f"x {words} y"], tools=[])) == USER


def test_every_leaf_must_be_said() -> None:
    assert decide(USER, "Mo um 19 Uhr", value_terms({"time": "19:00", "days": ["Mo", "Di"]}),
                  Said(user=["Mo um 19 Uhr"], tools=[])) == INFERENCE


def test_names() -> None:
    said = Said(user=["Anna kümmert sich um Luna"], tools=[])
    assert decide(USER, "kümmert sich um Luna", name_terms(["luna", "Luna"]), said) == USER
    assert decide(USER, "Anna kümmert sich", name_terms(["luna", "Luna"]), said) == INFERENCE
