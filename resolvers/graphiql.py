"""GraphiQL served from the package: the page and its scripts and styles never leave this server.

Strawberry's own GraphiQL page loads React and GraphiQL from unpkg, so offline it hangs on "Loading...".
`static/graphiql/` holds the same files (vendored from npm, see LICENSES.txt) and a copy of the page
that names them by path under ASSETS_PATH, with a first query that explains the Authorization header.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse
from starlette.staticfiles import StaticFiles

from resolvers.live import LiveRouter

STATIC = Path(__file__).resolve().parent / "static" / "graphiql"
ASSETS_PATH = "/graphiql-assets"


class OfflineLiveRouter(LiveRouter):
    """The GraphQL router (with subscriptions) whose GraphiQL page comes from the package."""

    async def render_graphql_ide(self, request: Request) -> HTMLResponse:
        return HTMLResponse((STATIC / "index.html").read_text(encoding="utf-8"))


def mount_graphiql(app: FastAPI) -> None:
    """The assets under ASSETS_PATH (GET / is the explorer's, resolvers/web.py)."""
    app.mount(ASSETS_PATH, StaticFiles(directory=STATIC), name="graphiql-assets")
