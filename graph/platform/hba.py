"""pg_hba.conf of the embedded cluster: the application role may log in over the Unix socket with its password.

PostgreSQL takes the first line that matches a connection's type, database and user. Debian's file answers
every socket login with `peer` (the client's OS user must be the role), which worldmem_app never is. So the
app role gets a `scram-sha-256` line of its own ahead of the first `local` line for other users, after
Debian's `local all postgres peer` (pg_ctlcluster and `su postgres -c psql` inside the root keep working).
Only the app role: the admin role stays on TCP (nothing it does is hot) and every other socket login on peer.
"""

from __future__ import annotations

APP_FIELDS = ("local", "all", "worldmem_app", "scram-sha-256")
APP_LINE = "local   all             worldmem_app                            scram-sha-256\n"
COMMENT = "# worldmem db up: the application role over the Unix socket, with its password\n"


def _fields(line: str) -> tuple[str, ...]:
    return tuple(line.split("#", 1)[0].split())


def _ours(line: str) -> bool:
    return _fields(line) == APP_FIELDS or line == COMMENT


def _shadows_app(line: str) -> bool:
    """A socket line that could match the app role first: every `local` line except those for postgres."""
    fields = _fields(line)
    return len(fields) >= 3 and fields[0] == "local" and fields[2] != "postgres"


def with_app_socket_line(text: str) -> str:
    """`text` with the app role's line where it takes effect; the same text when it already is there."""
    lines = text.splitlines(keepends=True)
    first = next((line for line in lines if _shadows_app(line)), None)
    if first is not None and _fields(first) == APP_FIELDS:
        return text
    kept = [line for line in lines if not _ours(line)]
    if kept and not kept[-1].endswith("\n"):
        kept[-1] += "\n"
    at = next((i for i, line in enumerate(kept) if _shadows_app(line)), len(kept))
    return "".join([*kept[:at], COMMENT, APP_LINE, *kept[at:]])


REPLICATION_LINE = "local   replication     postgres                                peer\n"
REPLICATION_COMMENT = "# worldmem db replica up: a standby in the root streams WAL over the Unix socket as postgres\n"


def _lets_postgres_replicate(line: str) -> bool:
    """A socket line that lets the postgres role open a replication connection (Debian's file has one:
    `local replication all peer`). The database field `all` does not match replication connections."""
    fields = _fields(line)
    return len(fields) >= 4 and fields[:2] == ("local", "replication") and fields[2] in ("all", "postgres") \
        and fields[3] in ("peer", "trust")


def with_replication_line(text: str) -> str:
    """`text` with a socket line for a standby's replication connection (pg_basebackup, then its WAL stream)
    as postgres; the same text when one is there."""
    if any(_lets_postgres_replicate(line) for line in text.splitlines()):
        return text
    return text + ("" if text.endswith("\n") or not text else "\n") + REPLICATION_COMMENT + REPLICATION_LINE
