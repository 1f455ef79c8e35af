"""Who hears of a commit: listeners per database, told after a proposal committed.

Every write of the ledger goes through `commit_proposal`, whoever calls it: the API, the curator (inline in
the server or in the Temporal worker), governance, the domains and code mode. A listener registered for a
Database (the finder's nudger) is told the owner and the refs the proposal touched once the transaction
committed, so a write outside the API is projected and embedded right after it, not at the next sweep.
Listeners are keyed by the Database object: an app or a worker hears only its own commits, and two apps of
one process (tests) never reconcile each other's owners.
"""

from __future__ import annotations

import logging
import threading
import weakref
from collections.abc import Callable

from graph.ledger.proposal import MemoryMutationProposal
from graph.platform.db import Database

log = logging.getLogger("worldmem.committer")
Listener = Callable[[str, list[str] | None], None]  # (owner, refs touched or None: any); must not block
REF_FIELDS = ("ref", "subject", "object", "entity", "into", "other", "actor", "target")

_lock = threading.Lock()
_listeners: weakref.WeakKeyDictionary[Database, list[Listener]] = weakref.WeakKeyDictionary()


def listen(db: Database, listener: Listener) -> None:
    with _lock:
        _listeners.setdefault(db, []).append(listener)


def unlisten(db: Database, listener: Listener) -> None:
    with _lock:
        held = _listeners.get(db, [])
        if listener in held:
            held.remove(listener)


def refs_of(proposal: MemoryMutationProposal) -> list[str] | None:
    """Every entity ref an operation names (pure): its entity, subject, object, merge pair or event parties;
    None when an operation names a fact or a merge by id (accept, reject, invalidate, split by merge id), whose
    entities only the database knows: the listener then takes the whole owner."""
    if any(getattr(op, "fact_id", None) or getattr(op, "merge_id", None) for op in proposal.operations):
        return None
    found = {r for op in proposal.operations for name in REF_FIELDS
             if isinstance(r := getattr(op, name, None), str)}
    return sorted(found)


def tell(db: Database, owner: str, proposal: MemoryMutationProposal) -> None:
    """After a commit: every listener of `db`. Never raises: the commit already happened."""
    with _lock:
        held = list(_listeners.get(db, []))
    if not held:
        return
    refs = refs_of(proposal)
    for listener in held:
        try:
            listener(owner, refs)
        except Exception:  # a listener's bug must not turn a committed write into an error
            log.exception("a commit listener failed")
