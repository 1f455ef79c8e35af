"""Connection URLs for the admin and application roles (the console role cannot log in).

The admin role (migrations, test databases, tokens) talks TCP to 127.0.0.1: nothing it does is hot. The
application role reaches the embedded cluster through its Unix socket when `db_socket` is on (the default):
a round trip there costs 10-30 us less than over TCP loopback, a point read 0.02-0.15 ms less at p50
(docs/benchmarks.md). A URL of your own (WORLDMEM_DATABASE_URL) is used as
given, for both roles.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal
from urllib.parse import quote, urlsplit, urlunsplit

from graph.platform.secrets import load_or_create_secrets
from graph.settings import Settings

Role = Literal["admin", "app"]
# worldmem_console has no login (0019): the app reaches it with SET LOCAL ROLE for console queries only.
ROLE_NAMES = {"app": "worldmem_app", "console": "worldmem_console"}
# sockaddr_un.sun_path holds 108 bytes with the closing NUL; libpq refuses a longer socket path.
SOCKET_PATH_MAX = 107


def admin_url(settings: Settings, dbname: str | None = None) -> str:
    if settings.database_url:
        base = settings.database_url
    else:
        pw = load_or_create_secrets(settings).admin_password
        base = f"postgresql://postgres:{pw}@127.0.0.1:{settings.db_port}/{settings.db_name}"
    return _with_db(base, dbname) if dbname else base


def socket_file(directory: Path, port: int | str) -> Path:
    """The socket PostgreSQL listens on in `directory` for `port` (libpq's name for it)."""
    return directory / f".s.PGSQL.{port}"


def app_socket_dir(settings: Settings) -> Path | None:
    """The directory whose socket the application role connects through; None means TCP: a URL of one's own,
    the setting off, or a data directory so deep that the socket's path would not fit in sun_path."""
    if settings.database_url or not settings.db_socket:
        return None
    if len(os.fsencode(socket_file(settings.socket_dir, settings.db_port))) > SOCKET_PATH_MAX:
        return None
    return settings.socket_dir


def role_url(settings: Settings, role: Role, dbname: str | None = None) -> str:
    """URL for a role: same server and database as the admin URL, other credentials (and for the app role of
    the embedded cluster, its Unix socket)."""
    base = admin_url(settings, dbname)
    if role == "admin":
        return base
    secrets = load_or_create_secrets(settings)
    password = secrets.app_password
    parts = urlsplit(base)
    login = f"{ROLE_NAMES[role]}:{quote(password)}@"
    directory = app_socket_dir(settings)
    if directory is not None:
        # libpq: no host in the authority and a directory as `host` in the query is a Unix-domain socket
        query = f"host={quote(str(directory))}&port={settings.db_port}"
        return urlunsplit((parts.scheme, login, parts.path, query, ""))
    host = parts.hostname or "127.0.0.1"
    netloc = login + host + (f":{parts.port}" if parts.port else "")
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def _with_db(url: str, dbname: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + dbname, parts.query, parts.fragment))


def dbname_of(url: str) -> str:
    return urlsplit(url).path.lstrip("/") or "postgres"
