"""The pure time logic of attribute history (graph/domains/history.py): clip, coalesce, held_for."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

from graph.domains.history import Segment, clip, coalesce, held_for, key

T = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def m(minutes: float) -> datetime:
    return T + timedelta(minutes=minutes)


def seg(value: object, start: float, end: float | None) -> Segment:
    return Segment(value, m(start), None if end is None else m(end), (uuid.uuid4(),))


def test_key_ignores_key_order_and_integral_floats_but_not_bool() -> None:
    assert key({"a": 1, "b": 2.0}) == key({"b": 2, "a": 1.0})
    assert key(True) != key(1)
    assert key("on") != key("off")


def test_clip_cuts_to_the_window_and_drops_what_lies_outside() -> None:
    rows = [seg("a", -30, -10), seg("b", -10, 10), seg("c", 10, None)]
    out = clip(rows, m(0), m(20))
    assert [(s.value, s.start, s.end) for s in out] == [("b", m(0), m(10)), ("c", m(10), m(20))]
    assert [(s.value, s.end) for s in clip(rows, m(0), None)][-1] == ("c", None)


def test_coalesce_joins_touching_and_overlapping_rows_of_one_value_only() -> None:
    rows = [seg("on", 0, 10), seg("on", 10, 20), seg("off", 20, 30), seg("on", 25, 40), seg("on", 35, None)]
    out = coalesce(rows)
    assert [(s.value, s.start, s.end) for s in out] == [("on", m(0), m(20)), ("off", m(20), m(30)),
                                                        ("on", m(25), None)]
    assert len(out[0].fact_ids) == 2


def test_held_for_needs_the_value_without_a_gap_over_the_whole_window() -> None:
    rows = [seg("open", 0, 10), seg("open", 10, 30), seg("closed", 30, None)]
    assert held_for(rows, "open", m(29), 20).held is True          # split rows are one run
    held = held_for(rows, "open", m(25), 26)
    assert held.held is False and held.since == m(0) and held.until == m(30) and held.minutes_held == 25
    assert held_for(rows, "open", m(30), 1).held is False          # half-open: over at 30
    assert held_for(rows, "closed", m(45), 15).held is True        # exactly N minutes counts
    assert held_for(rows, "closed", m(45), 15.01).held is False


def test_held_for_a_gap_breaks_the_run() -> None:
    rows = [seg("on", 0, 10), seg("on", 11, None)]
    held = held_for(rows, "on", m(20), 15)
    assert held.held is False and held.since == m(11)
    assert held_for(rows, "off", m(20), 1).since is None


def test_held_for_a_set_predicate_member_among_others() -> None:
    rows = [seg("home", 0, None), seg("guest", 5, 8)]
    assert held_for(rows, "home", m(60), 60).held is True
    assert held_for(rows, "guest", m(7), 1).held is True
    assert held_for(rows, "guest", m(9), 1).held is False


def test_held_for_near_the_first_instant_does_not_overflow() -> None:
    first = datetime(1, 1, 2, tzinfo=UTC)
    held = held_for([Segment("on", first, None)], "on", first + timedelta(minutes=3), 10 * 365 * 24 * 60)
    assert held.held is False and held.minutes_held == 3
