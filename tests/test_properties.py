"""Random histories checked against a brute-force in-memory oracle.

The oracle knows nothing of rows or splitting: what was known at system time R about valid time V is
simply the last step recorded at or before R whose period contains V (an assert's value, or nothing for a
retract). The store must answer the same for now, as of V, and known at R, and its history must never
hold two believed values for one instant.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from curator.proposal import AssertFact, Evidence, MemoryMutationProposal, RetractFact
from graph.ledger.committer import commit_proposal
from graph.ledger.registries import register_relation_types
from graph.ledger.timeline import known
from graph.ledger.tokens import owner_principal
from graph.platform.db import Database
from graph.reads.temporal import fact_history, state_as_known_at, state_at

BASE = datetime(2000, 1, 1, tzinfo=UTC)
DAYS = 12
PREDICATE = "prop_level"
EVIDENCE = Evidence(kind="test", text="generated")


def day(n: int) -> datetime:
    return BASE + timedelta(days=n)


@st.composite
def steps(draw: st.DrawFn) -> list[tuple[str, int | None, int, int | None]]:
    out = []
    for _ in range(draw(st.integers(1, 7))):
        op = draw(st.sampled_from(["assert", "assert", "assert", "retract"]))
        start = draw(st.integers(0, DAYS - 1))
        end = draw(st.one_of(st.none(), st.integers(start + 1, DAYS)))
        out.append((op, draw(st.integers(1, 3)) if op == "assert" else None, start, end))
    return out


def oracle(history: list[tuple[str, int | None, int, int | None]], upto: int, v: int) -> int | None:
    """Value known after the first `upto` steps about valid day v."""
    value = None
    for op, val, start, end in history[:upto]:
        if start <= v and (end is None or v < end):
            value = val if op == "assert" else None
    return value


@pytest.fixture(scope="module")
def registered(db: Database) -> None:
    register_relation_types(db, [{"key": PREDICATE, "name": "level", "cardinality": "functional"}])


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(history=steps())
def test_random_histories_match_the_oracle(db: Database, registered: None,
                                           history: list[tuple[str, int | None, int, int | None]]) -> None:
    owner = f"prop-{uuid.uuid4().hex[:10]}"
    ref = "thing:gauge"
    system_times = []
    for n, (op, value, start, end) in enumerate(history):
        at = day(100 + n)  # system time of step n; later than every valid day
        system_times.append(at)
        operation: Any = (
            AssertFact(subject=ref, predicate=PREDICATE, value=value, valid_from=day(start),
                       valid_to=day(end) if end is not None else None, evidence=EVIDENCE)
            if op == "assert" else
            RetractFact(subject=ref, predicate=PREDICATE, valid_from=day(start),
                        valid_to=day(end) if end is not None else None, evidence=EVIDENCE))
        if n == 0 and op == "retract":  # a retract needs the entity to exist
            operation = AssertFact(subject=ref, predicate=PREDICATE, value=0, valid_from=day(DAYS + 5),
                                   evidence=EVIDENCE)
            history = [("assert", 0, DAYS + 5, None), *history[1:]]
        proposal = MemoryMutationProposal(run_id=f"s{n}", operations=[operation])
        result = commit_proposal(db, owner_principal(owner), proposal, recorded_at=at)
        assert result.rejected == []

    rows = fact_history(db, owner, ref, PREDICATE)
    # Brute force over every (R, V) on the history rows with the pure as-of predicate.
    for k, r in enumerate(system_times):
        for v in range(DAYS + 6):
            live = [f for f in rows if known(f.recorded_at, f.superseded_at, r)
                    and f.valid_from <= day(v) and (f.valid_to is None or day(v) < f.valid_to)]
            assert len(live) <= 1, f"two believed values at R={k} V={v}"
            got = live[0].value if live else None
            assert got == oracle(history, k + 1, v), f"R=step {k}, V=day {v}"
    # The SQL reads agree with the oracle: now, as of V, and known at R (a sample of points).
    for v in range(0, DAYS + 6, 3):
        now = state_at(db, owner, ref, day(v))
        assert ([f.value for f in now.facts] if now else []) == _list(oracle(history, len(history), v))
        for k in (0, len(history) // 2, len(history) - 1):
            then = state_as_known_at(db, owner, ref, system_times[k], day(v))
            assert ([f.value for f in then.facts] if then else []) == _list(oracle(history, k + 1, v))


def _list(value: int | None) -> list[int]:
    return [] if value is None else [value]
