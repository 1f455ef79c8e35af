"""What an installed worldmem carries: the wheels are built offline here and their contents checked.

A non-editable install must be able to migrate (the migrations are package data), serve GraphiQL offline
(its assets are package data), and the agent client installs alone without the server's dependencies.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

from graph.platform import repeatables
from graph.platform.migrate import discover
from graph.settings import Settings

REPO = Path(__file__).resolve().parents[1]
SERVER_ONLY = ("fastapi", "uvicorn", "strawberry", "psycopg")


def build_wheel(source: Path, out: Path) -> zipfile.ZipFile:
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "--no-index",
                    "-w", str(out), str(source)], check=True, capture_output=True, timeout=300)
    (wheel,) = out.glob("*.whl")
    return zipfile.ZipFile(wheel)


@pytest.fixture(scope="module")
def server_wheel(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    return build_wheel(REPO, tmp_path_factory.mktemp("wheel"))


def test_the_wheel_can_migrate(server_wheel: zipfile.ZipFile, tmp_path: Path, settings: Settings) -> None:
    names = server_wheel.namelist()
    packed = sorted(n for n in names if n.startswith("migrations/") and n.endswith(".sql"))
    in_repo = sorted(f"migrations/{p.name}" for p in (REPO / "migrations").glob("*.sql"))
    assert packed == in_repo and len(packed) >= 9
    server_wheel.extractall(tmp_path, members=[*packed, "migrations/__init__.py"])
    assert [m.version for m in discover(tmp_path / "migrations")] == [m.version for m in
                                                                      discover(settings.migrations_dir)]
    # the repeatable function files, applied after the numbered migrations, travel too
    functions = sorted(n for n in names if n.startswith("graph/sql/functions/") and n.endswith(".sql"))
    assert functions == sorted(f"graph/sql/functions/{p.name}" for p in repeatables.DIRECTORY.glob("*.sql"))
    assert functions


def test_the_wheel_carries_queries_and_graphiql(server_wheel: zipfile.ZipFile) -> None:
    names = set(server_wheel.namelist())
    assert {f"graph/sql/{p.name}" for p in (REPO / "graph" / "sql").glob("*.sql")} <= names
    assert {f"cypher/{p.name}" for p in (REPO / "cypher").glob("*.cypher")} <= names
    assert {f"resolvers/static/graphiql/{p.name}" for p in (REPO / "resolvers/static/graphiql").iterdir()} <= names
    assert "resolvers/static/graphiql/graphiql.min.js" in names


def test_the_settings_default_to_the_packaged_migrations() -> None:
    import migrations

    assert Settings().migrations_dir == migrations.DIRECTORY
    assert any(migrations.DIRECTORY.glob("0001_*.sql"))


def test_the_client_installs_without_the_server(tmp_path: Path) -> None:
    declared = tomllib.loads((REPO / "client" / "pyproject.toml").read_text())["project"]["dependencies"]
    assert not [d for d in declared if d.startswith(SERVER_ONLY)]
    wheel = build_wheel(REPO / "client", tmp_path)
    assert sorted(n for n in wheel.namelist() if n.endswith(".py")) == sorted(
        f"client/{p.name}" for p in (REPO / "client").glob("*.py"))
    metadata = next(n for n in wheel.namelist() if n.endswith("METADATA"))
    requires = [line for line in wheel.read(metadata).decode().splitlines() if line.startswith("Requires-Dist")]
    assert any("pydantic-ai-slim[openai]" in r for r in requires)
    assert not [r for r in requires if r.removeprefix("Requires-Dist: ").startswith(SERVER_ONLY)]


def test_the_client_imports_nothing_of_the_server() -> None:
    server = re.compile(r"^\s*(?:from|import)\s+(?:graph|resolvers|cli|fastapi|psycopg|strawberry)\b", re.MULTILINE)
    assert server.search("    from graph.errors import X") and not server.search("from client import q")
    sources = list((REPO / "client").glob("*.py"))
    offenders = {s.name: server.findall(s.read_text()) for s in sources if server.search(s.read_text())}
    # the error classification comes from the server (extensions.callerMustFix); `worldmem mcp`'s command line
    # (settings, errors) lives in cli/mcp.py
    assert len(sources) >= 4 and offenders == {}
