"""A runnable example: the Known World State for a question, then an agent with worldmem's tools.

    worldmem token create --owner demo            # prints a token (make run loaded the demo world)
    export WORLDMEM_TOKEN=wm_...
    python -m client.example "When does Luna get fed?"
    python -m client.example --url http://127.0.0.1:8000 --model openai:gpt-4o "When does Luna get fed?"

Without --model it runs offline: a scripted model looks up the entities the Known World State linked to
the question (or, when none, searches memory word by word) and answers with exactly what the tools
returned, so you see what an agent would read. `--model openai:...` needs OPENAI_API_KEY.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import sys

from pydantic_ai import Agent
from pydantic_ai.exceptions import UserError
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel

from client import WorldmemClient, worldmem_toolset

LINKED = re.compile(r"^- \*\*([a-z][a-z0-9_]*:[^*\s]+)\*\*", re.MULTILINE)
WORD = re.compile(r"[^\W\d_]{3,}")
STOP = frozenset("""the and does did when what where who why how get gets got are was were has have had
for with from about this that there their our your you not can will would should into onto der die das
und wann wie was wer wo warum ist sind hat haben bekommt mit von""".split())
MAX_LOOKUPS = 3


def linked_refs(instructions: str | None) -> list[str]:
    """The refs the Known World State's "Linked entities" section names, in order, without repeats."""
    return list(dict.fromkeys(LINKED.findall(instructions or "")))[:MAX_LOOKUPS]


def content_words(question: str) -> list[str]:
    """The question's words worth searching for, longest first (search needs every word of a query)."""
    words = [w for w in WORD.findall(question) if w.lower() not in STOP]
    return sorted(dict.fromkeys(words), key=len, reverse=True)[:MAX_LOOKUPS]


def offline(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    """Look the linked entities up (or search word by word), then answer with what came back."""
    returned = [p for m in messages if isinstance(m, ModelRequest) for p in m.parts if isinstance(p, ToolReturnPart)]
    if returned:
        return ModelResponse(parts=[TextPart("From memory:\n" + "\n".join(str(p.content) for p in returned))])
    refs = linked_refs(info.instructions)
    if refs:
        return ModelResponse(parts=[ToolCallPart("recall_facts_about", {"entity_or_query": ref}, tool_call_id=f"r{i}")
                                    for i, ref in enumerate(refs)])
    asked = [p.content for m in messages if isinstance(m, ModelRequest) for p in m.parts
             if isinstance(p, UserPromptPart)]
    words = content_words(str(asked[-1]) if asked else "")
    if not words:
        return ModelResponse(parts=[TextPart("I found nothing to look up in that question.")])
    return ModelResponse(parts=[ToolCallPart("search_world_memory", {"query": w}, tool_call_id=f"s{i}")
                                for i, w in enumerate(words)])


async def run(url: str, token: str, question: str, model: str | None, chat_id: str) -> str:
    async with WorldmemClient(url, token) as memory:
        world = await memory.world_context(question, chat_id=chat_id)
        print(world or f"(memory unavailable: is `worldmem serve` running at {url}, and is the token valid? "
                       "try: curl " + memory.endpoint + ")", end="\n\n")
        agent = build_agent(model, memory, world)
        result = await agent.run(question)
        return result.output


def build_agent(model: str | None, memory: WorldmemClient, world: str) -> Agent[None, str]:
    return Agent(model or FunctionModel(offline), toolsets=[worldmem_toolset(memory)],
                 instructions="Answer from the Known World State and the worldmem tools.\n\n" + world)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m client.example", description=__doc__.split("\n")[0])
    parser.add_argument("question")
    parser.add_argument("--url", default=os.environ.get("WORLDMEM_URL", "http://127.0.0.1:8000"),
                        help="the worldmem server (default: $WORLDMEM_URL or http://127.0.0.1:8000)")
    parser.add_argument("--token", default=os.environ.get("WORLDMEM_TOKEN"),
                        help="default: $WORLDMEM_TOKEN (from `worldmem token create --owner demo`)")
    parser.add_argument("--model", help="a pydantic-ai model name, e.g. openai:gpt-4o (default: offline)")
    parser.add_argument("--chat-id", default="c1")
    args = parser.parse_args(argv)
    if not args.token:
        parser.error("no token: set WORLDMEM_TOKEN or pass --token (create one with "
                     "`worldmem token create --owner demo`)")
    try:
        print(asyncio.run(run(args.url, args.token, args.question, args.model, args.chat_id)))
    except UserError as exc:  # e.g. no OPENAI_API_KEY, or an unknown model name
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
