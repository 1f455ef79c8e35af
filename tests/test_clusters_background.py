"""The background work of an owner on cluster B (the second cluster of tests/test_clusters.py): its turns are
curated and committed on B by the inline curator and by the catch-up, the finder's sweep projects and embeds
its rows on B, and the Temporal jobs' activities act on B; A holds nothing of the owner but its token."""

from __future__ import annotations

import argparse
import asyncio
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient
from temporalio.testing import ActivityEnvironment

from cli import finder as finder_cli
from cli import retention as retention_cli
from curator.batch import RunReport
from curator.durable.types import workflow_id
from curator.durable.worker import connect, signal_turn, worker
from curator.inline import InlineRuntime
from curator.pipeline import Curator
from curator.runtime import Runtime
from curator.turns import lagging_chats
from graph.demo import load_demo
from graph.errors import Moving
from graph.finder.durable import FinderActivities, ReconcileInput
from graph.platform.clusters import cluster_settings
from graph.platform.connect import role_url
from graph.platform.db import Database
from graph.retention.durable import RetentionActivities, RunInput
from graph.retention.job import Options, OwnerReport, Report
from graph.retention.routed import merged
from graph.routing.config import router_for
from graph.routing.finder import RoutedNudger
from graph.settings import Settings
from resolvers.app import create_app
from tests.curator_llm import Script, entity, fact, ops, turn
from tests.gql import gql, new_token
from tests.temporal_dev import temporal  # noqa: F401
from tests.test_clusters import cluster_b  # noqa: F401  (the session's cluster B)
from tests.test_finder import HashEmbedder
from tests.test_owner_delete import rows_of

REMEMBER = "mutation($c: String!, $t: String!) { rememberThis(chatId: $c, text: $t) { seq } }"
LUNA = ops(entity("pet:luna", "Luna", aliases=["Luna"]),
           fact("pet:luna", "feeding_time", "19:00", quote="Futter um 19 Uhr"))
FEEDING = ("SELECT count(*) FROM facts WHERE owner_sub = %s AND predicate = 'feeding_time' "
           "AND object_value #>> '{}' = '19:00'")
PROJECTED = ("SELECT count(*) FILTER (WHERE embedding IS NOT NULL AND NOT embedding_pending) AS embedded, count(*) "
             "FROM memory_projections WHERE owner_sub = %s")


def _on_b(test_db_url: str) -> str:
    """A new owner whose route names cluster b (written as the administrator, as `worldmem owner move` does)."""
    owner = f"onb-{uuid.uuid4().hex[:10]}"
    with psycopg.connect(test_db_url) as conn:
        conn.execute("INSERT INTO owner_routes (routed_owner, cluster) VALUES (%s, 'b')", (owner,))
    return owner


@pytest.fixture
def two(settings: Settings, test_db_url: str, cluster_b: str) -> Settings:  # noqa: F811
    return settings.model_copy(update={"database_url": test_db_url, "clusters": f"b={cluster_b}",
                                       "token_cache_s": 0.3, "curator_debounce_s": 0.2,
                                       "curator_catchup_s": 3600})


@pytest.fixture
def db_b(settings: Settings, cluster_b: str) -> Iterator[Database]:  # noqa: F811
    database = Database(role_url(cluster_settings(settings, cluster_b), "app"), max_size=2)
    yield database
    database.close()


def _count(url: str, query: str, owner: str) -> tuple[Any, ...]:
    with psycopg.connect(url) as conn:
        row = conn.execute(query, (owner,)).fetchone()
    assert row is not None
    return tuple(row)


def test_a_turn_of_an_owner_on_b_is_curated_and_committed_on_b(two: Settings, test_db_url: str,
                                                               cluster_b: str) -> None:  # noqa: F811
    owner = _on_b(test_db_url)
    token = new_token(test_db_url, owner)
    script = Script(answers=[LUNA])
    with TestClient(create_app(two, curator_model=script.model()), raise_server_exceptions=False) as client:
        body = gql(client, token, REMEMBER, {"c": "b-chat", "t": "Luna ist meine Katze, Futter um 19 Uhr"})
        assert "errors" not in body, body
        runtime: Runtime = client.app.state.curator  # type: ignore[attr-defined]
        client.portal.call(runtime.inline.idle)  # type: ignore[union-attr]
        assert [r.status for r in runtime.inline.reports] == ["committed"], list(runtime.inline.reports)
        assert script.calls == 1
    assert _count(cluster_b, FEEDING, owner) == (1,)
    with psycopg.connect(test_db_url) as a_conn:
        assert rows_of(a_conn, owner) == {"api_tokens": 1}  # the turn, the run and the fact: all on B


