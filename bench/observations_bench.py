"""recordObservations at size, and what the retention notices cost a read.

On a scratch database of its own (created, migrated and dropped here): one owner with a door sensor.
`--n` observations in one call, directly (graph.retention.observations) and through GraphQL (in-process
TestClient, an integration token), then the same call again (every observation a duplicate by externalRef).
Then the retention world of the tests (60 days of readings, window 30 days) pruned once, and p50 of
stateAt behind the edge (with its notice) against inside the window, and of factHistoryRetention.

    python -m bench.observations_bench [--n 10000]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from fastapi.testclient import TestClient

from bench.fresh_data import scratch
from graph.ledger.committer import commit_proposal
from graph.ledger.proposal import MemoryMutationProposal, UpsertEntity
from graph.ledger.tokens import Principal, create_token, owner_principal
from graph.platform.db import Database
from graph.reads.temporal import fact_history_retention, state_at
from graph.retention import job
from graph.retention.observations import ObservationIn, record_observations
from graph.settings import get_settings
from resolvers.app import create_app
from tests.retention_world import SENSOR, WINDOW_DAYS, load_sensor

OWNER = "observations-bench"
SENSOR_OWNER = "observations-bench-sensor"
DOOR = "device:hall-door"
RECORD = ("mutation($o: [ObservationInput!]!) { recordObservations(observations: $o) { recorded duplicates "
          "rejected { code } } }")


def _batch(n: int, now: datetime, tag: str) -> list[dict[str, object]]:
    return [{"occurredAt": (now - timedelta(seconds=n - i)).isoformat(), "target": DOOR,
             "summary": "opened" if i % 2 else "closed", "externalRef": f"{tag}:{i}", "payload": {"i": i}}
            for i in range(n)]


def _p50(call: Callable[[], object], runs: int = 40) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        call()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=10_000)
    args = parser.parse_args(argv)
    now = datetime.now(UTC)
    with scratch(get_settings()) as (admin, app):
        db = Database(app, max_size=2, statement_timeout_ms=600_000)
        try:
            setup = MemoryMutationProposal(run_id="door", operations=[
                UpsertEntity(ref=DOOR, kind="device", canonical_name="Hall door")])
            assert not commit_proposal(db, owner_principal(OWNER), setup).rejected
            feed = Principal(owner=OWNER, kind="integration", name="homeassistant")
            items = [ObservationIn.model_validate(
                {"event_type": "observation", "occurred_at": o["occurredAt"], "target": o["target"],
                 "summary": o["summary"], "external_ref": o["externalRef"], "payload": o["payload"]})
                for o in _batch(args.n, now, "direct")]
            t0 = time.perf_counter()
            done = record_observations(db, feed, items)
            t_direct = time.perf_counter() - t0
            t0 = time.perf_counter()
            again = record_observations(db, feed, items)
            t_again = time.perf_counter() - t0
            print(f"direct: {done.recorded:,} observations in {t_direct:.2f} s ({done.recorded / t_direct:,.0f}/s); "
                  f"the same again: {again.duplicates:,} duplicates in {t_again:.2f} s")
            token = create_token(admin, OWNER, kind="integration", name="homeassistant")
            headers = {"Authorization": f"Bearer {token}"}
            settings = get_settings().model_copy(update={"max_request_bytes": 64 * 1024 * 1024,
                                                         "max_sync_request_bytes": 64 * 1024 * 1024})
            with TestClient(create_app(settings, database_url=app)) as client:
                batch = _batch(args.n, now - timedelta(days=1), "gql")
                t0 = time.perf_counter()
                body = client.post("/graphql", json={"query": RECORD, "variables": {"o": batch}}, headers=headers)
                t_gql = time.perf_counter() - t0
                t0 = time.perf_counter()
                body2 = client.post("/graphql", json={"query": RECORD, "variables": {"o": batch}}, headers=headers)
                t_gql2 = time.perf_counter() - t0
            print(f"GraphQL: {body.json()['data']['recordObservations']} in {t_gql:.2f} s; "
                  f"again {body2.json()['data']['recordObservations']} in {t_gql2:.2f} s")

            load_sensor(db, SENSOR_OWNER, now)  # its own owner: the import sets system times in the past
            report = job.run(db, job.Options(owner=SENSOR_OWNER, window_days=WINDOW_DAYS))
            behind = report.edge - timedelta(days=10)
            inside = report.edge + timedelta(days=10)
            print(f"retention world pruned: {report.owners[0].pruned:,} rows, edge {report.edge:%Y-%m-%d}")
            view = state_at(db, SENSOR_OWNER, SENSOR, behind)
            assert view is not None and view.retention is not None
            p_behind = _p50(lambda: state_at(db, SENSOR_OWNER, SENSOR, behind))
            p_inside = _p50(lambda: state_at(db, SENSOR_OWNER, SENSOR, inside))
            p_history = _p50(lambda: fact_history_retention(db, SENSOR_OWNER, SENSOR, "temperature"))
            print(f"stateAt p50: behind the edge (with its notice) {p_behind:.2f} ms, inside the window "
                  f"{p_inside:.2f} ms; factHistoryRetention {p_history:.2f} ms")
        finally:
            db.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
