"""libpq's trace of a connection while something runs: which messages the client sent, and its round trips.

For the tests and benches that count statements (Bind, Parse, Query, Sync) and waits for the server. A trace
line is `timestamp<TAB>F|B<TAB>length<TAB>Type ...`: F what the client sent, B what the server answered.
"""

from __future__ import annotations

import os
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable
from itertools import pairwise
from typing import Any, NamedTuple

import psycopg

from graph.platform.db import Database


class Message(NamedTuple):
    side: str  # "F": sent by the client; "B": by the server
    kind: str  # the message type: Bind, Parse, Sync, Query, DataRow, ...
    line: str  # the whole trace line


def parse(lines: Iterable[str]) -> list[Message]:
    """The messages of trace lines (other lines are skipped)."""
    found = []
    for line in lines:
        parts = line.split("\t")
        if len(parts) > 3:
            found.append(Message(parts[1], parts[3].split(" ")[0].strip(), line.rstrip("\n")))
    return found


def of_connection(conn: psycopg.Connection[Any], action: Callable[[], Any]) -> list[Message]:
    """The messages on `conn` while `action` ran."""
    with tempfile.TemporaryFile("w+") as out:
        conn.pgconn.trace(out.fileno())
        try:
            action()
        finally:
            conn.pgconn.untrace()
        out.seek(0)
        return parse(out)


def of_pool(db: Database, action: Callable[[], Any]) -> list[Message]:
    """The messages on the connection of `db`, a pool of one connection, while `action` ran."""
    with tempfile.TemporaryFile("w+") as out:
        with db.connection() as conn:
            conn.pgconn.trace(out.fileno())
        try:
            action()
        finally:
            with db.connection() as conn:
                conn.pgconn.untrace()
        out.seek(0)
        return parse(out)


def round_trips(messages: Iterable[Message]) -> int:
    """How often the client waited for the server: every turn from messages sent to messages received."""
    return sum(1 for a, b in pairwise(m.side for m in messages) if (a, b) == ("F", "B"))


def sent(messages: list[Message]) -> Counter[str]:
    """The messages the client sent, by type, and "round trips"; with TRACE set in the environment each
    message is printed too (for reading a bench's trace)."""
    kinds: Counter[str] = Counter(m.kind for m in messages if m.side == "F")
    kinds["round trips"] = round_trips(messages)
    if os.environ.get("TRACE"):
        for m in messages:
            print(" ".join(m.line.split("\t")[1:])[:200])
    return kinds
