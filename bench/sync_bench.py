"""syncEntities at 10,000 entries per call: new, unchanged, and 5 % changed.

On a scratch database of its own (created, migrated and dropped here), an integration `bench` syncs
10,000 GitHub-like issues (5 content keys each) three times: all new, all unchanged (the same call again),
and 5 % changed (one key each). Each call is timed end to end, through the public function
(`graph.sync.writer.sync_entities`: pool checkout, the owner's transaction, every statement, as
worldmem_app under row-level security, with the app's statement timeout) and, with `--http`, through
GraphQL (`POST /graphql` in process: the body limit, parsing ~3 MB of variables, the resolver).

    python -m bench.sync_bench [--entries 10000] [--changed 0.05] [--http] [--keep]
"""

from __future__ import annotations

import argparse
import logging
import time
from datetime import UTC, datetime, timedelta
from typing import Any, LiteralString

from bench.fresh_data import scratch
from graph.ledger.registries import register_entity_kinds, register_relation_types
from graph.ledger.tokens import Principal, create_token
from graph.platform.db import Database
from graph.settings import get_settings
from graph.sql import load
from graph.sync.entries import SyncEntry
from graph.sync.writer import sync_entities

OWNER = "sync-bench"
NAME = "bench"
KEYS = ("title", "state", "labels", "author", "assignee")
SYNC = """mutation($s: String!, $e: [SyncEntryInput!]!) { syncEntities(source: $s, entries: $e) {
  created changed unchanged rejected entries { status code } } }"""


def issues(n: int, at: datetime, changed: set[int] | None = None, repo: str = "acme/repo") -> list[dict[str, Any]]:
    out = []
    for i in range(n):
        state = "closed" if changed and i in changed else "open"
        out.append({"sourceEntryId": f"I_{i}", "kind": f"{NAME}:issue", "externalId": f"{repo}#{i}",
                    "observedAt": at.isoformat(),
                    "content": {"title": f"Issue number {i}", "state": state, "labels": ["bug", f"l{i % 7}"],
                                "author": f"user{i % 50}", "assignee": None if i % 3 else f"user{i % 11}"}})
    return out


def as_entries(rows: list[dict[str, Any]]) -> list[SyncEntry]:
    return [SyncEntry(source_entry_id=r["sourceEntryId"], kind=r["kind"], external_id=r["externalId"],
                      content=r["content"], observed_at=datetime.fromisoformat(r["observedAt"])) for r in rows]


def setup(db: Database) -> Principal:
    who = Principal(owner=OWNER, kind="integration", name=NAME, can_integrate=True)
    register_entity_kinds(db, [{"key": f"{NAME}:issue", "name": "issue"}], principal=who)
    register_relation_types(db, [{"key": f"{NAME}:{k}", "name": k, "cardinality": "functional"} for k in KEYS],
                            principal=who)
    return who


def timed(label: str, call: Any, expect: dict[str, int]) -> float:
    started = time.perf_counter()
    counts = call()
    seconds = time.perf_counter() - started
    ok = "ok" if counts == expect else f"UNEXPECTED {counts}"
    print(f"{label:<34} {seconds:7.2f} s   {counts}  {ok}", flush=True)
    return seconds


