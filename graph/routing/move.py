"""Moving one owner from its cluster to another while it stays readable (`worldmem owner move O --to b`).

1. The directory marks the route as moving: every server refuses the owner's writes (UNAVAILABLE, retryable,
   graph.errors.Moving) once it reads the route again, at most token_cache_s later, which the move waits out.
   Reads go on from the source the whole time.
2. The owner's clock row is locked once on the source, so a commit already in flight finishes first.
3. Export from the source, import into the target (graph/transfer: one transaction there), export the
   copy again and compare the id-free digests; the source's row counts must not have changed meanwhile.
   The owner's search texts and embeddings are copied too (graph/routing/projections.py), so search answers
   on arrival as it did on the source.
4. The route switches to the target (writes allowed again, now there); after token_cache_s more no server
   reads the source any longer, and the owner's rows are deleted from it (wm_delete_owner; the tokens stay,
   they live in the directory).

A crash before step 4 leaves the route on the source with the source intact: a rerun deletes the target's
partial copy (it was never the owner's data: the route did not point there) and starts over; a move to the
cluster the owner is on ends it instead (the copy deleted, writes allowed again). A check that
fails deletes the copy and ends the move (route on the source, writes allowed) with MOVE_CHECK_FAILED.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import psycopg
from psycopg import sql
from psycopg.types.json import Jsonb

from graph.errors import BadInput, Conflict
from graph.platform.clusters import cluster_settings
from graph.platform.connect import role_url
from graph.platform.db import Database
from graph.platform.pooling import check_owner
from graph.routing.config import admin_urls
from graph.routing.projections import copy_projections
from graph.routing.routes import DEFAULT, read_route
from graph.routing.verify import export_digest, table_counts
from graph.settings import Settings
from graph.sql import load
from graph.transfer.dump import export_lines
from graph.transfer.load import import_lines

SETTLE_S = 0.5  # beyond token_cache_s: a request that read the old route just before it changed is done
MOVE_TIMEOUT_MS = 600_000


@dataclass
class MoveReport:
    owner: str
    source: str
    target: str
    records: int = 0
    digest: str = ""
    seconds: dict[str, float] = field(default_factory=dict)


def move_owner(settings: Settings, owner: str, to: str,
               say: Callable[[str], None] = lambda _: None) -> MoveReport:
    check_owner(owner)
    urls = admin_urls(settings)
    if to not in urls:
        raise BadInput(f"no cluster {to!r}: known are {', '.join(urls)} (WORLDMEM_CLUSTERS)", code="UNKNOWN_CLUSTER")
    with psycopg.connect(urls[DEFAULT], autocommit=True) as directory:
        route = read_route(directory, owner)
        report = MoveReport(owner, route.cluster, to)
        if route.cluster == to:
            if route.moving_to is not None and route.moving_to in urls:
                # moving an owner to where it lives ends an unfinished move away from there
                say(f"ending the unfinished move of {owner!r} to {route.moving_to!r}; it stays on {to!r}")
                _abandon(urls, owner, route.moving_to)
            else:
                say(f"owner {owner!r} already lives on {to!r}")
            return report
        marked = directory.execute(load("route_mark_moving"), {"owner": owner, "at": route.cluster, "to": to})
        if marked.fetchone() is None:
            raise Conflict(f"owner {owner!r} is being moved to {route.moving_to!r}; finish that move first",
                           code="OWNER_MOVING")
    settle = settings.token_cache_s + SETTLE_S
    clock = _Clock(report)
    say(f"writes of {owner!r} are refused from now on; waiting {settle:g} s until every server knows")
    time.sleep(settle)
    source, target = _app(settings, urls[route.cluster]), _app(settings, urls[to])
    try:
        if table_counts_at(urls[to], owner):
            say(f"deleting a partial copy on {to!r} left by an earlier attempt")
            delete_copy(urls[to], owner)
        with source.owner_tx(owner) as conn:  # a commit in flight finishes before the export's snapshot
            conn.execute(load("clock_init"))
            conn.execute(load("clock_lock"))
        before = table_counts_at(urls[route.cluster], owner)
        copy_vocabulary(urls[route.cluster], urls[to], owner)
        lines = clock.lap("export", lambda: export_lines(source, owner))
        clock.lap("import", lambda: import_lines(target, owner, lines))
        copied = clock.lap("verify", lambda: export_lines(target, owner))
        report.records, report.digest = len(lines) - 2, export_digest(lines)
        if export_digest(copied) != report.digest or table_counts_at(urls[route.cluster], owner) != before:
            _abandon(urls, owner, to)
            raise Conflict(f"the copy of {owner!r} on {to!r} differs from the source; the move was undone "
                           "(the owner stays, writes allowed again); run it again", code="MOVE_CHECK_FAILED")
        # search works on arrival, as on the source: its texts and embeddings come along
        clock.lap("project", lambda: copy_projections(urls[route.cluster], urls[to], owner))
        _switch(urls[DEFAULT], owner, to)
        say(f"owner {owner!r} now lives on {to!r}; the source is emptied after {settle:g} s")
        time.sleep(settle)
        clock.lap("erase", lambda: delete_copy(urls[route.cluster], owner))
    finally:
        source.close()
        target.close()
    return report


class _Clock:
    def __init__(self, report: MoveReport) -> None:
        self.report = report

    def lap(self, name: str, step: Callable[[], Any]) -> Any:
        started = time.perf_counter()
        out = step()
        self.report.seconds[name] = round(time.perf_counter() - started, 3)
        return out


def _app(settings: Settings, admin: str) -> Database:
    return Database(role_url(cluster_settings(settings, admin), "app"), max_size=1,
                    statement_timeout_ms=MOVE_TIMEOUT_MS)


def _switch(directory_url: str, owner: str, to: str) -> None:
    with psycopg.connect(directory_url) as conn, conn.transaction():
        if conn.execute(load("route_switch"), {"owner": owner, "to": to}).fetchone() is None:
            raise Conflict(f"the route of {owner!r} changed during the move; nothing was switched",
                           code="OWNER_MOVING")
        conn.execute(load("route_forget_default"), {"owner": owner, "default": DEFAULT})


def _abandon(urls: dict[str, str], owner: str, to: str) -> None:
    delete_copy(urls[to], owner)
    with psycopg.connect(urls[DEFAULT], autocommit=True) as conn:
        conn.execute(load("route_abandon"), {"owner": owner})
        conn.execute(load("route_forget_default"), {"owner": owner, "default": DEFAULT})


def table_counts_at(admin: str, owner: str) -> dict[str, int]:
    with psycopg.connect(admin, autocommit=True) as conn:
        return table_counts(conn, owner)


def copy_vocabulary(source: str, target: str, owner: str) -> None:
    """The shared entity kinds and relation types the owner's rows use, onto the target where it lacks them
    (vocabulary is global per cluster; the export file carries only what the owner registered)."""
    with psycopg.connect(source, autocommit=True) as conn:
        used = conn.execute(load("route_vocabulary_used"), {"owner": owner}).fetchall()
    with psycopg.connect(target) as conn, conn.transaction():
        for table, rows in used:
            if rows:
                query = sql.SQL(load("route_vocabulary_add")).format(table=sql.Identifier(table))
                conn.execute(query, {"rows": Jsonb(rows)})


def delete_copy(admin: str, owner: str) -> None:
    """Every row of `owner` on the cluster at `admin` but its tokens (wm_delete_owner; a receipt is kept)."""
    with psycopg.connect(admin, options="-c search_path=public,ag_catalog") as conn, conn.transaction():
        conn.execute(load("tx_set_owner"), (owner,))
        conn.execute(load("route_tokens_keep"), {"owner": owner})
        conn.execute(load("owner_delete"), {"by": "admin"})
        conn.execute(load("route_tokens_restore"))
