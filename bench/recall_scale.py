"""Recall at scale: searchWorldMemory and worldContext over 100,000 episodes and 10,000 entities of one owner.

    python -m bench.recall_scale [--episodes 100000] [--entities 10000] [--runs 200] [--keep] [--warm 10] [--http]

On a database of its own (`worldmem_recall_scale`, dropped at the end unless `--keep`; a kept one holding the
same seed is reused, so only the first run pays for the seed): owner A gets `--entities` people (committed
through the ledger as bench.fresh_owner does, projected by the finder) and `--episodes` generated turns
(German and English, several speakers, two years of dates); owner B the same people and no turns. The seed
is written in bulk, as a bench may: the turns and their projections by COPY, their vectors the offline
model's embeddings of a pool of the generated texts with a little noise each (the index sees distinct,
model-shaped vectors; what is measured is speed, recall is measured by bench.recall_eval), and the HNSW
index built once after the rows (CREATE INDEX, as the migration defines it) instead of row by row. The
import's own speed is measured by bench.import_turns.

Reported, through the app (GraphQL over in-process ASGI, an owner token; the offline model embeds each
query anew): searchWorldMemory p50 / p95 / p99, hybrid, for A (target p95 <= 30 ms) and for B, and
worldContext for A (target p95 <= 10 ms). `--http`: through one `worldmem serve` process over HTTP instead
(the client in another process than the server, as an agent calls it). `--warm N`: N calls per read before
the measured ones; a pooled connection plans each statement anew for its first executions, so a short
warm-up measures part of the pool's start. A checkout without importConversation stops with a message
before it creates a database.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from bench.recall_api import IMPORT_BATCH, capabilities

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


def timed(fn: Callable[[str], object], inputs: list[str], warm: int = 10) -> dict[str, float]:
    # warm-up: the model's first calls, and the statements' plans (each pooled connection plans a statement
    # anew for its first executions, until psycopg prepares it and the server keeps a generic plan)
    for q in (inputs * (warm // max(len(inputs), 1) + 1))[:warm]:
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
    parser.add_argument("--keep", action="store_true", help="keep the database (a later run reuses its seed)")
    parser.add_argument("--warm", type=int, default=10, help="calls per measured read before the measured ones")
    parser.add_argument("--http", action="store_true",
                        help="through one `worldmem serve` process over HTTP instead of the in-process app")
    args = parser.parse_args(argv)
    if capabilities().missing():
        print(f"bench.recall_scale: this checkout's API lacks {', '.join(capabilities().missing())}; nothing was run.",
              file=sys.stderr)
        return 2
    from bench.recall_seed import Seed, seeded

    with seeded(Seed(episodes=args.episodes, entities=args.entities, owner=OWNER_A, quiet=OWNER_B),
                turns, keep=args.keep) as (admin, app):
        rows = (measure_http(admin, args.runs, args.warm) if args.http
                else measure(admin, app, args.runs, args.warm))
    print(f"\n{args.episodes:,} episodes + {args.entities:,} entities (owner A), {args.entities:,} entities "
          f"(owner B), {args.runs} calls each after {args.warm} warm-up calls, "
          f"{'over HTTP' if args.http else 'through the app'}\n")
    print("| read | p50 ms | p95 ms | p99 ms |\n|---|---:|---:|---:|")
    for name, p in rows.items():
        print(f"| {name} | {p['p50']:.1f} | {p['p95']:.1f} | {p['p99']:.1f} |")
    return 0


SEARCH = "query($q: String!) { searchWorldMemory(query: $q, limit: 10) { mode hits { score foundBy } } }"
CONTEXT = "query($m: String!) { worldContext(message: $m) { tokens } }"


Call = Callable[[str], dict[str, Any]]


def new_text(q: str, n: int) -> str:
    """`q` with a word of its own (the n-th), so a server's query-vector memory has not seen it."""
    return f"{q} {'abcdefghij'[n % 10]}{n}"


def measure(admin: str, app: str, runs: int, warm: int = 10) -> dict[str, dict[str, float]]:
    from fastapi.testclient import TestClient

    from graph.finder import query_vectors
    from graph.settings import get_settings
    from resolvers.app import create_app

    settings = get_settings().model_copy(update={"finder_sweep_s": 0.0, "embedding_provider": "offline"})

    def fresh(q: str) -> str:
        query_vectors.forget()  # each query embedded, as a new question is
        return q

    with TestClient(create_app(settings, database_url=app)) as client:
        modes = {_call(client, admin, OWNER_A, SEARCH, "q", fresh)(q)["data"]["searchWorldMemory"]["mode"]
                 for q in QUERIES}
        print(f"[recall-scale] owner A's search modes: {sorted(modes)}", flush=True)
        return _reads(client, admin, runs, warm, fresh)


def measure_http(admin: str, runs: int, warm: int = 10) -> dict[str, dict[str, float]]:
    """The same reads through one `worldmem serve` process (its defaults: hybrid search, the offline model, the
    finder's sweep) over HTTP, the client in this process. A search's text gets a word of its own each call
    (as bench.recall_ab), so the server embeds every query anew."""
    import httpx

    from bench.http_server import serve
    from bench.recall_seed import NAME

    counter = itertools.count()

    def fresh(q: str) -> str:
        return new_text(q, next(counter))

    with serve(NAME) as (_, port), httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as client:
        return _reads(client, admin, runs, warm, fresh)


def _reads(client: Any, admin: str, runs: int, warm: int, fresh: Callable[[str], str]) -> dict[str, dict[str, float]]:
    """The three measured reads through `client` (the in-process app's or one over HTTP); `fresh` makes a
    search's text new to the server's query-vector memory."""
    qs = [QUERIES[i % len(QUERIES)] for i in range(runs)]
    def read(owner: str, query: str, key: str, text: Callable[[str], str]) -> dict[str, float]:
        return timed(_call(client, admin, owner, query, key, text), qs, warm)

    return {"searchWorldMemory, owner with episodes": read(OWNER_A, SEARCH, "q", fresh),
            "searchWorldMemory, owner without episodes": read(OWNER_B, SEARCH, "q", fresh),
            "worldContext, owner with episodes": read(OWNER_A, CONTEXT, "m", str)}


def _call(client: Any, admin: str, owner: str, query: str, key: str, text: Callable[[str], str]) -> Call:
    """One read as a function of its input: POST /graphql with the owner's token, `key` set to `text(input)`."""
    from graph.ledger.tokens import create_token

    headers = {"Authorization": f"Bearer {create_token(admin, owner)}"}

    def one(q: str) -> dict[str, Any]:
        body: dict[str, Any] = client.post("/graphql", headers=headers, json={
            "query": query, "variables": {key: text(q)}}).json()
        if body.get("errors"):
            raise RuntimeError(f"{query.split('(')[0]}: {body['errors'][:1]}")
        return body
    return one

if __name__ == "__main__":
    sys.exit(main())
