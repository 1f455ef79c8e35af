"""Where one importConversation's time goes: N turns of one chat, phase by phase, on a scratch database.

    python -m bench.import_turns [--turns 10000] [--phases] [--keep]

Without `--phases`: the import as importConversation runs it (graph.episodes.store.import_turns, then the
finder's embedding of the new turns, graph.finder.reconciler.embed_pending with the API's batch),
reporting the time until the turns are committed and found by words, and
until every turn is embedded (target: both within 20 s for 10,000 turns). With `--phases` also the parts
alone: scrubbing and checking, and the offline model on the turn texts.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from bench.episodes_bench import turns
from bench.fresh_data import scratch
from graph.episodes import store
from graph.episodes.model import line
from graph.finder import reconciler
from graph.finder.embedders import embedder_for
from graph.platform.db import Database
from graph.settings import Settings, get_settings
from resolvers.episodes import EMBED_BATCH

OWNER = "import-owner"


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    started = time.perf_counter()
    out = fn()
    return time.perf_counter() - started, out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.import_turns", description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=10_000)
    parser.add_argument("--phases", action="store_true", help="also time each part alone")
    parser.add_argument("--keep", action="store_true", help="keep the scratch database")
    args = parser.parse_args(argv)
    embedder = embedder_for(Settings(embedding_provider="offline"))
    assert embedder is not None
    embedder.embed(["warm up"])  # the model's load is the server's start-up, not the import's
    batch = turns(args.turns)
    if args.phases:
        took, fresh = timed(lambda: store.cleaned(batch))
        print(f"[phase] scrub and check {args.turns} turns: {took:.2f} s", flush=True)
        texts = [line(t.speaker, t.role, t.occurred_at, t.text) for t in fresh]
        took, _ = timed(lambda: [embedder.embed(texts[i:i + 256]) for i in range(0, len(texts), 256)])
        print(f"[phase] the offline model on {len(texts)} texts (256 a call): {took:.2f} s "
              f"({took / len(texts) * 1000:.2f} ms a text)", flush=True)
    with scratch(get_settings(), keep=args.keep) as (_admin, app):
        db = Database(app, max_size=4, statement_timeout_ms=600_000)
        try:
            committed, done = timed(partial(store.import_turns, db, OWNER, "chat-1", batch, curate=False))
            print(f"[import] {done.imported} turns committed and found by words: {committed:.2f} s", flush=True)
            embedded, progress = timed(partial(reconciler.embed_pending, db, OWNER, embedder, batch=EMBED_BATCH))
            print(f"[import] then embedded by the finder ({progress.embedded} rows): {embedded:.2f} s; "
                  f"all together {committed + embedded:.2f} s (target 20 s)", flush=True)
            again, _ = timed(lambda: store.import_turns(db, OWNER, "chat-1", batch, curate=False))
            print(f"[import] replayed (nothing new): {again:.2f} s", flush=True)
        finally:
            db.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
