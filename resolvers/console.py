"""`cypher(query, params)`: the Cypher console over GraphQL, read-only and pinned to the token's owner.

Every expected failure is a typed error (CONSOLE_WRITE_REFUSED, CONSOLE_FORBIDDEN, CONSOLE_SYNTAX,
CONSOLE_TIMEOUT, CONSOLE_TOO_LARGE, CONSOLE_BUSY, CONSOLE_QUERY_FAILED); see graph/console/runner.py.
"""

from __future__ import annotations

from typing import Any

import strawberry
from strawberry.scalars import JSON
from strawberry.types import Info

from graph.console.runner import run_console
from graph.console.text import CONSOLE_SYNTAX, ConsoleError
from resolvers.context import blocking, database, principal


@strawberry.type(description="Rows of a console query; values are JSON (vertices, edges and paths as maps)")
class CypherResult:
    columns: list[str] = strawberry.field(description="Column names: the RETURN aliases, else the expressions")
    rows: JSON = strawberry.field(description="A list of rows, each a list of values in column order")
    truncated: bool = strawberry.field(description="More rows existed than the console's row limit")
    warnings: list[str] = strawberry.field(
        description="Things that may explain an empty result, e.g. a $parameter that params do not set")


async def cypher(info: Info[Any, Any], query: str, params: JSON | None = None) -> CypherResult:
    who = principal(info)
    if params is not None and not isinstance(params, dict):
        raise ConsoleError("params must be a JSON object", code=CONSOLE_SYNTAX)
    settings = info.context.settings
    result = await blocking(
        run_console, database(info), who.owner, query, params,
        row_limit=settings.console_row_limit, timeout_ms=settings.console_timeout_ms)
    return CypherResult(columns=result.columns, rows=JSON(result.rows), truncated=result.truncated,
                        warnings=result.warnings)


@strawberry.type
class ConsoleQuery:
    cypher: CypherResult = strawberry.field(
        resolver=cypher,
        description="Run read-only Cypher on your own graph (`$name` reads `params.name`); the query must end "
                    "with RETURN. Writes, SQL functions and other owners' data are refused by the database.")
