"""Errors of the platform layer; the CLI prints them as one clear message, never a traceback."""


class PlatformError(Exception):
    """Something about the machine or the database server is not as worldmem needs it."""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.hint = hint

    def __str__(self) -> str:
        base = super().__str__()
        return f"{base}\n  -> {self.hint}" if self.hint else base


class MigrationError(PlatformError):
    """A migration failed; the database is as it was before that migration."""
