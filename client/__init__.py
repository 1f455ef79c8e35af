"""The agent client: worldmem's read tools over GraphQL (httpx), and as a pydantic-ai toolset.

    from client import WorldmemClient, worldmem_toolset

    async with WorldmemClient("http://127.0.0.1:8000", token) as memory:
        block = await memory.world_context("When is Luna fed?", chat_id="c1")
        agent = Agent(model, toolsets=[worldmem_toolset(memory)], instructions=block)
"""

from client.http import MemoryUnavailable, ToolInputError, WorldmemClient
from client.toolset import worldmem_toolset

__all__ = ["MemoryUnavailable", "ToolInputError", "WorldmemClient", "worldmem_toolset"]
