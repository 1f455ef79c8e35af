"""Curator throughput: turns per second through load → prefilter → analyse → validate → commit.

The LLM is a pydantic-ai FunctionModel that answers at once (so this measures worldmem, not a model):
each durable turn yields an entity and two facts. A fresh database (`worldmem_bench_curator`, migrated,
dropped at the end); `--chats` chats of `--turns` turns each, a fifth of them small talk (skipped by the
prefilter, no LLM call); chats are curated `--parallel` at a time (asyncio; the database steps run in threads).

    python -m bench.curator_bench [--chats 20] [--turns 20] [--parallel 4] [--batch 5]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import time
from typing import Any

import psycopg
from psycopg import sql
from pydantic_ai.messages import ModelMessage, ModelResponse, ToolCallPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

from curator.batch import RunReport
from curator.pipeline import Curator
from curator.turns import TurnIn, record_turn
from graph.platform.connect import admin_url, role_url
from graph.platform.db import Database
from graph.platform.migrate import migrate
from graph.settings import get_settings

DB = "worldmem_bench_curator"
PET = re.compile(r"Haustier (\d+)")
OWNER = "bench-curator"


def answer(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    """An entity and two facts for every durable turn of the prompt (its `pet <n>` names)."""
    prompt = str(messages[-1])
    names = sorted({int(n) for n in PET.findall(prompt[prompt.find("## New turns"):])})
    ops: list[dict[str, Any]] = []
    for n in names:
        ops += [{"op": "upsert_entity", "ref": f"pet:p{n}", "kind": "pet", "canonical_name": f"Haustier {n}",
                 "source": "user_assertion"},
                {"op": "assert_fact", "subject": f"pet:p{n}", "predicate": "feeding_time", "value": f"{n % 24:02d}:00",
                 "valid_from": "2026-11-01T00:00:00Z", "source": "user_assertion",
                 "evidence": {"kind": "message", "text": f"Haustier {n}"}},
                {"op": "assert_fact", "subject": f"pet:p{n}", "predicate": "birthday", "value": "2020-01-01",
                 "valid_from": "2026-11-01T00:00:00Z", "source": "user_assertion",
                 "evidence": {"kind": "message", "text": f"Haustier {n}"}}]
    return ModelResponse(parts=[ToolCallPart(info.output_tools[0].name, {"operations": ops})])


def text(chat: int, i: int) -> str:
    if i % 5 == 4:
        return "danke, passt 👍"
    n = chat * 1000 + i
    return f"Haustier {n} bekommt immer um {n % 24} Uhr Futter, merk dir das"


async def curate_all(curator: Curator, chats: int, parallel: int) -> list[RunReport]:
    gate = asyncio.Semaphore(parallel)

    async def one(chat: int) -> list[RunReport]:
        async with gate:
            return await curator.curate(OWNER, f"chat-{chat}")

    return [r for rs in await asyncio.gather(*(one(c) for c in range(chats))) for r in rs]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--chats", type=int, default=20)
    parser.add_argument("--turns", type=int, default=20)
    parser.add_argument("--parallel", type=int, default=4)
    parser.add_argument("--batch", type=int, default=5, help="turns per curator run (the debounce's 5 turns)")
    args = parser.parse_args()
    settings = get_settings().model_copy(update={"curator_max_turns": args.batch,
                                                 "curator_quota_burst": 10**9, "curator_quota_tokens_per_day": 10**12})
    with psycopg.connect(admin_url(settings, "postgres"), autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(DB)))
    migrate(settings, admin_url(settings, DB))
    db = Database(role_url(settings, "app", DB), max_size=args.parallel + 2)
    try:
        started = time.perf_counter()
        for chat in range(args.chats):
            for i in range(args.turns):
                record_turn(db, OWNER, TurnIn(chat_id=f"chat-{chat}", text=text(chat, i)))
        recorded = time.perf_counter() - started
        curator = Curator(db, settings, FunctionModel(answer, model_name="bench"))
        started = time.perf_counter()
        reports = asyncio.run(curate_all(curator, args.chats, args.parallel))
        elapsed = time.perf_counter() - started
    finally:
        db.close()
        with psycopg.connect(admin_url(settings, "postgres"), autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(DB)))
    turns = args.chats * args.turns
    statuses: dict[str, int] = {}
    for r in reports:
        statuses[r.status] = statuses.get(r.status, 0) + 1
    print(json.dumps({
        "turns": turns, "runs": len(reports), "statuses": statuses,
        "committed_ops": sum(r.committed for r in reports), "dropped_ops": sum(len(r.dropped) for r in reports),
        "record_turns_per_s": round(turns / recorded, 1), "curated_turns_per_s": round(turns / elapsed, 1),
        "ms_per_run": round(1000 * elapsed / max(1, len(reports)) * args.parallel, 1),
        "parallel": args.parallel, "turns_per_run": args.batch,
    }, indent=2))


if __name__ == "__main__":
    main()
