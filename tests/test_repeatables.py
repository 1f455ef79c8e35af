"""The repeatable function files (graph/sql/functions/, graph.platform.repeatables): the runner applies a new
file, re-applies a changed one, skips an unchanged one, orders files by their requirements, rolls a broken one
back with a typed error, reports a removed one, waits for the cluster's migrator lock, and refuses a database
migrated before the baseline."""

from __future__ import annotations

import re
import shutil
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from graph.platform import repeatables
from graph.platform.connect import admin_url
from graph.platform.errors import MigrationError
from graph.platform.migrate import CLUSTER_LOCK_KEY, migrate, migrate_report
from graph.platform.repeatables import Repeatable, ordered
from graph.settings import Settings
from graph.sql import load
from tests.conftest import drop_database as drop_or_abort

REPO = Path(__file__).resolve().parents[1]
# Functions the schema itself calls (policies, column defaults, an index expression) and the migrations' own
# procedure: created by the numbered baseline, before the tables that use them (graph.platform.repeatables).
# wm_owned_tsv: created by 0078 and dropped by 0186, which replaced its index with wm_owned_words'.
SCHEMA_FUNCTIONS = {"wm_owner", "wm_owner_agtype", "wm_owned_tsv", "wm_owned_words", "wm_owner_only",
                    "wm_constrain_time_ranges"}


@pytest.fixture(scope="module")
def scratch(settings: Settings) -> Iterator[str]:
    name = f"worldmem_rep_{uuid.uuid4().hex[:10]}"
    drop_or_abort(settings, name)
    url = admin_url(settings, name)
    migrate(settings, url)
    yield url
    drop_or_abort(settings, name)


@pytest.fixture
def functions(tmp_path: Path) -> Path:
    directory = tmp_path / "functions"
    shutil.copytree(repeatables.DIRECTORY, directory)
    return directory


def _probe(directory: Path, body: str, name: str = "wm_probe") -> None:
    (directory / f"{name}.sql").write_text(
        f"CREATE OR REPLACE FUNCTION {name}() RETURNS text LANGUAGE sql IMMUTABLE RETURN {body};\n")


def _call(url: str, name: str = "wm_probe") -> object:
    with psycopg.connect(url) as conn:
        row = conn.execute(f"SELECT {name}()").fetchone()
        return row[0] if row else None


def _drop(url: str, name: str = "wm_probe") -> None:
    with psycopg.connect(url) as conn:
        conn.execute(f"DROP FUNCTION IF EXISTS {name}()")


def _forget(settings: Settings, url: str, functions: Path, *names: str) -> None:
    """Remove a test's probes as a numbered migration would, and let the runner forget their records."""
    for name in names:
        (functions / f"{name}.sql").unlink(missing_ok=True)
        _drop(url, name)
    assert migrate_report(settings, url, functions=functions).removed == []


def test_new_applied_changed_reapplied_unchanged_skipped(settings: Settings, scratch: str, functions: Path) -> None:
    assert migrate_report(settings, scratch, functions=functions).functions == []  # the module's run applied all
    _probe(functions, "'one'")
    assert migrate_report(settings, scratch, functions=functions).functions == ["wm_probe"]
    assert _call(scratch) == "one"
    assert migrate_report(settings, scratch, functions=functions).functions == []
    _probe(functions, "'two'")
    done = migrate_report(settings, scratch, functions=functions)
    assert (done.versions, done.functions) == ([], ["wm_probe"])
    assert _call(scratch) == "two"
    _forget(settings, scratch, functions, "wm_probe")


def test_a_broken_file_rolls_back_with_a_typed_error(settings: Settings, scratch: str, functions: Path) -> None:
    (functions / "wm_probe.sql").write_text(
        "CREATE OR REPLACE FUNCTION wm_probe() RETURNS text LANGUAGE sql RETURN 'half';\nSELECT 1 / 0;\n")
    with pytest.raises(MigrationError, match=r"function file wm_probe\.sql failed and was rolled back: division"):
        migrate(settings, scratch, functions=functions)
    with psycopg.connect(scratch) as conn:  # the first statement ran, and was rolled back with its record
        assert conn.execute("SELECT count(*) FROM pg_proc WHERE proname = 'wm_probe'").fetchone() == (0,)
        assert conn.execute("SELECT count(*) FROM schema_repeatables WHERE name = 'wm_probe'").fetchone() == (0,)


def test_a_removed_file_is_reported_until_a_migration_drops_it(settings: Settings, scratch: str,
                                                               functions: Path) -> None:
    _probe(functions, "'kept'")
    migrate(settings, scratch, functions=functions)
    (functions / "wm_probe.sql").unlink()
    assert migrate_report(settings, scratch, functions=functions).removed == ["wm_probe"]
    assert migrate_report(settings, scratch, functions=functions).removed == ["wm_probe"]  # the runner drops nothing
    assert _call(scratch) == "kept"
    _drop(scratch)  # as a numbered migration would
    assert migrate_report(settings, scratch, functions=functions).removed == []
    with psycopg.connect(scratch) as conn:
        assert conn.execute("SELECT count(*) FROM schema_repeatables WHERE name = 'wm_probe'").fetchone() == (0,)


