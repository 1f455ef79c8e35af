"""mkdocs hook: pages and files generated from the code at build time, so the site cannot go stale.

- `<!-- settings-table -->` in a page becomes the table of every field of `graph.settings.Settings`
  (environment variable, type and bounds, default, description), rendered from the class itself.
- schema.graphql and the explorer's e2e screenshots are served from where they live in the repo.
"""

from __future__ import annotations

import sys
import typing
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
# The build must read this checkout's settings class, also when another checkout is installed editable.
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

MARKER = "<!-- settings-table -->"
SCREENSHOTS = REPO / "web" / "e2e" / "screenshots"


def _type(annotation: Any) -> str:
    if typing.get_origin(annotation) is typing.Literal:
        return " \\| ".join(f"`{v}`" for v in typing.get_args(annotation))
    args = typing.get_args(annotation)
    if args:
        return " \\| ".join(_type(a) for a in args)
    if annotation is type(None):
        return "none"
    return getattr(annotation, "__name__", str(annotation))


def _default(value: Any) -> str:
    if value is None:
        return "unset"
    if isinstance(value, Path):
        home = Path.home()
        if value.is_relative_to(REPO):
            return f"`{value.relative_to(REPO)}/` (packaged)"
        if value.is_relative_to(home):
            return f"`~/{value.relative_to(home)}`"
        return f"`{value}`"
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, int | float) and not isinstance(value, bool) and abs(value) >= 100_000:
        return f"`{value:,}`"
    return f"`{value}`"


def _bounds(metadata: list[Any]) -> str:
    parts = []
    for item in metadata:
        for name, sign in (("ge", "≥"), ("gt", ">"), ("le", "≤"), ("lt", "<")):
            bound = getattr(item, name, None)
            if bound is not None:
                parts.append(f"{sign} {bound:,}")
    return ", ".join(parts)


def _cell(text: str) -> str:
    """Description text as a table cell: pipes escaped, and `<data_dir>` kept as text rather than a tag."""
    return text.replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;").replace("\n", " ")


def settings_table() -> str:
    """The Markdown table of every setting, in the order the class declares them."""
    from graph.settings import Settings

    prefix = Settings.model_config.get("env_prefix", "")
    lines = ["| variable | type | default | what it does |", "|---|---|---|---|"]
    for name, info in Settings.model_fields.items():
        env = f"{prefix}{name}".upper()
        kind = ", ".join(filter(None, [_type(info.annotation), _bounds(info.metadata)]))
        lines.append(f"| `{env}` | {kind} | {_default(info.default)} | {_cell(info.description or '')} |")
    return "\n".join(lines)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    if MARKER in markdown:
        return markdown.replace(MARKER, settings_table())
    return markdown


def on_files(files: Any, config: Any) -> Any:
    from mkdocs.structure.files import File

    files.append(File.generated(config, "api/schema.graphql", abs_src_path=str(REPO / "schema.graphql")))
    for shot in sorted(SCREENSHOTS.glob("*.png")):
        files.append(File.generated(config, f"assets/screenshots/{shot.name}", abs_src_path=str(shot)))
    return files
