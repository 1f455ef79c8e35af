"""Connection URLs for the admin and application roles (the console role cannot log in)."""

from __future__ import annotations

from typing import Literal
from urllib.parse import quote, urlsplit, urlunsplit

from graph.platform.secrets import load_or_create_secrets
from graph.settings import Settings

Role = Literal["admin", "app"]
# worldmem_console has no login (0019): the app reaches it with SET LOCAL ROLE for console queries only.
ROLE_NAMES = {"app": "worldmem_app", "console": "worldmem_console"}


def admin_url(settings: Settings, dbname: str | None = None) -> str:
    if settings.database_url:
        base = settings.database_url
    else:
        pw = load_or_create_secrets(settings).admin_password
        base = f"postgresql://postgres:{pw}@127.0.0.1:{settings.db_port}/{settings.db_name}"
    return _with_db(base, dbname) if dbname else base


def role_url(settings: Settings, role: Role, dbname: str | None = None) -> str:
    """URL for a role: same server and database as the admin URL, other credentials."""
    base = admin_url(settings, dbname)
    if role == "admin":
        return base
    secrets = load_or_create_secrets(settings)
    password = secrets.app_password
    parts = urlsplit(base)
    host = parts.hostname or "127.0.0.1"
    netloc = f"{ROLE_NAMES[role]}:{quote(password)}@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def _with_db(url: str, dbname: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + dbname, parts.query, parts.fragment))


def dbname_of(url: str) -> str:
    return urlsplit(url).path.lstrip("/") or "postgres"
