"""The environment is locked: every dependency of `.[dev]` pinned with hashes in requirements.lock,
within pyproject's bounds, dev tools pinned exactly, and the Makefile installs from the lock."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

REPO = Path(__file__).resolve().parents[1]
PIN = re.compile(r"^([A-Za-z0-9_.\-]+)==([^\s;\\]+)")


def locked() -> dict[str, tuple[str, int]]:
    """{name: (version, number of hashes)} from requirements.lock."""
    pins: dict[str, tuple[str, int]] = {}
    current: str | None = None
    for line in (REPO / "requirements.lock").read_text().splitlines():
        found = PIN.match(line)
        if found:
            current = canonicalize_name(found.group(1))
            pins[current] = (found.group(2), 0)
        elif current and line.strip().startswith("--hash=sha256:"):
            version, hashes = pins[current]
            pins[current] = (version, hashes + 1)
    return pins


def declared() -> list[Requirement]:
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    return [Requirement(r) for r in [*project["dependencies"], *project["optional-dependencies"]["dev"]]]


def test_every_dependency_is_locked_with_hashes_within_its_bounds() -> None:
    pins = locked()
    assert len(pins) > 30 and all(hashes >= 1 for _, hashes in pins.values())
    for requirement in declared():
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{name} is not in requirements.lock: run `make lock`"
        assert requirement.specifier.contains(pins[name][0], prereleases=True), (name, pins[name][0])


def test_dev_tools_are_pinned_exactly() -> None:
    exact = {canonicalize_name(r.name): str(r.specifier) for r in declared() if str(r.specifier).startswith("==")}
    assert {"ruff", "mypy"} <= set(exact)
    pins = locked()
    assert all(pins[name][0] == spec[2:] for name, spec in exact.items())


def test_make_installs_from_the_lock() -> None:
    makefile = (REPO / "Makefile").read_text()
    assert "--require-hashes -r $(LOCK)" in makefile and "LOCK := requirements.lock" in makefile
    assert "--no-deps" in makefile  # the project itself adds nothing unlocked
    assert "make lock-check" in (REPO / ".ci" / "run").read_text()
