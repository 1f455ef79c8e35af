"""`worldmem mcp`: the command around client.mcp_server (which imports nothing of the server)."""

from __future__ import annotations

import argparse
import os

from client.mcp_server import NotServing, serve
from graph.errors import WorldmemError
from graph.settings import Settings


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    mcp = sub.add_parser("mcp", help="serve the agent tools over MCP (stdio; --http for streamable HTTP)")
    mcp.add_argument("--token", default=os.environ.get("WORLDMEM_TOKEN"),
                     help="a worldmem token (default: $WORLDMEM_TOKEN); checked before serving")
    mcp.add_argument("--url", help="the worldmem GraphQL server (default: http://HOST:PORT of the settings)")
    mcp.add_argument("--http", action="store_true", help="streamable HTTP at http://HOST:PORT/mcp instead of stdio")
    mcp.add_argument("--host", default="127.0.0.1", help="--http: the address to bind (default: 127.0.0.1)")
    mcp.add_argument("--port", type=int, default=8765, help="--http: the port (default: 8765)")


def run(args: argparse.Namespace, settings: Settings) -> int:
    if not args.token:
        raise WorldmemError("worldmem mcp needs a token: --token T or WORLDMEM_TOKEN (worldmem token create)")
    try:
        serve(args.url or f"http://{settings.host}:{settings.port}", args.token, http=args.http, host=args.host,
              port=args.port)
    except NotServing as exc:
        raise WorldmemError(str(exc)) from exc
    return 0
