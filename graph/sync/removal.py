"""Removing an integration (the owner's decision): its vocabulary is deprecated, its entries go stale.

The kinds and predicates of the integration's namespace become `deprecated` (only the namespace this
owner's integration claimed; migration 0050's wm_deprecate_integration): nothing can be synced or asserted
with them any more (UNKNOWN_KIND / UNKNOWN_PREDICATE), and the registries list them as deprecated. Its sync
entries are marked stale (`sync_entries.stale_since`): what they fed stays in the ledger as history, with
its source `integration:N`, but it is no longer kept up to date. The integration's tokens are not revoked
here (that is the admin's `worldmem token revoke`).
"""

from __future__ import annotations

from datetime import UTC, datetime

from pydantic import BaseModel, Field

from graph.errors import BadInput, Forbidden
from graph.governance.phrases import owner_language
from graph.ledger.tokens import NAME_RE, Principal
from graph.platform.db import Database
from graph.sync.store import fetch

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
        keys = fetch(conn, "sync_deprecate_integration", {"name": name})
        stale = fetch(conn, "sync_mark_stale", {"integration": name, "at": datetime.now(UTC)})
        lang = owner_language(conn)
    kinds = sorted(k["key"] for k in keys if k["what"] == "kind")
    predicates = sorted(k["key"] for k in keys if k["what"] == "predicate")
    count = len({r["entity_id"] for r in stale})
    message = MESSAGES[lang].format(name=name, kinds=len(kinds), predicates=len(predicates), stale=count)
    return RemovedIntegration(name=name, deprecated_kinds=kinds, deprecated_predicates=predicates,
                              stale_entities=count, message=message)
