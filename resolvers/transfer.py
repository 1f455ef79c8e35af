"""`exportMemory` over GraphQL: the owner's whole memory as the text of a worldmem-export file (docs/export.md).

Owner tokens only: an agent or integration token acts for the owner in part, and the export is everything."""

from __future__ import annotations

from typing import Any

import strawberry
from strawberry.types import Info

from graph.errors import Forbidden
from graph.transfer.dump import export_lines
from resolvers.context import blocking, database, principal


@strawberry.type
class TransferQuery:
    @strawberry.field(description="The owner's whole memory as worldmem-export JSON Lines text, version 1 "
                                  "(docs/export.md): a header line, one record per line, an end line with the "
                                  "counts. Owner tokens only (refusal: OWNER_ONLY).")
    async def export_memory(self, info: Info[Any, Any]) -> str:
        who = principal(info)
        if not who.is_owner:
            raise Forbidden("only the owner's own token may export the memory", code="OWNER_ONLY")
        lines = await blocking(export_lines, database(info), who.owner)
        return "".join(line + "\n" for line in lines)
