"""What GraphQL execution costs around a read: `schema.execute` against the document's compiled plan, in process.

    python -m bench.plan_cost [--reps 500]

On the comparison world (`python -m bench.http_reads --load-only` loads it), one owner's token principal, no
HTTP: each read of issue 11's table (and worldContext) is answered in turn by `schema.execute` (Strawberry and
graphql-core, the schema's extension included) and by its plan (resolvers.compiled.execute), with the same
variables, alternating which goes first; both answers are encoded as resolvers.direct encodes them and must
be the same bytes (mismatches are counted). Reports p50 / p95 per side in ms and what the plan saves at p50:
the database's share is the same on both sides, so the difference is the executor's.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import time
from collections.abc import Awaitable, Callable
from typing import Any

from graphql import parse
from strawberry.http import process_result

from bench import cmp_world
from bench.cmp_load import owner
from bench.http_mixed import Q_CONTEXT
from bench.http_reads import DB, Q_ENTITY, Q_HOOD, Q_SEARCH, Q_STATE
from bench.http_server import Summary
from graph.ledger.tokens import Principal, owner_principal
from graph.platform.connect import role_url
from graph.platform.db import Database
from graph.settings import get_settings
from resolvers import compiled, plans
from resolvers.context import Context
from resolvers.schema import schema

READS = (("stateAt(now)", Q_STATE), ("getEntity", Q_ENTITY), ("stateAt(T)", Q_STATE),
         ("neighbors depth 1", Q_HOOD), ("searchWorldMemory text", Q_SEARCH), ("worldContext", Q_CONTEXT))


def variables(read: str, entity: cmp_world.Entity, word: str) -> dict[str, Any]:
    if read.startswith("stateAt"):
        return {"r": entity.ref, "t": cmp_world.T_PAST.isoformat() if read == "stateAt(T)" else None}
    if read.startswith("search"):
        return {"q": word, "m": "TEXT"}
    if read == "worldContext":
        return {"m": f"What do we know about {entity.name}?"}
    return {"r": entity.ref}


async def by_execute(db: Database, plan: plans.Plan, query: str, given: dict[str, Any],
                     principal: Principal) -> bytes:
    result = await schema.execute(query, variable_values=given, context_value=Context(db, get_settings(), principal))
    return json.dumps(process_result(result), separators=(",", ":")).encode()


async def by_plan(db: Database, plan: plans.Plan, query: str, given: dict[str, Any],
                  principal: Principal) -> bytes:
    return compiled.encoded(*await compiled.execute(plan, Context(db, get_settings(), principal), given))


ANSWER: dict[str, Callable[..., Awaitable[bytes]]] = {"execute": by_execute, "plan": by_plan}


async def measure(db: Database, reps: int) -> dict[str, dict[str, Any]]:
    world = cmp_world.world()
    group = world[0]
    principal = owner_principal(owner(group.index))
    rng = random.Random(11)
    words = [w for e in group.entities for w in e.name.split() if len(w) > 3]
    out: dict[str, dict[str, Any]] = {}
    for read, query in READS:
        plan = plans.compile_document(schema._schema, parse(query))
        assert plan is not None, read
        times: dict[str, list[float]] = {"execute": [], "plan": []}
        mismatches = 0
        for i in range(reps):
            given = variables(read, rng.choice(group.entities), rng.choice(words))
            answers = {}
            for name in ("execute", "plan") if i % 2 else ("plan", "execute"):
                started = time.perf_counter()
                answers[name] = await ANSWER[name](db, plan, query, given, principal)
                times[name].append(time.perf_counter() - started)
            mismatches += answers["execute"] != answers["plan"]
        execute, by_plan_ = Summary.of(times["execute"][reps // 10:]), Summary.of(times["plan"][reps // 10:])
        out[read] = {"execute": vars(execute), "plan": vars(by_plan_), "mismatches": mismatches,
                     "saved_p50_ms": round(execute.p50_ms - by_plan_.p50_ms, 3)}
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reps", type=int, default=500)
    args = parser.parse_args()
    db = Database(role_url(get_settings(), "app", DB), max_size=2, statement_timeout_ms=120_000)
    try:
        results = asyncio.run(measure(db, args.reps))
    finally:
        db.close()
    print(f"{'read':<26} {'execute p50 / p95':>18} {'plan p50 / p95':>16} {'saved p50':>10} {'mismatches':>10}")
    for read, r in results.items():
        e, p = r["execute"], r["plan"]
        print(f"{read:<26} {e['p50_ms']:>8.3f} / {e['p95_ms']:<7.3f} {p['p50_ms']:>7.3f} / {p['p95_ms']:<7.3f} "
              f"{r['saved_p50_ms']:>10.3f} {r['mismatches']:>10}")


if __name__ == "__main__":
    main()
