"""A search's statements in rounds: each round goes out together (one round trip) and its rows come back in
order. In the caller's open transaction (`in_transaction`: the context builder, the evaluation) or as rounds
of their own (`owner_rounds`: Database.read_round sets the owner and the Sync ends the implicit transaction,
so searchWorldMemory needs no BEGIN and no COMMIT, two round trips fewer), where
a statement that pins its owner itself can also go out alone (`OwnerRounds.pinned`, the text lists' one call).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, LiteralString

import psycopg

from graph.platform.db import Database

# Parameters by name (`%(name)s`), or () for a statement without any: sent as it is, so a `%` in its text
# (pg_trgm's `<%` in a comment) is not read as a placeholder.
Round = list[tuple[LiteralString, Mapping[str, Any] | tuple[()]]]
Rounds = Callable[[Round], list[list[dict[str, Any]]]]  # statements out together, their rows back in order


def in_transaction(conn: psycopg.Connection[Any]) -> Rounds:
    """Rounds in the caller's open owner transaction: each round one pipeline (one round trip)."""
    def run(statements: Round) -> list[list[dict[str, Any]]]:
        with conn.pipeline():
            cursors = [conn.execute(text, params or None) for text, params in statements]
        return [c.fetchall() for c in cursors]
    return run


@dataclass(frozen=True)
class OwnerRounds:
    """Rounds of their own: each one round trip that sets the owner and ends its implicit transaction
    (Database.read_round), so a search needs no BEGIN and no COMMIT of its own, and a setting made in a
    round (finder_set_plans) ends with it."""

    db: Database
    owner: str
    # May a search also hold a second pooled connection meanwhile (the meaning list beside the text statement)?
    # A GraphQL request says no when its owner's share of connections has no slot free for it (resolvers.fairness).
    spare: bool = True

    def __call__(self, statements: Round) -> list[list[dict[str, Any]]]:
        return self.db.read_round(self.owner, statements)

    def pinned(self, query: LiteralString, params: Mapping[str, Any]) -> list[dict[str, Any]]:
        """The rows of ONE statement that pins the owner itself (Database.read_pinned: one message, no
        pipeline); its `%(owner)s` is this round's owner."""
        return self.db.read_pinned(self.owner, query, params)


def owner_rounds(db: Database, owner: str, *, spare: bool = True) -> OwnerRounds:
    return OwnerRounds(db, owner, spare)
