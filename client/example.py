"""A runnable example: the Known World State for a question, then an agent with worldmem's tools.

    worldmem token create --owner demo          # prints a token (make run loaded the demo world)
    python -m client.example --token wm_... "When does Luna get fed?"
    python -m client.example --token wm_... --model openai:gpt-4o "When does Luna get fed?"

Without --model it runs offline: a scripted model searches memory for the question and answers with
what the tool returned, so you see exactly what an agent would read.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from pydantic_ai import Agent
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


def offline(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    """Search memory for the user's words, then answer with what came back."""
    returned = [p for m in messages if isinstance(m, ModelRequest) for p in m.parts if isinstance(p, ToolReturnPart)]
    if returned:
        return ModelResponse(parts=[TextPart(str(returned[-1].content))])
    asked = [p.content for m in messages if isinstance(m, ModelRequest) for p in m.parts
             if isinstance(p, UserPromptPart)]
    question = str(asked[-1]) if asked else ""
    return ModelResponse(parts=[ToolCallPart("search_world_memory", {"query": question})])


async def run(url: str, token: str, question: str, model: str | None, chat_id: str) -> None:
    async with WorldmemClient(url, token) as memory:
        world = await memory.world_context(question, chat_id=chat_id)
        print(world or "(memory unavailable)", end="\n\n")
        agent = Agent(model or FunctionModel(offline), toolsets=[worldmem_toolset(memory)],
                      instructions="Answer from the Known World State and the worldmem tools.\n\n" + world)
        result = await agent.run(question)
        print(result.output)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m client.example", description=__doc__.split("\n")[0])
    parser.add_argument("question")
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--token", required=True, help="from `worldmem token create --owner demo`")
    parser.add_argument("--model", help="a pydantic-ai model name, e.g. openai:gpt-4o (default: offline)")
    parser.add_argument("--chat-id", default="c1")
    args = parser.parse_args(argv)
    asyncio.run(run(args.url, args.token, args.question, args.model, args.chat_id))
    return 0


if __name__ == "__main__":
    sys.exit(main())
