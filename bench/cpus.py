"""`--cpus`: a bench run with its own processes and the embedded cluster's on a set of CPUs.

On Firecracker VMs a process woken on the other, halted vCPU costs ~0.2 ms per wake-up,
and a served read wakes four times (client -> server -> PostgreSQL -> server -> client).
`pinned(cpus, settings)` puts this process (and so the servers it starts), the running cluster's
postmaster and every process it forked (backends forked later inherit it) on `cpus`, and gives everything
back the CPUs it had when the block ends. Graphiti's side is pinned with `taskset -c CPUS` (its FalkorDB
runs in a child process, which inherits it).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from graph.platform.embedded import postmaster_pid
from graph.settings import Settings


class NotACpuList(ValueError, argparse.ArgumentTypeError):
    """A ValueError that argparse shows as it is (a `type=` function's plain ValueError it does not)."""


def cpu_list(text: str) -> frozenset[int]:
    """'0', '0,1' or '0-1' (taskset's list form) as a set of CPU numbers; NotACpuList for anything else."""
    cpus: set[int] = set()
    for part in text.split(","):
        first, dash, last = part.strip().partition("-")
        if not first.isdigit() or (dash and not (last.isdigit() and int(last) >= int(first))):
            raise NotACpuList(f"not a CPU list: {text!r} (e.g. 0 or 0,1 or 0-1)")
        cpus.update(range(int(first), int(last or first) + 1))
    if not cpus:
        raise NotACpuList(f"not a CPU list: {text!r}")
    return frozenset(cpus)


def add_option(parser: argparse.ArgumentParser) -> None:
    """`--cpus LIST` (args.cpus: a set, or None when not given), the same in every bench that has it."""
    parser.add_argument("--cpus", type=cpu_list, metavar="LIST",
                        help="run on these CPUs (taskset's list: 0 or 0-1), with the servers and the embedded cluster")


def children(pid: int) -> list[int]:
    """The processes whose parent is `pid` (from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def cluster_pids(settings: Settings) -> list[int]:
    """The embedded cluster's postmaster and its children; empty with a database of one's own."""
    if settings.database_url:
        return []
    postmaster = postmaster_pid(settings.root_dir)
    return [] if postmaster is None else [postmaster, *children(postmaster)]


def _set(pid: int, cpus: frozenset[int] | set[int]) -> bool:
    """Every thread of `pid` on `cpus` (sched_setaffinity moves one thread); False when not ours to move."""
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:  # gone meanwhile
        return True
    for task in tasks:
        try:
            os.sched_setaffinity(int(task.name), cpus)
        except ProcessLookupError:  # gone meanwhile
            pass
        except PermissionError:
            return False
    return True


@contextmanager
def pinned(cpus: frozenset[int] | None, settings: Settings) -> Iterator[list[int]]:
    """This process and the cluster's on `cpus` for the block (None: nothing changes); yields the cluster's pids
    moved. Afterwards each gets the CPUs it had before (backends forked meanwhile: the postmaster's)."""
    if cpus is None:
        yield []
        return
    if not cpus <= os.sched_getaffinity(0):
        raise SystemExit(f"--cpus {sorted(cpus)}: this process may run only on {sorted(os.sched_getaffinity(0))}")
    me = os.getpid()
    cluster = cluster_pids(settings)
    before = {pid: os.sched_getaffinity(pid) for pid in (me, *cluster)}
    _set(me, cpus)
    if cluster and not _set(cluster[0], cpus):
        print(f"[bench] the cluster's processes are not ours to move: only this one runs on {sorted(cpus)}",
              file=sys.stderr)
        cluster = []
    for pid in cluster[1:]:
        _set(pid, cpus)
    try:
        yield cluster
    finally:
        postmaster_cpus = before[cluster[0]] if cluster else None
        for pid in cluster_pids(settings):
            original = before.get(pid, postmaster_cpus)
            if original is not None:
                _set(pid, original)
        _set(me, before[me])
