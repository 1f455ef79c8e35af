"""More PostgreSQL clusters in the same embedded root: `worldmem db cluster up NAME --port P` (and down, status).

Each is a Debian cluster of its own (`pg_createcluster 18 NAME`: its data in var/lib/postgresql/18/NAME, its
config in etc/postgresql/18/NAME) with the same server settings as the primary (AGE preloaded, JIT off), the
app role's socket login (graph/platform/hba.py), the secrets' admin password, its own port, and the same
migrations. The primary cluster (`main`) is never touched here: `db up` / `db down` own it.

A cluster is addressed like one's own server: its admin URL (127.0.0.1, its port, the configured database
name), which `cluster_settings` turns into Settings whose connect helpers (graph/platform/connect.py) and
migrator then point at that cluster.
"""

from __future__ import annotations

import re
from pathlib import Path

from graph.platform import embedded
from graph.platform.errors import PlatformError
from graph.platform.hba import with_app_socket_line
from graph.platform.host import port_holder
from graph.platform.secrets import load_or_create_secrets
from graph.settings import Settings

PRIMARY = "main"
NAME = re.compile(r"^[a-z][a-z0-9_]{0,30}$")
VERSION = "18"


def _check(name: str) -> None:
    if not NAME.match(name) or name == PRIMARY:
        raise PlatformError(f"{name!r} is not a name for another cluster",
                            "1-31 of a-z, 0-9 and _, starting with a letter; `main` is the primary (`worldmem db up`)")


def conf_dir(root: Path, name: str) -> Path:
    return root / "etc/postgresql" / VERSION / name


def data_dir(root: Path, name: str) -> Path:
    return root / "var/lib/postgresql" / VERSION / name


ROOT_FIX = "run `worldmem db up` first (as root): the root must exist"


def _in_root(root: Path, args: list[str], what: str) -> str:
    return embedded.in_root(root, args, what, quiet=True, fix=ROOT_FIX)


def server_conf(port: int) -> str:
    """The cluster's conf.d/worldmem.conf: the primary's settings, smaller memory (a cluster beside it)."""
    return ("# written by worldmem db cluster up\n"
            f"port = {port}\n"
            "listen_addresses = '127.0.0.1'\n"
            "session_preload_libraries = 'age'\n"
            "jit = off\n"
            "dynamic_shared_memory_type = mmap\n"
            "shared_buffers = '128MB'\n"
            "max_connections = 60\n")


def port_of(root: Path, name: str) -> int | None:
    conf = conf_dir(root, name) / "conf.d" / "worldmem.conf"
    found = re.search(r"^port = (\d+)$", conf.read_text(), re.MULTILINE) if conf.exists() else None
    return int(found.group(1)) if found else None


def up(settings: Settings, name: str, port: int) -> str:
    """Create (once), configure and start cluster `name` on `port`; its admin URL. Never touches `main`."""
    _check(name)
    root = settings.root_dir
    if not (root / "usr/lib/postgresql" / VERSION / "bin/postgres").exists():
        raise PlatformError("the embedded root has no PostgreSQL yet", "run `worldmem db up` first (as root)")
    if port == settings.db_port:
        raise PlatformError(f"port {port} is the primary's", "give the cluster a port of its own: --port P")
    known = port_of(root, name)
    if known is not None and known != port and embedded.is_running(root, name):
        raise PlatformError(f"cluster {name!r} runs on port {known}",
                            f"use --port {known}, or `worldmem db cluster down {name}` first")
    if not (data_dir(root, name) / "PG_VERSION").exists():
        _in_root(root, ["pg_createcluster", VERSION, name, "--port", str(port),
                         "--encoding", "UTF8", "--locale", "C.UTF-8"], f"pg_createcluster {name}")
    conf = conf_dir(root, name) / "conf.d" / "worldmem.conf"
    conf.parent.mkdir(parents=True, exist_ok=True)
    conf.write_text(server_conf(port))
    hba = conf_dir(root, name) / "pg_hba.conf"
    hba.write_text(with_app_socket_line(hba.read_text()))
    if not embedded.is_running(root, name):
        holder = port_holder(port)
        if holder is not None:
            raise PlatformError(f"port {port} on 127.0.0.1 is taken by {holder}", "choose another --port")
        _in_root(root, ["pg_ctlcluster", VERSION, name, "start"], f"start cluster {name}")
    password = load_or_create_secrets(settings).admin_password  # hex: no quoting needed
    _in_root(root, ["su", "postgres", "-c", f"psql -q -p {port} -v ON_ERROR_STOP=1 -c "
                    f"\"ALTER ROLE postgres PASSWORD '{password}'\""], f"set the admin password of {name}")
    return admin_url(settings, port)


def down(settings: Settings, name: str) -> bool:
    """Stop cluster `name` (its data stays); False when it was not running."""
    _check(name)
    if not conf_dir(settings.root_dir, name).exists() or not embedded.is_running(settings.root_dir, name):
        return False
    _in_root(settings.root_dir, ["pg_ctlcluster", VERSION, name, "stop", "-m", "fast"], f"stop cluster {name}")
    return True


def status(settings: Settings, name: str) -> dict[str, object]:
    _check(name)
    root = settings.root_dir
    exists = conf_dir(root, name).exists()
    return {"cluster": name, "exists": exists, "port": port_of(root, name),
            "running": exists and embedded.is_running(root, name), "data": str(data_dir(root, name))}


def admin_url(settings: Settings, port: int, dbname: str | None = None) -> str:
    password = load_or_create_secrets(settings).admin_password
    return f"postgresql://postgres:{password}@127.0.0.1:{port}/{dbname or settings.db_name}"


def cluster_settings(settings: Settings, url: str) -> Settings:
    """Settings that address the cluster at admin `url` as one's own server (connect.admin_url/role_url, the
    migrator): the app role logs in over TCP with the same password, which the migrator gives it there."""
    return settings.model_copy(update={"database_url": url})
