"""Recall at scale: importing conversations and searching them, against the speed targets.

    python -m bench.recall_scale [--episodes 100000] [--entities 10000] [--runs 200] [--keep]

On a scratch database of its own: owner A gets `--entities` people (committed as bench.fresh_owner does) and
`--episodes` generated turns (German and English, several speakers, two years of dates) through
`importConversation` in calls of 10,000; owner B the same people and no turns. Reports:
- the first call of 10,000 turns: the call itself, and until the finder has embedded them (target: <= 20 s
  together on this 2-core machine), then the rest's turns per second;
- searchWorldMemory p50 / p95 / p99 end to end as the server runs it (the offline model embeds each query),
  for A (target p95 <= 30 ms) and for B (must not be slower than before episodes existed);
- worldContext p95 for A (target <= 10 ms).
A checkout without importConversation stops with a message before it creates a database.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from bench.recall_api import IMPORT, IMPORT_BATCH, capabilities

OWNER_A, OWNER_B = "recall-scale-a", "recall-scale-b"
PEOPLE = ["Anna", "Ben", "Clara", "David", "Emma", "Felix", "Greta", "Jonas", "Priya", "Miguel", "Dana", "Sam"]
PLACES = ["Berlin", "Kassel", "Bristol", "Lisbon", "Leipzig", "Freiburg", "Hamburg", "Leeds"]
EN = ["Can you remind me to call {p} about the {t} on {d}?", "{p} said the {t} moved to {pl}.",
      "I booked the {t} in {pl} for {p} and me.", "Note that {p} prefers the {t} without changes.",
      "The {t} with {p} went well, next one in {pl}.", "Send {p} the notes from the {t}, please."]
DE = ["Erinnere mich, {p} anzurufen, es geht um {t} am {d}.", "{p} sagt, {t} findet jetzt in {pl} statt.",
      "Ich habe {t} in {pl} für {p} und mich gebucht.", "{p} möchte {t} lieber ohne Änderungen.",
      "{t} mit {p} lief gut, das nächste Mal in {pl}.", "Schick {p} bitte die Notizen von {t}."]
TOPICS_EN = ["dentist appointment", "team retro", "budget review", "birthday dinner", "gym class", "vet visit",
             "flight", "contract renewal", "garden work", "piano lesson"]
TOPICS_DE = ["den Zahnarzttermin", "die Retro", "das Budgetgespräch", "das Geburtstagsessen", "den Yogakurs",
             "den Tierarztbesuch", "den Flug", "die Vertragsverlängerung", "den Arbeitseinsatz", "die Klavierstunde"]
QUERIES = ["When is the dentist appointment?", "Wann ist der Tierarztbesuch?", "Who went to Lisbon?", "Priya",
           "budget review in Kassel", "Wer hat den Flug gebucht?", "piano lesson notes", "Greta Freiburg",
           "What did Miguel say about the contract renewal?", "Geburtstagsessen mit Anna"]
CHAT_TURNS = IMPORT_BATCH  # one chat per call: the target is one call of 10,000 turns


def turns(n: int, seed: int = 37) -> list[tuple[str, dict[str, Any]]]:
    """n generated turns as (chatId, ImportTurnInput), chats of CHAT_TURNS turns, dates over two years."""
    rng = random.Random(seed)
    start = datetime(2025, 1, 1, tzinfo=UTC)
    out = []
    for i in range(n):
        chat, de = f"scale-{i // CHAT_TURNS}", (i // CHAT_TURNS) % 2 == 1
        when = start + timedelta(minutes=10 * i)
        template = rng.choice(DE if de else EN)
        text = template.format(p=rng.choice(PEOPLE), t=rng.choice(TOPICS_DE if de else TOPICS_EN),
                               pl=rng.choice(PLACES), d=(when + timedelta(days=rng.randrange(30))).date())
        user = i % 2 == 0
        out.append((chat, {"externalId": f"t{i}", "role": "USER" if user else "ASSISTANT",
                           "speaker": rng.choice(PEOPLE) if user else "Assistant", "text": text,
                           "occurredAt": when.isoformat()}))
    return out


def percentiles(times: list[float]) -> dict[str, float]:
    cuts = statistics.quantiles(times, n=100)
    return {"p50": statistics.median(times), "p95": cuts[94], "p99": cuts[98]}


def timed(fn: Callable[[str], object], inputs: list[str]) -> dict[str, float]:
    for q in inputs[:10]:  # warm-up: plans and the model's first calls
        fn(q)
    times = []
    for q in inputs:
        started = time.perf_counter()
        fn(q)
        times.append((time.perf_counter() - started) * 1000)
    return percentiles(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.recall_scale", description=__doc__.split("\n")[0])
    parser.add_argument("--episodes", type=int, default=100_000)
    parser.add_argument("--entities", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=200, help="calls per measured read")
    parser.add_argument("--keep", action="store_true", help="keep the scratch database")
    args = parser.parse_args(argv)
    if capabilities().missing():
        print(f"bench.recall_scale: this checkout's API lacks {', '.join(capabilities().missing())}; nothing was run.",
              file=sys.stderr)
        return 2
    return run(args.episodes, args.entities, args.runs, args.keep)


def run(episodes: int, entities: int, runs: int, keep: bool) -> int:
    from fastapi.testclient import TestClient

    from bench.fresh_data import scratch
    from bench.fresh_owner import import_people
    from graph.agent.search import search_world_memory
    from graph.agent.world_context import ContextRequest, world_context
    from graph.finder import query_vectors
    from graph.finder.embedders import embedder_for
    from graph.finder.reconciler import reconcile_owner
    from graph.ledger.tokens import create_token
    from graph.platform.db import Database
    from graph.settings import Settings, get_settings
    from resolvers.app import create_app

    settings = get_settings().model_copy(update={"finder_sweep_s": 0.0, "max_request_bytes": 64_000_000,
                                                 "max_sync_request_bytes": 64_000_000})
    model = embedder_for(Settings(embedding_provider="offline"))
    generated = turns(episodes)
    with scratch(settings, keep=keep) as (admin, app), TestClient(create_app(settings, database_url=app)) as client:
        db = Database(app, max_size=2, statement_timeout_ms=600_000)
        try:
            for owner in (OWNER_A, OWNER_B):
                import_people(db, owner, entities)
                reconcile_owner(db, owner, model)
            headers = {"Authorization": f"Bearer {create_token(admin, OWNER_A, can_import=True)}"}
            first_call = first_searchable = 0.0
            started_all = time.perf_counter()
            for k in range(0, len(generated), IMPORT_BATCH):
                batch = generated[k:k + IMPORT_BATCH]
                started = time.perf_counter()
                body = client.post("/graphql", headers=headers, json={"query": IMPORT, "variables": {
                    "c": batch[0][0], "t": [t for _, t in batch]}}).json()
                if body.get("errors"):
                    raise RuntimeError(f"importConversation: {body['errors'][:1]}")
                called = time.perf_counter() - started
                reconcile_owner(db, OWNER_A, model)  # whatever the import left for the finder to embed
                if k == 0:
                    first_call, first_searchable = called, time.perf_counter() - started
            total = time.perf_counter() - started_all
            print(f"[recall-scale] first {min(IMPORT_BATCH, episodes):,} turns: import calls {first_call:.1f} s, "
                  f"searchable (embedded) after {first_searchable:.1f} s (target <= 20 s); all {episodes:,} in "
                  f"{total:.0f} s ({episodes / total:,.0f} turns/s)", flush=True)
            qs = [QUERIES[i % len(QUERIES)] for i in range(runs)]

            def search(owner: str) -> Callable[[str], object]:
                def one(q: str) -> object:
                    query_vectors.forget()  # each query embedded, as a new question is
                    return search_world_memory(db, owner, q, embedder=model)
                return one

            rows = {"searchWorldMemory, owner with episodes": timed(search(OWNER_A), qs),
                    "searchWorldMemory, owner without episodes": timed(search(OWNER_B), qs),
                    "worldContext, owner with episodes": timed(
                        lambda q: world_context(db, OWNER_A, ContextRequest(message=q)), qs)}
        finally:
            db.close()
    print(f"\n{episodes:,} episodes + {entities:,} entities (owner A), {entities:,} entities (owner B), {runs} calls "
          "each after 10 warm-up calls\n")
    print("| read | p50 ms | p95 ms | p99 ms |\n|---|---:|---:|---:|")
    for name, p in rows.items():
        print(f"| {name} | {p['p50']:.1f} | {p['p95']:.1f} | {p['p99']:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
