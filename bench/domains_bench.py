"""Contacts, commitments and attribute history at a household's scale, on a scratch database.

    python -m bench.domains_bench [--contacts 1000] [--tasks 1000] [--changes 5000] [--runs 100]

One owner upserts `contacts` people one call at a time (an e-mail and a phone each; names drawn from
bench.fresh_data's lists, so some share a name and become merge suggestions), then reads them; imports
`tasks` tasks (status, due date, every third blocked by another) and reads `commitments` and
`pendingReview`; imports `changes` status changes of one device (open/closed every 10 minutes; the committer
re-reads a functional predicate's believed rows per assertion, so that import is quadratic: 1,500 by
default) and asks `attributeSeries` for a day and for everything, and `heldFor`. Prints p50/p95 per call (ms) as the app
role under row-level security, and the plans (EXPLAIN ANALYZE) of the named queries on these paths.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from bench.fresh_data import FIRST, LAST, scratch
from graph.domains import commitments, contacts, history
from graph.governance.review import pending_review
from graph.ledger import entities
from graph.ledger.committer import commit_proposal
from graph.ledger.proposal import AssertFact, AssertRelationship, MemoryMutationProposal, UpsertEntity
from graph.ledger.tokens import Principal, owner_principal
from graph.platform.db import Database
from graph.settings import get_settings
from graph.sql import load

OWNER = "bench-domains"
T0 = datetime(2026, 1, 1, tzinfo=UTC)
DEVICE = "device:front_door"


def timed(fn: Callable[[Any], object], inputs: list[Any]) -> str:
    ms = []
    for x in inputs:
        started = time.perf_counter()
        fn(x)
        ms.append((time.perf_counter() - started) * 1000)
    p95 = statistics.quantiles(ms, n=20)[18] if len(ms) > 1 else ms[0]
    return f"{statistics.median(ms):.2f} / {p95:.2f}"


def commit_all(db: Database, ops: list[Any], run: str) -> None:
    for i in range(0, len(ops), 500):
        proposal = MemoryMutationProposal(run_id=f"{run}-{i}", operations=ops[i:i + 500])
        result = commit_proposal(db, owner_principal(OWNER), proposal)
        if result.rejected:
            raise RuntimeError(f"{run} rejected: {result.rejected[:3]}")


def person(i: int, rng: random.Random) -> tuple[list[str], str]:
    return [f"email:p{i}@example.org", f"phone:+49 170 {1000000 + i}"], f"{rng.choice(FIRST)} {rng.choice(LAST)}"


def tasks(n: int, rng: random.Random) -> list[Any]:
    ops: list[Any] = []
    for i in range(n):
        ref = f"task:t{i}"
        ops += [UpsertEntity(ref=ref, kind="task", canonical_name=f"Task {i}"),
                AssertFact(subject=ref, predicate="status", value=rng.choice(["open", "open", "done"]), valid_from=T0),
                AssertFact(subject=ref, predicate="due", valid_from=T0,
                           value=(datetime.now(UTC) + timedelta(days=rng.randint(-60, 60))).date().isoformat())]
        if i % 3 == 0 and i:
            ops.append(AssertRelationship(subject=ref, predicate="blocked_by", object=f"task:t{i - 1}", valid_from=T0))
    return ops


def changes(n: int) -> list[Any]:
    ops: list[Any] = [UpsertEntity(ref=DEVICE, kind="device", canonical_name="Front door")]
    ops += [AssertFact(subject=DEVICE, predicate="status", value="open" if i % 2 else "closed",
                       valid_from=T0 + timedelta(minutes=10 * i), valid_to=T0 + timedelta(minutes=10 * (i + 1)))
            for i in range(n)]
    return ops


def plans(db: Database, ids: dict[str, Any]) -> None:
    queries: dict[str, dict[str, Any]] = {
        "contacts_holders": {"namespaces": ["email", "phone"], "aliases": ["p7@example.org", "+491701000007"]},
        "contacts_identities": {"ids": [ids["contact"]], "valid_time": datetime.now(UTC), "system_time": None},
        "commitments_list": {"kinds": commitments.KINDS, "at": datetime.now(UTC), "status": None, "open_only": True,
                             "closed": sorted(commitments.CLOSED), "limit": commitments.MAX_SCAN},
        "history_rows": {"subject_id": ids["device"], "predicate": "status", "scope_id": None, "system_time": None,
                         "from": T0, "to": T0 + timedelta(days=1), "limit": history.MAX_ROWS + 1},
    }
    with db.owner_tx(OWNER, read_only=True) as conn:
        for name, params in queries.items():
            rows = conn.execute(b"EXPLAIN (ANALYZE, COSTS OFF) " + load(name).encode(), params).fetchall()
            text = [r["QUERY PLAN"] for r in rows]
            print(f"\n{name}:\n  " + "\n  ".join(line for line in text if "Index" in line or "Seq Scan" in line
                                                    or "Execution Time" in line))


def in_tx(db: Database, fn: Callable[[Any], object]) -> object:
    with db.owner_tx(OWNER, read_only=True) as conn:
        return fn(conn)


def row(label: str, fn: Callable[[Any], object], inputs: list[Any]) -> None:
    print(f"| {label} | {timed(fn, inputs)} |", flush=True)


def contact_cases(db: Database, n: int, runs: int, rng: random.Random) -> float:
    who = Principal(owner=OWNER, kind="integration", name="carddav")
    people = [person(i, rng) for i in range(n)]
    started = time.perf_counter()
    row(f"upsertContact, new person (x{n})", lambda x: contacts.upsert_contact(db, who, x[0], x[1]), people)
    total = time.perf_counter() - started
    again = [people[rng.randrange(n)] for _ in range(runs)]
    row("upsertContact, known identities", lambda x: contacts.upsert_contact(db, who, x[0], x[1]), again)
    emails = [f"p{rng.randrange(n)}@example.org" for _ in range(runs)]
    row("contact(identity)", lambda e: contacts.get_contact(db, OWNER, e), emails)
    row("contacts(limit 100)", lambda _: contacts.list_contacts(db, OWNER), list(range(runs)))
    row("contacts(name: müller)", lambda _: contacts.list_contacts(db, OWNER, "müller"), list(range(runs)))
    return total


def other_cases(db: Database, args: argparse.Namespace, rng: random.Random) -> None:
    commit_all(db, tasks(args.tasks, rng), "tasks")
    runs = list(range(args.runs))
    row(f"commitments (x{args.tasks} tasks)", lambda _: commitments.commitments(db, OWNER), runs)
    row("pendingReview (whole, 10 calls)", lambda _: pending_review(db, OWNER), runs[:10])
    row("  its commitments part (attention)",
        lambda _: in_tx(db, lambda c: commitments.attention(c, datetime.now(UTC))), runs)
    row("  its contact suggestions part", lambda _: in_tx(db, lambda c: contacts.suggestion_rows(c, 40)), runs)
    commit_all(db, changes(args.changes), "door")
    end = T0 + timedelta(minutes=10 * args.changes)
    days = [T0 + timedelta(days=rng.randrange(max(1, args.changes // 144))) for _ in range(args.runs)]
    row("attributeSeries, one day (144 points)",
        lambda d: history.attribute_series(db, OWNER, DEVICE, "status", d, d + timedelta(days=1)), days)
    row(f"attributeSeries, all {args.changes} rows",
        lambda _: history.attribute_series(db, OWNER, DEVICE, "status", T0, end), list(range(20)))
    row("heldFor(5 min, random asOf)", lambda d: history.held(db, OWNER, DEVICE, "status", "open", 5, at=d), days)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.domains_bench")
    parser.add_argument("--contacts", type=int, default=1000)
    parser.add_argument("--tasks", type=int, default=1000)
    parser.add_argument("--changes", type=int, default=1500)
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--keep", action="store_true", help="keep the scratch database (its name is printed)")
    args = parser.parse_args(argv)
    rng = random.Random(7)
    with scratch(get_settings(), keep=args.keep) as (_, app):
        print(f"[domains] scratch database: {app.rsplit('/', 1)[-1]}", flush=True)
        db = Database(app, max_size=2)
        try:
            print("| call | p50 / p95 ms |\n|---|---:|")
            total = contact_cases(db, args.contacts, args.runs, rng)
            other_cases(db, args, rng)
            print(f"\n{args.contacts} contact upserts took {total:.1f} s ({args.contacts / total:.0f}/s); "
                  f"{len(pending_review(db, OWNER, 100).items)} review items (up to 100)")
            with db.owner_tx(OWNER, read_only=True) as conn:
                ids = {"contact": entities.require(conn, "p7@example.org").id,
                       "device": entities.require(conn, DEVICE).id}
            plans(db, ids)
        finally:
            db.close()


if __name__ == "__main__":
    main()
