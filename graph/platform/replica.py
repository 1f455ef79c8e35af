"""A streaming-replication standby of the embedded cluster, made with PostgreSQL's own tools.

`pg_basebackup -R -C -S <slot>` copies the running primary into another data directory of the root
(var/lib/postgresql/18/<name>), creates a physical replication slot on the primary (so the primary keeps
the WAL the standby has not received yet) and writes `standby.signal` and `primary_conninfo`; `pg_ctl` then
starts it as a hot standby on its own port. Both run inside the root as postgres and reach the primary over
its Unix socket (a `local replication` line in pg_hba.conf: graph/platform/hba.py). The primary is never
restarted or reconfigured beyond that line and a reload (its default wal_level, max_wal_senders and
max_replication_slots allow a standby): other processes share the cluster.

`down` stops the standby, drops its slot (an unused slot keeps WAL on the primary for good) and removes its
data directory, so nothing of it is left behind.
"""

from __future__ import annotations

import os
import re
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from graph.platform import embedded
from graph.platform.connect import admin_url, role_url
from graph.platform.errors import PlatformError
from graph.platform.hba import with_replication_line
from graph.platform.host import port_holder
from graph.platform.migrate import _connect
from graph.settings import Settings
from graph.sql import load

PG_BIN = "/usr/lib/postgresql/18/bin"
PARENT = Path("var/lib/postgresql/18")  # beside the primary's data directory (main) in the root
SOCKET_DIR = "/run/postgresql"  # the primary's socket directory, as the root sees it
NAME = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
START_TIMEOUT_S = 120


@dataclass(frozen=True)
class Standby:
    """One standby of the embedded cluster: its data directory, slot and application_name follow its name."""

    name: str
    port: int

    def __post_init__(self) -> None:
        if not NAME.match(self.name) or self.name == "main":
            raise PlatformError(f"invalid standby name {self.name!r}", "lowercase letters, digits and _")

    @property
    def data(self) -> Path:
        """The data directory as the root sees it."""
        return Path("/") / PARENT / self.name

    @property
    def slot(self) -> str:
        return f"worldmem_{self.name}"


def standby_for(settings: Settings, port: int | None = None) -> Standby:
    """The standby of `worldmem db replica`: named replica, on `port`, replica_port or db_port + 10."""
    return Standby("replica", port or settings.replica_port or settings.db_port + 10)


def with_port(url: str, port: int) -> str:
    """`url` aimed at another port of the same server: the socket's `port` query parameter, or the host's."""
    parts = urlsplit(url)
    query = parse_qsl(parts.query, keep_blank_values=True)
    if any(key == "port" for key, _ in query):
        return urlunsplit(parts._replace(query=urlencode([(k, str(port) if k == "port" else v) for k, v in query])))
    host = parts.netloc.rpartition("@")
    address = re.sub(r":\d+$", "", host[2])
    return urlunsplit(parts._replace(netloc=f"{host[0]}{host[1]}{address}:{port}"))


def app_url(settings: Settings, standby: Standby, dbname: str | None = None) -> str:
    """The application role's URL of the standby (what WORLDMEM_READ_DATABASE_URL takes)."""
    return with_port(role_url(settings, "app", dbname), standby.port)


def _root(settings: Settings) -> Path:
    if settings.database_url is not None:
        raise PlatformError("WORLDMEM_DATABASE_URL is set: the standby of `worldmem db replica` is the embedded "
                            "cluster's", "make standbys with your server's tools and list them in "
                            "WORLDMEM_READ_DATABASE_URL (docs/operations/replicas.md)")
    if os.geteuid() != 0:
        raise PlatformError("a standby in the embedded root needs root (chroot)",
                            "run `sudo .venv/bin/worldmem db replica up`")
    root = settings.root_dir
    if not embedded.is_running(root):
        raise PlatformError("the embedded cluster is not running", "run `worldmem db up` first")
    return root


def _as_postgres(root: Path, command: str, what: str) -> str:
    return embedded.in_root(root, ["su", "postgres", "-c", command], what, quiet=True)


def running(root: Path, standby: Standby) -> bool:
    return embedded.postmaster_pid(root, standby.data.relative_to("/")) is not None


def allow_replication(root: Path, settings: Settings) -> None:
    """pg_hba.conf lets postgres open a replication connection over the socket; a reload, never a restart."""
    hba = root / embedded.CONF_DIR / "pg_hba.conf"
    before = hba.read_text()
    after = with_replication_line(before)
    if after != before:
        embedded.progress("pg_hba.conf: postgres may stream WAL over the Unix socket (a standby in the root)")
        hba.write_text(after)
        with _connect(admin_url(settings, "postgres"), autocommit=True) as conn:
            conn.execute(load("reload_conf"))


def drop_slot(settings: Settings, standby: Standby) -> bool:
    with _connect(admin_url(settings, "postgres"), autocommit=True) as conn:
        return conn.execute(load("replica_slot_drop"), {"slot": standby.slot}).fetchone() is not None


