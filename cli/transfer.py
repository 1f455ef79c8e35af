"""`worldmem export --owner O [--out FILE]` and `worldmem import --owner O FILE`: an owner's whole memory as a
worldmem-export JSON Lines file (docs/export.md), and that file into an empty owner (graph/transfer)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from graph.platform.connect import role_url
from graph.platform.db import Database
from graph.platform.reachable import require_reachable
from graph.routing.config import owner_settings
from graph.settings import Settings
from graph.transfer.dump import export_lines
from graph.transfer.load import import_lines


def _database(settings: Settings, owner: str) -> Database:
    url = role_url(owner_settings(settings, owner), "app")  # the owner's cluster (graph/routing)
    require_reachable(url)
    return Database(url, max_size=1, statement_timeout_ms=600_000)


def run_export(args: argparse.Namespace, settings: Settings) -> int:
    db = _database(settings, args.owner)
    try:
        lines = export_lines(db, args.owner)
    finally:
        db.close()
    text = "".join(line + "\n" for line in lines)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
        print(f"{len(lines) - 2} records of owner {args.owner!r} written to {args.out}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


def run_import(args: argparse.Namespace, settings: Settings) -> int:
    lines = Path(args.file).read_text(encoding="utf-8").splitlines()
    db = _database(settings, args.owner)
    try:
        counts = import_lines(db, args.owner, lines)
    finally:
        db.close()
    print(json.dumps({"owner": args.owner, "imported": counts}, sort_keys=True))
    return 0


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    export = sub.add_parser("export", help="an owner's whole memory as a worldmem-export JSON Lines file")
    export.add_argument("--owner", required=True)
    export.add_argument("--out", help="the file to write (default: standard output)")
    imp = sub.add_parser("import", help="a worldmem-export file into an owner that holds no memory yet")
    imp.add_argument("--owner", required=True)
    imp.add_argument("file")
