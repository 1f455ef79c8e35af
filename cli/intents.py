"""`worldmem intents reconcile --owner SUB`: re-judge the owner's recent actions (graph.reads.intent.reconcile).

Closes expired windows (unfulfilled) and takes in effects that arrived late; run it periodically (cron,
a worker schedule). Prints one line per outcome that changed.
"""

from __future__ import annotations

import argparse
from datetime import timedelta

from graph.platform.connect import role_url
from graph.platform.db import Database
from graph.reads.intent import HORIZON, reconcile
from graph.settings import Settings
from resolvers.scalars import parse_datetime


def run(args: argparse.Namespace, settings: Settings) -> int:
    database = Database(role_url(settings, "app"), max_size=1)
    try:
        now = parse_datetime(args.now) if args.now else None
        changes = reconcile(database, args.owner, now, timedelta(days=args.horizon_days), args.open_only)
    finally:
        database.close()
    for change in changes:
        print(f"{change.event_id}: {change.old or 'null'} -> {change.new}")
    print(f"{len(changes)} outcome(s) changed")
    return 0


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    intents = sub.add_parser("intents", help="intent outcomes of consequential actions: reconcile")
    intents.add_argument("action", choices=["reconcile"])
    intents.add_argument("--owner", required=True, help="the owner whose actions to re-judge")
    intents.add_argument("--now", help="judge as of this time (ISO 8601 with offset; default: now)")
    intents.add_argument("--horizon-days", type=int, default=HORIZON.days,
                         help=f"look at actions of the last N days (default {HORIZON.days})")
    intents.add_argument("--open-only", action="store_true",
                         help="only actions not judged yet (cheap; enough to close expired windows)")

