"""`worldmem cypher --owner SUB`: the interactive Cypher console for a power user on the server machine.

Reads a query (over several lines, until one ends with `;`), prints the rows as a table and keeps the
history in `<data_dir>/cypher_history`. `-c QUERY` runs one query and exits (status 2 on an error).
Lines starting with `:` are console commands: `:params {"name": "Ann"}`, `:limit 50`, `:json`, `:quit`.
The query runs exactly as over GraphQL (graph.console.runner): read-only and pinned to `--owner`.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TextIO

from graph.console.runner import ConsoleError, ConsoleResult, run_console
from graph.console.text import CONSOLE_SYNTAX
from graph.errors import WorldmemError
from graph.platform.connect import role_url
from graph.platform.db import Database
from graph.platform.reachable import require_reachable
from graph.settings import Settings
from graph.sql import load

HISTORY_FILE = "cypher_history"
HISTORY_LENGTH = 2000
CELL_WIDTH = 60
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
HELP = "end a query with ';'  ·  :params {json}  :limit N  :json  :quit"


@dataclass
class Session:
    db: Database
    owner: str
    row_limit: int
    timeout_ms: int
    params: dict[str, Any] = field(default_factory=dict)
    as_json: bool = False

    def run(self, query: str) -> ConsoleResult:
        return run_console(self.db, self.owner, query, self.params or None,
                           row_limit=self.row_limit, timeout_ms=self.timeout_ms)


TIME_KEYS = frozenset({"valid_from", "valid_to", "recorded_at", "superseded_at", "occurred_at"})


def iso(micros: int) -> str:
    """The graph's time encoding (integer microseconds since the epoch, UTC) as ISO 8601."""
    return (EPOCH + timedelta(microseconds=micros)).isoformat().replace("+00:00", "Z")


def is_time(name: str) -> bool:
    """A time property, or a column named like one (`r.valid_from`, `AS changed_at`)."""
    last = name.rsplit(".", 1)[-1]
    return last in TIME_KEYS or last.endswith("_at")


