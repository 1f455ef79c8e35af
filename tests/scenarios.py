"""The public bitemporal scenarios (tests/data/scenarios/*.json, a copy kept in the repo), driven through any API.

A driver supplies three callables: `step(at, op, value, valid_from, valid_to)`, `known_at(R, V)` and
`history()`. The same checks run against the Python API and the GraphQL API.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


SCENARIOS = HERE / "data" / "scenarios"


def scenarios_dir() -> Path:
    if not any(SCENARIOS.glob("*.json")):
        raise FileNotFoundError(f"no scenarios in {SCENARIOS}")
    return SCENARIOS


def load_scenarios() -> list[dict[str, Any]]:
    return [json.loads(p.read_text()) for p in sorted(scenarios_dir().glob("*.json"))]


def day(text: str | None) -> datetime | None:
    """Scenario dates are days, read as midnight UTC."""
    return None if text is None else datetime.fromisoformat(text).replace(tzinfo=UTC)


Step = Callable[[datetime, str, Any, datetime, datetime | None], None]
KnownAt = Callable[[datetime, datetime], Any]
History = Callable[[], list[dict[str, Any]]]


def run_scenario(scenario: dict[str, Any], step: Step, known_at: KnownAt, history: History) -> None:
    for s in scenario["steps"]:
        at, valid_from = day(s["at"]), day(s["valid_from"])
        assert at is not None and valid_from is not None
        step(at, s["op"], s.get("value"), valid_from, day(s["valid_to"]))
    for q in scenario["queries"]:
        r, v = day(q["system_time"]), day(q["valid_time"])
        assert r is not None and v is not None
        got = known_at(r, v)
        assert got == q["expect"], f"{scenario['name']}: known at {q['system_time']} about {q['valid_time']}: " \
                                   f"expected {q['expect']!r}, got {got!r}"
    expected = sorted((
        (h["value"], day(h["valid_from"]), day(h["valid_to"]), day(h["recorded_at"]), day(h["superseded_at"]))
        for h in scenario["history"]), key=_sort_key)
    got_rows = sorted(((h["value"], h["valid_from"], h["valid_to"], h["recorded_at"], h["superseded_at"])
                       for h in history()), key=_sort_key)
    assert got_rows == expected, f"{scenario['name']}: history differs"


def _sort_key(row: tuple[Any, ...]) -> tuple[Any, ...]:
    far = datetime.max.replace(tzinfo=UTC)
    return (row[3], row[1], row[2] or far, row[4] or far, json.dumps(row[0]))
