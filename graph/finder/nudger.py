"""The server's background reconciler: embeds after commits without making any commit wait.

Every commit on its Database nudges it with the owner and the refs the proposal touched
(graph.ledger.commit_listeners: the API, the curator, governance, the domains alike), an import with the owner;
the thread then re-projects those entities and embeds what is pending, one owner at a time, in its own
transactions. Every `interval_s` it also sweeps each owner completely (writes of other processes); with
Temporal configured the schedule `worldmem-finder` sweeps instead (the server passes interval 0).
Everything here is best effort: an error is logged and retried on the next pass.

Several server processes on one database (docs/operations/processes.md) share the work through `locks`
(graph.platform.session_locks): only the leader sweeps, and one owner is reconciled by one process at a
time (a nudge for an owner another process is reconciling waits for it, then reconciles what is left).
"""

from __future__ import annotations

import logging
import queue
import threading
import time
import weakref
from typing import ClassVar

from graph.finder.embedders import Embedder
from graph.finder.reconciler import owners, reconcile_owner
from graph.ledger import commit_listeners
from graph.platform import metrics
from graph.platform.db import Database
from graph.platform.session_locks import FINDER_OWNER, SessionLocks
from graph.settings import Settings

log = logging.getLogger("worldmem.finder")
MAX_REFS = 2000  # more refs than this in one nudge: sweep the owner instead
RETRY_S = 1.0
SWEEP = "finder-sweep"  # the leader's name for the sweep (session_locks.LEADER)


def sweep_interval(settings: Settings) -> float:
    """How often the server's thread sweeps every owner: never (0) when Temporal is configured, because the
    schedule `worldmem-finder` does it then; the thread still follows the commits' nudges."""
    return 0.0 if settings.temporal_address else settings.finder_sweep_s


class Nudger:
    """Nudges coalesce per owner: while an owner waits for the thread, a further nudge only adds its refs (a
    burst of commits costs one queue entry, one wake-up and one reconcile per owner, not one each)."""

    _live: ClassVar[weakref.WeakSet[Nudger]] = weakref.WeakSet()  # every Nudger of the process, for drain_all

    def __init__(self, db: Database, embedder: Embedder | None, interval_s: float,
                 locks: SessionLocks | None = None) -> None:
        self._db, self._embedder, self._interval, self._locks = db, embedder, interval_s, locks
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._lock = threading.Lock()
        self._waiting: dict[str, set[str] | None] = {}  # owner -> refs to reconcile (None: the whole owner)
        self._thread = threading.Thread(target=self._run, name="finder-reconciler", daemon=True)
        Nudger._live.add(self)

    def start(self) -> None:
        self._thread.start()
        for db in self._heard():
            commit_listeners.listen(db, self.nudge)

    def stop(self) -> None:
        for db in self._heard():
            commit_listeners.unlisten(db, self.nudge)
        self._queue.put(None)
        self._thread.join(timeout=10)
        if self._locks is not None:
            self._locks.close()

    def nudge(self, owner: str, refs: list[str] | None) -> None:
        """Never blocks and never raises: the caller is a request that already committed."""
        with self._lock:
            queued = owner in self._waiting
            known = self._waiting.get(owner, set())
            merged = None if refs is None or known is None else known | set(refs)
            self._waiting[owner] = merged if merged is None or len(merged) <= MAX_REFS else None
        if not queued:
            self._queue.put(owner)

    @classmethod
    def drain_all(cls, timeout_s: float) -> bool:
        """Whether every nudge of every Nudger in this process has been reconciled, waiting up to `timeout_s`
        (for a caller that must see the projections of the commits before it: a test that compares the
        database before and after, while apps of earlier tests still reconcile in their threads)."""
        deadline = time.monotonic() + timeout_s
        while any(n._queue.unfinished_tasks for n in list(cls._live)):
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.01)
        return True

    def _run(self) -> None:
        while True:
            try:
                owner = self._queue.get(timeout=self._interval if self._interval > 0 else None)
            except queue.Empty:
                if self._locks is None or self._locks.leads(SWEEP):
                    self._sweep_all()
                continue
            try:
                if owner is None:
                    return
                with self._lock:
                    refs = self._waiting.pop(owner, None)
                self._once(owner, sorted(refs) if refs is not None else None)
            finally:
                self._queue.task_done()

    def _once(self, owner: str, refs: list[str] | None) -> None:
        if self._locks is not None and not self._locks.wait_lock(FINDER_OWNER, owner):
            log.warning("finder: an owner stayed claimed by another process; its nudge is queued again")
            time.sleep(RETRY_S)  # not at once: the database may be the reason
            self.nudge(owner, refs)
            return
        try:
            reconcile_owner(self._database_of(owner), owner, self._embedder, refs=refs)
        except Exception:  # best effort: logged, retried by the next nudge or sweep
            log.exception("finder: reconciling an owner failed")
        finally:
            if self._locks is not None:
                self._locks.release(FINDER_OWNER, owner)

    def _heard(self) -> list[Database]:
        """The databases whose commits nudge this finder: this one (graph.routing.finder adds every cluster's)."""
        return [self._db]

    def _database_of(self, owner: str) -> Database:
        """Where the owner's rows are: this database (graph.routing.finder routes it)."""
        return self._db

    def _sweep_all(self) -> None:
        metrics.finder_sweeps.inc()
        try:
            every = owners(self._db)
        except Exception:
            log.exception("finder: listing owners failed")
            return
        for owner in every:
            self._once(owner, None)
