"""Where one importConversation's time goes: N turns of one chat, on a scratch database.

    python -m bench.import_turns [--turns 10000] [--phases] [--keep]

Without `--phases`: the import as importConversation runs it (graph.episodes.store.import_turns with the
offline model: the turns committed, found by words, while the model embeds them in a worker thread, then
each batch's vectors written while it embeds the next), until it returns with every turn committed and
embedded (target: 20 s for 10,000 turns); then checked (every projection holds a vector, a word finds
them) and replayed. With `--phases` also the parts alone: scrubbing and checking, the offline model on the
turn texts, and the commit without the model (another owner, so the measured import starts as empty).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from bench import load
from bench.episodes_bench import turns
from bench.fresh_data import scratch
from graph.episodes import store
from graph.episodes.model import line
from graph.finder import reconciler
from graph.finder.embedders import embedder_for
from graph.platform.db import Database
from graph.settings import Settings, get_settings

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
    parser.add_argument("--after-commit", action="store_true",
                        help="for comparison: the model only after the commit, then the finder's batch by batch "
                             "(graph.finder.reconciler.embed_pending), as the import did before")
    args = parser.parse_args(argv)
    embedder = embedder_for(Settings(embedding_provider="offline"))
    assert embedder is not None
    embedder.embed(["warm up"])  # the model's load is the server's start-up, not the import's
    batch = turns(args.turns)
    if args.phases:
        took, fresh = timed(lambda: store.cleaned(batch))
        print(f"[phase] scrub and check {args.turns} turns: {took:.2f} s", flush=True)
        texts = [line(t.speaker, t.role, t.occurred_at, t.text) for t in fresh]
        took, _ = timed(lambda: [embedder.embed(texts[i:i + store.EMBED_BATCH])
                                 for i in range(0, len(texts), store.EMBED_BATCH)])
        print(f"[phase] the offline model on {len(texts)} texts ({store.EMBED_BATCH} a call): {took:.2f} s "
              f"({took / len(texts) * 1000:.2f} ms a text)", flush=True)
    with scratch(get_settings(), keep=args.keep) as (_admin, app):
        db = Database(app, max_size=4, statement_timeout_ms=600_000)
        try:
            if args.phases:
                took, _ = timed(partial(store.import_turns, db, "phase-owner", "chat-1", batch, curate=False))
                print(f"[phase] the commit alone, no model: {took:.2f} s", flush=True)
            if args.after_commit:
                took, done = timed(partial(store.import_turns, db, OWNER, "chat-1", batch, curate=False))
                embedding, _ = timed(partial(reconciler.embed_pending, db, OWNER, embedder,
                                             batch=store.EMBED_BATCH))
                print(f"[after-commit] committed {took:.2f} s, then embedded {embedding:.2f} s", flush=True)
                took += embedding
            else:
                took, done = timed(partial(store.import_turns, db, OWNER, "chat-1", batch, curate=False,
                                           embedder=embedder))
            with db.owner_tx(OWNER) as conn:
                check = conn.execute(load("import_embedded"), {"word": "baker"}).fetchone()
            assert check is not None
            print(f"[import] {done.imported} turns committed and embedded: {took:.2f} s (target 20 s); "
                  f"{check['embedded']} of {check['projected']} projections hold a vector, "
                  f"'baker' finds {check['found']}", flush=True)
            again, _ = timed(lambda: store.import_turns(db, OWNER, "chat-1", batch, curate=False, embedder=embedder))
            print(f"[import] replayed (nothing new): {again:.2f} s", flush=True)
        finally:
            db.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
