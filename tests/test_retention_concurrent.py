"""Two retention jobs at once on one database (a worker taken for dead whose attempt still runs beside its
retry, or `worldmem retention run` while the schedule's run is going): the second waits for the first and
then finds nothing left, instead of both dropping the same month's partition (a deadlock failed one of them)."""

from __future__ import annotations

import threading
import uuid
from datetime import UTC, datetime, timedelta

from graph.platform.db import Database
from graph.retention import job, observed
from graph.retention.classes import month_of

SEPTEMBER = datetime(2020, 9, 1, tzinfo=UTC)


def twice_at_once(db: Database, owner: str) -> tuple[list[job.Report], list[Exception]]:
    reports: list[job.Report] = []
    errors: list[Exception] = []

    def one() -> None:
        try:
            reports.append(job.run(db, job.Options(window_days=30, owner=owner)))
        except Exception as exc:  # the test's assertion shows what failed
            errors.append(exc)

    threads = [threading.Thread(target=one) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return reports, errors


def test_two_jobs_at_once_run_one_after_the_other(db: Database) -> None:
    for _ in range(4):  # a deadlock came about once in two to five rounds
        owner = f"retention-twice-{uuid.uuid4().hex[:8]}"
        with db.owner_tx(owner) as conn:
            observed.record(conn, [observed.Observation(event_type="observation", source="integration:x",
                                                        occurred_at=SEPTEMBER + timedelta(days=i), summary="ping")
                                   for i in range(3)])
        reports, errors = twice_at_once(db, owner)
        assert errors == []
        assert sorted(r.dropped.get("2020-09", 0) for r in reports) == [0, 3]
        with db.owner_tx(owner, read_only=True) as conn:
            assert month_of(SEPTEMBER) not in observed.months(conn)  # other tests' months may exist
