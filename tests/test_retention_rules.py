"""The pure parts of retention: which rows may be pruned (and that the SQL rule agrees with its Python
twin), the window's months, and the rollup statistics and texts."""

from __future__ import annotations

import io
import itertools
from datetime import UTC, date, datetime, timedelta

import psycopg
import pytest

from cli.retention import Progress
from graph.demo import TYPES
from graph.governance.phrases import Lang
from graph.ledger.committer import commit_proposal
from graph.ledger.proposal import AssertRelationship, MemoryMutationProposal, Operation, UpsertEntity
from graph.ledger.registries import register_relation_types
from graph.ledger.tokens import owner_principal
from graph.platform.db import Database
from graph.retention import notice, rollup
from graph.retention.classes import (
    Row,
    before_edge,
    is_permanent,
    month_of,
    month_over,
    next_month,
    prunable,
    window_edge,
)

EDGE = datetime(2026, 6, 1, tzinfo=UTC)
BEFORE, AFTER = EDGE - timedelta(days=1), EDGE + timedelta(days=1)


def _old(retention_class: str, source: str, status: str = "active", **more: str) -> bool:
    """Whether a row that ended before the edge on both axes may be pruned."""
    row = Row(retention_class, source, status, valid_to=BEFORE, superseded_at=BEFORE)
    return prunable(Row(**{**row.__dict__, **more}), EDGE)


def test_permanent_rows_are_never_prunable() -> None:
    assert _old("windowed", "integration:ha")
    assert not _old("standard", "integration:ha")  # standard (the default) is permanent
    assert not _old("permanent", "integration:ha")
    assert not _old("windowed", "user")  # the user's words
    assert not _old("windowed", "agent", memory_type="preference")  # a curated preference
    assert not _old("windowed", "agent", reason="turned the heating on")  # an agent action with a reason
    assert not _old("windowed", "integration:ha", "invalidated")  # a correction
    assert not _old("windowed", "integration:ha", "pending")
    assert not _old("windowed", "integration:ha", object_kind="entity")  # a relationship is an AGE edge too
    assert is_permanent("standard") and is_permanent("permanent") and not is_permanent("windowed")


def test_a_row_alive_at_the_edge_on_both_axes_stays() -> None:
    assert not prunable(Row("windowed", "integration:ha", "active", valid_to=None), EDGE)  # the current value
    assert not prunable(Row("windowed", "integration:ha", "active", valid_to=AFTER), EDGE)
    assert not prunable(Row("windowed", "integration:ha", "superseded", valid_to=None, superseded_at=AFTER), EDGE)
    assert prunable(Row("windowed", "integration:ha", "superseded", valid_to=None, superseded_at=EDGE), EDGE)
    assert prunable(Row("windowed", "integration:ha", "active", valid_to=EDGE), EDGE)


def test_the_sql_rule_is_the_python_rule(db: Database) -> None:
    cases = [Row(c, s, st, kind, vt, sa, mt, reason)
             for c, s, st, kind, vt, sa, mt, reason in itertools.product(
                 ["windowed", "standard"], ["integration:ha", "user"], ["active", "superseded", "invalidated"],
                 ["literal", "entity"], [None, BEFORE, EDGE, AFTER], [None, BEFORE, AFTER], [None, "preference"],
                 [None, "because"])]
    with db.connection() as conn, conn.transaction():
        for row in cases:
            got = conn.execute("SELECT wm_retention_prunable(%s, %s, %s, %s, %s, %s, %s, %s, %s) AS p", [
                row.retention_class, row.source, row.memory_type, row.reason, row.status, row.object_kind,
                row.valid_to, row.superseded_at, EDGE]).fetchone()
            assert got is not None and got["p"] == prunable(row, EDGE), row
    assert len(cases) == 1152


def test_a_notice_is_due_exactly_when_it_would_ask_for_the_language() -> None:
    """notice.as_of_due / series_due are the condition as_of / series use: due means the language is asked."""
    edge = datetime(2026, 9, 1, tzinfo=UTC)
    rollups = [{"projection_id": "0190a5f0-0000-7000-8000-000000000001", "predicate": "temperature",
                "month": "2026-03-01", "text": "temperature: 31 readings"}]
    rolled = {"rolled_up": True, "edge": edge, "rollups": rollups}
    cases = [([rolled], edge - timedelta(days=1), None, True),  # valid time behind the edge
             ([rolled], edge, None, False),  # at the edge: nothing pruned there
             ([rolled], edge + timedelta(days=1), edge - timedelta(seconds=1), True),  # known before the edge
             ([{**rolled, "rolled_up": False}], edge - timedelta(days=1), None, False),
             ([{**rolled, "edge": None}], edge - timedelta(days=1), None, False),
             ([], edge, None, False)]
    for rows, valid, system, due in cases:
        asked: list[str] = []

        def language(asked: list[str] = asked) -> Lang:
            asked.append("asked")
            return "en"

        found = notice.as_of(rows, valid, system, language)
        assert notice.as_of_due(rows, valid, system) is due, (valid, system)
        assert bool(asked) is due and (found is not None) is due, (valid, system)
    for row, due in (({"edge": edge, "rollups": rollups}, True), ({"edge": None, "rollups": []}, False),
                     ({"edge": edge, "rollups": []}, False)):
        assert notice.series_due(row) is due
        assert (notice.series(row, "temperature", "history", lambda: "de") is not None) is due


