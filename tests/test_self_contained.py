"""The repository depends on nothing beside it: a fresh clone alone must pass `make test`."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# A path that leaves the repo to a sibling folder, written the ways Python and shell code write it.
OUTSIDE = re.compile(r"""\.\./shared|parents?\[?\d*\]?\s*/\s*["']shared["']|parent\.parent\s*/\s*["']shared""")
CHECKED = ("*.py", "Makefile", "*.toml", "run", "*.sh")
SKIPPED = {".venv", ".git", "node_modules", "data", "__pycache__", "build"}


def _files() -> list[Path]:
    found: list[Path] = []
    for pattern in CHECKED:
        found += [p for p in REPO.rglob(pattern) if not SKIPPED & set(p.relative_to(REPO).parts)]
    return found


def test_the_pattern_catches_the_old_reads() -> None:
    assert OUTSIDE.search('HERE.parent.parent / "shared" / "scenarios"')
    assert OUTSIDE.search('REPO.parent / "shared" / "contract"')
    assert OUTSIDE.search("cat ../shared/scenarios/x.json")


def test_no_file_reads_outside_the_repo() -> None:
    files = _files()
    assert any(p.name == "conftest.py" for p in files)
    offenders = [str(p.relative_to(REPO)) for p in files
                 if p.name != "test_self_contained.py" and OUTSIDE.search(p.read_text(errors="replace"))]
    assert offenders == []


def test_the_suite_carries_its_data() -> None:
    assert sorted(p.name for p in (REPO / "tests" / "data" / "scenarios").glob("*.json")) == [
        "fowler_salary.json", "wikipedia_john_doe.json"]
    assert (REPO / "tests" / "data" / "contract" / "core.graphql").is_file()