def _config(settings: Settings, standby: Standby) -> str:
    """The standby's postgresql.conf: its port, the primary's server settings that matter to worldmem, and the
    limits a hot standby must not set lower than its primary's."""
    with _connect(admin_url(settings, "postgres"), autocommit=True) as conn:
        limits = conn.execute(load("replica_primary_limits")).fetchall()
    return "".join([
        f"# written by worldmem db replica up: standby {standby.name} of the cluster on port {settings.db_port}\n",
        f"port = {standby.port}\n",
        "listen_addresses = '127.0.0.1'\n",
        f"unix_socket_directories = '{SOCKET_DIR}'\n",
        "session_preload_libraries = 'age'\n",
        "jit = off\n",
        "dynamic_shared_memory_type = mmap\n",
        "shared_buffers = '128MB'\n",
        "hot_standby = on\n",
        # the primary's vacuum waits for the standby's readers instead of cancelling them
        "hot_standby_feedback = on\n",
        # The first start syncs the whole copy to disk (it begins as recovery of an interrupted server), which is
        # why pg_basebackup runs with --no-sync; one syncfs() of the file system instead of an fsync per file.
        "recovery_init_sync_method = syncfs\n",
        *(f"{name} = {setting}\n" for name, setting in limits),
    ])


def _base_backup(root: Path, settings: Settings, standby: Standby) -> None:
    data = root / standby.data.relative_to("/")
    if data.exists():  # a copy that never finished
        shutil.rmtree(data)
    drop_slot(settings, standby)  # left by such a copy, or by a standby whose directory was removed
    port = embedded.configured_port(root) or settings.db_port
    embedded.progress(f"copying the primary into {standby.data} (pg_basebackup, slot {standby.slot})")
    started = time.monotonic()
    try:
        _as_postgres(root, f"{PG_BIN}/pg_basebackup -h {SOCKET_DIR} -p {port} -D {standby.data} -R -C "
                           f"-S {standby.slot} -X stream -c fast --no-manifest --no-sync "
                           f"-d application_name={standby.slot}",
                     "pg_basebackup")
    except PlatformError:
        drop_slot(settings, standby)
        shutil.rmtree(data, ignore_errors=True)
        raise
    embedded.progress(f"copied in {time.monotonic() - started:.1f} s")
    (data / "postgresql.conf").write_text(_config(settings, standby))
    for name in ("pg_hba.conf", "pg_ident.conf"):
        shutil.copyfile(root / embedded.CONF_DIR / name, data / name)
    owner = (data / "PG_VERSION").stat()
    for name in ("postgresql.conf", "pg_hba.conf", "pg_ident.conf"):
        os.chown(data / name, owner.st_uid, owner.st_gid)


def up(settings: Settings, standby: Standby) -> str:
    """The standby running and streaming from the primary; its app URL. A running one is left as it is."""
    root = _root(settings)
    if running(root, standby):
        return app_url(settings, standby)
    holder = port_holder(standby.port)
    if holder is not None:
        raise PlatformError(f"port {standby.port} on 127.0.0.1 is taken by {holder}",
                            "give the standby another port: worldmem db replica up --port P")
    allow_replication(root, settings)
    if not (root / standby.data.relative_to("/") / "standby.signal").exists():
        _base_backup(root, settings, standby)
    embedded.progress(f"starting the standby {standby.name} on port {standby.port}")
    _as_postgres(root, f"{PG_BIN}/pg_ctl -D {standby.data} -l {standby.data}/standby.log -w -t {START_TIMEOUT_S} start",
                 "start the standby")
    return app_url(settings, standby)


def stop(settings: Settings, standby: Standby) -> None:
    """The standby stopped, its copy and slot kept: `up` starts it again and it catches up from the slot."""
    root = _root(settings)
    if running(root, standby):
        _as_postgres(root, f"{PG_BIN}/pg_ctl -D {standby.data} -m fast -w stop", "stop the standby")


def down(settings: Settings, standby: Standby) -> bool:
    """The standby stopped, its slot dropped and its data directory removed; False when there was none."""
    data = _root(settings) / standby.data.relative_to("/")
    existed = data.exists()
    stop(settings, standby)
    existed = drop_slot(settings, standby) or existed
    shutil.rmtree(data, ignore_errors=True)
    return existed


def status(settings: Settings, standby: Standby) -> dict[str, object]:
    """Whether the standby runs, its slot on the primary and how far its replay trails (bytes of WAL)."""
    root = _root(settings)
    with _connect(admin_url(settings, "postgres"), autocommit=True) as conn:
        slot = conn.execute(load("replica_slot_state"), {"slot": standby.slot}).fetchone()
    names = ("slot", "slot_active", "application_name", "state", "replay_lsn", "replay_lag_bytes", "replay_lag_ms")
    return {"name": standby.name, "port": standby.port, "data_dir": str(root / standby.data.relative_to("/")),
            "running": running(root, standby), **dict(zip(names, slot or (None,) * len(names), strict=True))}
