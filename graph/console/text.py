"""Reading a console user's Cypher text before it runs: masking, the static check, the RETURN columns.

Nothing here is the security barrier (the database is: see migrations/0006_console.sql and
graph/console/runner.py); the static check refuses obvious writes and SQL function calls early, with a
clear typed error instead of a database message.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from graph.errors import WorldmemError

CONSOLE_WRITE_REFUSED = "CONSOLE_WRITE_REFUSED"
CONSOLE_FORBIDDEN = "CONSOLE_FORBIDDEN"
CONSOLE_SYNTAX = "CONSOLE_SYNTAX"

MAX_QUERY_CHARS = 20_000
WRITE_KEYWORDS = frozenset({"CREATE", "MERGE", "SET", "DELETE", "REMOVE", "DETACH", "LOAD", "DROP"})
# SQL schemas reachable from AGE's Cypher; a name from here followed by `.` is a SQL object.
SQL_SCHEMAS = frozenset({"PG_CATALOG", "PUBLIC", "AG_CATALOG", "INFORMATION_SCHEMA", "PG_TEMP", "PG_TOAST",
                         "WORLDGRAPH"})
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# `name.name(`: AGE resolves a namespaced call to the SQL function of that schema.
QUALIFIED_CALL = re.compile(r"[A-Za-z_]\w*\s*\.\s*[A-Za-z_]\w*\s*\(")
DISTINCT = re.compile(r"\s*DISTINCT\b", re.IGNORECASE)
OPEN, CLOSE = "([{", ")]}"


class ConsoleError(WorldmemError):
    """An expected console failure; `code` is one of the CONSOLE_* codes."""

    code = "CONSOLE_ERROR"


class NoReturn(ConsoleError):
    """No final RETURN was found at the top level: often a syntax error elsewhere (an unclosed bracket).
    The runner then asks AGE's parser, whose message names the real problem."""

    code = CONSOLE_SYNTAX

    def __init__(self, text: str, *, has_return: bool) -> None:
        super().__init__("the query must end with RETURN (the console only reads)", code=CONSOLE_SYNTAX)
        self.text = text
        self.has_return = has_return


PARAMETER = re.compile(r"\$([A-Za-z_]\w*)")


def parameters(masked: Masked) -> list[str]:
    """The `$name` parameters the query reads (not inside strings or comments), in order, once each."""
    return list(dict.fromkeys(PARAMETER.findall(masked.skeleton)))


@dataclass(frozen=True)
class Masked:
    """The text with string, comment and backtick-name contents blanked out, positions unchanged.

    Strings become `'…'` of the same length filled with spaces, backtick names become `_…_` (still a word,
    so `` `pg_catalog`.`f`( `` looks like the qualified call it is), comments become spaces.
    """

    original: str
    skeleton: str
    readable: str  # the original with comments blanked: column names come from here


def mask(text: str) -> Masked:
    out: list[str] = []
    readable = list(text)
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in "'\"":
            end = _string_end(text, i)
            out.append(ch + " " * (end - i - 2) + ch if end - i >= 2 else ch)
            i = end
        elif ch == "`":
            end = text.find("`", i + 1)
            while end != -1 and text.startswith("``", end):  # `` inside a backtick name is one backtick
                end = text.find("`", end + 2)
            end = n if end == -1 else end + 1
            out.append("_" * (end - i))
            i = end
        elif text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end == -1 else end
            out.append(" " * (end - i))
            readable[i:end] = " " * (end - i)
            i = end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end == -1 else end + 2
            out.append(" " * (end - i))
            readable[i:end] = " " * (end - i)
            i = end
        else:
            out.append(ch)
            i += 1
    return Masked(text, "".join(out), "".join(readable))


def _string_end(text: str, start: int) -> int:
    """Index just past the string literal opening at `start` (backslash escapes; unterminated: end)."""
    quote, i, n = text[start], start + 1, len(text)
    while i < n:
        if text[i] == "\\":
            i += 2
        elif text[i] == quote:
            return i + 1
        else:
            i += 1
    return n


