"""Two `worldmem worker` processes against one: the time to drain N curator batches, and the time from a
SIGKILL of one worker in the middle of the drain until the other has committed every batch.

Everything is real but the model: a fresh database (`worldmem_bench_workers`, migrated, dropped at the end),
a Temporal dev server (`temporal server start-dev`), and real worker processes whose model is the local fake
OpenAI server answering after `--delay` seconds (an entity and a fact per batch, so each commit writes). Each
batch is one chat's one durable turn, signalled as explicit (no debounce). The kill phase uses the production
heartbeat timeout unless `--heartbeat` says otherwise; it checks that every batch was committed exactly once.

    python -m bench.workers [--batches 50] [--delay 0.5] [--heartbeat 10]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from bench.http_server import drop_database, fresh_database
from curator.batch import RunReport
from curator.durable.types import workflow_id
from curator.durable.worker import connect, signal_turn
from curator.turns import TurnIn, record_turn
from graph.platform.connect import role_url
from graph.platform.db import Database
from graph.settings import Settings, get_settings
from tests.curator_llm import by_turns, entity, fact
from tests.fake_openai import FakeOpenAI, serve
from tests.temporal_dev import dev_server
from tests.worker_procs import asker, polling, workers

DB = "worldmem_bench_workers"


@dataclass
class Drain:
    workers: int
    batches: int
    seconds: float
    worker_cpu_s: float  # CPU time of the worker processes during the drain
    load: tuple[float, float, float]  # the machine's load average right after it
    committed: int  # committed curator runs of the phase's owner
    after_kill_s: float | None = None


def said(i: int) -> str:
    return f"Bello{i} ist mein Hund und frisst immer um 7"


def cpu_s(pid: int) -> float:
    """User + system CPU seconds of a live process (/proc/<pid>/stat, fields 14 and 15)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def committed_runs(db: Database, owner: str) -> int:
    with db.owner_tx(owner, read_only=True) as conn:
        row = conn.execute("SELECT count(*) AS n FROM curator_runs WHERE status = 'committed'").fetchone()
    return int(row["n"]) if row else 0


async def drain(settings: Settings, db: Database, fake: FakeOpenAI, n_workers: int, batches: int,
                kill: bool) -> Drain:
    owner = f"bench-{uuid.uuid4().hex[:8]}"
    names = [f"w{i}" for i in range(n_workers)]
    with workers(settings, DB, fake, names) as procs:
        client = await connect(settings)
        await polling(client, settings.temporal_task_queue, n_workers)
        for i in range(batches):
            record_turn(db, owner, TurnIn.model_validate({"chat_id": f"c{i}", "role": "user", "text": said(i)}))
        cpu0 = {name: cpu_s(p.pid) for name, p in procs.items()}
        asked = len(fake.paths)
        start = time.monotonic()
        await asyncio.gather(*(signal_turn(client, settings, owner, f"c{i}", True) for i in range(batches)))
        handles = [client.get_workflow_handle(workflow_id(owner, f"c{i}"), result_type=list[RunReport])
                   for i in range(batches)]
        results = asyncio.gather(*(h.result() for h in handles))
        killed_at = None
        if kill:
            while len(fake.paths) < asked + max(1, batches // 4):  # a quarter of the model calls went out
                await asyncio.sleep(0.02)
            victim = asker(fake.paths[asked])
            procs[victim].send_signal(signal.SIGKILL)
            procs[victim].wait()
            killed_at = time.monotonic()
        await asyncio.wait_for(results, 600)
        end = time.monotonic()
        cpu = sum(cpu_s(p.pid) - cpu0[name] for name, p in procs.items() if p.poll() is None)
    return Drain(workers=n_workers, batches=batches, seconds=end - start, worker_cpu_s=cpu, load=os.getloadavg(),
                 committed=committed_runs(db, owner), after_kill_s=None if killed_at is None else end - killed_at)


async def bench(settings: Settings, batches: int, delay: float, heartbeat: float) -> list[Drain]:
    table = {said(i): [entity(f"pet:bello{i}", f"Bello{i}"),
                       fact(f"pet:bello{i}", "feeding_time", "07:00", quote="frisst immer um 7")]
             for i in range(batches)}
    fake = FakeOpenAI(answers=[by_turns(table)] * 10 * batches, delays={n: delay for n in range(1, 10 * batches)})
    db = Database(role_url(settings, "app", DB), max_size=2)
    out = []
    try:
        with serve(fake):
            for n_workers, kill in ((1, False), (2, False), (2, True)):
                phase = settings.model_copy(update={
                    "temporal_task_queue": f"bench-{uuid.uuid4().hex[:8]}",
                    "temporal_heartbeat_timeout_s": heartbeat if kill else settings.temporal_heartbeat_timeout_s})
                out.append(await drain(phase, db, fake, n_workers, batches, kill))
                print(out[-1], flush=True)
    finally:
        db.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--batches", type=int, default=50)
    parser.add_argument("--delay", type=float, default=0.5, help="seconds the fake model takes per answer")
    parser.add_argument("--heartbeat", type=float, default=None,
                        help="heartbeat timeout of the kill phase (default: the setting, 10 s)")
    args = parser.parse_args()
    base = get_settings()
    fresh_database(base, DB)
    try:
        with tempfile.TemporaryDirectory() as tmp, dev_server(Path(tmp) / "temporal.log") as address:
            settings = base.model_copy(update={"temporal_address": address, "curator_debounce_s": 0.3})
            drains = asyncio.run(bench(settings, args.batches, args.delay,
                                       args.heartbeat or base.temporal_heartbeat_timeout_s))
    finally:
        drop_database(base, DB)
    print(f"\n{args.batches} batches, model answers after {args.delay} s, {os.cpu_count()} CPUs")
    print("| workers | drain s | batches/s | worker CPU s | CPU ms/batch | committed | after kill s | load 1/5/15 |")
    print("|---|---|---|---|---|---|---|---|")
    for d in drains:
        kill = f"{d.after_kill_s:.1f}" if d.after_kill_s is not None else "-"
        label = f"{d.workers}{' (one killed)' if d.after_kill_s is not None else ''}"
        print(f"| {label} | {d.seconds:.1f} | {d.batches / d.seconds:.1f} | {d.worker_cpu_s:.1f} | "
              f"{1000 * d.worker_cpu_s / d.batches:.0f} | {d.committed}/{d.batches} | {kill} | "
              f"{d.load[0]:.2f} {d.load[1]:.2f} {d.load[2]:.2f} |")


if __name__ == "__main__":
    main()
