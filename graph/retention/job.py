"""The retention job: for every owner, roll windowed fact rows behind the window's edge up into rollups and
prune them; roll each owner's observed events of months wholly behind the edge up, then drop those
months' partitions. `dry_run` only reports. Safe to run twice: a second run finds nothing left to prune
(or merges late rows into the existing rollups); a partition whose rows changed since its rollup stays.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, date, datetime

import psycopg
from pydantic import BaseModel, Field

from graph.governance.phrases import owner_language
from graph.platform.db import Database
from graph.platform.session_locks import SessionLocks
from graph.retention import episodes, facts, observed, world
from graph.retention.classes import month_over, window_edge
from graph.sql import load

Progress = Callable[[int, int, str], None]
RETENTION = "retention"  # the leader's name while a job runs (graph.platform.session_locks.LEADER)
LOCK_POLL_S = 0.5


class Busy(Exception):
    """Another job holds the database's retention lock (raised only when asked not to wait)."""


class Options(BaseModel):
    window_days: int = Field(default=90, ge=1)
    episode_days: int | None = Field(default=None, ge=1, description="Curated episodes older than this are rolled "
                                                                     "up per chat and month and pruned (None: kept)")
    dry_run: bool = False
    owner: str | None = Field(default=None, description="Only this owner (default: every owner)")
    owners: list[str] | None = Field(default=None, description="The owners to visit besides those with observed "
                                     "events here (default: every token holder): with several clusters, the "
                                     "ones routed to this one, whose tokens are in the directory")
    now: datetime | None = None


class SeriesReport(BaseModel):
    series: str = Field(description="subject ref, predicate and month")
    rows: int
    readings: int
    pruned: int = 0
    error: str | None = None


class OwnerReport(BaseModel):
    owner: str
    permanent_rows: int = 0
    series: list[SeriesReport] = Field(default_factory=list)
    events: list[SeriesReport] = Field(default_factory=list, description="Windowed world events, per series")
    event_months: dict[str, int] = Field(default_factory=dict, description="YYYY-MM -> observed events")
    episodes: list[SeriesReport] = Field(default_factory=list, description="Episodes, per chat and month")

    @property
    def windowed_rows(self) -> int:
        return sum(s.rows for s in self.series)

    @property
    def pruned(self) -> int:
        return sum(s.pruned for s in self.series)

    @property
    def events_pruned(self) -> int:
        return sum(s.pruned for s in self.events)


class Report(BaseModel):
    edge: datetime
    dry_run: bool
    owners: list[OwnerReport] = Field(default_factory=list)
    dropped: dict[str, int] = Field(default_factory=dict, description="YYYY-MM -> rows dropped with the partition")
    kept: dict[str, str] = Field(default_factory=dict, description="YYYY-MM -> why its partition stays")


@contextmanager
def exclusive(db: Database, *, wait: bool = True) -> Iterator[None]:
    """One job at a time per database: two at once (a worker taken for dead whose attempt still runs beside
    its retry, the CLI beside the schedule, a cron on every API host) would drop the same month's partition
    and deadlock. The later one waits, then finds nothing left, or, with `wait=False`, raises Busy. The lock
    is the background-work leader lock of graph.platform.session_locks, on a connection of its own: a
    process that dies releases it with its session. Polled, so no statement waits into a timeout."""
    locks = SessionLocks(db.url)
    try:
        while not locks.leads(RETENTION):
            if not wait:
                raise Busy
            time.sleep(LOCK_POLL_S)
        yield
    finally:
        locks.close()


def run(db: Database, options: Options, progress: Progress | None = None, *, wait: bool = True) -> Report:
    if options.dry_run:  # changes nothing, so needs no turn
        return _run(db, options, progress)
    with exclusive(db, wait=wait):
        return _run(db, options, progress)


