"""Episodes under retention: curated turns behind the episode window become one rollup per chat and month,
which search still finds; what the curator has not read, and every fact, stays."""

from __future__ import annotations

import uuid
from datetime import UTC, date, datetime, timedelta

import psycopg

from graph.agent import search
from graph.episodes import store
from graph.episodes.model import Episode, EpisodeIn
from graph.finder.projections import MAX_TEXT
from graph.platform.db import Database
from graph.retention import episodes, job

JAN = datetime(2025, 1, 10, 8, tzinfo=UTC)


def ep(i: int, text: str, at: datetime = JAN) -> EpisodeIn:
    return EpisodeIn(external_id=f"e{i}", speaker="Anna", text=text, occurred_at=at + timedelta(hours=i))


def test_digest_keeps_each_turn_and_merges_an_earlier_rollup() -> None:
    turns = [Episode(id=str(i), chat_id="c", seq=i, occurred_at=JAN, role="user", text=f"Satz {i} " + "x" * 300)
             for i in range(3)]
    text = episodes.digest("c", date(2025, 1, 1), turns)
    lines = text.split("\n")
    assert lines[0].startswith("Chat c, 2025-01: 3 turns") and len(lines) == 4
    assert all(len(x) <= episodes.PER_TURN for x in lines[1:]) and lines[1].startswith("user · 2025-01-10: Satz 0")
    merged = episodes.digest("c", date(2025, 1, 1), turns[:1], before=text)
    assert merged.startswith("Chat c, 2025-01: 4 turns") and merged.count("Satz 0") == 2
    many = episodes.digest("c", date(2025, 1, 1), turns * 100)
    assert len(many) <= MAX_TEXT


def test_curated_months_roll_up_and_search_still_finds_them(db: Database, owner: str,
                                                            admin_conn: psycopg.Connection) -> None:
    archive, fresh = f"a-{uuid.uuid4().hex[:6]}", f"f-{uuid.uuid4().hex[:6]}"
    store.import_turns(db, owner, archive, [ep(0, "Mein Fitnessstudio ist am Marktplatz"),
                                            ep(1, "Der Tierarzt heißt Doktor Brandt"),
                                            ep(2, "Im Juni fahren wir ans Meer", JAN + timedelta(days=150))],
                       curate=False)  # curated: the watermark moved past them
    store.import_turns(db, owner, fresh, [ep(0, "Der Kletterpark öffnet im Januar")], curate=True)
    report = job.run(db, job.Options(owner=owner, episode_days=30, now=datetime(2025, 6, 15, tzinfo=UTC)))
    [mine] = report.owners
    assert [(e.series, e.rows, e.pruned) for e in mine.episodes] == [(f"chat {archive} 2025-01", 2, 2)]
    left = admin_conn.execute("SELECT chat_id, text FROM chat_turns WHERE owner_sub = %s ORDER BY chat_id, seq",
                              (owner,)).fetchall()
    assert left == [(archive, "Im Juni fahren wir ans Meer"), (fresh, "Der Kletterpark öffnet im Januar")]
    found = search.search_world_memory(db, owner, "Tierarzt Brandt").hits
    assert found and found[0].memory is not None and found[0].memory.source_kind == "rollup"
    assert "Doktor Brandt" in found[0].memory.text
    again = job.run(db, job.Options(owner=owner, episode_days=30, now=datetime(2025, 6, 15, tzinfo=UTC)))
    assert again.owners[0].episodes == []  # nothing left to prune


def test_without_an_episode_window_nothing_is_pruned(db: Database, owner: str) -> None:
    c = f"k-{uuid.uuid4().hex[:6]}"
    store.import_turns(db, owner, c, [ep(0, "alt, aber bleibt")], curate=False)
    report = job.run(db, job.Options(owner=owner, now=datetime(2026, 6, 15, tzinfo=UTC)))
    assert report.owners[0].episodes == []
    assert search.search_world_memory(db, owner, "bleibt").hits[0].episode is not None
