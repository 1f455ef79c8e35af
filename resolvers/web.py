"""The explorer's built assets (web/dist, made by `make run`), served at `/` beside `/graphql`.

Mounted after the GraphQL router, so `/graphql` always wins. The explorer routes with the URL hash
(`/#/entity/pet:luna?at=...`), so the server needs no fallback route. Without a build, `/` says how to make one.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from starlette.responses import PlainTextResponse
from starlette.staticfiles import StaticFiles

from graph.settings import REPO_ROOT

DIST = REPO_ROOT / "web" / "dist"
NOT_BUILT = "The explorer is not built: run `make run` (it needs Node >= 20 and npm).\nGraphQL: /graphql\n"


def mount_explorer(app: FastAPI, dist: Path = DIST) -> None:
    if (dist / "index.html").is_file():
        app.mount("/", StaticFiles(directory=dist, html=True), name="explorer")
        return

    async def not_built() -> PlainTextResponse:
        return PlainTextResponse(NOT_BUILT, status_code=404)

    app.add_api_route("/", not_built, methods=["GET"], include_in_schema=False)
