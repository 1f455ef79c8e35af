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


# Packages whose modules must not import each other in a circle.
CIRCLE_FREE = ("graph", "curator", "resolvers", "cli")


def module_names(root: Path, packages: tuple[str, ...]) -> dict[str, Path]:
    """Dotted module name (a package by its own name) -> file, for every .py file under `packages`."""
    found: dict[str, Path] = {}
    for package in packages:
        for path in (root / package).rglob("*.py"):
            parts = path.relative_to(root).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def import_graph(root: Path, packages: tuple[str, ...]) -> dict[str, set[str]]:
    """Module -> the modules of the same tree it imports, at any depth (`from a import b` may name module a.b)."""
    modules = module_names(root, packages)
    edges: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if isinstance(node, ast.Import):
                targets = {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                targets = {node.module} | {f"{node.module}.{alias.name}" for alias in node.names}
            else:
                continue
            edges[name] |= {target for target in targets if target in modules and target != name}
    return edges


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(edges):
        if start in index:
            continue
        work: list[tuple[str, list[str]]] = [(start, sorted(edges[start]))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, pending = work[-1]
            if pending:
                nxt = pending.pop()
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, sorted(edges[nxt])))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


def test_the_circle_walker_finds_a_circle_through_a_lazy_import(tmp_path: Path) -> None:
    (tmp_path / "pkg" / "sub").mkdir(parents=True)
    (tmp_path / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "pkg" / "sub" / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "pkg" / "a.py").write_text("from pkg.sub import b\n", encoding="utf-8")
    (tmp_path / "pkg" / "sub" / "b.py").write_text("import pkg.c\n", encoding="utf-8")
    (tmp_path / "pkg" / "c.py").write_text("def f():\n    from pkg import a\n", encoding="utf-8")
    (tmp_path / "pkg" / "d.py").write_text("import pkg.a\n", encoding="utf-8")  # into the circle, not part of it
    assert circles(import_graph(tmp_path, ("pkg",))) == [["pkg.a", "pkg.c", "pkg.sub.b"]]


def test_the_circle_walker_sees_no_circle_in_a_chain(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text("import pkg.b\n", encoding="utf-8")
    (tmp_path / "pkg" / "b.py").write_text("from pkg import c\n", encoding="utf-8")
    (tmp_path / "pkg" / "c.py").write_text("import os\n", encoding="utf-8")
    assert circles(import_graph(tmp_path, ("pkg",))) == []


def test_no_import_circles() -> None:
    assert circles(import_graph(ROOT, CIRCLE_FREE)) == []
