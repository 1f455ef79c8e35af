"""An entity row and the shape of its ref: the value every ledger module passes around, below the modules that
read and write entities (entities, the writers, prefetch, the graph mirror)."""

from __future__ import annotations

import re
from datetime import datetime
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


def parse_ref(ref: str) -> tuple[str, str] | None:
    """(kind, slug) of a `kind:slug` ref; kinds may be namespaced (`github:issue:42`)."""
    match = REF.match(ref)
    return (match.group("kind"), match.group("slug")) if match else None
