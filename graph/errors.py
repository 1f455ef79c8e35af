"""worldmem's own error hierarchy. Each carries a stable `code` that the GraphQL layer exposes."""

from __future__ import annotations


class WorldmemError(Exception):
    code = "INTERNAL"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        if code:
            self.code = code

    @property
    def message(self) -> str:
        return str(self)


class BadInput(WorldmemError):
    code = "BAD_INPUT"


class NotFound(WorldmemError):
    code = "NOT_FOUND"


class Unauthenticated(WorldmemError):
    code = "UNAUTHENTICATED"


class Forbidden(WorldmemError):
    code = "FORBIDDEN"


class Conflict(WorldmemError):
    code = "CONFLICT"


class Unavailable(WorldmemError):
    """The database could not be reached or timed out; safe to retry."""

    code = "UNAVAILABLE"
