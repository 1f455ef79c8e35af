"""The embedded database: PostgreSQL 18 + AGE + pgvector in a Debian forky root, run with chroot.

Debian 12 cannot run the forky binaries directly (glibc), so a minimal root made by debootstrap
carries them; the chroot shares the host network and serves on 127.0.0.1:<db_port>, and on a Unix
socket in the root's /run/postgresql (the application role's way in, graph/platform/hba.py).
Every step checks before it acts, so a second `db up` on a ready machine takes seconds.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from graph.platform.connect import app_socket_dir, socket_file
from graph.platform.errors import PlatformError
from graph.platform.hba import with_app_socket_line
from graph.platform.host import host_debian_mirror, port_holder
from graph.platform.secrets import load_or_create_secrets
from graph.settings import Settings

# AGE is pinned: its behaviour under RLS changed between releases (see the platform notes); doctor reports it.
AGE_PACKAGE = "postgresql-18-age"
PACKAGES = ("postgresql-18", AGE_PACKAGE, "postgresql-18-pgvector")
PG_BIN = Path("usr/lib/postgresql/18/bin/postgres")
CONF_DIR = Path("etc/postgresql/18/main")
DATA_DIR = Path("var/lib/postgresql/18/main")
BASE_MARKER = ".worldmem-base"


def progress(message: str) -> None:
    print(f"[worldmem] {message}", file=sys.stderr, flush=True)


PROVISION_FIX = ("check the network to the Debian package registry, or set WORLDMEM_DATABASE_URL to use your own "
                 "PostgreSQL with AGE and pgvector")


def _run(cmd: list[str], what: str, *, quiet: bool = False, env: dict[str, str] | None = None,
         fix: str = PROVISION_FIX) -> str:
    """Run a step; stream its output unless quiet; turn failure into a PlatformError that says `fix`."""
    try:
        proc = subprocess.run(
            cmd,
            check=False,
            text=True,
            stdout=subprocess.PIPE if quiet else None,
            stderr=subprocess.STDOUT if quiet else None,
            env={**os.environ, **(env or {})},
        )
    except FileNotFoundError as exc:
        raise PlatformError(f"{what}: {cmd[0]} not found") from exc
    if proc.returncode != 0:
        tail = (proc.stdout or "").strip().splitlines()[-15:]
        raise PlatformError(
            f"{what} failed (exit {proc.returncode})" + ("\n" + "\n".join(tail) if tail else ""), fix)
    return proc.stdout or ""


def _chroot(root: Path, args: list[str], what: str, *, quiet: bool = False, fix: str = PROVISION_FIX) -> str:
    env = {"DEBIAN_FRONTEND": "noninteractive", "LC_ALL": "C", "LANG": "C",
           "PATH": "/usr/sbin:/usr/bin:/sbin:/bin"}
    return _run(["chroot", str(root), *args], what, quiet=quiet, env=env, fix=fix)


def in_root(root: Path, args: list[str], what: str, *, quiet: bool = False, fix: str = PROVISION_FIX) -> str:
    """A command run inside the root (chroot), as the other platform modules need it (graph/platform/replica.py,
    clusters.py); `fix` is what a failure tells the user to do."""
    return _chroot(root, args, what, quiet=quiet, fix=fix)


def _require_root() -> None:
    if os.geteuid() != 0:
        raise PlatformError(
            "provisioning the embedded database needs root (debootstrap and chroot)",
            "run `sudo .venv/bin/worldmem db up` once, or set WORLDMEM_DATABASE_URL to your own "
            "PostgreSQL >= 16 with AGE >= 1.7 and pgvector",
        )


def _ensure_debootstrap() -> None:
    if shutil.which("debootstrap"):
        return
    if not shutil.which("apt-get"):
        raise PlatformError(
            "debootstrap is missing and there is no apt-get to install it",
            "install debootstrap, or set WORLDMEM_DATABASE_URL",
        )
    progress("installing debootstrap on the host (apt-get)")
    _run(["apt-get", "update", "-q"], "apt-get update")
    _run(["apt-get", "install", "-y", "-q", "debootstrap"], "apt-get install debootstrap",
         env={"DEBIAN_FRONTEND": "noninteractive"})


def _script_for(suite: str) -> list[str]:
    """debootstrap has no script named forky yet; sid's script builds it."""
    scripts = Path("/usr/share/debootstrap/scripts")
    if (scripts / suite).exists():
        return []
    return [str(scripts / "sid")]


