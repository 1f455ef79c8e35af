"""The documentation site: its settings table is the settings class, and it builds with warnings as errors."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

from graph.settings import Settings

REPO = Path(__file__).resolve().parents[1]
HOOK = REPO / "docs" / "hooks" / "generated.py"


def _hook() -> ModuleType:
    spec = importlib.util.spec_from_file_location("docs_generated_hook", HOOK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_setting_has_a_row_with_its_variable_and_default() -> None:
    table: str = _hook().settings_table()
    rows = table.splitlines()[2:]
    assert len(rows) == len(Settings.model_fields)
    for row, (name, info) in zip(rows, Settings.model_fields.items(), strict=True):
        assert row.startswith(f"| `WORLDMEM_{name.upper()}` |")
        assert info.description, f"{name} has no description"
        assert info.description.split(" ")[0] in row
    assert "| `WORLDMEM_DB_NAME` | str | `worldmem` |" in table
    assert "(&lt;data_dir&gt;/root/run/postgresql;" in table  # a placeholder stays text, not an HTML tag
    assert "| `WORLDMEM_RETENTION_WINDOW_DAYS` | int, ≥ 1, ≤ 36,500 | `90` |" in table
    assert "| `WORLDMEM_EMBEDDING_PROVIDER` | `offline` \\| `openai` \\| `none` | `offline` |" in table


def test_the_settings_page_is_generated_not_written() -> None:
    page = (REPO / "docs" / "operations" / "settings.md").read_text(encoding="utf-8")
    assert _hook().MARKER in page
    assert "WORLDMEM_DB_PORT" not in page


def test_the_readme_stays_a_guide() -> None:
    assert len((REPO / "README.md").read_text(encoding="utf-8").splitlines()) <= 250


def test_the_site_builds_with_warnings_as_errors(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path)],
                          cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    settings_page = (tmp_path / "operations" / "settings" / "index.html").read_text(encoding="utf-8")
    assert "WORLDMEM_RETENTION_WINDOW_DAYS" in settings_page
    assert (tmp_path / "api" / "schema.graphql").read_bytes() == (REPO / "schema.graphql").read_bytes()