def counts_of(result: Any) -> dict[str, int]:
    if isinstance(result, dict):
        return {k: int(result[k]) for k in ("created", "changed", "unchanged", "rejected")}
    return {k: int(getattr(result, k)) for k in ("created", "changed", "unchanged", "rejected")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--changed", type=float, default=0.05)
    parser.add_argument("--http", action="store_true", help="also through GraphQL (in-process HTTP)")
    parser.add_argument("--keep", action="store_true", help="keep the scratch database")
    args = parser.parse_args()
    logging.basicConfig(format="    %(message)s")
    logging.getLogger("worldmem.sync").setLevel(logging.DEBUG)
    settings = get_settings()
    n, k = args.entries, int(args.entries * args.changed)
    with scratch(settings, keep=args.keep) as (admin, app):
        db = Database(app, max_size=2, statement_timeout_ms=settings.statement_timeout_ms)
        who = setup(db)
        t0 = datetime.now(UTC) - timedelta(hours=2)
        first, later = issues(n, t0), issues(n, t0 + timedelta(hours=1), set(range(0, n, n // k)) if k else set())
        print(f"{n} entries, {k} changed; statement timeout {settings.statement_timeout_ms} ms")
        none = {"created": 0, "changed": 0, "unchanged": 0, "rejected": 0}
        timed("python: new", lambda: counts_of(sync_entities(db, who, "acme/repo", as_entries(first))),
              {**none, "created": n})
        timed("python: unchanged", lambda: counts_of(sync_entities(db, who, "acme/repo", as_entries(first))),
              {**none, "unchanged": n})
        timed(f"python: {args.changed:.0%} changed",
              lambda: counts_of(sync_entities(db, who, "acme/repo", as_entries(later))),
              {**none, "changed": k, "unchanged": n - k})
        if args.http:
            _http(settings, admin, app, n, k, t0)
        _explain(db, n)
        db.close()


def _explain(db: Database, n: int) -> None:
    """The plans of the set-based reads at this scale, as worldmem_app under row-level security."""
    keys = {"integration": NAME, "source": "acme/repo", "entry_ids": [f"I_{i}" for i in range(n)],
            "kinds": [f"{NAME}:issue"] * n, "external_ids": [f"acme/repo#{i}" for i in range(n)]}
    with db.owner_tx(OWNER) as conn:  # not read-only: sync_facts_believed locks (FOR UPDATE)
        ids = [r["entity_id"] for r in conn.execute(load("sync_entries_existing"), keys).fetchall()]
        cases: list[tuple[LiteralString, dict[str, Any]]] = [
            ("sync_entries_existing", keys),
            ("sync_entities_for_keys", {**keys, "refs": [f"{NAME}:issue:acme/repo#{i}" for i in range(n)]}),
            ("sync_cause_targets", {"ids": ids, "since": datetime.now(UTC) - timedelta(days=8),
                                    "until": datetime.now(UTC)}),
            ("sync_facts_believed", {"subjects": ids[:1000], "predicates": [f"{NAME}:state"] * min(1000, n)}),
        ]
        for name, params in cases:
            plan = [r["QUERY PLAN"] for r in conn.execute("EXPLAIN (ANALYZE, COSTS OFF) " + load(name), params)]
            nodes = sorted({line.strip().removeprefix("-> ").split(" (")[0].split(" on ")[0] for line in plan
                            if "Scan" in line or "Join" in line})
            print(f"plan {name:<24} {plan[-1].strip():<28} {', '.join(nodes)}")


def _http(settings: Any, admin: str, app: str, n: int, k: int, t0: datetime) -> None:
    from fastapi.testclient import TestClient

    from resolvers.app import create_app

    token = create_token(admin, OWNER, kind="integration", name=NAME)
    none = {"created": 0, "changed": 0, "unchanged": 0, "rejected": 0}
    first = issues(n, t0 + timedelta(minutes=90), repo="acme/http")
    later = issues(n, t0 + timedelta(minutes=100), set(range(1, n, n // k)) if k else set(), repo="acme/http")
    with TestClient(create_app(settings, database_url=app)) as client:
        def call(rows: list[dict[str, Any]]) -> dict[str, int]:
            response = client.post("/graphql", json={"query": SYNC, "variables": {"s": "http", "e": rows}},
                                   headers={"Authorization": f"Bearer {token}"})
            body = response.json()
            if "errors" in body:
                raise RuntimeError(str(body["errors"])[:500])
            return counts_of(body["data"]["syncEntities"])

        print(f"request body: {len(str(first)) / 1e6:.1f} MB (about)")
        timed("graphql: new", lambda: call(first), {**none, "created": n})
        timed("graphql: unchanged", lambda: call(first), {**none, "unchanged": n})
        timed(f"graphql: {k / n:.0%} changed", lambda: call(later), {**none, "changed": k, "unchanged": n - k})


if __name__ == "__main__":
    main()
