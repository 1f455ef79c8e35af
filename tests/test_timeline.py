"""Direct tests of the pure time logic, including the public scenarios replayed in memory."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from graph.ledger.timeline import (
    Belief,
    Interval,
    next_change,
    plan_add_member,
    plan_remove,
    plan_replace,
    subtract,
    until_next,
)
from tests.scenarios import day, load_scenarios

T0 = datetime(2021, 1, 1, tzinfo=UTC)


def d(n: int) -> datetime:
    return T0 + timedelta(days=n)


def test_interval_is_half_open() -> None:
    i = Interval(d(1), d(3))
    assert i.contains(d(1)) and i.contains(d(2)) and not i.contains(d(3)) and not i.contains(d(0))
    assert not Interval(d(1), d(3)).overlaps(Interval(d(3), None))
    assert Interval(d(1), None).overlaps(Interval(d(100), d(101)))
    with pytest.raises(ValueError):
        Interval(d(3), d(3))


def test_subtract_splits_into_before_and_after() -> None:
    assert subtract(Interval(d(0), None), Interval(d(2), d(4))) == [Interval(d(0), d(2)), Interval(d(4), None)]
    assert subtract(Interval(d(0), d(5)), Interval(d(0), None)) == []
    assert subtract(Interval(d(0), d(5)), Interval(d(6), None)) == [Interval(d(0), d(5))]
    assert subtract(Interval(d(3), d(5)), Interval(d(0), d(4))) == [Interval(d(4), d(5))]


def test_replace_closes_overlaps_and_keeps_surviving_parts() -> None:
    plan = plan_replace([Belief("a", Interval(d(0), None), 1)], Interval(d(2), d(4)), 2)
    assert plan.close == ["a"]
    assert [(p.interval, p.split_from) for p in plan.insert] == [
        (Interval(d(0), d(2)), "a"), (Interval(d(4), None), "a"), (Interval(d(2), d(4)), None)]


def test_replace_with_the_same_value_already_believed_is_a_noop() -> None:
    assert plan_replace([Belief("a", Interval(d(0), None), 1)], Interval(d(2), d(4)), 1).is_noop
    assert not plan_replace([Belief("a", Interval(d(3), None), 1)], Interval(d(2), d(4)), 1).is_noop


def test_remove_only_touches_overlapping_rows() -> None:
    beliefs = [Belief("a", Interval(d(0), d(2)), 1), Belief("b", Interval(d(2), None), 2)]
    plan = plan_remove(beliefs, Interval(d(5), None))
    assert plan.close == ["b"] and [p.interval for p in plan.insert] == [Interval(d(2), d(5))]


def test_set_member_inserts_only_the_uncovered_parts() -> None:
    same = [Belief("a", Interval(d(0), d(3)), "x")]
    assert plan_add_member(same, Interval(d(1), d(2))).is_noop
    plan = plan_add_member(same, Interval(d(2), d(6)))
    assert plan.close == [] and [p.interval for p in plan.insert] == [Interval(d(3), d(6))]
    assert all(p.split_from is None for p in plan.insert)
    assert plan_add_member([], Interval(d(1), None)).insert[0].interval == Interval(d(1), None)


def test_set_member_across_two_adjacent_rows_is_a_noop() -> None:
    same = [Belief("a", Interval(d(0), d(3)), "x"), Belief("b", Interval(d(3), None), "x")]
    assert plan_add_member(same, Interval(d(1), d(10))).is_noop
    # a hole between two rows is filled, and only the hole
    holes = [Belief("a", Interval(d(0), d(2)), "x"), Belief("b", Interval(d(4), d(6)), "x")]
    plan = plan_add_member(holes, Interval(d(1), d(8)))
    assert plan.close == [] and [p.interval for p in plan.insert] == [Interval(d(2), d(4)), Interval(d(6), d(8))]


@dataclass
class Row:
    value: Any
    valid: Interval
    recorded_at: datetime
    superseded_at: datetime | None = None


@pytest.mark.parametrize("scenario", load_scenarios(), ids=lambda s: s["entity"])
def test_scenarios_replayed_on_the_pure_planner(scenario: dict[str, Any]) -> None:
    rows: dict[str, Row] = {}
    for n, step in enumerate(scenario["steps"]):
        at, new = day(step["at"]), Interval(day(step["valid_from"]), day(step["valid_to"]))  # type: ignore[arg-type]
        assert at is not None
        live = [Belief(k, r.valid, r.value) for k, r in rows.items() if r.superseded_at is None]
        plan = (plan_replace(live, new, step["value"]) if step["op"] == "assert" else plan_remove(live, new))
        for k in plan.close:
            rows[k].superseded_at = at
        for i, piece in enumerate(plan.insert):
            value = step["value"] if piece.split_from is None else rows[piece.split_from].value
            rows[f"{n}.{i}"] = Row(value, piece.interval, at)
    got = {(r.value, r.valid.start, r.valid.end, r.recorded_at, r.superseded_at) for r in rows.values()}
    want = {(h["value"], day(h["valid_from"]), day(h["valid_to"]), day(h["recorded_at"]), day(h["superseded_at"]))
            for h in scenario["history"]}
    assert got == want and len(rows) == len(scenario["history"])


# --- until the next known change ------------------------------------------------------------------------------
RATE = [Belief("150", Interval(datetime(2024, 3, 1, tzinfo=UTC), datetime(2026, 1, 15, tzinfo=UTC)), 150),
        Belief("190", Interval(datetime(2026, 1, 15, tzinfo=UTC), None), 190)]


def test_a_late_open_value_ends_where_the_next_known_change_starts() -> None:
    """$150 from 2024-03-01, $190 from 2026-01-15, then $175 from 2025-02-20 arrives last: $190 stays."""
    plan = plan_replace(RATE, Interval(datetime(2025, 2, 20, tzinfo=UTC)), 175)
    jan, feb = datetime(2026, 1, 15, tzinfo=UTC), datetime(2025, 2, 20, tzinfo=UTC)
    assert plan.close == ["150"]
    assert [(p.interval, p.split_from) for p in plan.insert] == [
        (Interval(datetime(2024, 3, 1, tzinfo=UTC), feb), "150"), (Interval(feb, jan), None)]
    assert plan.until == RATE[1]


def test_replace_later_takes_everything_after_as_said() -> None:
    plan = plan_replace(RATE, Interval(datetime(2025, 2, 20, tzinfo=UTC)), 175, replace_later=True)
    assert sorted(plan.close) == ["150", "190"] and plan.until is None
    assert plan.insert[-1].interval == Interval(datetime(2025, 2, 20, tzinfo=UTC), None)


def test_an_explicit_end_is_taken_as_said() -> None:
    new = Interval(datetime(2025, 2, 20, tzinfo=UTC), datetime(2026, 6, 1, tzinfo=UTC))
    plan = plan_replace(RATE, new, 175)
    assert sorted(plan.close) == ["150", "190"] and plan.until is None
    assert until_next(RATE, new) == (new, None)


def test_without_a_later_period_the_value_stays_open() -> None:
    plan = plan_replace(RATE, Interval(datetime(2026, 3, 1, tzinfo=UTC)), 200)
    assert plan.close == ["190"] and plan.until is None
    assert plan.insert[-1].interval == Interval(datetime(2026, 3, 1, tzinfo=UTC), None)


def test_the_next_change_is_the_earliest_later_start_whatever_the_order_of_rows() -> None:
    rows = [Belief("c", Interval(d(9), None), 3), Belief("b", Interval(d(5), d(9)), 2),
            Belief("a", Interval(d(0), d(5)), 1)]
    assert next_change(rows, d(2)) == rows[1]
    assert next_change(rows, d(9)) is None
    assert until_next(rows, Interval(d(6))) == (Interval(d(6), d(9)), rows[0])


def test_a_late_value_before_the_same_value_is_not_reported_as_cut_short() -> None:
    plan = plan_replace([Belief("a", Interval(d(5), None), 1)], Interval(d(2)), 1)
    assert [p.interval for p in plan.insert] == [Interval(d(2), d(5))] and plan.until is None


def test_an_open_restatement_inside_a_row_of_the_same_value_is_a_change_point() -> None:
    """Else a later-arriving value between the two starts would run past the restated start."""
    row = [Belief("a", Interval(d(0), None), 1)]
    assert plan_replace(row, Interval(d(0)), 1).is_noop
    plan = plan_replace(row, Interval(d(3)), 1)
    assert plan.close == ["a"] and [p.interval for p in plan.insert] == [Interval(d(0), d(3)), Interval(d(3), None)]
    after = [Belief("a1", Interval(d(0), d(3)), 1), Belief("n", Interval(d(3), None), 1)]
    assert plan_replace(after, Interval(d(1)), 2).insert[-1].interval == Interval(d(1), d(3))
