"""One list of error codes (graph/error_codes.py): every code raised anywhere is in it, the SDL documents
it, and the agent client tells "fix your input" from "memory is unavailable" by it."""

from __future__ import annotations

import ast
import asyncio
from pathlib import Path

import httpx
import pytest

from client.http import MemoryUnavailable, ToolInputError, WorldmemClient
from graph.error_codes import Category, ErrorCode, caller_must_fix
from graph.errors import BOUNDARY_CODES
from resolvers.errors import extensions_for
from resolvers.request_guard import STATUS_CODES
from resolvers.schema import build_schema

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("graph", "resolvers", "client", "cli", "curator", "cypher")


def _codes_in(tree: ast.AST) -> set[str]:
    """String codes in a module: code="X" arguments, `code = "X"` attributes, {"code": "X"} maps, and
    constants named like the code they hold (CONSOLE_BUSY = "CONSOLE_BUSY", used as code=CONSOLE_BUSY)."""
    found: set[str] = set()
    # The curator's reasons for dropping an operation (Dropped(code=...), curator/validate.py) are records of
    # its own vocabulary, never errors a request answers with.
    drops = {id(k) for node in ast.walk(tree) if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
             and node.func.id == "Dropped" for k in node.keywords}
    for node in ast.walk(tree):
        if id(node) in drops:
            continue
        if isinstance(node, ast.keyword) and node.arg == "code" and isinstance(node.value, ast.Constant):
            found.add(str(node.value.value))
        elif (isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
              and isinstance(node.value.value, str)):
            for target in node.targets:
                if isinstance(target, ast.Name) and (target.id == "code" or target.id == node.value.value):
                    found.add(node.value.value)
        elif isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if (isinstance(key, ast.Constant) and key.value == "code" and isinstance(value, ast.Constant)):
                    found.add(str(value.value))
    return found


def raised_codes() -> dict[str, set[str]]:
    codes: dict[str, set[str]] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if path.name == "error_codes.py":
                continue
            for code in _codes_in(ast.parse(path.read_text(), str(path))):
                codes.setdefault(code, set()).add(str(path.relative_to(ROOT)))
    return codes


def test_every_code_raised_anywhere_is_in_the_enum() -> None:
    codes = raised_codes()
    for code in [*BOUNDARY_CODES, *STATUS_CODES.values()]:  # codes kept in maps rather than raised literally
        codes.setdefault(code, set()).add("graph/errors.py BOUNDARY_CODES / resolvers/request_guard.py")
    assert {"BAD_ID", "KIND_MISMATCH", "BAD_INTERVAL", "BAD_LIMIT", "CONSOLE_BUSY", "RUN_ID_REUSED"} <= set(codes)
    missing = {code: where for code, where in codes.items() if code not in ErrorCode.__members__}
    assert missing == {}, f"add these to graph/error_codes.py: {missing}"


def test_every_code_has_a_category_and_a_description() -> None:
    assert all(isinstance(code.category, Category) and code.about.endswith(".") for code in ErrorCode)
    assert len(ErrorCode) > 90


def test_each_code_is_its_own_name() -> None:
    """The one list spells each code twice on its line (NAME = "NAME", ...): the two must agree, since a code
    is looked up by either."""
    assert [code.value for code in ErrorCode] == list(ErrorCode.__members__)
    assert ErrorCode["BAD_ID"] is ErrorCode.BAD_ID and ErrorCode.BAD_ID == "BAD_ID"
    assert ErrorCode.BAD_ID.category is Category.INPUT and ErrorCode.BAD_ID.about == "An id is not a UUID."


def test_the_sdl_documents_the_enum() -> None:
    sdl = str(build_schema())
    assert "enum ErrorCode {" in sdl and '"""A value of the enum ErrorCode"""\n  code: String!' in sdl
    for code in ErrorCode:
        assert f"  {code.value}\n" in sdl
    assert '"""An id is not a UUID. (input)"""\n  BAD_ID' in sdl


@pytest.mark.parametrize("code", ["BAD_ID", "KIND_MISMATCH", "BAD_INTERVAL", "BAD_LIMIT", "BAD_TIME", "BAD_REF",
                                  "UNKNOWN_ENTITY", "GRAPHQL_VALIDATION_FAILED", "OWNER_ONLY", "SUPPRESSED"])
def test_the_client_tells_the_model_to_fix_its_input(code: str) -> None:
    assert caller_must_fix(code)
    assert _client_raises(code) is ToolInputError


@pytest.mark.parametrize("code", ["INTERNAL", "UNAVAILABLE", "CONSOLE_TIMEOUT", "CONSOLE_BUSY", "NO_SUCH_CODE"])
def test_the_client_says_memory_is_unavailable(code: str) -> None:
    assert not caller_must_fix(code)
    assert _client_raises(code) is MemoryUnavailable


def test_a_refused_token_is_the_callers_to_fix_but_not_the_models() -> None:
    """The integrator must fix its token (callerMustFix); the model retrying its call cannot."""
    assert caller_must_fix("UNAUTHENTICATED")
    assert _client_raises("UNAUTHENTICATED") is MemoryUnavailable


def test_categories_cover_the_codes_the_client_once_missed() -> None:
    for code in ("BAD_ID", "KIND_MISMATCH", "BAD_INTERVAL", "BAD_LIMIT"):
        assert ErrorCode[code].category is Category.INPUT


def _client_raises(code: str) -> type[Exception]:
    def answer(request: httpx.Request) -> httpx.Response:
        extensions = extensions_for(code)  # what the server sends with this code
        return httpx.Response(200, json={"data": None, "errors": [{"message": "no", "extensions": extensions}]})

    async def run() -> type[Exception]:
        async with httpx.AsyncClient(transport=httpx.MockTransport(answer)) as http:
            client = WorldmemClient("http://memory.invalid", "wm_token", http=http)
            try:
                await client.get_entity("pet:luna")
            except (ToolInputError, MemoryUnavailable) as exc:
                return type(exc)
        raise AssertionError("no error raised")

    return asyncio.run(run())
