"""The FastAPI application: `POST /graphql` (GraphiQL on GET, offline: see graphiql.py; subscriptions over
WebSocket) and the explorer at `/`, built by `create_app`."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack, asynccontextmanager

from fastapi import FastAPI
from fastapi.responses import Response
from pydantic_ai.models import Model
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from curator import runtime as curator_runtime
from curator.health import ModelHealth
from curator.turns import NO_LISTENER, TurnListener
from graph.error_codes import ErrorCode
from graph.finder import query_vectors
from graph.finder.embedders import OfflineEmbedder, embedder_for
from graph.finder.nudger import Nudger, sweep_interval
from graph.ledger.token_cache import TokenCache
from graph.platform import metrics, standby
from graph.platform.connect import role_url
from graph.platform.db import Database
from graph.platform.db_async import LoopReads
from graph.platform.live import CommitHub
from graph.platform.session_locks import SessionLocks
from graph.routing.config import router_for
from graph.routing.finder import RoutedNudger
from graph.settings import Settings, get_settings
from resolvers import document_cache
from resolvers.access_log import AccessLog
from resolvers.admission import OwnerAdmission, admission_key
from resolvers.context import context_getter
from resolvers.direct import DirectGraphQL, takes
from resolvers.graphiql import OfflineLiveRouter, mount_graphiql
from resolvers.metrics_access import refusal
from resolvers.request_guard import PostGuard, RequestGuard
from resolvers.responses import error_body, respond
from resolvers.schema import schema
from resolvers.sync_body import integration_allowance
from resolvers.web import mount_explorer

PAYLOAD_TOO_LARGE = "PAYLOAD_TOO_LARGE"
LISTEN_WAIT_S = 2.0
NUDGE_WAIT_S = 5.0  # an owner another process reconciles longer: the nudge is queued again (and shutdown waits less)


def create_app(settings: Settings | None = None, *, database_url: str | None = None,
               turn_listener: TurnListener | None = None, curator_model: Model | None = None) -> WorldmemApp:
    """The app, with its own pool as worldmem_app (or `database_url`), closed on shutdown.

    `turn_listener` is told after every stored chat turn; without one, the lifespan starts the curator's
    runtime (curator.runtime: inline or on Temporal) when a model is configured, or `curator_model` is given.
    """
    settings = settings or get_settings()
    query_vectors.keep(settings.query_vectors)
    url = database_url or role_url(settings, "app")
    database = Database(
        url,
        max_size=settings.pool_max_size,
        statement_timeout_ms=settings.statement_timeout_ms,
    )
    if read_urls := standby.from_setting(settings.read_database_url):
        database.standbys = standby.Standbys(read_urls, wait_ms=settings.read_wait_ms,
                                             max_size=settings.pool_max_size,
                                             statement_timeout_ms=settings.statement_timeout_ms)

    @asynccontextmanager
    async def lifespan(app: WorldmemApp) -> AsyncIterator[None]:
        async with AsyncExitStack() as stack:  # undone in reverse order, also when start-up fails half-way
            if app.access is not None:  # set by resolvers.serving for `worldmem serve`
                stack.callback(app.access.close)
            stack.callback(database.close)
            if clusters is not None:
                stack.callback(clusters.close)
            stack.push_async_callback(live.close)
            for hub in cluster_hubs.values():
                stack.push_async_callback(hub.close)
            await live.listen(LISTEN_WAIT_S)  # its first forget comes before any request, not amid them
            embedder = embedder_for(settings)
            if isinstance(embedder, OfflineEmbedder):  # loaded before the first request, not by it (~1.7 s)
                await asyncio.to_thread(embedder.warm)
            finder: Nudger | None = None
            if settings.finder_background:  # with other clusters: each owner reconciled on its own cluster
                locks = SessionLocks(url, wait_s=NUDGE_WAIT_S)
                finder = (Nudger(database, embedder, sweep_interval(settings), locks) if clusters is None
                          else RoutedNudger(clusters, embedder, sweep_interval(settings), locks))
            if finder is not None:
                finder.start()
                stack.callback(finder.stop)
            app.state.finder = finder
            # point reads on this loop (resolvers.pinned)
            database.loop_reads = await stack.enter_async_context(LoopReads(database))
            stack.callback(setattr, database, "loop_reads", None)
            if turn_listener is not None:
                yield
                return
            health = app.state.curator_health = ModelHealth()
            where = clusters.writable if clusters is not None else None  # each owner curated on its cluster
            runtime = await stack.enter_async_context(curator_runtime.running(database, settings, curator_model,
                                                                              health, where))
            app.state.curator = runtime
            app.state.turn_listener = runtime or NO_LISTENER
            yield

    app = WorldmemApp(title="worldmem", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    live = CommitHub(url)
    # an erasure through any process of the database empties these in this one (graph.platform.live)
    live.on_erased += [query_vectors.forget, document_cache.forget_all, metrics.erasure_forgets.inc]
    tokens = TokenCache(settings.token_cache_s)  # one cache: the context's token check and the admission's key
    clusters = router_for(settings, database)  # None with one cluster: no route lookups (graph/routing)
    cluster_hubs = {name: CommitHub(u) for name, u in clusters.urls.items()} if clusters is not None else {}
    get_context = context_getter(database, settings, tokens, clusters)
    router = OfflineLiveRouter(schema, context_getter=get_context)
    app.include_router(router, prefix="/graphql")
    app.add_api_route("/metrics", _metrics(settings.metrics_token), methods=["GET"], include_in_schema=False)
    mount_graphiql(app)  # GraphiQL's assets, before the explorer's mount at `/` could shadow them
    mount_explorer(app)  # last: it is mounted at `/` and would shadow any route added after it
    app.add_middleware(RequestGuard, body_timeout_s=settings.body_timeout_s)
    allowance = integration_allowance(database, settings)
    app.add_middleware(BodyLimit, max_bytes=settings.max_request_bytes,  # outermost: before any read
                       allowance=allowance)
    # POST /graphql with JSON: the same limit and body checks, then resolvers.direct
    app.direct = BodyLimit(PostGuard(DirectGraphQL(app, schema, get_context), settings.body_timeout_s),
                           max_bytes=settings.max_request_bytes, allowance=allowance)
    app.state.database = database
    app.state.turn_listener = turn_listener or NO_LISTENER
    app.state.live = live
    app.state.cluster_hubs = cluster_hubs  # the commit listeners of the other clusters (no connection until used)
    app.admission = OwnerAdmission(settings.owner_request_share)
    app.tokens = tokens
    return app


class WorldmemApp(FastAPI):
    """FastAPI, with `direct` answering what resolvers.direct takes (a JSON POST to /graphql) and the
    framework everything else, and `access` noting every HTTP response for the access log
    (resolvers.access_log) when set."""

    direct: ASGIApp | None = None
    access: AccessLog | None = None
    admission: OwnerAdmission | None = None  # each owner's share of the requests in progress
    tokens: TokenCache | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        admission, tokens = self.admission, self.tokens
        key = None
        if admission is not None and tokens is not None and not admission.unbounded and scope["type"] == "http":
            key = admission_key(scope, tokens)
        if key is None or admission is None:
            await self._admitted(scope, receive, send)
            return
        async with admission.admitted(key):
            await self._admitted(scope, receive, send)

    async def _admitted(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.access is not None and scope["type"] == "http":
            send = self.access.wrap(scope, send)
        if self.direct is not None and takes(scope):
            await self.direct(scope, receive, send)
        else:
            await super().__call__(scope, receive, send)


def _metrics(metrics_token: str | None) -> Callable[[Request], Response]:
    """Prometheus metrics (aggregates only: no owner, chat or content), for the scraper that may read them
    (resolvers.metrics_access: the metrics token, or this machine when none is set)."""

    def scrape(request: Request) -> Response:
        refused = refusal(request, metrics_token)
        if refused is not None:
            status, reason = refused
            headers = {"WWW-Authenticate": 'Bearer realm="metrics"'} if status == 401 else None
            code = ErrorCode.UNAUTHENTICATED if status == 401 else ErrorCode.FORBIDDEN
            return Response(error_body(reason, code), status_code=status, headers=headers,
                            media_type="application/json")
        body, content_type = metrics.exposition()
        return Response(content=body, media_type=content_type)

    return scrape


class BodyLimit:
    """Refuses request bodies over `max_bytes` with 413 and a GraphQL-shaped typed error.

    Checks the declared Content-Length first and also counts the bytes actually received, so a chunked
    body cannot slip past the limit. A larger body is asked about once: `allowance(scope)` may raise the
    limit for this request (an integration token's sync: resolvers/sync_body.py).
    """

    def __init__(self, app: ASGIApp, max_bytes: int,
                 allowance: Callable[[Scope], Awaitable[int]] | None = None) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.allowance = allowance

    async def _limit(self, scope: Scope) -> int:
        return max(self.max_bytes, await self.allowance(scope)) if self.allowance else self.max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.max_bytes
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            limit = await self._limit(scope)
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            await self._refuse(send, limit)
            return
        received = 0
        started = False
        asked = limit > self.max_bytes

        async def counting_receive() -> Message:
            nonlocal received, limit, asked
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit and not asked:
                    asked, limit = True, await self._limit(scope)
                if received > limit:
                    raise _TooLarge(limit)
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counting_receive, tracking_send)
        except _TooLarge as exc:
            if not started:
                await self._refuse(send, exc.limit)

    async def _refuse(self, send: Send, limit: int) -> None:
        await respond(send, 413, f"request body larger than {limit} bytes", PAYLOAD_TOO_LARGE)


class _TooLarge(Exception):
    def __init__(self, limit: int) -> None:
        super().__init__(limit)
        self.limit = limit
