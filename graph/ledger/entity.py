"""An entity row and the shape of its ref: the value every ledger module passes around, below the modules that
read and write entities (entities, the writers, prefetch, the graph mirror)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from pydantic import BaseModel

REF = re.compile(r"^(?P<kind>[a-z][a-z0-9_]*(?::[a-z][a-z0-9_]*)?):(?P<slug>[A-Za-z0-9][A-Za-z0-9_.\-#/@+]*)$")


class Entity(BaseModel):
    id: UUID
    ref: str
    kind: str
    canonical_name: str
    status: str
    merged_into_id: UUID | None = None
    created_at: datetime


# Without slots, so `columns` is a C-level copy of the instance's dict (dataclasses.asdict deep-copies each value).
@dataclass(frozen=True)
class NewEntity:
    """An entity a proposal creates, or the new name, description and external id of one it renames (a None
    description or external id keeps the known one): entity_insert.sql, entity_update.sql."""

    ref: str
    kind: str
    name: str
    description: str | None
    external_id: str | None
    at: datetime
    run_id: str

    def columns(self) -> dict[str, Any]:
        """The statement's parameters (and a row of batch_entities_insert.sql's document, with an id)."""
        return dict(vars(self))


def parse_ref(ref: str) -> tuple[str, str] | None:
    """(kind, slug) of a `kind:slug` ref; kinds may be namespaced (`github:issue:42`)."""
    match = REF.match(ref)
    return (match.group("kind"), match.group("slug")) if match else None
