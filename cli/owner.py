"""`worldmem owner delete O --yes`: the administrator deletes an owner entirely (graph/erasure/owner.py) and
prints the receipt (its id, the counts per table, its hash; nothing of the owner's content)."""

from __future__ import annotations

import argparse
import json

from graph.erasure.owner import delete_as_admin
from graph.errors import WorldmemError
from graph.platform.connect import admin_url
from graph.platform.reachable import require_reachable
from graph.settings import Settings


def run(args: argparse.Namespace, settings: Settings) -> int:
    if not args.yes:
        raise WorldmemError(f"this deletes everything of owner {args.owner!r}, tokens included, for good: "
                            "add --yes to do it")
    url = admin_url(settings)
    require_reachable(url)
    receipt = delete_as_admin(url, args.owner)
    print(json.dumps(receipt.model_dump(mode="json"), indent=2, sort_keys=True))
    return 0


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    owner = sub.add_parser("owner", help="owners: delete O --yes (everything of the owner, with a receipt)")
    owner.add_argument("action", choices=["delete"])
    owner.add_argument("owner")
    owner.add_argument("--yes", action="store_true", help="really delete (nothing happens without it)")
