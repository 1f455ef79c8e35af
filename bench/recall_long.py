"""A synthetic long conversation: what search finds of things said in passing among thousands of turns.

    python -m bench.recall_long [--sessions 40] [--turns 40] [--seed 7]

Generated, not labelled by people: two speakers (Alex and Jordan) talk in weekly sessions of small talk; now
and then a turn mentions, in passing, a detail about a person, a pet or a plan ("Oh, and my cousin Mara moved
to Lisbon"), the other may echo it, the same names come up in other small talk, and some details are updated
in a later session ("Mara moved again, she is in Porto now"). Each detail is asked once in its own words
("Where does my cousin Mara live?"), an update about the current state; the evidence is the turn that said
it. Everything goes through importConversation and searchWorldMemory(limit: 10) as bench.recall_eval does
(one owner, the offline model), with the same tables. A figure for guidance on the outside long-conversation
benchmark (about 6,000 turns, 1,500 questions): NOT that benchmark, and easier or harder in ways it does
not know.
"""

from __future__ import annotations

import argparse
import random
import sys
from datetime import UTC, datetime, timedelta

from bench.recall_data import Question, RecallSet, Turn, turn_key

NAMES = ["Mara", "Tobias", "Ines", "Kofi", "Lena", "Ravi", "Sofia", "Jonas", "Amara", "Felix", "Nadia", "Omar",
         "Priya", "Hugo", "Elif", "Mateo", "Yara", "Bruno", "Clara", "Dev"]
RELATIONS = ["cousin", "sister", "brother", "colleague", "neighbour", "friend", "aunt", "uncle"]
CITIES = ["Lisbon", "Porto", "Vienna", "Leeds", "Bergen", "Ghent", "Utrecht", "Krakow", "Seville", "Turin",
          "Aarhus", "Graz", "Cork", "Lyon", "Tartu", "Bologna"]
PETS = ["Pepper", "Biscuit", "Nori", "Ziggy", "Olive", "Mochi", "Rusty", "Juniper"]
FOODS = ["chicken", "wheat", "salmon", "eggs", "beef", "dairy", "soy", "lamb"]
INSTRUMENTS = ["cello", "ukulele", "banjo", "trumpet", "harp", "accordion", "drums", "violin"]
BOOKS = ["The Salt Road", "Quiet Engines", "A River of Glass", "The Ninth Lantern", "Paper Harbours",
         "The Long Orchard", "Winter Arithmetic", "Small Gods of Rain"]
SMALL_TALK = [
    "The weather was grey all weekend, I mostly stayed in and cooked soup.",
    "Did you watch the match last night? The second half was chaos.",
    "Work is busy, we have a big release at the end of the month.",
    "I tried a new recipe with lentils and coriander, not bad at all.",
    "My phone battery keeps dying, I think I need a new one.",
    "We walked along the river on Sunday, it was lovely and quiet.",
    "The train was late again this morning, twenty minutes.",
    "I'm thinking about repainting the kitchen, maybe a light green.",
    "Haha, that sounds like a plan.",
    "Sure, let's talk about it next week.",
    "I slept badly, the neighbours had a party.",
    "The new café on the corner makes great croissants.",
    "I finally cleaned out the garage, found my old bike.",
    "How was your week? Anything exciting?",
    "Not much, just the usual routine and a bit of reading.",
    "I need to renew my passport before the summer.",
]
MENTION = 0.2
ECHO = ["Oh nice, {x}!", "Really? {x}, good to know.", "{x}? I'll remember that."]


def details(rng: random.Random) -> list[tuple[str, str, str, str | None, str | None]]:
    """(said, question, echo word, updated said, updated question): four details about every name, each asked
    in other words than it was said in."""
    out: list[tuple[str, str, str, str | None, str | None]] = []
    for name in NAMES:
        rel, (a, b), pet = rng.choice(RELATIONS), rng.sample(CITIES, 2), rng.choice(PETS)
        food, inst, book = rng.choice(FOODS), rng.choice(INSTRUMENTS), rng.choice(BOOKS)
        out += [(f"my {rel} {name} moved to {a} last month", f"Which city is {name} living in these days?", a,
                 f"{name} moved again, my {rel} is in {b} now", None),
                (f"{name}'s dog {pet} turned out to be allergic to {food}", f"What can't {name}'s dog eat?", food,
                 None, None),
                (f"{name} has started taking {inst} lessons on Thursdays", f"What instrument does {name} play?",
                 inst, None, None),
                (f"{name} recommended me the book {book}, I've started it", f"What did {name} suggest I read?",
                 book, None, None)]
    return out


def generate(sessions: int, per_session: int, seed: int) -> RecallSet:
    rng = random.Random(seed)
    data = RecallSet()
    facts = details(rng)
    slots = rng.sample(range(sessions * per_session), k=2 * len(facts))
    said_at = dict(zip(slots[:len(facts)], range(len(facts)), strict=True))
    mentions = set(slots[len(facts):])  # the names again, in small talk (and with rate MENTION elsewhere)
    told: dict[int, str] = {}
    update_at: dict[int, int] = {}
    start = datetime(2025, 1, 5, 18, tzinfo=UTC)
    i = 0
    for s in range(sessions):
        day = start + timedelta(days=7 * s)
        for k in range(per_session):
            speaker = "Alex" if k % 2 == 0 else "Jordan"
            text = rng.choice(SMALL_TALK)
            if i in said_at:
                j = said_at[i]
                text = f"{text} Oh, and {facts[j][0]}."
                told[j] = f"long-{i}"
            elif i - 1 in said_at and rng.random() < 0.5:
                text = rng.choice(ECHO).format(x=facts[said_at[i - 1]][2])
            elif i in mentions or rng.random() < MENTION:
                text = f"{text} {rng.choice(NAMES)} says hi, by the way."
            for j, at in list(update_at.items()):
                if at == i:
                    text = f"{rng.choice(SMALL_TALK)} Also, {facts[j][3]}."
            data.turns.append(Turn("en", "long", f"long-{i}", "USER", speaker,
                                   (day + timedelta(minutes=k)).isoformat().replace("+00:00", "Z"), text))
            if i in said_at and facts[said_at[i]][3] is not None:
                later = rng.randrange(min(i + per_session * 3, sessions * per_session - 1), sessions * per_session)
                if later not in said_at:
                    update_at[said_at[i]] = later
            i += 1
    for j, (_, question, _, _, _) in enumerate(facts):
        if j not in told:
            continue
        now = f"long-{update_at[j]}" if j in update_at else told[j]
        stale = frozenset({turn_key(told[j])}) if j in update_at else frozenset()
        data.questions.append(Question(f"long-{j}", "synthetic", "en", "update" if stale else "passing", question,
                                       None, (frozenset({turn_key(now)}),), stale))
    return data


def main(argv: list[str] | None = None) -> int:
    from bench.recall_api import capabilities
    from bench.recall_eval import live

    parser = argparse.ArgumentParser(prog="python -m bench.recall_long", description=__doc__.split("\n")[0])
    parser.add_argument("--sessions", type=int, default=40)
    parser.add_argument("--turns", type=int, default=40, help="turns per session")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--misses", action="store_true", help="each question with no evidence in the top 10")
    args = parser.parse_args(argv)
    data = generate(args.sessions, args.turns, args.seed)
    print(f"synthetic: {len(data.turns)} turns in {args.sessions} sessions, {len(data.questions)} questions "
          f"({sum(1 for q in data.questions if q.stale)} about an update)")
    return live(data, capabilities(), [], "HYBRID", args.misses, {t.external_id: t.text for t in data.turns})


if __name__ == "__main__":
    sys.exit(main())
