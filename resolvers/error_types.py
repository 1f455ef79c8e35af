"""`ErrorCode` in the SDL: every code an error's `extensions.code` or a rejection's `code` can carry.

The enum is graph/error_codes.py's (the one list); here it becomes a GraphQL enum, each value documented
with the description and category listed beside it there.
"""

from __future__ import annotations

import strawberry

from graph.error_codes import ErrorCode

strawberry.enum(
    ErrorCode, name="ErrorCode",
    description="The code of an error (`extensions.code`) or of a rejected operation. The category in "
                "parentheses says what to do: input = change the request; state = re-read memory, then "
                "decide; auth = the token may not; retry = memory could not answer now; internal = a bug "
                "on the server (nothing was written).")
for _value in ErrorCode.__strawberry_definition__.values:  # type: ignore[attr-defined]  # set by strawberry.enum
    _code = ErrorCode[_value.name]
    _value.description = f"{_code.about} ({_code.category.value})"

__all__ = ["ErrorCode"]