def test_the_catch_up_finds_and_curates_a_lagging_chat_on_b(two: Settings, test_db_url: str, db: Database,
                                                            db_b: Database, cluster_b: str) -> None:  # noqa: F811
    owner = _on_b(test_db_url)
    new_token(test_db_url, owner)  # the catch-up lists the owners of the directory's tokens
    turn(db_b, owner, "late-chat", "Luna ist meine Katze, Futter um 19 Uhr")  # stored while no curator ran
    router = router_for(two, db)
    assert router is not None
    try:
        assert (owner, "late-chat") not in lagging_chats(db, None, timedelta(0))  # A has no turn of the owner
        assert (owner, "late-chat") in lagging_chats(db, None, timedelta(0), router.writable)
    finally:
        router.close()
    script = Script(answers=[LUNA])
    with TestClient(create_app(two, curator_model=script.model()), raise_server_exceptions=False) as client:
        runtime: Runtime = client.app.state.curator  # type: ignore[attr-defined]
        reports = client.portal.call(runtime.catch_up, timedelta(0), owner)  # type: ignore[union-attr]
        assert [r.status for r in reports] == ["committed"], reports
    assert _count(cluster_b, FEEDING, owner) == (1,)
    with psycopg.connect(test_db_url) as a_conn:
        assert rows_of(a_conn, owner) == {"api_tokens": 1}


def test_the_sweep_and_the_finder_job_embed_an_owners_rows_on_b(two: Settings, test_db_url: str, db: Database,
                                                               db_b: Database, cluster_b: str) -> None:  # noqa: F811
    swept, scheduled = _on_b(test_db_url), _on_b(test_db_url)
    for owner in (swept, scheduled):
        new_token(test_db_url, owner)
        load_demo(db_b, owner)  # written on B without a finder: nothing projected yet
        assert _count(cluster_b, PROJECTED, owner) == (0, 0)
    router = router_for(two, db)
    assert router is not None
    embedder = HashEmbedder()
    jobs = ActivityEnvironment()  # the activities as the worker runs them (heartbeats need an activity context)
    summary = asyncio.run(jobs.run(FinderActivities(db, embedder, router).reconcile, ReconcileInput(owner=scheduled)))
    assert summary.errors == [] and summary.embedded > 0
    embedded, total = _count(cluster_b, PROJECTED, scheduled)
    assert total > 0 and embedded == total
    nudger = RoutedNudger(router, embedder, interval_s=0.1)
    nudger.start()
    try:
        for _ in range(200):  # the sweep visits every owner of the directory, each on its cluster
            embedded, total = _count(cluster_b, PROJECTED, swept)
            if total and embedded == total:
                break
            time.sleep(0.1)
        assert total > 0 and embedded == total, (embedded, total)
    finally:
        nudger.stop()
    retention = asyncio.run(jobs.run(RetentionActivities(db, router).run, RunInput(owner=scheduled)))
    assert retention.owners == 1 and retention.errors == []
    # every owner, each on its cluster: B's owners are counted where their rows are (on A they have none)
    dry = Options(window_days=90, dry_run=True)
    everywhere = {o.owner: o for o in RetentionActivities(db, router).report(dry).owners}
    on_a = {o.owner: o for o in RetentionActivities(db).report(dry).owners}
    assert everywhere[scheduled].permanent_rows > 0 and everywhere[swept].permanent_rows > 0
    assert on_a[scheduled].permanent_rows == 0
    router.close()
    with psycopg.connect(test_db_url) as a_conn:
        for owner in (swept, scheduled):
            assert rows_of(a_conn, owner) == {"api_tokens": 1}


