"""Removing an integration (the owner's decision): its vocabulary is deprecated, its entries go stale.

The kinds and predicates of the integration's namespace become `deprecated` (only the namespace this
owner's integration claimed; wm_deprecate_integration): nothing can be synced or asserted
with them any more (UNKNOWN_KIND / UNKNOWN_PREDICATE), and the registries list them as deprecated. Its sync
entries are marked stale (`sync_entries.stale_since`), and every entity they fed gets the believed fact
`stale_since` = the removal time, so staleness shows wherever facts are read: stateAt, factHistory, the
explorer, and the context block (`github:issue:7 stale_since = "2026-11-30T18:00:00+00:00" · 👤 …` beside
the synced facts, which stay as history with their source `integration:N`). The integration's tokens are not
revoked here (that is the admin's `worldmem token revoke`).
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from graph.errors import BadInput, Forbidden
from graph.governance.phrases import owner_language
from graph.ledger.tokens import NAME_RE, Principal
from graph.ledger.trust import OWNER
from graph.platform.db import Database
from graph.sql import load
from graph.sync import facts as sync_facts
from graph.sync.entries import Change
from graph.sync.store import fetch, system_time

STALE = "stale_since"
MESSAGES = {
    "en": "Integration {name} removed: {kinds} kinds and {predicates} predicates deprecated, {stale} synced "
          "entities no longer kept up to date (their history stays).",
    "de": "Integration {name} entfernt: {kinds} Arten und {predicates} Prädikate stillgelegt, {stale} "
          "synchronisierte Einträge werden nicht mehr aktualisiert (ihre Geschichte bleibt).",
}


class RemovedIntegration(BaseModel):
    name: str
    deprecated_kinds: list[str]
    deprecated_predicates: list[str]
    stale_entities: int = Field(description="Entities the integration's entries backed, now stale")
    message: str = Field(description="For the owner, in their answer language (German or English)")


def remove_integration(db: Database, principal: Principal, name: str) -> RemovedIntegration:
    if principal.kind != "owner":
        raise Forbidden(f"only an owner token may remove an integration (this is an {principal.kind} token)")
    if not NAME_RE.match(name):
        raise BadInput("an integration name is 1-50 of a-z, 0-9 and _, starting with a letter")
    with db.owner_tx(principal.owner) as conn:
        at = system_time(conn)
        keys = fetch(conn, "sync_deprecate_integration", {"name": name})
        stale = sorted({r["entity_id"] for r in fetch(conn, "sync_mark_stale", {"integration": name, "at": at})})
        run_id = f"remove-integration:{name}:{at.isoformat()}"
        work = [sync_facts.Work(index=i, subject_id=entity, observed_at=at, event_id=None,
                                changes=[Change(STALE, None, at.isoformat())],
                                evidence={"kind": "integration_removed", "integration": name})
                for i, entity in enumerate(stale)]
        current = sync_facts.believed(conn, work)
        sync_facts.write(conn, sync_facts.plan(work, current), at=at, source=principal.source, tier=OWNER,
                         run_id=run_id, retention="standard")
        conn.execute(load("clock_advance"), {"at": at})
        lang = owner_language(conn)
    kinds = sorted(k["key"] for k in keys if k["what"] == "kind")
    predicates = sorted(k["key"] for k in keys if k["what"] == "predicate")
    message = MESSAGES[lang].format(name=name, kinds=len(kinds), predicates=len(predicates), stale=len(stale))
    return RemovedIntegration(name=name, deprecated_kinds=kinds, deprecated_predicates=predicates,
                              stale_entities=len(stale), message=message)
