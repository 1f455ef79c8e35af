"""Retention of windowed facts: rolled up, then pruned; as-of exact inside the window, summaries (and a notice
saying so) behind it; permanent rows untouched; safe to run twice; the database refuses a prune without its
rollup. The world: tests/retention_world.py (60 days of a sensor, window 30 days)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient

from cli.main import main
from graph.agent import recall
from graph.agent.render import about_text
from graph.demo import TYPES as DEMO_TYPES
from graph.ledger.committer import commit_proposal
from graph.ledger.proposal import AssertFact, MemoryMutationProposal, UpsertEntity
from graph.ledger.registries import register_relation_types
from graph.ledger.tokens import owner_principal
from graph.platform.db import Database
from graph.reads.temporal import state_as_known_at, state_at
from graph.retention import facts, job
from graph.settings import get_settings
from tests.conftest import TEST_DB
from tests.gql import MakeToken, client, gql, make_token  # noqa: F401
from tests.retention_world import DAYS, SENSOR, WINDOW_DAYS, load_sensor

Answer = list[tuple[str, Any, datetime, datetime | None]]


@dataclass
class World:
    owner: str
    start: datetime
    now: datetime
    before_valid: dict[datetime, Answer]
    before_known: dict[datetime, Answer]
    rows_before: dict[str, int]
    rows_after_dry_run: dict[str, int]
    dry: job.Report
    first: job.Report
    texts_first: dict[str, str]
    again: job.Report
    texts_again: dict[str, str] = field(default_factory=dict)

    @property
    def edge(self) -> datetime:
        return self.first.edge


def _answer(db: Database, owner: str, valid: datetime, known: datetime | None = None) -> Answer:
    view = state_at(db, owner, SENSOR, valid) if known is None else state_as_known_at(db, owner, SENSOR, known, valid)
    assert view is not None
    return sorted((f.predicate, f.value, f.valid_from, f.valid_to) for f in view.facts)


def _rows(db: Database, owner: str) -> dict[str, int]:
    with db.owner_tx(owner, read_only=True) as conn:
        rows = conn.execute("SELECT retention_class || '/' || source AS k, count(*) AS n FROM facts GROUP BY 1")
        return {r["k"]: r["n"] for r in rows}


def _texts(db: Database, owner: str) -> dict[str, str]:
    with db.owner_tx(owner, read_only=True) as conn:
        rows = conn.execute("SELECT source_key, text FROM memory_projections WHERE source_kind = 'rollup'")
        return {r["source_key"]: r["text"] for r in rows}


@pytest.fixture(scope="module")
def world(db: Database) -> World:
    owner = f"ret-{datetime.now(UTC):%H%M%S%f}"
    now = datetime.now(UTC)
    start = load_sensor(db, owner, now)
    grid = [start + timedelta(hours=7 + 12 * i) for i in range(2 * DAYS)]
    before_valid = {v: _answer(db, owner, v) for v in grid}
    before_known = {r: _answer(db, owner, r, r) for r in grid[::3]}
    rows_before = _rows(db, owner)
    options = job.Options(owner=owner, window_days=WINDOW_DAYS, dry_run=True)
    dry = job.run(db, options)
    rows_after_dry_run = _rows(db, owner)
    first = job.run(db, options.model_copy(update={"dry_run": False}))
    texts_first = _texts(db, owner)
    again = job.run(db, options.model_copy(update={"dry_run": False}))
    return World(owner, start, now, before_valid, before_known, rows_before, rows_after_dry_run, dry, first,
                 texts_first, again, _texts(db, owner))


def test_dry_run_reports_per_owner_and_class_and_changes_nothing(world: World) -> None:
    mine = world.dry.owners[0]
    assert mine.owner == world.owner and mine.permanent_rows == 2  # the note and the correction
    assert len(mine.series) >= 2 and all(s.pruned == 0 for s in mine.series)
    assert world.rows_after_dry_run == world.rows_before
    assert mine.windowed_rows == world.first.owners[0].pruned  # what it said is what the run did
    from cli.retention import render
    lines = render(world.dry, WINDOW_DAYS)
    assert lines[0].startswith("retention dry run: edge ")
    assert "  permanent: 2 fact rows, never pruned" in lines
    assert any(line.startswith(f"    {SENSOR} temperature ") and line.endswith("would prune") for line in lines)


def test_run_prunes_only_windowed_rows_behind_the_edge(db: Database, world: World) -> None:
    rows = _rows(db, world.owner)
    assert world.first.owners[0].pruned > 100
    assert rows["standard/user"] == world.rows_before["standard/user"] == 2  # the note and the correction stay
    # the pieces the correction split off came back as 'standard'; the job marked them windowed again
    assert world.rows_before["standard/integration:homeassistant"] == 2
    assert "standard/integration:homeassistant" not in rows
    fed = world.rows_before["windowed/integration:homeassistant"] + 2
    assert rows["windowed/integration:homeassistant"] == fed - world.first.owners[0].pruned
    with db.owner_tx(world.owner, read_only=True) as conn:
        assert facts.plan(conn, world.edge) == []  # nothing prunable is left
        old = conn.execute("SELECT f.retention_class, f.valid_to FROM facts f WHERE f.valid_to <= %s",
                           [world.edge]).fetchall()
        held = conn.execute("SELECT f.id FROM facts u JOIN facts f ON f.id = u.supersedes_fact_id "
                            "WHERE u.source = 'user' AND u.predicate = 'temperature'").fetchall()
    # behind the edge only the correction and the windowed row it names (held by a permanent row) remain
    assert sorted(r["retention_class"] for r in old) == ["standard", "windowed"] and len(held) == 1


def test_as_of_stays_exact_inside_the_window(db: Database, world: World) -> None:
    inside = [v for v in world.before_valid if v >= world.edge]
    assert len(inside) > 40
    for v in inside:
        assert _answer(db, world.owner, v) == world.before_valid[v], v
    known_inside = [r for r in world.before_known if r >= world.edge]
    assert len(known_inside) > 10
    for r in known_inside:
        assert _answer(db, world.owner, r, r) == world.before_known[r], r
    view = state_at(db, world.owner, SENSOR, world.now)
    assert view is not None and view.retention is None


def test_behind_the_edge_answers_from_rollups_and_says_so(db: Database, world: World) -> None:
    old = world.start + timedelta(days=5, hours=12)
    view = state_at(db, world.owner, SENSOR, old)
    assert view is not None and view.retention is not None
    assert [f.predicate for f in view.facts] == ["note"]  # the permanent fact is still exact
    assert view.retention.edge == world.edge
    assert view.retention.message.startswith("This asks about a time before the retention edge")
    assert len(view.retention.summaries) == 1 and "evenings ~21.8" in view.retention.summaries[0]
    known = state_as_known_at(db, world.owner, SENSOR, world.start + timedelta(days=9))
    assert known is not None and known.retention is not None
    assert "retention edge" in about_text(recall.state_at(db, world.owner, SENSOR, old))
    # In the owner's answer language: German once the owner says so.
    register_relation_types(db, DEMO_TYPES)
    german = MemoryMutationProposal(run_id="lang-de", operations=[
        UpsertEntity(ref="person:me", kind="person", canonical_name="Ich"),
        AssertFact(subject="person:me", predicate="answer_language", value="de", valid_from=world.start)])
    assert not commit_proposal(db, owner_principal(world.owner), german).rejected
    view = state_at(db, world.owner, SENSOR, old)
    assert view is not None and view.retention is not None
    assert view.retention.message.startswith("Gefragt ist eine Zeit vor der Aufbewahrungsgrenze")


def test_the_notice_over_graphql(client: TestClient, make_token: MakeToken, world: World) -> None:  # noqa: F811
    token = make_token(world.owner)
    query = ("query($r: String!, $t: DateTime!) { stateAt(ref: $r, validTime: $t) { facts { predicate } "
             "retention { edge message summaries } } }")
    old = gql(client, token, query, {"r": SENSOR, "t": (world.start + timedelta(days=5)).isoformat()})
    assert "errors" not in old, old
    assert len(old["data"]["stateAt"]["retention"]["summaries"]) == 1
    recent = gql(client, token, query, {"r": SENSOR, "t": (world.now - timedelta(days=2)).isoformat()})
    assert recent["data"]["stateAt"]["retention"] is None
    assert {f["predicate"] for f in recent["data"]["stateAt"]["facts"]} == {"note", "temperature"}


def test_running_twice_is_safe(world: World) -> None:
    assert world.again.owners[0].series == []
    assert world.texts_again == world.texts_first
    assert len(world.texts_first) == len(world.first.owners[0].series)


def test_rollup_is_found_after_its_raw_rows_are_gone(db: Database, world: World) -> None:
    # main has no search over memory_projections yet (branch `finder`): the rollup is found by the full text
    # main can run on the table; after merging the finder, searchWorldMemory is checked the same way below.
    month = world.start + timedelta(days=10)
    with db.owner_tx(world.owner, read_only=True) as conn:
        behind = [world.start + timedelta(days=5), world.edge - timedelta(days=2)]  # clear of the correction
        raw = conn.execute("SELECT count(*) AS n FROM facts WHERE predicate = 'temperature' AND valid_from "
                           ">= %s AND valid_from < %s", behind).fetchone()
        hits = conn.execute("SELECT text, embedding_pending, retention_class, entity_ids FROM memory_projections "
                            "WHERE source_kind = 'rollup' AND to_tsvector('english', text) "
                            "@@ plainto_tsquery('english', 'living room temperature evenings') "
                            "AND valid_from <= %s AND valid_to > %s", [month, month]).fetchall()
    assert raw == {"n": 0}
    assert len(hits) == 1
    assert hits[0]["embedding_pending"] is True and hits[0]["retention_class"] == "windowed"
    assert f"{month:%Y-%m}" in hits[0]["text"] and "nights ~18.6" in hits[0]["text"]


def test_the_database_refuses_a_prune_without_its_rollup(db: Database, world: World) -> None:
    with db.owner_tx(world.owner, read_only=True) as conn:
        ids = [r["id"] for r in conn.execute("SELECT id FROM facts WHERE retention_class = 'windowed' LIMIT 5")]
    key = next(iter(world.texts_first))  # a rollup that exists, but was not written by this transaction
    for edge in (world.edge, datetime.now(UTC) + timedelta(days=1)):
        with pytest.raises(psycopg.errors.CheckViolation), db.owner_tx(world.owner) as conn:
            conn.execute("SELECT wm_retention_prune_facts(%s, %s::uuid[], %s)", [key, ids, edge])
    with pytest.raises(psycopg.errors.InsufficientPrivilege), db.owner_tx(world.owner) as conn:
        conn.execute("DELETE FROM facts WHERE id = ANY(%s)", [ids])


def test_cli_dry_run(db: Database, world: World, monkeypatch: pytest.MonkeyPatch,
                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("WORLDMEM_DB_NAME", TEST_DB)
    get_settings.cache_clear()
    try:
        assert main(["retention", "run", "--dry-run", "--owner", world.owner, "--window-days", "1"]) == 0
    finally:
        get_settings.cache_clear()
    out, err = capsys.readouterr()
    assert out.startswith("retention dry run: edge ") and f"owner {world.owner}\n" in out
    assert "would prune" in out
    assert err.startswith("retention: 1/") and f"{world.owner}: {SENSOR} temperature" in err  # plain: not a TTY
    assert _texts(db, world.owner) == world.texts_first


def test_cli_run_is_skipped_while_another_holds_the_lock(app_db_url: str, world: World,
                                                         monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """A cron on every API host: one run goes, the others exit 0 without touching anything."""
    from graph.platform.session_locks import SessionLocks
    from graph.retention.job import RETENTION

    monkeypatch.setenv("WORLDMEM_DB_NAME", TEST_DB)
    get_settings.cache_clear()
    other = SessionLocks(app_db_url)
    try:
        assert other.leads(RETENTION)
        assert main(["retention", "run", "--owner", world.owner, "--window-days", "1"]) == 0
    finally:
        other.close()
        get_settings.cache_clear()
    out, err = capsys.readouterr()
    assert out == "retention: another run holds the database's retention lock; this one is skipped\n"
    assert err == ""


def test_rollup_is_found_by_search_world_memory(db: Database, world: World) -> None:
    """The same through the public search, once the finder (branch `finder`: memories in searchWorldMemory)
    is merged; on a main without it there is nothing to call yet."""
    pytest.importorskip("graph.finder", reason="searchWorldMemory finds memories only with the finder merged")
    from graph.agent import search
    with db.owner_tx(world.owner, read_only=True) as conn:
        raw = conn.execute("SELECT count(*) AS n FROM facts WHERE predicate = 'temperature' AND valid_to <= %s "
                           "AND valid_from >= %s", [world.edge, world.start + timedelta(days=5)]).fetchone()
    assert raw == {"n": 0}
    hits = search.search_world_memory(db, world.owner, "living room temperature evenings").hits
    memories = [m for m in (getattr(h, "memory", None) for h in hits) if m is not None]
    assert any(m.source_kind == "rollup" and "evenings ~21.8" in m.text for m in memories), hits
