"""Tokens per turn: the curator over its own labelled German and English turns, with a scripted model.

The turns are tests/data/prefilter_turns_{de,en}.txt (LABEL | text, T = something durable, S = skip), put
into chats of `--turns-per-chat` turns in file order and curated `--turns-per-run` turns per run (the debounce's
5 turns). The model is a pydantic-ai FunctionModel answering an empty proposal at once, so the figures are
what worldmem sends: input tokens as the scripted model counts them (pydantic-ai's estimate, ~1 per word,
plus 50 per call), the prompt's approx_tokens (4 characters a token, the quota's unit), and the output
schema a hosted model also reads with every call (tool or native mode). Recorded per call in curator_usage
(curatorUsage), read back from there. A fresh database `worldmem_bench_tokens`, dropped at the end.

    python -m bench.curator_tokens [--turns-per-chat 20] [--turns-per-run 5]
"""

from __future__ import annotations

import argparse
import asyncio
import json
from datetime import UTC, datetime
from pathlib import Path

import psycopg
from psycopg import sql
from pydantic_ai.messages import ModelMessage, ModelResponse, ToolCallPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

from curator.batch import RunReport
from curator.pipeline import Curator
from curator.prompt import SYSTEM_PROMPT
from curator.turns import TurnIn, record_turn
from curator.usage import usage_since
from graph.agent.render import approx_tokens
from graph.platform.connect import admin_url, role_url
from graph.platform.db import Database
from graph.platform.migrate import migrate
from graph.settings import get_settings

DB = "worldmem_bench_tokens"
DATA = Path(__file__).resolve().parents[1] / "tests" / "data"
PROMPTS: list[int] = []
SCHEMA: list[int] = []


def answer(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    PROMPTS.append(approx_tokens(str(messages[-1])))
    if not SCHEMA:
        SCHEMA.append(approx_tokens(json.dumps(info.output_tools[0].parameters_json_schema)))
    return ModelResponse(parts=[ToolCallPart(info.output_tools[0].name, {"operations": []})])


def labelled(lang: str) -> list[tuple[str, str]]:
    lines = (DATA / f"prefilter_turns_{lang}.txt").read_text().splitlines()
    return [(label.strip(), text.strip()) for label, _, text in
            (line.partition("|") for line in lines if line.strip() and not line.startswith("#"))]


async def curate(curator: Curator, owner: str, chats: list[str]) -> list[RunReport]:
    return [r for chat in chats for r in await curator.curate(owner, chat)]


def measure(db: Database, curator: Curator, lang: str, per_chat: int) -> dict[str, object]:
    owner, turns = f"bench-tokens-{lang}", labelled(lang)
    chats = [f"{lang}-{n // per_chat}" for n in range(len(turns))]
    for (_, text), chat in zip(turns, chats, strict=True):
        record_turn(db, owner, TurnIn(chat_id=chat, text=text))
    PROMPTS.clear()
    reports = asyncio.run(curate(curator, owner, sorted(set(chats))))
    spent = usage_since(db, owner, datetime(2000, 1, 1, tzinfo=UTC))
    runs = {s: sum(r.status == s for r in reports) for s in ("committed", "skipped", "failed")}
    return {"language": lang, "turns": len(turns), "durable_turns": sum(label == "T" for label, _ in turns),
            "runs": runs, "llm_calls": spent.calls, "turns_in_calls": spent.turns,
            "input_tokens": spent.input_tokens, "output_tokens": spent.output_tokens,
            "input_tokens_per_turn_all": round(spent.input_tokens / len(turns), 1),
            "input_tokens_per_turn_in_calls": spent.input_per_turn,
            "output_tokens_per_turn_in_calls": spent.output_per_turn,
            "prompt_approx_tokens_per_call": round(sum(PROMPTS) / max(1, len(PROMPTS)), 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns-per-chat", type=int, default=20)
    parser.add_argument("--turns-per-run", type=int, default=5)
    args = parser.parse_args()
    settings = get_settings().model_copy(update={"curator_max_turns": args.turns_per_run,
                                                 "curator_quota_burst": 10**9, "curator_quota_tokens_per_day": 10**12})
    with psycopg.connect(admin_url(settings, "postgres"), autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(DB)))
    migrate(settings, admin_url(settings, DB))
    db = Database(role_url(settings, "app", DB), max_size=2)
    try:
        curator = Curator(db, settings, FunctionModel(answer, model_name="scripted"))
        results = [measure(db, curator, lang, args.turns_per_chat) for lang in ("de", "en")]
    finally:
        db.close()
        with psycopg.connect(admin_url(settings, "postgres"), autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(DB)))
    fixed = approx_tokens(SYSTEM_PROMPT) + (SCHEMA[0] if SCHEMA else 0)
    for r in results:  # what a hosted model in tool mode reads per turn: system prompt + schema + the prompt
        calls, turns, prompt = r["llm_calls"], r["turns_in_calls"], r["prompt_approx_tokens_per_call"]
        assert isinstance(calls, int) and isinstance(turns, int) and isinstance(prompt, float)
        r["approx_hosted_input_tokens_per_turn_in_calls"] = round((fixed + prompt) * calls / max(1, turns), 1)
    print(json.dumps({"turns_per_run": args.turns_per_run, "system_prompt_approx_tokens": approx_tokens(SYSTEM_PROMPT),
                      "output_schema_approx_tokens": SCHEMA[0] if SCHEMA else None, "languages": results},
                     indent=2))


if __name__ == "__main__":
    main()