def test_requirements_order_the_files(settings: Settings, scratch: str, functions: Path) -> None:
    """A SQL-standard body is parsed when it is created: `a_` sorts first but needs `b_`, so only the declared
    requirement lets the run succeed on a database that has neither."""
    (functions / "wm_a_probe.sql").write_text(
        "-- requires: wm_b_probe\n"
        "CREATE OR REPLACE FUNCTION wm_a_probe() RETURNS text LANGUAGE sql STABLE RETURN wm_b_probe() || '!';\n")
    _probe(functions, "'b'", "wm_b_probe")
    assert migrate_report(settings, scratch, functions=functions).functions == ["wm_b_probe", "wm_a_probe"]
    assert _call(scratch, "wm_a_probe") == "b!"
    _forget(settings, scratch, functions, "wm_a_probe", "wm_b_probe")


def _r(name: str, *requires: str) -> Repeatable:
    return Repeatable(name, "", requires)


def test_order_is_requirements_then_names() -> None:
    files = {r.name: r for r in (_r("c"), _r("a", "d"), _r("d", "c"), _r("b"))}
    assert [r.name for r in ordered(files)] == ["b", "c", "d", "a"]
    with pytest.raises(MigrationError, match="circle: x, y"):
        ordered({r.name: r for r in (_r("x", "y"), _r("y", "x"))})
    with pytest.raises(MigrationError, match="requires nope, which has no file"):
        ordered({"x": _r("x", "nope")})


def test_the_product_files_apply_in_a_fixed_order() -> None:
    names = [r.name for r in repeatables.discover(repeatables.DIRECTORY)]
    assert names.index("wm_micros") < names.index("wm_during") < names.index("wm_known")
    assert len(names) == len(set(names))


def test_an_include_is_the_named_statement_and_its_checksum(tmp_path: Path) -> None:
    text = repeatables.included("entity_by_ref", {"ref": "wanted"})
    assert "%(" not in text and "wanted" in text and text.startswith("-- BEGIN entity_by_ref\n")
    (tmp_path / "wm_x.sql").write_text("-- include: entity_by_ref (ref=wanted)\n")
    assert repeatables.read(tmp_path / "wm_x.sql").text == text + "\n"
    (tmp_path / "wm_x.sql").write_text("-- include: entity_by_ref (other=wanted)\n")
    with pytest.raises(MigrationError, match="placeholder"):
        repeatables.read(tmp_path / "wm_x.sql")


def test_a_migrator_waits_for_the_cluster_lock(settings: Settings, scratch: str, functions: Path) -> None:
    """Two migrators never apply a file at once: the second waits for the first's cluster lock."""
    _probe(functions, "'locked'")
    outcome: list[object] = []

    def run() -> None:
        try:
            outcome.append(migrate_report(settings, scratch, functions=functions).functions)
        except Exception as exc:  # reported by the assertion below
            outcome.append(exc)

    worker = threading.Thread(target=run)
    with psycopg.connect(admin_url(settings, "postgres"), autocommit=True) as holder:
        holder.execute(load("platform_cluster_lock"), (CLUSTER_LOCK_KEY,))
        worker.start()
        worker.join(2.0)
        assert worker.is_alive() and outcome == []
        with psycopg.connect(scratch) as conn:
            assert conn.execute("SELECT count(*) FROM pg_proc WHERE proname = 'wm_probe'").fetchone() == (0,)
    worker.join(120)
    assert outcome == [["wm_probe"]]
    _forget(settings, scratch, functions, "wm_probe")


def test_a_database_migrated_before_the_baseline_is_refused(settings: Settings) -> None:
    name = f"worldmem_old_{uuid.uuid4().hex[:10]}"
    drop_or_abort(settings, name)
    with psycopg.connect(admin_url(settings, "postgres"), autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    try:
        with psycopg.connect(admin_url(settings, name)) as conn:
            conn.execute(load("platform_schema_migrations"))
            conn.execute("INSERT INTO schema_migrations VALUES ('0086', 'search_entities_inlined', 'old')")
        with pytest.raises(MigrationError, match="recreate it"):
            migrate(settings, admin_url(settings, name))
    finally:
        drop_or_abort(settings, name)


def test_every_file_defines_its_own_function() -> None:
    for path in repeatables.DIRECTORY.glob("*.sql"):
        defined = set(re.findall(r"CREATE OR REPLACE FUNCTION (?:public\.)?(\w+)\(", path.read_text()))
        assert defined == {path.stem}, path.name


def test_numbered_migrations_create_only_the_schemas_functions() -> None:
    created = set()
    for path in (REPO / "migrations").glob("*.sql"):
        created |= set(re.findall(r"CREATE (?:OR REPLACE )?(?:FUNCTION|PROCEDURE) (?:public\.)?(\w+)\(",
                                  path.read_text()))
    assert created == SCHEMA_FUNCTIONS
