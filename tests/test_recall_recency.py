"""Update questions: a question about the current state ranks the newer turn on the same thing first
(graph/finder/recency.py), a question about the past or with a window leaves the order to the lists; a turn
ranks with the one after it (graph/finder/neighbours.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from graph.agent import search
from graph.episodes import store
from graph.episodes.model import Episode, EpisodeIn
from graph.finder import neighbours, recency, vector_list
from graph.finder.embedders import embedder_for
from graph.finder.reconciler import embed_pending
from graph.platform.db import Database
from graph.settings import Settings

OFFLINE = embedder_for(Settings(embedding_provider="offline"))
T0 = datetime(2025, 3, 1, 9, tzinfo=UTC)
D = datetime(2025, 1, 1, tzinfo=UTC)


def test_a_newer_turn_on_the_same_thing_swaps_with_an_older_one_it_nearly_ties() -> None:
    order = ["episode:old", "fact:x", "episode:new", "episode:other"]
    scores = {"episode:old": 0.30, "fact:x": 0.25, "episode:new": 0.20, "episode:other": 0.19}
    said = {"episode:old": (D, "user"), "episode:new": (D + timedelta(days=90), "user"),
            "episode:other": (D + timedelta(days=200), "user")}
    about = {"episode:old": frozenset({"manager"}), "episode:new": frozenset({"manager"}),
             "episode:other": frozenset({"lunch"})}
    assert recency.newer_first(order, scores, said, about) == ["episode:new", "fact:x", "episode:old",
                                                               "episode:other"]
    far = {**scores, "episode:new": 0.14}  # under RATIO of the older one's score: no tie, no swap
    assert recency.newer_first(order, far, said, about) == order
    replies = {**said, "episode:new": (D + timedelta(days=90), "assistant")}  # an echo is no update
    assert recency.newer_first(order, scores, replies, about) == order


def test_topics_leave_out_the_speaker_and_short_words_and_past_questions_are_not_about_now() -> None:
    texts = {"a": "Sam (user) · 2025-01-02: Helen is my manager", "b": "Sam (user) · 2026-01-12: a new day"}
    assert recency.topics("Who is Sam's manager now, new day?", texts) == {"a": frozenset({"manager"}),
                                                                           "b": frozenset()}
    assert recency.role_of(texts["a"]) == "user" and recency.role_of("assistant · 2025-01-02: ok") == "assistant"
    assert recency.asks_about_now("Where do I live?") and recency.asks_about_now("Was isst Luna?")
    assert not recency.asks_about_now("What was wrong with my knee?")
    assert not recency.asks_about_now("Wo war ich früher Mitglied?")


@pytest.mark.parametrize("question, newer_first", [("Where do I live?", True),
                                                   ("Where did I live before?", False)])
def test_an_update_ranks_first_for_a_question_about_now(db: Database, owner: str, question: str,
                                                        newer_first: bool) -> None:
    store.import_turns(db, owner, "moves", [
        EpisodeIn(external_id="old", speaker="Sam", text="I live in Berlin, in a flat in Kreuzberg where I live "
                  "happily", occurred_at=T0),
        EpisodeIn(external_id="gym", speaker="Sam", text="The gym is closed on Sunday", occurred_at=T0
                  + timedelta(days=10)),
        EpisodeIn(external_id="new", speaker="Sam", text="Big news: I moved to Hamburg last week, I live near "
                  "the harbour now", occurred_at=T0 + timedelta(days=200))], curate=False)
    assert OFFLINE is not None
    embed_pending(db, owner, OFFLINE)
    found = search.search_world_memory(db, owner, question, embedder=OFFLINE)
    ids = [h.episode.external_id for h in found.hits if h.episode is not None]
    assert ids.index("new") < ids.index("old") if newer_first else ids.index("old") < ids.index("new")


def test_a_turn_gains_from_the_turn_after_it_in_its_chat_only() -> None:
    def turn(i: str, chat: str, seq: int) -> Episode:
        return Episode(id=i, chat_id=chat, seq=seq, occurred_at=D, role="user", text="x")

    turns = {"a": turn("a", "c", 1), "b": turn("b", "c", 2), "x": turn("x", "other", 2)}
    scores = {"episode:a": 0.2, "episode:b": 0.4, "episode:x": 0.3, "fact:f": 0.5}
    got = neighbours.with_next(scores, turns)
    assert got == {**scores, "episode:a": pytest.approx(min(0.2 + neighbours.AFTER * 0.4, neighbours.CAP * 0.4))}
    assert got["episode:a"] < got["episode:b"]  # never past the turn that matched


def test_a_word_most_candidate_turns_hold_is_no_topic() -> None:
    chatter = {f"c{i}": f"Alex (user) · 2025-01-0{i % 9 + 1}: Mara says hi, the weather is grey" for i in range(9)}
    texts = {**chatter, "said": "Alex (user) · 2025-01-02: Mara's dog Pepper is allergic to wheat"}
    about = recency.topics("What can't Mara's dog eat?", texts)
    assert all(not topic for topic in about.values())  # "mara" is everywhere, "can't" nowhere
    few = recency.topics("What can't Mara's dog eat?", {k: texts[k] for k in ("c0", "said")})
    assert few["said"] == frozenset({"mara"})


def test_the_turns_holding_a_word_of_the_question_are_ranked_by_meaning_too(
        db: Database, owner: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A question sharing only a name with its answer: by the words every turn naming Elif is as good as the
    next, and turns about instruments that name nobody fill the meaning list's top; the episode list's
    candidates ranked by meaning (graph.finder.vector_list.near, list `episode_meaning`) find the answer."""
    chatter = ["The weather was grey all weekend, Elif says hi.", "Elif says hi, the train was late again.",
               "Did you watch the match? Elif says hi, by the way.", "Work is busy, Elif says hi."]
    music = ["Which one is easier, the flute or the clarinet?"]  # nearer to the question than the answer is
    turns = [EpisodeIn(external_id=f"c{i}", speaker="Alex", text=chatter[i % 4], occurred_at=T0 + timedelta(hours=i))
             for i in range(40)]
    turns += [EpisodeIn(external_id=f"m{i}", speaker="Alex", text=f"{music[0]} ({i})",
                        occurred_at=T0 + timedelta(days=3, hours=i)) for i in range(120)]
    turns.append(EpisodeIn(external_id="said", speaker="Alex", text="Elif has started taking cello lessons on "
                           "Thursdays, she loves it.", occurred_at=T0 + timedelta(hours=5, minutes=30)))
    store.import_turns(db, owner, "chat", turns, curate=False)
    assert OFFLINE is not None
    embed_pending(db, owner, OFFLINE)
    question = "What instrument does Elif learn?"
    found = search.search_world_memory(db, owner, question, embedder=OFFLINE)
    [answer] = [h for h in found.hits if h.episode is not None and h.episode.external_id == "said"]
    assert "episode_meaning" in answer.found_by and "meaning" not in answer.found_by, answer.found_by
    text_only = search.search_world_memory(db, owner, question, embedder=None)
    assert all("episode_meaning" not in h.found_by for h in text_only.hits)  # no model: no such list
    real = vector_list.near

    def without_turns(run: Any, vector: Any, model: str, params: Any, who: Any, said: Any) -> vector_list.Near:
        return real(run, vector, model, params, who, None)

    monkeypatch.setattr(vector_list, "near", without_turns)  # the search without the list
    without = search.search_world_memory(db, owner, question, embedder=OFFLINE)
    assert all(h.episode is None or h.episode.external_id != "said" for h in without.hits)