def _words(skeleton: str) -> list[tuple[int, str]]:
    """Keyword candidates: words not used as property names (`.x`), parameters (`$x`), labels or map keys."""
    found = []
    for m in WORD.finditer(skeleton):
        before = skeleton[:m.start()].rstrip()[-1:]
        after = skeleton[m.end():].lstrip()[:1]
        if before in (".", "$", ":") or after == ":":
            continue
        found.append((m.start(), m.group().upper()))
    return found


def check(masked: Masked) -> None:
    """Refuse, before anything runs, text that writes or calls SQL functions."""
    sk = masked.skeleton
    for _, word in _words(sk):
        if word in WRITE_KEYWORDS:
            raise ConsoleError(f"the console is read-only: {word} is refused", code=CONSOLE_WRITE_REFUSED)
    for m in re.finditer(r"([A-Za-z_]\w*)\s*\.", sk):
        if m.group(1).upper() in SQL_SCHEMAS and (m.start() == 0 or sk[m.start() - 1] not in ".$"):
            raise ConsoleError(f"SQL objects ({m.group(1)}.…) cannot be named in the console",
                               code=CONSOLE_FORBIDDEN)
    call = QUALIFIED_CALL.search(sk)
    if call:
        name = masked.original[call.start():call.end() - 1].strip()
        raise ConsoleError(f"only Cypher functions may be called, not {name}", code=CONSOLE_FORBIDDEN)


def prepare(text: str) -> str:
    """The text as it will run: trailing `;` dropped; empty, oversized or NUL-carrying text refused."""
    body = text.strip()
    while body.endswith(";"):
        body = body[:-1].rstrip()
    if not body:
        raise ConsoleError("the query is empty", code=CONSOLE_SYNTAX)
    if len(body) > MAX_QUERY_CHARS:
        raise ConsoleError(f"the query is longer than {MAX_QUERY_CHARS} characters", code=CONSOLE_SYNTAX)
    if "\x00" in body:
        raise ConsoleError("the query contains a NUL character", code=CONSOLE_SYNTAX)
    return body


def return_columns(masked: Masked) -> list[str]:
    """Column names of the final RETURN: its alias (`AS name`) or else the expression text."""
    sk = masked.skeleton
    depths = _depths(sk)
    returns = [pos for pos, word in _words(sk) if word == "RETURN" and depths[pos] == 0]
    if not returns:
        raise NoReturn(masked.original, has_return=any(word == "RETURN" for _, word in _words(sk)))
    start = returns[-1] + len("RETURN")
    end = len(sk)
    for pos, word in _words(sk[start:]):
        if depths[start + pos] == 0 and word in ("ORDER", "SKIP", "LIMIT", "UNION"):
            end = start + pos
            break
    distinct = DISTINCT.match(sk, start)
    if distinct:
        start = distinct.end()
    items, begin = [], start
    for i in range(start, end):
        if sk[i] == "," and depths[i] == 0:
            items.append((begin, i))
            begin = i + 1
    items.append((begin, end))
    names = [_column_name(masked, a, b) for a, b in items]
    if any(not name for name in names):
        raise ConsoleError("RETURN has an empty item", code=CONSOLE_SYNTAX)
    if "*" in names:
        raise ConsoleError("RETURN * is not supported: name the columns", code=CONSOLE_SYNTAX)
    return names


def _depths(skeleton: str) -> list[int]:
    depths, depth = [], 0
    for ch in skeleton:
        if ch in CLOSE:
            depth = max(depth - 1, 0)
        depths.append(depth)
        if ch in OPEN:
            depth += 1
    return depths


def _column_name(masked: Masked, start: int, end: int) -> str:
    sk, original = masked.skeleton[start:end], masked.readable[start:end]
    alias = re.search(r"\bAS\s+([A-Za-z_]\w*|_+)\s*$", sk, re.IGNORECASE)
    if alias and _depths(sk)[alias.start()] == 0:
        name = original[alias.start(1):alias.end(1)]
        return name[1:-1].replace("``", "`") if name.startswith("`") else name
    return " ".join(original.split())
