"""The time to move one owner from cluster A to cluster B (graph/routing/move.py), and whether its answers survive.

A scratch database on the primary cluster (A, the directory) gets a generated world of about `--facts` fact
rows (bench.export_roundtrip.generate); a second cluster in the embedded root (B: `--cluster`, started if it
is not running, needs root) gets a scratch database too. The owner is moved A -> B with `move_owner` (the
servers' route cache is `--settle` seconds here, the wait the move spends twice), and sampled answers
(stateAt / stateAsKnownAt at sampled instants, factHistory, explainChange, neighbours) read from A before
and from B after are compared, ids aside. Both scratch databases are dropped at the end.

    python -m bench.move_owner [--facts 100000] [--sample 100] [--cluster bench_b] [--settle 2] [--project]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import psycopg
from psycopg import sql

from bench.export_roundtrip import answers, generate, instants_of
from bench.fresh_data import ref, scratch
from graph.finder.reconciler import reconcile_owner
from graph.platform import clusters
from graph.platform.connect import role_url
from graph.platform.db import Database
from graph.platform.host import port_holder
from graph.platform.migrate import migrate
from graph.routing.move import SETTLE_S, move_owner
from graph.settings import Settings, get_settings
from graph.transfer.dump import export_lines

OWNER = "bench-mover"


def _cluster(settings: Settings, name: str) -> int:
    port = clusters.port_of(settings.root_dir, name) or next(
        p for p in range(54500, 54600) if p != settings.db_port and port_holder(p) is None)
    clusters.up(settings, name, port)
    return port


def _load() -> str:
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.move_owner", description=__doc__.split("\n")[0])
    parser.add_argument("--facts", type=int, default=100_000, help="fact rows of the generated world (about)")
    parser.add_argument("--sample", type=int, default=100, help="entities whose answers are compared")
    parser.add_argument("--cluster", default="bench_b", help="the second cluster in the embedded root")
    parser.add_argument("--project", action="store_true", help="project the owner's entities on A first (the "
                        "finder's texts, no embeddings), as a server's finder would have: the move copies them")
    parser.add_argument("--settle", type=float, default=2.0, help="token_cache_s of the servers (the move waits "
                                                                   "it out twice)")
    args = parser.parse_args(argv)
    settings = get_settings()
    port = _cluster(settings, args.cluster)
    b_admin = clusters.admin_url(settings, port, f"worldmem_move_{os.getpid()}")
    b_settings = clusters.cluster_settings(settings, b_admin)
    migrate(b_settings)
    try:
        with scratch(settings) as (a_admin, a_app):
            db = Database(a_app, max_size=2, statement_timeout_ms=600_000)
            b_db = Database(role_url(b_settings, "app"), max_size=2, statement_timeout_ms=600_000)
            try:
                started = time.perf_counter()
                generate(db, OWNER, args.facts)
                print(f"[move_owner] generated in {time.perf_counter() - started:.1f} s", flush=True)
                if args.project:
                    started = time.perf_counter()
                    done = reconcile_owner(db, OWNER, None)
                    print(f"[move_owner] {done.projected} entities projected on A in "
                          f"{time.perf_counter() - started:.1f} s", flush=True)
                lines = export_lines(db, OWNER)
                step = max(1, (args.facts * 3 // 7) // args.sample)
                refs = [ref(i) for i in range(0, args.facts * 3 // 7, step)][:args.sample]
                instants = instants_of(lines)
                before = answers(db, OWNER, refs, instants, ["description", "knows"])
                two = settings.model_copy(update={"database_url": a_admin, "clusters": f"b={b_admin}",
                                                  "token_cache_s": args.settle})
                print(f"[move_owner] load average before the move: {_load()}", flush=True)
                started = time.perf_counter()
                report = move_owner(two, OWNER, "b")
                total = time.perf_counter() - started
                print(f"[move_owner] load average after the move: {_load()}", flush=True)
                print(f"[move_owner] {report.records} records ({args.facts} facts asked) moved in {total:.1f} s "
                      f"(of which {2 * (args.settle + SETTLE_S):g} s waiting out the route cache); steps: "
                      f"{json.dumps(report.seconds)}", flush=True)
                after = answers(b_db, OWNER, refs, instants, ["description", "knows"])
                same = sum(x == y for x, y in zip(before, after, strict=True))
                with psycopg.connect(a_admin) as conn:
                    left = conn.execute("SELECT count(*) FROM facts WHERE owner_sub = %s", (OWNER,)).fetchone()
                print(f"[move_owner] answers compared: {len(before)}, identical: {same}; facts left on A: "
                      f"{left[0] if left else '?'}", flush=True)
                return 0 if same == len(before) and left == (0,) else 1
            finally:
                db.close()
                b_db.close()
    finally:
        with psycopg.connect(clusters.admin_url(settings, port, "postgres"), autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
                sql.Identifier(f"worldmem_move_{os.getpid()}")))


if __name__ == "__main__":
    sys.exit(main())
