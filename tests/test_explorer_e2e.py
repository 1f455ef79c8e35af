"""The explorer end to end: `worldmem serve` on a free loopback port against this run's test database,
the demo world for a fresh owner, and web/e2e/run.mjs driving Debian's headless Chromium (playwright-core)
through the issue's scenarios, with axe-core on every page. Budgets are printed and written to
web/e2e/results/budgets.json; screenshots go to web/e2e/results/screenshots/
(E2E_SCREENSHOTS=e2e/screenshots, relative to web/, refreshes the committed ones the README and the docs show).

Needs the built UI (web/dist) and /usr/bin/chromium: `make test` provides both.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest

from graph.demo import load_demo
from graph.ledger.committer import commit_proposal
from graph.ledger.proposal import AddAlias, MemoryMutationProposal, UpsertEntity
from graph.ledger.tokens import owner_principal
from graph.platform.db import Database
from graph.retention import job
from graph.settings import REPO_ROOT
from tests.gql import new_token
from tests.hostile_http import free_port
from tests.retention_world import SENSOR, WINDOW_DAYS, load_sensor

WEB = REPO_ROOT / "web"
CHROMIUM = Path(os.environ.get("WORLDMEM_CHROMIUM", "/usr/bin/chromium"))


@pytest.fixture
def server(test_db_url: str) -> Iterator[str]:
    missing = [what for what, ok in [("web/dist (run `make test` or `cd web && npm ci && npm run build`)",
                                       (WEB / "dist" / "index.html").is_file()),
                                      (f"{CHROMIUM} (apt-get install chromium)", CHROMIUM.is_file()),
                                      ("node", shutil.which("node") is not None),
                                      ("web/node_modules (npm ci)", (WEB / "node_modules").is_dir())] if not ok]
    assert not missing, f"the end-to-end test needs: {', '.join(missing)}"
    port = free_port()
    env = {**os.environ, "WORLDMEM_DATABASE_URL": test_db_url}  # this run's database, embedded or not
    proc = subprocess.Popen([sys.executable, "-m", "cli.main", "serve", "--host", "127.0.0.1", "--port", str(port)],
                            cwd=REPO_ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}/"
    try:
        for _ in range(150):
            try:
                if httpx.get(base, timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.1)
        else:
            pytest.fail("worldmem serve did not come up")
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_the_explorer_end_to_end(server: str, db: Database, owner: str, test_db_url: str) -> None:
    # A sensor whose readings older than the retention window were rolled up and pruned (the notice's scenario),
    # imported before the demo's first step (40 days ago): an owner's system time only moves forward.
    start = load_sensor(db, owner, datetime.now(UTC) - timedelta(days=36))
    load_demo(db, owner)
    # an alias and a description given today: the entity page as known at a past instant must not show them
    added = commit_proposal(db, owner_principal(owner), MemoryMutationProposal(
        run_id="e2e-alias-today", operations=[AddAlias(ref="pet:luna", alias="Lunchen"),
                                              UpsertEntity(ref="pet:luna", kind="pet", canonical_name="Luna",
                                                           description="grey tabby, shy with strangers")]))
    assert added.rejected == []
    assert job.run(db, job.Options(owner=owner, window_days=WINDOW_DAYS)).owners[0].pruned > 100
    token = new_token(test_db_url, owner)
    run = subprocess.run(["node", "e2e/run.mjs"], cwd=WEB, capture_output=True, text=True, timeout=240,
                         env={**os.environ, "E2E_BASE_URL": server, "E2E_TOKEN": token,
                              "E2E_CHROMIUM": str(CHROMIUM), "E2E_RETENTION_REF": SENSOR,
                              "E2E_RETENTION_AT": (start + timedelta(days=10)).isoformat()})
    print(run.stdout[-6000:])
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-4000:]
    budgets = json.loads((WEB / "e2e" / "results" / "budgets.json").read_text())
    assert budgets["a11y_serious_or_critical"] == 0
    assert budgets["scenarios_passed"] == budgets["scenarios"] > 0
