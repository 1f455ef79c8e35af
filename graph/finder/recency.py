"""Newer first among turns about the same thing (pure): a question about the current state ("Where are we
spending Christmas?", "Who is my manager?") is answered by the latest turn that spoke of it, while an older
turn ("Christmas is at mine this year", "Helen, my manager") tends to rank as high or higher, because it said
the same words first or more plainly.

Two episode hits are about the same thing when they hold a common content word of the question (the same
word or one starting the other, as the answer list matches words). A newer such hit whose fused score is at
least RATIO of an older one ranked above it moves in front of it; scores further apart are no tie and stay.
Only a question without a window: one with a window asks about a past time, which the window decides.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from graph.finder.answers import content_words, same_word
from graph.finder.query_names import words

# A newer turn about the same thing overtakes an older one scoring up to 1/RATIO times its own (the dev split
# of the recall evaluation: docs/recall-evaluation.md).
RATIO = 0.5
PAST = frozenset({"was", "were", "did", "had", "used", "previously", "before", "earlier", "ago", "war", "waren",
                  "warst", "hatte", "hatten", "hattest", "wurde", "wurden", "damals", "früher", "vorher"})
COVER = 0.5  # a turn is about the question's thing when it holds at least this share of its words
COMMON = 0.25  # a word held by more than this share of the candidate turns (at least MIN_TURNS) is no topic
MIN_TURNS = 8
MIN_LETTERS = 4  # shorter words ("day", "new", "bin") say too little about what a turn is about


def topics(query: str, texts: Mapping[str, str]) -> dict[str, frozenset[str]]:
    """Per key, the question's content words its turn's words hold, when they are at least COVER of them, else
    none (pure; "Which city is Mara living in?": a turn saying only "Mara" is not about where she lives).
    `texts` as rendered: the speaker and date before the first ": " are left out."""
    asked = [w for w in content_words(query) if len(w) >= MIN_LETTERS]
    holds = {key: frozenset(a for a in asked if any(same_word(a, w) for w in set(words(text.partition(": ")[2]
                                                                                         or text))))
             for key, text in texts.items()}
    # a word most candidate turns hold (a name that comes up all the time) tells none of them apart
    common = {a for a in asked if sum(a in h for h in holds.values()) > COMMON * max(len(holds), MIN_TURNS)}
    out = {}
    for key, held in holds.items():
        topic = held - common
        out[key] = topic if topic and len(held) >= COVER * len(asked) else frozenset()
    return out


def role_of(text: str) -> str:
    """The role of a turn rendered by graph.episodes.model.line (pure): "Anna (user) · ..." or "user · ..."."""
    label = text.partition(" · ")[0]
    return label[label.rfind("(") + 1:-1] if label.endswith(")") else label


def asks_about_now(query: str) -> bool:
    """Whether a question asks about the present (pure): not in the past tense ("What was wrong with my
    knee?", "Wo war ...?") and naming no earlier time ("früher", "used to"). A leading "was" is German."""
    ws = words(query)
    return not any(w in PAST for w in ws[1:] + [w for w in ws[:1] if w != "was"])


def newer_first(order: Sequence[str], scores: Mapping[str, float], said: Mapping[str, tuple[datetime, str]],
                about: Mapping[str, frozenset[str]]) -> list[str]:
    """`order` (best first) with each newer turn swapped with the best-ranked older turn of the same role
    about the same thing (the older one's words of the question all in the newer one) whose score it nearly
    ties (pure); `said` holds each turn's time and role. Other keys keep their places."""
    out = list(order)
    for key in list(order):
        if key not in said or not about.get(key):
            continue
        at = out.index(key)
        overtaken = next((i for i, other in enumerate(out[:at]) if other in said and said[other][0] < said[key][0]
                          and said[other][1] == said[key][1] and about.get(other) and about[other] <= about[key]
                          and scores[key] >= RATIO * scores[other]), None)
        if overtaken is not None:
            out[overtaken], out[at] = out[at], out[overtaken]
    return out
