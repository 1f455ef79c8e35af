"""The machine-facing parts of `db up` without touching the shared cluster: the Debian mirror from the
host's apt sources, the pinned AGE package, a taken port named with its holder, a changed port that
never restarts a running cluster, `db drop`, and doctor's version line."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from psycopg import sql

from cli.main import main
from graph.platform import embedded
from graph.platform.databases import drop_database
from graph.platform.errors import PlatformError
from graph.platform.host import listening_inodes, mirrors_in_list, mirrors_in_sources, port_holder
from graph.settings import Settings

SOURCES = """Types: deb
# http://snapshot.debian.org/archive/debian/20250520T000000Z
URIs: http://mirror.local/debian
Suites: bookworm bookworm-updates
Components: main

Types: deb
URIs: http://mirror.local/debian-security
Suites: bookworm-security
Components: main

Types: deb
URIs: http://disabled.example/debian
Suites: trixie
Enabled: no
"""


def test_mirror_from_apt_sources() -> None:
    assert mirrors_in_sources(SOURCES) == ["http://mirror.local/debian"]
    listed = ("# deb http://commented.example/debian bookworm main\n"
              "deb [arch=amd64 signed-by=/k.gpg] http://proxy:3142/debian bookworm main\n"
              "deb http://security.debian.org/debian-security bookworm-security main\n"
              "deb-src http://src.example/debian bookworm main\n")
    assert mirrors_in_list(listed) == ["http://proxy:3142/debian"]


def fake_root(tmp_path: Path, port: int) -> Path:
    root = tmp_path / "root"
    (root / embedded.CONF_DIR / "conf.d").mkdir(parents=True)
    (root / embedded.CONF_DIR / "conf.d" / "worldmem.conf").write_text(f"# written by worldmem db up\nport = {port}\n")
    (root / embedded.BASE_MARKER).write_text("forky\n")
    return root


@pytest.fixture
def chroot_calls(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    calls: list[list[str]] = []

    def record(root: Path, args: list[str], what: str, *, quiet: bool = False) -> str:
        calls.append(args)
        return ""

    monkeypatch.setattr(embedded, "_chroot", record)
    def run(cmd: list[str], what: str, **kw: object) -> str:
        calls.append(cmd)
        if cmd[0] == "debootstrap":  # what debootstrap leaves behind, as far as ensure_root looks
            for sub in ("usr/sbin", "etc/apt/apt.conf.d"):
                (Path(cmd[3]) / sub).mkdir(parents=True)
        return ""

    monkeypatch.setattr(embedded, "_run", run)
    monkeypatch.setattr(embedded, "_require_root", lambda: None)
    monkeypatch.setattr(embedded, "_ensure_debootstrap", lambda: None)
    monkeypatch.setattr(embedded, "_mount_proc", lambda root: None)
    return calls


def test_new_root_uses_the_host_mirror_unless_overridden(tmp_path: Path, chroot_calls: list[list[str]],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(embedded, "host_debian_mirror", lambda: "http://mirror.local/debian")
    embedded.ensure_root(Settings(data_dir=tmp_path / "a"))
    embedded.ensure_root(Settings(data_dir=tmp_path / "b", debian_mirror="http://override.example/debian"))
    mirrors = [call[4] for call in chroot_calls if call[0] == "debootstrap"]
    assert mirrors == ["http://mirror.local/debian", "http://override.example/debian"]


def test_the_age_package_is_pinned(tmp_path: Path, chroot_calls: list[list[str]]) -> None:
    root = fake_root(tmp_path, 54318)
    embedded.ensure_packages(root, Settings(data_dir=tmp_path))
    install = next(c for c in chroot_calls if "install" in c)
    assert "postgresql-18-age=1.8.0~rc0-2" in install and "postgresql-18" in install


def test_a_changed_port_never_restarts_a_running_cluster(tmp_path: Path, chroot_calls: list[list[str]],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    root = fake_root(tmp_path, 54318)
    monkeypatch.setattr(embedded, "is_running", lambda root: True)
    settings = Settings(data_dir=tmp_path, db_port=54999)
    before = (root / embedded.CONF_DIR / "conf.d" / "worldmem.conf").read_text()
    with pytest.raises(PlatformError) as caught:
        embedded.configure(root, settings)
    assert "running on port 54318" in str(caught.value) and "worldmem db down" in str(caught.value)
    assert (root / embedded.CONF_DIR / "conf.d" / "worldmem.conf").read_text() == before
    assert chroot_calls == []  # no restart


@pytest.fixture
def listener() -> Iterator[int]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        yield s.getsockname()[1]


def test_the_holder_of_a_taken_port_is_named(listener: int, tmp_path: Path, chroot_calls: list[list[str]],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    table = ("  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"
             f"   0: 0100007F:{listener:04X} 00000000:0000 0A 00000000:00000000 00:00000000 00000000 0 0 4242 1\n")
    assert listening_inodes(table, listener) == {"4242"}
    holder = port_holder(listener)
    assert holder is not None and f"(pid {os.getpid()})" in holder
    monkeypatch.setattr(embedded, "is_running", lambda root: False)
    with pytest.raises(PlatformError) as caught:
        embedded.start(fake_root(tmp_path, listener), listener)
    assert f"port {listener}" in str(caught.value) and "WORLDMEM_DB_PORT" in str(caught.value)
    assert not any("start" in c for c in chroot_calls)


def test_db_drop_drops_scratch_databases_only(settings: Settings, test_db_url: str) -> None:
    name = f"worldmem_scratch_{os.getpid()}"
    with psycopg.connect(test_db_url, autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    assert main(["db", "drop", name]) == 0
    assert drop_database(settings, name) is False  # gone
    for refused in ("postgres", "template1", settings.db_name, "Robert'); DROP"):
        with pytest.raises(PlatformError):
            drop_database(settings, refused)


def test_doctor_reports_the_running_age_version(test_db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    # 0 or 1: whether graph == ledger here depends on other tests (test_doctor tampers on purpose)
    assert main(["doctor", "--url", test_db_url]) in (0, 1)
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("AGE 1.") and "pgvector 0." in first
