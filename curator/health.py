"""What the app knows about its curator model: the last check, kept for curatorStatus.

A model given to the app directly (tests, embedding) is trusted without a check; one built from the settings
is checked at start and, while it fails, again every `curator_recheck_s` (curator.runtime.watch).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from curator.check import CheckResult


@dataclass
class ModelHealth:
    label: str | None = None
    last: CheckResult | None = None
    checked_at: datetime | None = None
    given: bool = False  # handed to the app, not built from the settings: never checked

    def record(self, result: CheckResult) -> None:
        self.last, self.checked_at = result, datetime.now(UTC)
        self.label = result.model or self.label

    @property
    def usable(self) -> bool:
        return self.given or (self.last is not None and self.last.ok)

    @property
    def checking(self) -> bool:
        return not self.given and self.last is None and self.label is not None