def ensure_root(settings: Settings) -> Path:
    root = settings.root_dir
    if (root / BASE_MARKER).exists():
        return root
    _require_root()
    _ensure_debootstrap()
    partial = root.with_name("root.partial")
    if partial.exists():
        _unmount_proc(partial)
        shutil.rmtree(partial)
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    mirror = settings.debian_mirror or host_debian_mirror()
    progress(f"creating a minimal Debian {settings.debian_suite} root in {root} from {mirror} "
             "(debootstrap, ~1 min, once; WORLDMEM_DEBIAN_MIRROR overrides the mirror)")
    _run(["debootstrap", "--variant=minbase", settings.debian_suite, str(partial),
          mirror, *_script_for(settings.debian_suite)], "debootstrap")
    # Services must not start inside the root while packages install; we start the cluster ourselves.
    policy = partial / "usr/sbin/policy-rc.d"
    policy.write_text("#!/bin/sh\nexit 101\n")
    policy.chmod(0o755)
    # The registry here may serve a snapshot whose Release file has passed its Valid-Until date.
    (partial / "etc/apt/apt.conf.d/99worldmem").write_text(
        'Acquire::Check-Valid-Until "false";\nAPT::Install-Recommends "false";\n')
    (partial / BASE_MARKER).write_text(settings.debian_suite + "\n")
    partial.rename(root)
    return root


def _proc_mounted(root: Path) -> bool:
    target = str((root / "proc").resolve())
    with open("/proc/self/mountinfo") as fh:
        return any(line.split()[4] == target for line in fh)


def _mount_proc(root: Path) -> None:
    if not _proc_mounted(root):
        _run(["mount", "-t", "proc", "proc", str(root / "proc")], "mount /proc in the root")


def _unmount_proc(root: Path) -> None:
    if (root / "proc").exists() and _proc_mounted(root):
        _run(["umount", "-l", str(root / "proc")], "unmount /proc in the root", quiet=True)


def ensure_packages(root: Path, settings: Settings) -> None:
    if (root / PG_BIN).exists() and (root / "usr/share/postgresql/18/extension/age.control").exists():
        return
    _require_root()
    _mount_proc(root)
    wanted = [f"{p}={settings.age_package_version}" if p == AGE_PACKAGE and settings.age_package_version else p
              for p in PACKAGES]
    progress("installing " + ", ".join(wanted) + " inside the root (apt-get, ~40 s, once)")
    _chroot(root, ["apt-get", "update", "-q"], "apt-get update in the root")
    _chroot(root, ["apt-get", "install", "-y", "-q", "--no-install-recommends", *wanted],
            "apt-get install in the root")


def package_version(root: Path, package: str = AGE_PACKAGE) -> str | None:
    """The installed Debian version of a package inside the root, or None."""
    if not (root / BASE_MARKER).exists():
        return None
    out = _chroot(root, ["dpkg-query", "-W", "-f", "${Version}", package], "dpkg-query", quiet=True)
    return out.strip() or None


def configured_port(root: Path) -> int | None:
    conf = root / CONF_DIR / "conf.d" / "worldmem.conf"
    found = re.search(r"^port = (\d+)$", conf.read_text(), re.MULTILINE) if conf.exists() else None
    return int(found.group(1)) if found else None


def configure(root: Path, settings: Settings) -> None:
    """Write the server settings; never restarts a running cluster to move it to another port."""
    conf = root / CONF_DIR / "conf.d" / "worldmem.conf"
    running_on = configured_port(root) if is_running(root) else None
    if running_on is not None and running_on != settings.db_port:
        raise PlatformError(
            f"the cluster in {root} is running on port {running_on}, but WORLDMEM_DB_PORT says {settings.db_port}",
            f"unset WORLDMEM_DB_PORT (or set it to {running_on}); to move the cluster, run `worldmem db down` "
            "first (it stops the whole cluster, every database in it) and `worldmem db up` again")
    wanted = (
        "# written by worldmem db up\n"
        f"port = {settings.db_port}\n"
        "listen_addresses = '127.0.0.1'\n"
        "session_preload_libraries = 'age'\n"
        "jit = off\n"
        "dynamic_shared_memory_type = mmap\n"
        "shared_buffers = '512MB'\n"
        "max_connections = 100\n"
    )
    if not conf.exists() or conf.read_text() != wanted:
        conf.parent.mkdir(parents=True, exist_ok=True)
        conf.write_text(wanted)
        if is_running(root):
            _chroot(root, ["pg_ctlcluster", "18", "main", "restart"], "restart the cluster")


