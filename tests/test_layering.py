"""Dependencies point down: the store (graph/) imports nothing from the layers built on it.

Read from the source with `ast`, so the test needs no database and catches imports inside functions too
(a lazy import is still a dependency).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Which top-level packages each layer must never import.
FORBIDDEN = {
    "graph": {"curator", "resolvers", "cli", "client", "bench", "tests"},
    "curator": {"resolvers", "cli", "client", "bench", "tests"},
    "resolvers": {"cli", "client", "bench", "tests"},
}


def imported_packages(path: Path) -> set[tuple[str, int]]:
    """(top-level package, line) of every absolute import in one file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[tuple[str, int]] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update((alias.name.split(".")[0], node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add((node.module.split(".")[0], node.lineno))
    return found


def upward_imports(layer: str) -> list[str]:
    bad = FORBIDDEN[layer]
    return sorted(
        f"{path.relative_to(ROOT)}:{line} imports {package}"
        for path in (ROOT / layer).rglob("*.py")
        for package, line in imported_packages(path)
        if package in bad
    )


def test_the_walker_sees_imports_at_any_depth(tmp_path: Path) -> None:
    sample = tmp_path / "m.py"
    sample.write_text("import os\nfrom curator.x import y\ndef f():\n    import resolvers.app\n", encoding="utf-8")
    assert {p for p, _ in imported_packages(sample)} == {"os", "curator", "resolvers"}


def test_graph_imports_nothing_above_it() -> None:
    assert upward_imports("graph") == []


def test_curator_imports_nothing_above_it() -> None:
    assert upward_imports("curator") == []


def test_resolvers_import_nothing_above_them() -> None:
    assert upward_imports("resolvers") == []
