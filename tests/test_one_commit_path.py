"""The write path stays one path: the aggregates write through a Writer (graph/ledger/writer.py), nothing poses as a
connection, and one module runs every statement that inserts or supersedes fact rows (graph/ledger/fact_rows.py).

Source-level checks, like tests/test_layering.py: they read the tree, not the database."""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SQL = ROOT / "graph" / "sql"
CODE = ("graph", "curator", "resolvers", "cli")
# A statement that adds a fact row or ends one's system time (a retention class change is neither).
FACT_WRITE = re.compile(
    r"INSERT\s+INTO\s+facts\b|UPDATE\s+facts\b[^;]*?\bSET\s+(superseded_at|superseded_by_fact_id)\b",
    re.IGNORECASE | re.DOTALL)


def _python(packages: tuple[str, ...] = CODE) -> list[Path]:
    return sorted(p for package in packages for p in (ROOT / package).rglob("*.py"))


def fact_statements(sql_dir: Path = SQL) -> set[str]:
    """Names of the named statements (not the repeatable functions) that write fact rows."""
    return {f.stem for f in sql_dir.glob("*.sql") if FACT_WRITE.search(f.read_text(encoding="utf-8"))}


@cache
def _strings() -> dict[str, frozenset[str]]:
    """Every module's string literals, by module path."""
    return {path.relative_to(ROOT).as_posix(): frozenset(
        node.value for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant) and isinstance(node.value, str)) for path in _python()}


def loaded_by(name: str) -> set[str]:
    """The modules that name statement `name` as a string literal (load, or a helper that loads it)."""
    return {module for module, strings in _strings().items() if name in strings}


def test_the_scanner_finds_the_fact_statements_and_their_module(tmp_path: Path) -> None:
    (tmp_path / "a.sql").write_text("INSERT INTO facts (id) VALUES (1)", encoding="utf-8")
    (tmp_path / "b.sql").write_text("UPDATE facts f\nSET superseded_at = now()", encoding="utf-8")
    (tmp_path / "c.sql").write_text("UPDATE facts SET retention_class = 'windowed'", encoding="utf-8")
    (tmp_path / "d.sql").write_text("SELECT * FROM facts", encoding="utf-8")
    assert fact_statements(tmp_path) == {"a", "b"}
    assert "facts_replace" in fact_statements()
    assert loaded_by("facts_replace") == {"graph/ledger/fact_rows.py"}


def test_one_module_runs_every_fact_row_write() -> None:
    statements = fact_statements()
    writers = {name: loaded_by(name) for name in sorted(statements)}
    assert {name: found for name, found in writers.items() if found != {"graph/ledger/fact_rows.py"}} == {}


def test_entity_and_alias_rows_of_a_proposal_are_written_by_the_writers() -> None:
    for name in ("entity_insert", "entity_update", "alias_insert", "batch_entities_insert", "batch_aliases_insert"):
        assert loaded_by(name) <= {"graph/ledger/writer_immediate.py", "graph/ledger/writer_buffers.py"}, name


def test_nothing_poses_as_a_connection_and_no_aggregate_asks_which_writer() -> None:
    offenders = []
    for path in _python(("graph",)):
        text = path.read_text(encoding="utf-8")
        proxy = ("as_connection" in text or re.search(r"(?<!test_)committer_batch", text)
                 or re.search(r"\bactive\(\w*conn", text))
        if proxy:
            offenders.append(path.relative_to(ROOT).as_posix())
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef) and node.name == "__getattr__":
                offenders.append(f"{path.relative_to(ROOT).as_posix()}:{node.lineno} __getattr__")
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance":
                names = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
                if names & {"Buffered", "Immediate"}:
                    offenders.append(f"{path.relative_to(ROOT).as_posix()}:{node.lineno} isinstance of a writer")
    assert offenders == []


def test_only_the_committer_chooses_the_writer() -> None:
    for cls in ("Buffered", "Immediate"):
        users = {p.relative_to(ROOT).as_posix() for p in _python(("graph",))
                 if re.search(rf"\b{cls}\(", p.read_text(encoding="utf-8"))}
        assert users <= {"graph/ledger/committer.py", "graph/ledger/writer_buffered.py"}, (cls, users)
