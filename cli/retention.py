"""`worldmem retention run [--dry-run]`: the retention job inline (graph.retention.job). Prints, per owner and
class, what it rolls up and prunes (or would, with --dry-run); progress goes to stderr (a bar on a TTY,
plain lines otherwise). With Temporal configured the same job runs on a schedule (`worldmem worker`).

A run holds the database's retention lock (graph.retention.job.exclusive): started on several hosts at once
(a cron on each API host), one runs and the others say so and exit 0. The job is safe to run twice anyway;
the lock saves the second pass over every owner."""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from graph.platform.connect import role_url
from graph.platform.db import Database
from graph.platform.reachable import require_reachable
from graph.retention import job
from graph.retention.routed import run_everywhere
from graph.routing.config import router_for
from graph.settings import Settings
from resolvers.scalars import parse_datetime

BAR = 30
JOB_STATEMENT_TIMEOUT_MS = 600_000  # one series-month of a busy sensor may take longer than a request


class Progress:
    """done/total to a stream: a redrawn bar on a terminal, one plain line per step otherwise."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.tty = stream.isatty()

    def __call__(self, done: int, total: int, what: str) -> None:
        if not self.tty:
            print(f"retention: {done}/{total} {what}", file=self.stream, flush=True)
            return
        filled = BAR * done // max(total, 1)
        line = f"\r[{'#' * filled}{'.' * (BAR - filled)}] {done}/{total} {what[:50]:<50}"
        self.stream.write(line + ("\n" if done >= total else ""))
        self.stream.flush()


def render(report: job.Report, window_days: int) -> list[str]:
    lines = [f"retention {'dry run' if report.dry_run else 'run'}: edge {report.edge.isoformat(timespec='seconds')} "
             f"(window {window_days} days)"]
    for o in report.owners:
        lines.append(f"owner {o.owner}")
        lines.append(f"  permanent: {o.permanent_rows} fact rows, never pruned")
        readings = sum(s.readings for s in o.series)
        rolled, pruned = ("would roll up into", "would prune") if report.dry_run else ("rolled up into", "pruned")
        lines.append(f"  windowed facts: {len(o.series)} series-months, {o.windowed_rows} rows ({readings} readings) "
                     f"-> {rolled} {len(o.series)} rollups, {pruned} "
                     f"{o.windowed_rows if report.dry_run else o.pruned} rows")
        for s in o.series:
            result = s.error or (f"pruned {s.pruned}" if not report.dry_run else "would prune")
            lines.append(f"    {s.series}: {s.rows} rows, {s.readings} readings: {result}")
        if o.events:
            n = sum(e.rows for e in o.events)
            lines.append(f"  windowed world events: {len(o.events)} series, {n} events -> {rolled} {len(o.events)} "
                         f"rollups, {pruned} {n if report.dry_run else o.events_pruned} (with their graph vertices)")
        for e in o.events:
            result = e.error or (f"pruned {e.pruned}" if not report.dry_run else "would prune")
            lines.append(f"    {e.series}: {e.rows} events: {result}")
        for month, n in sorted(o.event_months.items()):
            then = ("would be dropped once every owner in it is rolled up" if report.dry_run
                    else "rolled up; its partition goes once every owner in it is")
            lines.append(f"  windowed events: {month}: {n} observed events -> {then}")
        if not o.series and not o.events and not o.event_months:
            lines.append("  windowed: nothing behind the edge")
    for month, n in sorted(report.dropped.items()):
        lines.append(f"partition {month}: dropped ({n} rows)")
    for month, why in sorted(report.kept.items()):
        lines.append(f"partition {month}: kept ({why})")
    return lines


def run(args: argparse.Namespace, settings: Settings) -> int:
    url = role_url(settings, "app")
    require_reachable(url)
    options = job.Options(window_days=args.window_days or settings.retention_window_days, dry_run=args.dry_run,
                          owner=args.owner, now=parse_datetime(args.now) if args.now else None,
                          episode_days=settings.retention_episode_days)
    database = Database(url, max_size=2, statement_timeout_ms=JOB_STATEMENT_TIMEOUT_MS)
    router = router_for(settings, database)  # with other clusters: each owner on its own
    try:
        report = run_everywhere(database, router, options, Progress(sys.stderr), wait=False)
    except job.Busy:
        print("retention: another run holds the database's retention lock; this one is skipped")
        return 0
    finally:
        if router is not None:
            router.close()
        database.close()
    print("\n".join(render(report, options.window_days)))
    failed = [s for o in report.owners for s in o.series + o.events if s.error]
    return 1 if failed else 0


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    retention = sub.add_parser("retention", help="roll up and prune windowed data behind the retention window")
    retention.add_argument("action", choices=["run"])
    retention.add_argument("--dry-run", action="store_true", help="only report what would be rolled up and pruned")
    retention.add_argument("--owner", help="only this owner (default: every owner)")
    retention.add_argument("--window-days", type=int,
                           help="the hot window in days (default: WORLDMEM_RETENTION_WINDOW_DAYS, 90)")
    retention.add_argument("--now", help="run as of this time (ISO 8601 with offset; default: now)")
