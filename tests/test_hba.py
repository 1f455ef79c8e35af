"""pg_hba.conf handling (graph/platform/hba.py, embedded.allow_app_socket_login): the app role's socket line is
inserted once, after Debian's postgres line and before every other socket line, an already-right file is left
alone, and the running cluster is reloaded, never restarted, only when the file changed."""

from __future__ import annotations

from pathlib import Path

import pytest

from graph.platform import embedded
from graph.platform.hba import APP_FIELDS, APP_LINE, COMMENT, with_app_socket_line
from graph.settings import Settings
from tests.test_host import chroot_calls, fake_root

__all__ = ["chroot_calls"]  # the fixture, used by name below

# Debian's pg_hba.conf of a new cluster, without its long comment block.
DEBIAN = """# DO NOT DISABLE!
local   all             postgres                                peer

# TYPE  DATABASE        USER            ADDRESS                 METHOD

# "local" is for Unix domain socket connections only
local   all             all                                     peer
# IPv4 local connections:
host    all             all             127.0.0.1/32            scram-sha-256
host    all             all             ::1/128                 scram-sha-256
local   replication     all                                     peer
host    replication     all             127.0.0.1/32            scram-sha-256
"""


def rules(text: str) -> list[tuple[str, ...]]:
    return [tuple(line.split()) for line in text.splitlines() if line.strip() and not line.startswith("#")]


def test_the_line_goes_after_postgres_and_before_the_peer_line() -> None:
    after = with_app_socket_line(DEBIAN)
    assert rules(after)[:3] == [("local", "all", "postgres", "peer"), APP_FIELDS, ("local", "all", "all", "peer")]
    assert after.count(APP_LINE) == 1 and after.count(COMMENT) == 1
    # nothing else moved or changed
    assert after.replace(COMMENT + APP_LINE, "") == DEBIAN


def test_an_already_right_file_is_unchanged() -> None:
    once = with_app_socket_line(DEBIAN)
    assert with_app_socket_line(once) == once
    # a hand-written equivalent (other spacing, no comment of ours) counts as right too
    by_hand = DEBIAN.replace("local   all             all", "local all worldmem_app scram-sha-256\nlocal   all   all")
    assert with_app_socket_line(by_hand) == by_hand


def test_a_line_that_comes_too_late_is_moved() -> None:
    late = DEBIAN + COMMENT + APP_LINE
    moved = with_app_socket_line(late)
    assert moved == with_app_socket_line(DEBIAN)
    assert rules(moved).count(APP_FIELDS) == 1


def test_without_a_peer_line_the_line_is_appended() -> None:
    only_tcp = "host all all 127.0.0.1/32 scram-sha-256"  # no newline at the end either
    assert with_app_socket_line(only_tcp) == only_tcp + "\n" + COMMENT + APP_LINE


@pytest.fixture
def hba_root(tmp_path: Path) -> Path:
    root = fake_root(tmp_path, 54318)
    (root / embedded.CONF_DIR / "pg_hba.conf").write_text(DEBIAN)
    return root


@pytest.mark.parametrize("running", [True, False])
def test_db_up_writes_it_and_reloads_only_on_a_change(hba_root: Path, running: bool,
                                                      chroot_calls: list[list[str]],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(embedded, "is_running", lambda root: running)
    embedded.allow_app_socket_login(hba_root)
    hba = hba_root / embedded.CONF_DIR / "pg_hba.conf"
    assert hba.read_text() == with_app_socket_line(DEBIAN)
    assert chroot_calls == ([["pg_ctlcluster", "18", "main", "reload"]] if running else [])
    embedded.allow_app_socket_login(hba_root)  # the second `db up`: nothing to do
    assert chroot_calls == ([["pg_ctlcluster", "18", "main", "reload"]] if running else [])


def test_the_real_cluster_has_it(settings: Settings) -> None:
    """`make test` runs `db up` first, so the shared cluster's file is already right (and the socket tests in
    tests/test_app_socket.py log in through it)."""
    hba = settings.root_dir / embedded.CONF_DIR / "pg_hba.conf"
    if settings.database_url or not hba.exists():
        pytest.skip("no embedded cluster here (WORLDMEM_DATABASE_URL)")
    text = hba.read_text()
    assert with_app_socket_line(text) == text
    assert rules(text)[0] == ("local", "all", "postgres", "peer")
