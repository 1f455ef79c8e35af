"""`worldmem owner delete O --yes`: the administrator deletes an owner entirely (graph/erasure/owner.py) and
prints the receipt (its id, the counts per table, its hash; nothing of the owner's content).
`worldmem owner move O --to b`: the owner's memory moves to cluster b (graph/routing/move.py);
`worldmem owner route O`: where it lives."""

from __future__ import annotations

import argparse
import json

import psycopg

from graph.errors import WorldmemError
from graph.platform import embedded
from graph.platform.connect import admin_url
from graph.platform.reachable import require_reachable
from graph.routing.delete import delete_owner
from graph.routing.move import move_owner
from graph.routing.routes import read_route
from graph.settings import Settings


def run(args: argparse.Namespace, settings: Settings) -> int:
    if args.action == "route":
        with psycopg.connect(admin_url(settings), autocommit=True, connect_timeout=10) as conn:
            route = read_route(conn, args.owner)
        print(json.dumps({"owner": args.owner, "cluster": route.cluster, "moving_to": route.moving_to}))
        return 0
    if args.action == "move":
        if not args.to:
            raise WorldmemError("which cluster? worldmem owner move O --to NAME")
        report = move_owner(settings, args.owner, args.to, embedded.progress)
        print(json.dumps(report.__dict__, sort_keys=True))
        return 0
    if not args.yes:
        raise WorldmemError(f"this deletes everything of owner {args.owner!r}, tokens included, for good: "
                            "add --yes to do it")
    require_reachable(admin_url(settings))
    receipt = delete_owner(settings, args.owner)  # on its cluster, and its tokens and route in the directory
    print(json.dumps(receipt.model_dump(mode="json"), indent=2, sort_keys=True))
    return 0


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    owner = sub.add_parser("owner", help="owners: delete O --yes (everything of the owner, with a receipt); "
                                         "move O --to CLUSTER; route O")
    owner.add_argument("action", choices=["delete", "move", "route"])
    owner.add_argument("owner")
    owner.add_argument("--yes", action="store_true", help="really delete (nothing happens without it)")
    owner.add_argument("--to", help="for move: the cluster (main or a name in WORLDMEM_CLUSTERS)")
