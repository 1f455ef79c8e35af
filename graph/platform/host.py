"""What the host tells us before we provision: its Debian mirror, and who holds a TCP port.

Pure parsing functions take the file text, so they are tested without touching the machine.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

FALLBACK_MIRROR = "http://deb.debian.org/debian"
APT_SOURCES = Path("/etc/apt/sources.list")
APT_SOURCES_DIR = Path("/etc/apt/sources.list.d")
LISTEN = "0A"  # TCP state LISTEN in /proc/net/tcp
MARKER = ".worldmem-base"


def _is_main_archive(uri: str, suites: list[str]) -> bool:
    return "security" not in uri and not any(s.endswith("-security") for s in suites) and "debian" in uri


def mirrors_in_list(text: str) -> list[str]:
    """The archive URIs of one-line `deb [options] URI suite components` sources."""
    found: list[str] = []
    for raw in text.splitlines():
        line = re.sub(r"\[[^\]]*\]", " ", raw.split("#", 1)[0]).split()
        if len(line) >= 3 and line[0] == "deb" and _is_main_archive(line[1], line[2:3]):
            found.append(line[1])
    return found


def mirrors_in_sources(text: str) -> list[str]:
    """The archive URIs of deb822 `.sources` stanzas (Types: deb, URIs:, Suites:; Enabled: no skipped)."""
    found: list[str] = []
    for stanza in re.split(r"\n\s*\n", text):
        fields: dict[str, str] = {}
        for line in stanza.splitlines():
            if line.startswith("#") or ":" not in line or line[:1].isspace():
                continue
            key, _, value = line.partition(":")
            fields[key.strip().lower()] = value.strip()
        if "deb" not in fields.get("types", "").split() or fields.get("enabled", "yes").lower() == "no":
            continue
        suites = fields.get("suites", "").split()
        found += [uri for uri in fields.get("uris", "").split() if _is_main_archive(uri, suites)]
    return found


def host_debian_mirror() -> str:
    """The first Debian archive in the host's apt sources (a local mirror or proxy works), or the fallback."""
    candidates: list[str] = []
    if APT_SOURCES.is_file():
        candidates += mirrors_in_list(APT_SOURCES.read_text(errors="replace"))
    if APT_SOURCES_DIR.is_dir():
        for path in sorted(APT_SOURCES_DIR.iterdir()):
            if path.suffix == ".list":
                candidates += mirrors_in_list(path.read_text(errors="replace"))
            elif path.suffix == ".sources":
                candidates += mirrors_in_sources(path.read_text(errors="replace"))
    return candidates[0].rstrip("/") if candidates else FALLBACK_MIRROR


def listening_inodes(proc_net_tcp: str, port: int) -> set[str]:
    """Socket inodes listening on `port` in a /proc/net/tcp(6) table."""
    inodes: set[str] = set()
    for line in proc_net_tcp.splitlines()[1:]:
        cols = line.split()
        if len(cols) > 9 and cols[3] == LISTEN and int(cols[1].rsplit(":", 1)[1], 16) == port:
            inodes.add(cols[9])
    return inodes


def port_holder(port: int) -> str | None:
    """Who listens on 127.0.0.1:`port`: "the worldmem root <path> (pid N)", "<command> (pid N)", or None
    (nothing listens, or the holder is not visible to this user)."""
    inodes: set[str] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            inodes |= listening_inodes(Path(table).read_text(), port)
        except OSError:
            continue
    if not inodes:
        return None
    wanted = {f"socket:[{i}]" for i in inodes}
    for pid in sorted((p for p in os.listdir("/proc") if p.isdigit()), key=int):
        try:
            if not any(_link(f"/proc/{pid}/fd/{fd}") in wanted for fd in os.listdir(f"/proc/{pid}/fd")):
                continue
            root = os.readlink(f"/proc/{pid}/root")
            command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[0].decode(errors="replace")
        except OSError:
            continue
        if root != "/" and (Path(root) / MARKER).exists():
            return f"the worldmem root {root} (pid {pid})"
        return f"{command or 'a process'} (pid {pid})"
    return "a process this user cannot see"


def _link(path: str) -> str | None:
    """Where a /proc fd points, or None for one closed meanwhile (a busy process opens and closes fds while we
    look: that fd is skipped, not the whole process, which made the holder "a process this user cannot see")."""
    try:
        return os.readlink(path)
    except FileNotFoundError:
        return None