def test_months_and_edges() -> None:
    now = datetime(2026, 11, 30, 18, 0, tzinfo=UTC)
    assert window_edge(now, 90) == datetime(2026, 9, 1, 18, 0, tzinfo=UTC)
    assert month_of(datetime(2026, 12, 31, 23, 30, tzinfo=UTC)) == date(2026, 12, 1)
    assert next_month(date(2026, 12, 1)) == date(2027, 1, 1)
    assert month_over(date(2026, 8, 1), window_edge(now, 90))
    assert not month_over(date(2026, 9, 1), window_edge(now, 90))  # the edge's own month stays
    assert before_edge(EDGE, BEFORE, None) and before_edge(EDGE, AFTER, BEFORE)
    assert not before_edge(EDGE, AFTER, AFTER) and not before_edge(None, BEFORE, BEFORE)


def test_statistics_merge_as_if_counted_at_once() -> None:
    t = datetime(2026, 7, 1, tzinfo=UTC)
    readings = [(t + timedelta(hours=h), 18 + h / 4) for h in range(48)] + [(t, "unavailable"), (t, True)]
    whole = rollup.of_readings(readings)
    parts = rollup.merge(rollup.of_readings(readings[:20]), rollup.of_readings(readings[20:]))
    assert parts == whole
    assert whole.n == 50 and whole.numeric.n == 48 and whole.values == {"unavailable": 1, "True": 1}
    assert rollup.Stats.model_validate(whole.model_dump(mode="json")) == whole  # stored as jsonb and back


def test_the_rollup_text_says_what_was_typical() -> None:
    t = datetime(2026, 7, 1, tzinfo=UTC)
    evenings = [(t + timedelta(days=d, hours=20), 21.7) for d in range(10)]
    nights = [(t + timedelta(days=d, hours=3), 18.0) for d in range(10)]
    stats = rollup.of_readings(evenings + nights)
    en = rollup.fact_text("Living room (device:lr)", "temperature", date(2026, 7, 1), stats, "en")
    assert en == ("Living room (device:lr) temperature, 2026-07, rolled up from 20 observations (07-01 to 07-10): "
                  "mean 19.8, min 18.0, max 21.7; evenings ~21.7, nights ~18.0")
    de = rollup.fact_text("Wohnzimmer (device:lr)", "temperature", date(2026, 7, 1), stats, "de")
    assert de.endswith("Mittel 19,8, min 18,0, max 21,7; abends ~21,7, nachts ~18,0")
    switch = rollup.of_readings([(t, "on")] * 3 + [(t, "off")])
    lamp = rollup.fact_text("Lamp", "state", date(2026, 7, 1), switch, "en")
    assert lamp.endswith("mostly 'on' (75 %), 'off' (25 %)")


def test_progress_is_plain_without_a_terminal_and_a_bar_on_one() -> None:
    plain = io.StringIO()
    Progress(plain)(1, 3, "demo: sensor 2026-07")
    assert plain.getvalue() == "retention: 1/3 demo: sensor 2026-07\n"

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    bar = Terminal()
    progress = Progress(bar)
    progress(1, 2, "a")
    progress(2, 2, "b")
    assert bar.getvalue().startswith("\r[###############...............] 1/2 a")
    assert bar.getvalue().endswith("\n") and "\r[##############################] 2/2 b" in bar.getvalue()


def test_a_relationship_row_cannot_be_windowed(db: Database) -> None:
    """Relationships are never pruned (0064: they are the edges traversal reads at any time), so the class
    may not claim it: the database refuses a windowed relationship row, and keeps literals windowable."""
    owner = f"rel-{datetime.now(UTC):%H%M%S%f}"
    register_relation_types(db, TYPES)
    ops: list[Operation] = [UpsertEntity(ref="person:ann", kind="person", canonical_name="Ann"),
           UpsertEntity(ref="pet:rex", kind="pet", canonical_name="Rex"),
           AssertRelationship(subject="person:ann", predicate="owns", object="pet:rex", valid_from=BEFORE)]
    assert not commit_proposal(db, owner_principal(owner), MemoryMutationProposal(run_id="r", operations=ops)).rejected
    with pytest.raises(psycopg.errors.CheckViolation, match="facts_windowed_literal"), db.owner_tx(owner) as conn:
        conn.execute("UPDATE facts SET retention_class = 'windowed' WHERE object_kind = 'entity'")
    with db.owner_tx(owner, read_only=True) as conn:
        row = conn.execute("SELECT count(*) AS n FROM facts WHERE object_kind = 'entity' "
                           "AND retention_class = 'standard'").fetchone()
    assert row == {"n": 1}
