"""bench.cpus (`--cpus` of bench.http_reads and bench.http_mixed): taskset's CPU lists, and a block that
runs this process and the embedded cluster on them and afterwards gives every process its CPUs back."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from bench.cpus import children, cluster_pids, cpu_list, pinned
from graph.platform.embedded import postmaster_pid
from graph.settings import Settings


@pytest.mark.parametrize(("text", "cpus"), [("0", {0}), ("1", {1}), ("0,1", {0, 1}), ("0-2", {0, 1, 2}),
                                            (" 0 , 2-3", {0, 2, 3})])
def test_cpu_lists_as_taskset_writes_them(text: str, cpus: set[int]) -> None:
    assert cpu_list(text) == cpus


@pytest.mark.parametrize("text", ["", "a", "1-", "-1", "0,,1", "0-a", "zero", "2-0"])
def test_anything_else_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="not a CPU list"):
        cpu_list(text)


def test_children_are_found_by_their_parent() -> None:
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        assert child.pid in children(os.getpid())
        assert os.getpid() not in children(child.pid)
    finally:
        child.kill()
        child.wait()


def test_cpus_this_process_may_not_use_are_refused_before_anything_moves(settings: Settings) -> None:
    mine = os.sched_getaffinity(0)
    with pytest.raises(SystemExit, match="may run only on"):
        with pinned(frozenset({max(mine) + 1}), settings):
            pass
    assert os.sched_getaffinity(0) == mine


def test_no_cpus_changes_nothing(settings: Settings) -> None:
    mine = os.sched_getaffinity(0)
    with pinned(None, settings) as moved:
        assert moved == [] and os.sched_getaffinity(0) == mine


def test_the_block_moves_this_process_and_the_cluster_and_gives_the_cpus_back(settings: Settings) -> None:
    mine = os.sched_getaffinity(0)
    one = frozenset({min(mine)})
    postmaster = postmaster_pid(settings.root_dir)
    cluster_before = {pid: os.sched_getaffinity(pid) for pid in cluster_pids(settings)}
    with pinned(one, settings) as moved:
        assert os.sched_getaffinity(0) == one
        if settings.database_url:  # a database of one's own: nothing of ours to move
            assert moved == []
        elif os.geteuid() == 0:  # the cluster runs as postgres: root may move it
            assert postmaster is not None and moved[0] == postmaster
            assert all(os.sched_getaffinity(pid) == one for pid in moved)
        else:
            assert moved == []
    assert os.sched_getaffinity(0) == mine
    for pid, cpus in cluster_before.items():
        if os.path.exists(f"/proc/{pid}"):
            assert os.sched_getaffinity(pid) == cpus
