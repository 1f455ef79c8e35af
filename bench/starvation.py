"""Starvation under attack: another owner's `stateAt` latency while one owner attacks.

    python -m bench.starvation [--code-dir DIR] [--rounds 3]

Migrates a scratch database (`worldmem_starvation`), seeds an attacker (150 pending facts on alike names,
so pendingReview has work) and a victim, starts uvicorn from `--code-dir` (default: this checkout; pass
another checkout, e.g. a worktree of main, to measure the code before a change) and for each attack times
the victim's requests while the attack runs: p50 and max over all rounds, and the attack's answer.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import psycopg
from psycopg import sql

from graph.ledger.tokens import create_token
from graph.platform.connect import admin_url, role_url
from graph.platform.migrate import migrate
from graph.settings import Settings, get_settings
from tests.hostile_http import RawConnection, Response, free_port, graphql_body

DB = "worldmem_starvation"
COMMIT = "mutation($p: ProposalInput!) { commitProposal(proposal: $p) { committed pending } }"
STATE_AT = "query { stateAt(ref: \"person:vic\", validTime: \"2024-01-01T00:00:00Z\") { facts { value } } }"
EVIDENCE = {"kind": "bench", "text": "starvation"}
ATTACKS: dict[str, tuple[str, int]] = {
    # name: (query, parallel connections of the attacker)
    "1MB: 36,000 aliased entityKinds": ("{ " + " ".join(f"a{i}: entityKinds {{ key }}" for i in range(36_000))
                                        + " }", 1),
    "40,000 x entityKinds (no aliases)": ("{ " + " ".join(["entityKinds { key }"] * 40_000) + " }", 1),
    "alias bomb: 50 x pendingReview(limit:100)": (
        "{ " + " ".join(f"r{i}: pendingReview(limit: 100) {{ message items {{ number }} }}" for i in range(50))
        + " }", 1),
    "3 x 30 x pendingReview(limit:100) at once": (
        "{ " + " ".join(f"r{i}: pendingReview(limit: 100) {{ message }}" for i in range(30)) + " }", 3),
    "flood: 100 x pendingReview(limit:100) at once": ("{ pendingReview(limit: 100) { message } }", 100),
}


def start(code_dir: Path, app_url: str) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    code = ("import os, uvicorn\nfrom graph.settings import Settings\nfrom resolvers.app import create_app\n"
            "uvicorn.run(create_app(Settings(), database_url=os.environ['APP_URL']), host='127.0.0.1', "
            "port=int(os.environ['PORT']), log_level='critical')\n")
    env = {**os.environ, "APP_URL": app_url, "PORT": str(port), "PYTHONPATH": str(code_dir)}
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=code_dir, env=env)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            RawConnection(port, timeout=1).close()
            return proc, port
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


def request(port: int, token: str, body: bytes, timeout: float = 60) -> Response:
    conn = RawConnection(port, timeout=timeout)
    try:
        return conn.request(body, token=token)
    finally:
        conn.close()


def seed(port: int, attacker: str, victim: str) -> None:
    register = graphql_body("mutation($t: [RelationTypeInput!]!) { registerRelationTypes(types: $t) { key } }",
                            {"t": [{"key": "colour", "name": "colour", "cardinality": "FUNCTIONAL"}]})
    for token in (attacker, victim):
        request(port, token, register)
    ops = [{"assertFact": {"subject": "person:vic", "predicate": "colour", "value": "green", "source": "user",
                           "validFrom": "2020-01-01T00:00:00Z", "confidence": 1, "evidence": EVIDENCE}}]
    request(port, victim, graphql_body(COMMIT, {"p": {"runId": "seed", "operations": ops}}))
    ops = [{"assertFact": {"subject": f"person:alex-smithson-{i}", "predicate": "colour", "value": f"c{i}",
                           "source": "user", "validFrom": "2020-01-01T00:00:00Z", "confidence": 0.2,
                           "evidence": EVIDENCE}} for i in range(150)]
    request(port, attacker, graphql_body(COMMIT, {"p": {"runId": "seed", "operations": ops}}))


def measure(port: int, attacker: str, victim: str, query: str, parallel: int) -> tuple[list[float], str]:
    answers: list[str] = []

    def attack() -> None:
        try:
            answer = request(port, attacker, graphql_body(query), timeout=120)
            answers.append(f"{answer.status} {sorted(set(c or '-' for c in answer.codes)) or 'data'}")
        except OSError as exc:
            answers.append(f"no answer ({type(exc).__name__})")

    threads = [threading.Thread(target=attack) for _ in range(parallel)]
    for t in threads:
        t.start()
    time.sleep(0.05)
    latencies: list[float] = []
    while any(t.is_alive() for t in threads) or not latencies:
        started = time.perf_counter()
        answer = request(port, victim, json.dumps({"query": STATE_AT}).encode())
        latencies.append(time.perf_counter() - started)
        assert answer.status == 200, answer.body
    for t in threads:
        t.join()
    return latencies, "; ".join(sorted(set(answers)))


def drop(settings: Settings) -> None:
    with psycopg.connect(admin_url(settings, "postgres"), autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(DB)))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--code-dir", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", help="run the attacks whose name contains this text")
    args = parser.parse_args()
    settings = get_settings()
    drop(settings)
    migrate(settings, admin_url(settings, DB))
    suffix = os.urandom(3).hex()
    attacker = create_token(admin_url(settings, DB), f"attacker-{suffix}", can_import=False, can_integrate=True)
    victim = create_token(admin_url(settings, DB), f"victim-{suffix}", can_import=False, can_integrate=True)
    proc, port = start(args.code_dir, role_url(settings, "app", DB))
    try:
        seed(port, attacker, victim)
        idle = [measure(port, attacker, victim, "{ entityKinds { key } }", 1)[0][0] for _ in range(10)]
        print(f"code: {args.code_dir}\nidle victim stateAt: p50 {statistics.median(idle) * 1000:.0f} ms")
        for name, (query, parallel) in ATTACKS.items():
            if args.only and args.only not in name:
                continue
            every: list[float] = []
            outcome: set[str] = set()
            for _ in range(args.rounds):
                latencies, answer = measure(port, attacker, victim, query, parallel)
                every += latencies
                outcome.add(answer)
            print(f"{name}: victim p50 {statistics.median(every) * 1000:.0f} ms, max {max(every) * 1000:.0f} ms "
                  f"({len(every)} requests); attacker got {' | '.join(sorted(outcome))}")
    finally:
        proc.terminate()
        proc.wait(timeout=20)
        drop(settings)


if __name__ == "__main__":
    main()
