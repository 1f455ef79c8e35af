"""Is the database there? Asked once, fast, before a command or the server relies on it.

A refused or unresolvable connection fails in milliseconds; a host that does not answer in
CONNECT_TIMEOUT_S seconds counts as down. The message names where we looked (never the password)
and what to do, because the usual causes are a stopped embedded cluster or a wrong URL/port.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import psycopg

from graph.platform.connect import socket_file
from graph.platform.errors import PlatformError

CONNECT_TIMEOUT_S = 2  # libpq's minimum; refused connections fail at once anyway
HINT = ("start the embedded database with `worldmem db up`, or check WORLDMEM_DATABASE_URL "
        "(your own server) and WORLDMEM_DB_PORT (the embedded one, default 54318)")
# A cluster whose pg_hba.conf predates the app role's socket line answers the socket with `peer`.
PEER_HINT = ("run `worldmem db up` once more (it lets the application role log in over the Unix socket with its "
             "password), or set WORLDMEM_DB_SOCKET=0 to connect over TCP")


def where(url: str) -> str:
    """host:port/dbname of a URL, or the socket file and database of a Unix-socket URL; never credentials."""
    parts = urlsplit(url)
    query = parse_qs(parts.query)
    host = query.get("host", [parts.hostname or "localhost"])[0]
    port = query.get("port", [str(parts.port or 5432)])[0]
    if host.startswith("/"):
        return f"socket {socket_file(Path(host), port)} (database {parts.path.lstrip('/') or 'postgres'})"
    return f"{host}:{port}{parts.path or '/'}"


def probe(url: str) -> str | None:
    """None when a connection opens; otherwise libpq's reason (its last line)."""
    try:
        with psycopg.connect(url, connect_timeout=CONNECT_TIMEOUT_S, autocommit=True):
            return None
    except psycopg.OperationalError as exc:
        lines = [line.strip() for line in str(exc).strip().splitlines() if line.strip()]
        return lines[0] if lines else exc.__class__.__name__


def require_reachable(url: str) -> None:
    """Raise PlatformError (with what to do) when the database at `url` cannot be reached."""
    reason = probe(url)
    if reason is not None:
        hint = PEER_HINT if "peer authentication failed" in reason.lower() else HINT
        raise PlatformError(f"the database at {where(url)} is not reachable ({_short(reason)})", hint)


def _short(reason: str) -> str:
    # "connection failed: connection to server at "127.0.0.1", port 1 failed: Connection refused" -> the end
    return reason.rsplit(": ", 1)[-1] if "failed:" in reason else reason
