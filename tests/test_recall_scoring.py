"""The recall evaluation without a database: its scoring, its BM25 baseline, the API check and the labelled set."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bench.bm25 import BM25, words
from bench.recall_api import capabilities, ranked
from bench.recall_baseline import bm25_outcomes, variants
from bench.recall_data import REFERENCE_NOW, SPLITS, Question, Window, fact_key, load, turn_key
from bench.recall_eval import clock_shifted, main
from bench.recall_scale import CHAT_TURNS, turns
from bench.recall_scale import main as scale_main
from bench.recall_scoring import (
    Ranked,
    any_at,
    groups,
    recall_at,
    reciprocal_rank,
    score,
    summarize,
    table,
    view,
)


def q(*groups_: set[str], stale: set[str] | None = None, lang: str = "en", kind: str = "detail") -> Question:
    return Question("q1", "dev", lang, kind, "what?", None, tuple(frozenset(g) for g in groups_),
                    frozenset(stale or ()))


def hits(*keys: str, lists: str = "text") -> list[Ranked]:
    return [Ranked(frozenset(k.split("+")) if k else frozenset(), frozenset(lists.split(","))) for k in keys]


def test_a_group_is_found_at_its_first_alternative() -> None:
    o = score(q({"a", "b"}, {"c"}), hits("x", "b", "y", "a", "", "", "c"))
    assert o.ranks == (2, 7)
    assert recall_at(o, 5) == 0.5
    assert recall_at(o, 10) == 1.0
    assert reciprocal_rank(o) == 0.5
    assert any_at(o, 1) is False and any_at(o, 2) is True


def test_only_the_top_depth_counts() -> None:
    o = score(q({"a"}), hits(*["x"] * 10, "a"))
    assert o.ranks == (0,)
    assert (recall_at(o, 10), reciprocal_rank(o), o.hits) == (0.0, 0.0, 10)


def test_a_hit_carrying_several_keys_answers_each_group() -> None:
    o = score(q({"a"}, {"b"}), hits("x", "a+b"))
    assert o.ranks == (2, 2)


def test_stale_first_only_when_the_old_answer_ranks_above_every_current_one() -> None:
    assert score(q({"new"}, stale={"old"}), hits("old", "new")).stale_first is True
    assert score(q({"new"}, stale={"old"}), hits("new", "old")).stale_first is False
    assert score(q({"new"}, stale={"old"}), hits("old")).stale_first is True
    assert score(q({"new"}, stale={"old"}), hits("x")).stale_first is False
    assert score(q({"new"}), hits("old", "new")).stale_first is False


def test_a_list_view_keeps_its_hits_in_fused_order() -> None:
    fused = [Ranked(frozenset({"a"}), frozenset({"text"})), Ranked(frozenset({"b"}), frozenset({"meaning"})),
             Ranked(frozenset({"c"}), frozenset({"text", "meaning"}))]
    assert [sorted(h.keys) for h in view(fused, "meaning")] == [["b"], ["c"]]
    assert view(fused, None) == fused
    assert score(q({"c"}), view(fused, "meaning")).ranks == (2,)


def test_negatives_are_scored_by_coming_back_empty() -> None:
    neg = q(kind="negative")
    s = summarize([score(neg, []), score(neg, hits("x", "y")), score(q({"a"}), hits("a"))])
    assert (s.answerable, s.negatives, s.negatives_empty, s.negative_hits) == (1, 2, 0.5, 1.0)
    assert (s.recall5, s.recall10, s.mrr, s.any10) == (1.0, 1.0, 1.0, 1.0)


def test_summary_means_and_stale_counts() -> None:
    outcomes = [score(q({"a"}, stale={"s"}), hits("s", "x", "a")), score(q({"b"}), hits(*["x"] * 6, "b"))]
    s = summarize(outcomes)
    assert s.recall5 == 0.5 and s.recall10 == 1.0
    assert s.mrr == pytest.approx((1 / 3 + 1 / 7) / 2)
    assert s.stale_first == (1, 1)


def test_groups_and_table() -> None:
    outcomes = [score(q({"a"}, lang="en"), hits("a")), score(q({"b"}, lang="de", kind="time"), hits("x")),
                score(q(lang="de", kind="negative"), [])]
    assert [(label, len(o)) for label, o in groups(outcomes)] == [
        ("all", 3), ("lang de", 2), ("lang en", 1), ("kind detail", 1), ("kind negative", 1), ("kind time", 1)]
    lines = table(groups(outcomes)).splitlines()
    assert lines[0].startswith("| questions | n | recall@5 | recall@10 | MRR | any@10 |")
    assert lines[2] == "| all | 2 | 0.500 | 0.500 | 0.500 | 0.500 | – | 1.000 / 0.0 (n=1) |"
    assert lines[5] == "| kind detail | 1 | 1.000 | 1.000 | 1.000 | 1.000 | – | – |"


def test_bm25_ranks_by_rare_words_and_length() -> None:
    index = BM25(["the cat eats salmon", "the dog eats", "the the the", "Luna frisst Nassfutter"])
    assert index.top("what does the cat eat", 3)[0] == 0
    assert index.top("Nassfutter", 5) == [3]
    assert index.top("nothing matches", 5) == []
    assert words("Lunas Futter, 3,8 kg!") == ["lunas", "futter", "3", "8", "kg"]
    short, long_ = BM25(["salmon", "salmon and rice and peas and more words"]).scores("salmon")
    assert short > long_ > 0


def test_hits_of_the_api_become_keys_and_lists() -> None:
    hit = {"foundBy": ["text"], "fact": None,
           "episode": {"chatId": "c", "externalId": "c-s1-01", "occurredAt": "2025-01-01T00:00:00Z"}}
    assert ranked(hit) == Ranked(frozenset({turn_key("c-s1-01")}), frozenset({"text", "kind:episode"}))
    fact = {"foundBy": ["fact", "meaning"], "episode": None,
            "fact": {"subject": "pet:luna", "fact": {"predicate": "food", "value": "Nassfutter "}}}
    assert ranked(fact).keys == {fact_key("pet:luna", "food", "nassfutter")}
    assert ranked({"foundBy": ["name"], "entity": {"ref": "pet:luna"}}).keys == frozenset()


SDL = """
scalar DateTime
input TimeWindow { from: DateTime, to: DateTime }
type SearchHit { score: Float! %s }
type Episode { externalId: String! }
type SearchResult { hits: [SearchHit!]! }
type Query { searchWorldMemory(query: String!, limit: Int! = 10%s): SearchResult! }
type Mutation { %s }
"""


def test_capabilities_name_what_the_api_lacks() -> None:
    bare = capabilities(SDL % ("", "", "other: Int"))
    assert bare.missing() == ["Mutation.importConversation", "SearchHit.episode"]
    assert bare.valid_time is None
    point = capabilities(SDL % ("episode: Episode", ", validTime: DateTime",
                                "importConversation(chatId: String!): Int"))
    assert point.missing() == [] and point.valid_time == "DateTime" and point.valid_time_fields == ()
    window = capabilities(SDL % ("episode: Episode", ", validTime: TimeWindow", "importConversation: Int"))
    assert (window.valid_time, window.valid_time_fields) == ("TimeWindow", ("from", "to"))


def test_this_checkouts_schema_is_read(capsys: pytest.CaptureFixture[str]) -> None:
    caps = capabilities()
    if caps.missing():
        assert main(["--split", "dev"]) == 2
        assert "lacks Mutation.importConversation" in capsys.readouterr().err
    else:  # the harness can pass whatever validTime the API takes: an instant, or a window it can name
        fields = set(caps.valid_time_fields)
        assert not fields or (fields & {"from", "start", "after"} and fields & {"to", "end", "before"}), fields


def test_relative_questions_are_checked_against_today() -> None:
    rel = Question("q", "dev", "en", "time", "What happened last March?", Window(
        "2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z", "2026-03-15T12:00:00Z", True), (frozenset({"a"}),))
    assert clock_shifted(rel, REFERENCE_NOW) is False
    assert clock_shifted(rel, datetime(2027, 5, 1, tzinfo=UTC)) is True


@pytest.mark.parametrize("split", SPLITS)
def test_the_labelled_set_is_consistent(split: str) -> None:
    data = load((split,))
    turns = {(t.lang, turn_key(t.external_id)) for t in data.turns}
    facts = {(f.lang, fact_key(f.subject, f.predicate, f.value)) for f in data.facts}
    known = turns | facts
    assert len({t.external_id for t in data.turns}) == len(data.turns)
    assert len({x.id for x in data.questions}) == len(data.questions)
    assert {t.external_id for t in data.turns} >= {f.evidence for f in data.facts}
    for question in data.questions:
        items = [k for g in question.evidence for k in g] + list(question.stale)
        assert all((question.lang, k) in known for k in items), question.id
        assert (question.kind == "negative") == (not question.evidence), question.id
        if question.window is not None:
            assert question.window.start <= question.window.at < question.window.end, question.id
    assert {x.lang for x in data.questions} == {"de", "en"}
    assert len(data.questions) >= 70


def test_every_labelled_window_is_what_the_parser_reads_on_the_reference_day() -> None:
    from graph.agent.when import find_window

    for question in load().questions:
        w = find_window(question.query, REFERENCE_NOW)
        got = None if w is None else w.start.isoformat().replace("+00:00", "Z")
        assert got == (question.window.start if question.window else None), question.id


def test_the_bm25_baseline_scores_every_question() -> None:
    data = load(("heldout",))
    outcomes = bm25_outcomes(data)
    assert len(outcomes) == len(data.questions)
    assert 0 < summarize(outcomes).recall10 <= 1  # type: ignore[operator]
    named = dict(variants(data))
    assert list(named) == ["plain", "speaker", "speaker and date", "time removed", "window first", "previous turn",
                           "previous turn, half weight"]
    assert named["plain"] == outcomes
    # the month and year of a turn are words a time-scoped question can meet
    timed = [o for o in named["speaker and date"] if o.question.window]
    plain_timed = [o for o in outcomes if o.question.window]
    assert summarize(timed).recall10 != summarize(plain_timed).recall10


def test_the_scale_bench_generates_importable_chats(capsys: pytest.CaptureFixture[str]) -> None:
    generated = turns(CHAT_TURNS + 5)
    assert generated == turns(CHAT_TURNS + 5)
    assert len({t["externalId"] for _, t in generated}) == len(generated)
    assert [len([c for c, _ in generated if c == chat]) for chat in ("scale-0", "scale-1")] == [CHAT_TURNS, 5]
    assert {t["role"] for _, t in generated} == {"USER", "ASSISTANT"}
    times = [datetime.fromisoformat(t["occurredAt"]) for _, t in generated]
    assert times == sorted(times)
    if capabilities().missing():
        assert scale_main(["--episodes", "10"]) == 2
        assert "lacks Mutation.importConversation" in capsys.readouterr().err