def allow_app_socket_login(root: Path) -> None:
    """pg_hba.conf lets the app role log in over the Unix socket with its password; a running cluster reloads
    it (a reload, never a restart: sessions of every database in the cluster go on)."""
    hba = root / CONF_DIR / "pg_hba.conf"
    if not hba.exists():
        raise PlatformError(f"{hba} is missing: the cluster in the root is incomplete",
                            "remove the root (worldmem db down first) and run `worldmem db up` again")
    before = hba.read_text()
    after = with_app_socket_line(before)
    if after == before:
        return
    progress("pg_hba.conf: the application role may log in over the Unix socket (scram-sha-256)")
    hba.write_text(after)
    if is_running(root):
        _chroot(root, ["pg_ctlcluster", "18", "main", "reload"], "reload the cluster")


def is_running(root: Path, cluster: str = "main") -> bool:
    """Whether the root's cluster (the embedded one, or another of graph/platform/clusters.py) is online."""
    if not (root / PG_BIN).exists():
        return False
    out = _chroot(root, ["pg_lsclusters", "-h"], "pg_lsclusters", quiet=True)
    return any(line.split()[:2] == ["18", cluster] and "online" in line for line in out.splitlines())


def postmaster_pid(root: Path, data: Path = DATA_DIR) -> int | None:
    """The postmaster of the data directory `data` in the root (the first line of its postmaster.pid), None when
    it is not running (the embedded cluster's, or a standby's: graph/platform/replica.py)."""
    try:
        first = (root / data / "postmaster.pid").read_text().split("\n", 1)[0].strip()
    except OSError:
        return None
    return int(first) if first.isdigit() and Path(f"/proc/{first}").exists() else None


def start(root: Path, port: int) -> None:
    _mount_proc(root)
    if is_running(root):
        return
    holder = port_holder(port)
    if holder is not None:
        raise PlatformError(
            f"port {port} on 127.0.0.1 is taken by {holder}",
            f"give this data directory ({root.parent}) its own port: WORLDMEM_DB_PORT={port + 1} worldmem db up "
            "(and the same WORLDMEM_DB_PORT for every worldmem command using it)")
    progress("starting PostgreSQL 18 in the root")
    _chroot(root, ["pg_ctlcluster", "18", "main", "start"], "start the cluster")


def stop(root: Path) -> None:
    if is_running(root):
        progress(f"stopping the whole cluster in {root}: every database in it, for every worldmem process and "
                 "test run using it (to remove one database only: worldmem db drop NAME)")
        _chroot(root, ["pg_ctlcluster", "18", "main", "stop", "-m", "fast"], "stop the cluster")
    _unmount_proc(root)


def ensure_admin_password(root: Path, settings: Settings) -> None:
    """Set the superuser's password from the secrets file (TCP logins use scram-sha-256)."""
    secrets = load_or_create_secrets(settings)
    marker = settings.data_dir / ".admin-password-set"
    if marker.exists() and marker.read_text() == secrets.fingerprint():
        return
    sql = "ALTER ROLE postgres PASSWORD '" + secrets.admin_password + "'"  # hex token, no quotes
    _chroot(root, ["su", "postgres", "-c", "psql -q -v ON_ERROR_STOP=1 -c \"" + sql + "\""],
            "set the admin password", quiet=True)
    marker.write_text(secrets.fingerprint())


def up(settings: Settings) -> None:
    root = ensure_root(settings)
    ensure_packages(root, settings)
    configure(root, settings)
    allow_app_socket_login(root)
    start(root, settings.db_port)
    ensure_admin_password(root, settings)


def status(settings: Settings) -> dict[str, object]:
    root = settings.root_dir
    return {
        "root": str(root),
        "root_ready": (root / BASE_MARKER).exists(),
        "packages_installed": (root / PG_BIN).exists(),
        "running": is_running(root) if (root / BASE_MARKER).exists() else False,
        "port": settings.db_port,
        "app_socket": str(socket_file(socket, settings.db_port)) if (socket := app_socket_dir(settings)) else None,
        "age_package": package_version(root) if (root / PG_BIN).exists() else None,
    }