def _run(db: Database, options: Options, progress: Progress | None) -> Report:
    now = options.now or datetime.now(UTC)
    edge = window_edge(now, options.window_days)
    report = Report(edge=edge, dry_run=options.dry_run)
    with db.connection() as conn, conn.transaction():
        months = {m: observed.owners(conn, m) for m in observed.months(conn) if month_over(m, edge)}
        owners = [options.owner] if options.owner else _owners(conn, months, options.owners)
    plans: list[tuple[OwnerReport, list[facts.Series], list[world.EventSeries]]] = []
    for owner in owners:
        with db.owner_tx(owner) as conn, conn.transaction() as changes:
            facts.inherit_class(conn)
            row = conn.execute(load("retention_permanent_count")).fetchone()
            series = facts.plan(conn, edge)
            events = world.plan(conn, edge)
            if options.dry_run:
                raise psycopg.Rollback(changes)  # a dry run reports what the marking would allow, keeps nothing
        mine = {f"{m:%Y-%m}": n[owner] for m, n in months.items() if owner in n}
        report_ = OwnerReport(owner=owner, permanent_rows=int(row["n"]) if row else 0, event_months=mine)
        plans.append((report_, series, events))
    steps = sum(len(s) + len(e) + len(o.event_months) for o, s, e in plans) + (0 if options.dry_run else len(months))
    done = 0

    def step(what: str) -> None:
        nonlocal done
        done += 1
        if progress:
            progress(done, steps, what)

    for owner_report, series, events in plans:
        report.owners.append(owner_report)
        for s in series:
            item = SeriesReport(series=f"{s.subject_ref} {s.predicate} {s.month:%Y-%m}", rows=s.n, readings=s.readings)
            owner_report.series.append(item)
            if not options.dry_run:
                item.pruned, item.error = _prune(db, owner_report.owner, s, edge)
            step(f"{owner_report.owner}: {item.series}")
        for e in events:
            item = SeriesReport(series=f"{e.event_type} {e.label or '-'} {e.month:%Y-%m}", rows=e.n, readings=e.n)
            owner_report.events.append(item)
            if not options.dry_run:
                item.pruned, item.error = _prune(db, owner_report.owner, e, edge)
            step(f"{owner_report.owner}: {item.series}")
        for m in [m for m in months if f"{m:%Y-%m}" in owner_report.event_months]:
            if not options.dry_run:
                with db.owner_tx(owner_report.owner) as conn:
                    observed.roll_up_month(conn, m, owner_language(conn))
            step(f"{owner_report.owner}: observed events {m:%Y-%m}")
        if options.episode_days is not None:
            _episodes(db, owner_report, window_edge(now, options.episode_days), options.dry_run)
        if not options.dry_run and (owner_report.pruned or owner_report.events_pruned or owner_report.event_months):
            with db.owner_tx(owner_report.owner) as conn:
                conn.execute(load("retention_edge_put"), {"edge": edge})
    if not options.dry_run:
        for m in months:
            _drop(db, m, report)
            step(f"partition {m:%Y-%m}")
    return report


def _owners(conn: psycopg.Connection[dict[str, object]], months: dict[date, dict[str, int]],
            listed: list[str] | None) -> list[str]:
    found = set(listed) if listed is not None else {str(r["owner_sub"]) for r in conn.execute(load("retention_owners"))}
    for per_owner in months.values():
        found |= set(per_owner)
    return sorted(found)


def _prune(db: Database, owner: str, s: facts.Series | world.EventSeries, edge: datetime) -> tuple[int, str | None]:
    try:
        with db.owner_tx(owner) as conn:
            lang = owner_language(conn)
            if isinstance(s, facts.Series):
                return facts.roll_up_and_prune(conn, s, edge, lang), None
            return world.roll_up_and_prune(conn, s, edge, lang), None
    except facts.PruneMismatch as exc:
        return 0, str(exc)


def _episodes(db: Database, owner_report: OwnerReport, edge: datetime, dry_run: bool) -> None:
    """Roll each curated chat month behind `edge` up and prune its turns, one transaction per month."""
    with db.owner_tx(owner_report.owner, read_only=True) as conn:
        months = episodes.plan(conn, edge)
    for m in months:
        item = SeriesReport(series=f"chat {m.chat_id} {m.month:%Y-%m}", rows=m.n, readings=m.n)
        owner_report.episodes.append(item)
        if not dry_run:
            with db.owner_tx(owner_report.owner) as conn:
                item.pruned = episodes.roll_up_and_prune(conn, m, edge)


def _drop(db: Database, m: date, report: Report) -> None:
    try:
        with db.connection() as conn, conn.transaction():
            report.dropped[f"{m:%Y-%m}"] = observed.drop_month(conn, m)
    except psycopg.errors.CheckViolation as exc:
        report.kept[f"{m:%Y-%m}"] = (exc.diag.message_primary or str(exc)).removeprefix("retention: ")