def test_the_temporal_worker_curates_an_owner_on_b_on_b(two: Settings, temporal: str, test_db_url: str,  # noqa: F811
                                                        db: Database, db_b: Database, cluster_b: str) -> None:  # noqa: F811
    durable = two.model_copy(update={"temporal_address": temporal,
                                     "temporal_task_queue": f"curator-{uuid.uuid4().hex[:8]}"})
    owner = _on_b(test_db_url)
    turn(db_b, owner, "durable-chat", "Luna ist meine Katze, Futter um 19 Uhr")
    router = router_for(durable, db)
    assert router is not None
    script = Script(answers=[LUNA])

    async def go() -> list[RunReport]:
        client = await connect(durable)
        curator = Curator(db, durable, script.model(), router.writable)
        async with worker(client, durable, curator, router):
            await signal_turn(client, durable, owner, "durable-chat", True)
            handle = client.get_workflow_handle(workflow_id(owner, "durable-chat"), result_type=list[RunReport])
            result: list[RunReport] = await handle.result()
            return result

    try:
        reports = asyncio.run(go())
    finally:
        router.close()
    assert [r.status for r in reports] == ["committed"], reports
    assert _count(cluster_b, FEEDING, owner) == (1,)
    with psycopg.connect(test_db_url) as a_conn:
        assert rows_of(a_conn, owner) == {}  # no token was needed: the worker acts on the turns it is signalled


def test_an_owner_being_moved_is_curated_after_the_move_ends(two: Settings, test_db_url: str, db: Database,
                                                             db_b: Database, cluster_b: str) -> None:  # noqa: F811
    owner = _on_b(test_db_url)
    turn(db_b, owner, "moving-chat", "Luna ist meine Katze, Futter um 19 Uhr")
    mark = "UPDATE owner_routes SET moving_to = %s, moving_since = now() WHERE routed_owner = %s"
    with psycopg.connect(test_db_url) as conn:
        conn.execute(mark, ("main", owner))
    router = router_for(two, db)
    assert router is not None
    script = Script(answers=[LUNA])
    curator = Curator(db, two, script.model(), router.writable)

    async def go() -> list[RunReport]:
        inline = InlineRuntime(curator, asyncio.get_running_loop())
        inline.on_turn(owner, "moving-chat", True)
        await asyncio.sleep(two.token_cache_s + 0.2)
        assert not inline.reports and script.calls == 0  # refused while the move is marked, before the LLM
        assert lagging_chats(db, owner, timedelta(0), router.writable) == []  # the catch-up leaves it too
        with psycopg.connect(test_db_url) as conn:
            conn.execute(mark.replace("%s, moving_since = now()", "NULL, moving_since = NULL"), (owner,))
        await asyncio.wait_for(inline.idle(), 10)  # the run is tried again after retryAfter, and commits
        return list(inline.reports)

    try:
        with pytest.raises(Moving):
            asyncio.run(curator.curate(owner, "moving-chat"))
        reports = asyncio.run(go())
    finally:
        router.close()
    assert [r.status for r in reports] == ["committed"] and script.calls == 1
    assert _count(cluster_b, FEEDING, owner) == (1,)


def test_the_finder_and_retention_commands_act_on_an_owners_cluster(two: Settings, test_db_url: str,
                                                                    db_b: Database, cluster_b: str,  # noqa: F811
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    owner = _on_b(test_db_url)
    new_token(test_db_url, owner)
    load_demo(db_b, owner)
    texts_only = two.model_copy(update={"embedding_provider": "none"})  # no model to load: projections only
    assert finder_cli.run(argparse.Namespace(action="reconcile", owner=owner), texts_only) == 0
    embedded, total = _count(cluster_b, PROJECTED, owner)
    assert total > 0 and embedded == 0  # projected on B, where the owner's entities are
    dry = argparse.Namespace(action="run", dry_run=True, owner=owner, window_days=None, now=None)
    assert retention_cli.run(dry, two) == 0
    out = capsys.readouterr().out
    assert f"{owner}: {total} projections" in out
    permanent = int(out.split(f"owner {owner}\n  permanent: ")[1].split()[0])
    assert permanent > 0  # counted on B: on A the owner has no fact


def test_merged_reports_add_the_clusters_owners_and_dropped_rows() -> None:
    edge = datetime(2026, 9, 1, tzinfo=UTC)
    a = Report(edge=edge, dry_run=False, owners=[OwnerReport(owner="x", permanent_rows=1, event_months={})],
               dropped={"2026-05": 3}, kept={"2026-06": "an owner is not rolled up"})
    b = Report(edge=edge, dry_run=False, owners=[OwnerReport(owner="y", permanent_rows=2, event_months={})],
               dropped={"2026-05": 4, "2026-04": 1})
    both = merged([a, b])
    assert [o.owner for o in both.owners] == ["x", "y"]
    assert both.dropped == {"2026-05": 7, "2026-04": 1} and both.kept == {"2026-06": "an owner is not rolled up"}
    assert [o.owner for o in a.owners] == ["x"] and a.dropped == {"2026-05": 3}  # the inputs are not changed