def readable_times(value: Any, column: str = "") -> Any:
    """Time properties (and columns named like one) as ISO text, for people; integers only."""
    if isinstance(value, int) and not isinstance(value, bool) and is_time(column):
        return iso(value)
    if isinstance(value, dict):
        return {k: readable_times(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [readable_times(v) for v in value]
    return value


def cell(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    text = text.replace("\n", " ")
    return text if len(text) <= CELL_WIDTH else text[:CELL_WIDTH - 1] + "…"


def render(result: ConsoleResult, *, as_json: bool = False) -> str:
    """The rows as an aligned text table (or JSON lines), with a row count footer."""
    if as_json:
        lines = [json.dumps(dict(zip(result.columns, row, strict=True)), ensure_ascii=False) for row in result.rows]
    else:
        cells = [[cell(readable_times(v, c)) for v, c in zip(row, result.columns, strict=True)]
                 for row in result.rows]
        widths = [max([len(c), *(len(r[i]) for r in cells)]) for i, c in enumerate(result.columns)]
        lines = [" | ".join(c.ljust(w) for c, w in zip(result.columns, widths, strict=True)).rstrip(),
                 "-+-".join("-" * w for w in widths)]
        lines += [" | ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in cells]
    more = " (truncated: more rows exist; add LIMIT or raise :limit)" if result.truncated else ""
    lines.append(f"({len(result.rows)} row{'s' if len(result.rows) != 1 else ''}){more}")
    return "\n".join(lines)


def parse_params(text: str) -> dict[str, Any]:
    try:
        params = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConsoleError(f"params are not JSON: {exc}", code=CONSOLE_SYNTAX) from exc
    if not isinstance(params, dict):
        raise ConsoleError("params must be a JSON object", code=CONSOLE_SYNTAX)
    return params


def meta(session: Session, line: str, out: TextIO) -> bool:
    """A `:command`; False when the console should end."""
    name, _, arg = line[1:].strip().partition(" ")
    if name in ("q", "quit", "exit"):
        return False
    if name == "params":
        try:
            session.params = parse_params(arg or "{}")
            print(f"params: {json.dumps(session.params)}", file=out)
        except ConsoleError as exc:
            print(f"error {exc.code}: {exc.message}", file=out)
    elif name == "limit" and arg.strip().isdigit() and int(arg) > 0:
        session.row_limit = int(arg)
    elif name == "json":
        session.as_json = not session.as_json
        print(f"json output {'on' if session.as_json else 'off'}", file=out)
    else:
        print(HELP, file=out)
    return True


def show(result: ConsoleResult, as_json: bool, out: TextIO) -> None:
    for warning in result.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    print(render(result, as_json=as_json), file=out)


def execute_and_print(session: Session, query: str, out: TextIO) -> bool:
    try:
        show(session.run(query), session.as_json, out)
        return True
    except ConsoleError as exc:
        print(f"error {exc.code}: {exc.message}", file=out)
        return False


def repl(session: Session, read: Any, out: TextIO) -> None:
    """The loop: `read(prompt)` returns the next line (EOFError ends it; KeyboardInterrupt drops the input)."""
    buffer: list[str] = []
    while True:
        try:
            line = read("cypher> " if not buffer else "   ...> ")
        except EOFError:
            break
        except KeyboardInterrupt:
            buffer = []
            print(file=out)
            continue
        if not buffer and line.strip().startswith(":"):
            if not meta(session, line.strip(), out):
                break
            continue
        if not buffer and not line.strip():
            continue
        buffer.append(line)
        if line.rstrip().endswith(";"):
            query, buffer = "\n".join(buffer), []
            _remember(query)
            execute_and_print(session, query, out)


def _history_path(settings: Settings) -> Path:
    return settings.data_dir / HISTORY_FILE


def _readline(settings: Settings) -> Any:
    """`input` with readline editing and history loaded from (and saved to) the history file."""
    import atexit
    import readline

    path = _history_path(settings)
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists():
        readline.read_history_file(path)
    readline.set_history_length(HISTORY_LENGTH)
    atexit.register(readline.write_history_file, path)
    return input


def _remember(query: str) -> None:
    """Keep a multi-line query as one history entry (readline stored each line on its own)."""
    if "readline" not in sys.modules or "\n" not in query:
        return
    import readline

    for _ in query.split("\n"):
        length = readline.get_current_history_length()
        if length:
            readline.remove_history_item(length - 1)
    readline.add_history(" ".join(line.strip() for line in query.split("\n")))


def run(args: argparse.Namespace, settings: Settings) -> int:
    url = role_url(settings, "app")
    require_reachable(url)
    db = Database(url, max_size=1, statement_timeout_ms=settings.statement_timeout_ms)
    try:
        session = Session(db, args.owner, args.limit or settings.console_row_limit,
                          args.timeout or settings.console_timeout_ms, as_json=args.json)
        if not owner_has_data(db, args.owner):
            print(f"warning: owner {args.owner!r} has nothing stored, so every query returns 0 rows "
                  "(the owner is the --owner given to `worldmem demo` or `worldmem token create`)", file=sys.stderr)
        if args.one_query is not None:
            try:
                session.params = parse_params(args.params or "{}")
                show(session.run(args.one_query), session.as_json, sys.stdout)
            except ConsoleError as exc:  # `worldmem: CONSOLE_…: message`, exit status 2
                raise WorldmemError(f"{exc.code}: {exc.message}", code=exc.code) from exc
            return 0
        if args.params:
            meta(session, ":params " + args.params, sys.stderr)
        interactive = sys.stdin.isatty()
        if interactive:
            print(f"worldmem cypher as owner {args.owner!r} (read-only)  ·  {HELP}", file=sys.stderr)
        reader = _readline(settings) if interactive else _stdin_reader
        repl(session, reader, sys.stdout)
        return 0
    finally:
        db.close()


def owner_has_data(db: Database, owner: str) -> bool:
    with db.owner_tx(owner, read_only=True) as conn:
        row = conn.execute(load("console_owner_has_data")).fetchone()
    return bool(row and row["has_data"])


def _stdin_reader(prompt: str) -> str:
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    return line.rstrip("\n")


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("cypher", help="interactive read-only Cypher console for one owner")
    p.add_argument("--owner", required=True, help="the owner (subject) whose graph to query")
    p.add_argument("-c", "--command", dest="one_query", metavar="QUERY",
                   help="run this one query, print the rows and exit")
    p.add_argument("--params", help='parameter map as JSON, e.g. \'{"name": "Ann"}\' (read as $name)')
    p.add_argument("--limit", type=int, help="row limit (default: console_row_limit)")
    p.add_argument("--timeout", type=int, help="statement timeout in ms (default: console_timeout_ms)")
    p.add_argument("--json", action="store_true", help="print rows as JSON lines instead of a table")

