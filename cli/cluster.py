"""`worldmem db cluster up NAME --port P | down NAME | status NAME`: another PostgreSQL cluster in the embedded
root (graph/platform/clusters.py), migrated like the primary; owners can then be moved there
(`worldmem owner move O --to NAME`, with NAME=its URL in WORLDMEM_CLUSTERS)."""

from __future__ import annotations

import argparse
import json

from graph.platform import clusters, embedded
from graph.platform.errors import PlatformError
from graph.platform.migrate import migrate_report
from graph.settings import Settings


def run(args: argparse.Namespace, settings: Settings) -> int:
    verb, name = args.name, args.cluster
    if verb not in ("up", "down", "status") or not name:
        raise PlatformError("usage: worldmem db cluster up NAME --port P | down NAME | status NAME")
    if verb == "status":
        print(json.dumps(clusters.status(settings, name), indent=2))
    elif verb == "down":
        stopped = clusters.down(settings, name)
        embedded.progress(f"cluster {name!r} {'stopped' if stopped else 'was not running'} (its data stays)")
    else:
        if args.port is None:
            raise PlatformError("which port?", "worldmem db cluster up NAME --port P (not the primary's)")
        url = clusters.up(settings, name, args.port)
        done = migrate_report(clusters.cluster_settings(settings, url))
        embedded.progress(f"cluster {name!r} on port {args.port}; migrations applied now: "
                          f"{done.versions or 'none (up to date)'}; route owners to it with "
                          f"WORLDMEM_CLUSTERS=\"{name}=postgresql://postgres:ADMIN_PASSWORD@127.0.0.1:{args.port}/"
                          f"{settings.db_name}\" (the admin password: {settings.secrets_file})")
    return 0
