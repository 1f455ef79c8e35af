"""Episodes at speed: one importConversation of N turns (stored, projected, then embedded by the offline model)
and searchWorldMemory over the owner's episodes and entities, against an owner without episodes.

On a scratch database of its own (bench.fresh_data.scratch: created, migrated, dropped):
1. `--turns` turns (German and English, several speakers) in ONE import, as the API runs it: the turns and
   their projections committed, then embedded by the finder with the offline model. Target: within 20 s for
   10,000 turns (bench.import_turns times the two steps apart).
2. `--people` entities with two facts each (bench.fresh_data.people) for the same owner and for a second
   owner without episodes, projected and embedded.
3. searchWorldMemory's search as the server runs it (rounds of their own; hybrid: the query embedded, the
   meaning list beside; and text only) over `--runs` queries round-robin for each owner: p50/p95, all lists
   against the lists search had before episodes and answers (name, fact, text, meaning), alternating.

    python -m bench.episodes_bench [--turns 10000] [--people 2000] [--runs 200]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from bench.fresh_data import CITIES, JOBS, people, scratch
from graph.episodes import store
from graph.episodes.model import EpisodeIn
from graph.finder import query_vectors, reconciler
from graph.finder import search as finder
from graph.finder.embedders import Embedder, embedder_for
from graph.finder.rounds import owner_rounds
from graph.ledger.committer import commit_proposal
from graph.ledger.tokens import owner_principal
from graph.platform.db import Database
from graph.settings import Settings, get_settings

SPEAKERS = ["Anna", "Ben", "Clara", "David", "Emma"]
SAID = [
    "Ich war gestern mit {who} in {city} beim {job}.", "Remind me that {who} moves to {city} next month.",
    "Mein Fitnessstudio in {city} öffnet jetzt um sechs.", "{who} works as a {job} in {city} since spring.",
    "Am Wochenende fahren wir nach {city}, {who} kommt mit.", "Did {who} say the {job} appointment is Tuesday?",
    "Die Katze hat beim Tierarzt in {city} gut mitgemacht.", "We should book a table in {city} for {who}'s birthday.",
]
QUERIES = ["Wann ist Annas Termin beim Bäcker?", "Where does Clara work?", "Fitnessstudio Öffnungszeiten",
           "Who moves to Leipzig?", "Tierarzt Katze", "birthday dinner table", "What does Ben do for a living?",
           "Wochenende Ausflug", "person 17", "gardener in Berlin"]
BEFORE: tuple[finder.Lists, ...] = ("name", "fact", "text", "meaning")


def turns(n: int, seed: int = 7) -> list[EpisodeIn]:
    rnd = random.Random(seed)
    start = datetime(2025, 1, 1, tzinfo=UTC)
    out = []
    for i in range(n):
        text = rnd.choice(SAID).format(who=rnd.choice(SPEAKERS), city=rnd.choice(CITIES), job=rnd.choice(JOBS))
        out.append(EpisodeIn(external_id=f"t{i}", role="user" if i % 2 == 0 else "assistant",
                             speaker=rnd.choice(SPEAKERS) if i % 2 == 0 else None, text=f"{text} ({i})",
                             occurred_at=start + timedelta(minutes=37 * i)))
    return out


def timed(fn: Callable[[], object]) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


def latency(db: Database, owner: str, embedder: Embedder | None, runs: int) -> str:
    """p50/p95 of searchWorldMemory's search as the server runs it (rounds of their own, the meaning list
    beside), all lists against the lists before episodes, alternating query by query so both see the same
    load."""
    times: dict[str, list[float]] = {"all lists": [], "lists before episodes": []}
    for i in range(runs + len(QUERIES)):
        for label, lists in (("all lists", finder.ALL_LISTS), ("lists before episodes", BEFORE)):
            query = finder.Query(text=QUERIES[i % len(QUERIES)], lists=lists)
            query_vectors.forget()
            took = timed(lambda: finder.search(owner_rounds(db, owner), query, embedder,  # noqa: B023
                                               datetime.now(UTC)))
            if i >= len(QUERIES):  # the first pass warms plans and the model
                times[label].append(took * 1000)
    return "; ".join(f"{label} p50 {statistics.median(xs):.1f} / p95 {statistics.quantiles(xs, n=20)[18]:.1f} ms"
                     for label, xs in times.items())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.episodes_bench", description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=10_000)
    parser.add_argument("--people", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args(argv)
    embedder = embedder_for(Settings(embedding_provider="offline"))
    assert embedder is not None
    embedder.embed(["warm up"])  # the model's load is the server's start-up, not the import's
    with scratch(get_settings()) as (_admin, app):
        db = Database(app, max_size=4, statement_timeout_ms=120_000)
        try:
            talk, quiet = "episodes-owner", "no-episodes-owner"
            batch = turns(args.turns)
            stored = timed(lambda: store.import_turns(db, talk, "chat-1", batch, curate=False)
                           and reconciler.embed_pending(db, talk, embedder, batch=256))
            print(f"[import] {args.turns} turns stored, then embedded: {stored:.1f} s (target 20 s)", flush=True)
            again = timed(lambda: store.import_turns(db, talk, "chat-1", batch, curate=False))
            print(f"[import] the same import replayed (nothing new): {again:.1f} s", flush=True)
            for owner in (talk, quiet):
                for proposal in people(args.people, owner):
                    commit_proposal(db, owner_principal(owner), proposal)
                reconciler.reconcile_owner(db, owner, embedder)
            for owner, label in ((talk, f"{args.turns} episodes + {args.people} people"),
                                 (quiet, f"no episodes, {args.people} people")):
                for mode, model in (("hybrid", embedder), ("text", None)):
                    print(f"[search] {label}, {mode}: {latency(db, owner, model, args.runs)}", flush=True)
        finally:
            db.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
