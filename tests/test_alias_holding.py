"""graph.ledger.alias_holding: who may take an alias over, and whom a name stands for, over valid time."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from graph.ledger.alias_holding import Holding, naming, overlapping

ANN, BO = uuid.uuid4(), uuid.uuid4()
JAN, JUN, JUL = (datetime(2026, m, 1, tzinfo=UTC) for m in (1, 6, 7))
ENDED = Holding("phone", ANN, JAN, JUN)
TAKEN = Holding("phone", BO, JUN, None)


def test_a_holding_clashes_only_where_it_overlaps() -> None:
    assert overlapping([ENDED], JUN) == []
    assert overlapping([ENDED], datetime(2026, 5, 1, tzinfo=UTC)) == [ANN]
    assert overlapping([ENDED, TAKEN], JUL) == [BO]
    assert overlapping([Holding("phone", ANN, JAN, None)], JUL) == [ANN]


def test_a_name_stands_for_the_holder_then_else_the_latest() -> None:
    assert naming([ENDED, TAKEN], JUL) == [BO]
    assert naming([TAKEN, ENDED], datetime(2026, 3, 1, tzinfo=UTC)) == [ANN]
    assert naming([ENDED], JUL) == [ANN]  # given up, nobody took it: it still names its last holder
    assert naming([ENDED, Holding("core", BO, JAN, None)], JUL) == [ANN, BO]  # namespaces: ambiguous
