"""`worldmem finder reconcile [--owner SUB]` and `worldmem finder status --owner SUB`: project every rag-kind
entity, embed what is pending with the configured model (a model change re-embeds everything), and say
how far it is. The server does the same in the background; this is for a backfill or a cron job."""

from __future__ import annotations

import argparse

from graph.finder.embedders import embedder_for
from graph.finder.reconciler import owners, reconcile_owner
from graph.platform.connect import role_url
from graph.platform.db import Database
from graph.routing.config import router_for
from graph.settings import Settings
from graph.sql import load


def run(args: argparse.Namespace, settings: Settings) -> int:
    model = embedder_for(settings)
    database = Database(role_url(settings, "app"), max_size=1)
    router = router_for(settings, database)  # with other clusters: each owner on its own
    try:
        who = [args.owner] if args.owner else owners(database)  # the directory's: every owner has its tokens there
        print(f"model: {model.name if model else 'none (full text and names only)'}")
        for owner in who:
            at = database if router is None else router.place(owner).database
            if args.action == "reconcile":
                p = reconcile_owner(at, owner, model, batch=settings.embedding_batch)
                print(f"{owner}: {p.projected} texts new or changed, {p.embedded} embedded, {p.failed} failed")
            with at.owner_tx(owner, read_only=True) as conn:
                s = conn.execute(load("finder_status"), {"model": model.name if model else None}).fetchone()
            assert s is not None
            print(f"{owner}: {s['total']} projections, {s['pending']} waiting for the model, {s['failed']} with "
                  "an error")
    finally:
        if router is not None:
            router.close()
        database.close()
    return 0


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    finder = sub.add_parser("finder", help="the finder's projections and embeddings: reconcile, status")
    finder.add_argument("action", choices=["reconcile", "status"])
    finder.add_argument("--owner", help="one owner (default: every owner with a token)")
