"""Which of the owner's entities a turn names (for the prefilter's "short turn with an entity mention")."""

from __future__ import annotations

from graph.agent import linking
from graph.platform.db import Database
from graph.sql import load


def known_names(db: Database, owner: str, text: str, chat_id: str | None = None) -> list[str]:
    """Names and aliases of the owner's entities that occur in `text` (lower case), in one read."""
    found = linking.norms(linking.spans(text))
    if not found:
        return []
    with db.owner_tx(owner, read_only=True) as conn:
        rows = conn.execute(load("curator_known_names"),
                            {"spans": found, "chat_ns": linking.chat_namespace(chat_id)}).fetchall()
    return sorted(r["name"] for r in rows)
