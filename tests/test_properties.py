"""Random histories checked against a brute-force in-memory oracle, and against the store's own past.

The oracle knows nothing of rows or splitting: it replays the steps recorded at or before system time R on
a line of valid days (`Line`): an assert's value over its period, nothing over a retract's, where an
assert without an end holds until the next start already known after its own.
The store must answer the same for now, as of V, and known at R, and its history must never
hold two believed values for one instant. The same holds for set predicates, scopes and relationships.

With merges and splits in the history, the check needs no oracle: whatever was read right after step n
(stateAt, neighbors) must be exactly what stateAsKnownAt and neighbors(systemTime) say later about R_n.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from itertools import pairwise
from typing import Any

import pytest
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from graph.ledger.committer import commit_proposal
from graph.ledger.proposal import (
    AssertFact,
    AssertRelationship,
    Evidence,
    MemoryMutationProposal,
    MergeEntities,
    RetractFact,
    SplitEntity,
    UpsertEntity,
)
from graph.ledger.registries import register_relation_types
from graph.ledger.timeline import Belief, Interval, known, plan_replace
from graph.ledger.tokens import owner_principal
from graph.platform.db import Database
from graph.reads.temporal import fact_history, state_as_known_at, state_at
from graph.reads.traversal import Direction, Neighborhood, NeighborQuery, neighbors

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


HORIZON = DAYS + 8  # valid days the oracle models; nothing starts at or after it


class Line:
    """One functional key as the oracle sees it, day by day: the value of each valid day, and the days where a
    believed period starts. An assertion without an end holds until the next such start after its own."""

    def __init__(self) -> None:
        self.values: list[Any] = [None] * HORIZON
        self.starts: set[int] = set()

    def assert_(self, value: Any, start: int, end: int | None) -> None:
        said = end is not None
        stop = end if end is not None else min((b for b in self.starts if b > start), default=HORIZON)
        one_row = not any(start < b < stop for b in self.starts)
        if one_row and all(self.values[d] == value for d in range(start, stop)) and (said or start in self.starts):
            return  # already believed by one row (an open restatement from inside it is a start of its own)
        self.retract(start, stop)
        self.values[start:stop] = [value] * (stop - start)
        self.starts.add(start)

    def retract(self, start: int, end: int | None) -> None:
        stop = HORIZON if end is None else end
        self.starts -= {b for b in self.starts if start <= b < stop}
        self.values[start:stop] = [None] * (stop - start)
        if stop < HORIZON and self.values[stop] is not None:
            self.starts.add(stop)  # what is left of a row after the cut starts there

    def at(self, v: int) -> Any:
        return self.values[min(v, HORIZON - 1)]


def oracle(history: list[tuple[str, int | None, int, int | None]], upto: int, v: int) -> int | None:
    """Value known after the first `upto` steps about valid day v."""
    line = Line()
    for op, val, start, end in history[:upto]:
        if op == "assert":
            line.assert_(val, start, end)
        else:
            line.retract(start, end)
    value: int | None = line.at(v)
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


# --- every kind of belief, merges and splits --------------------------------------------------------------
# Three things (thing:t0..t2), a chat scope, and four predicates: a functional and a set literal, a
# functional and a set relationship. Step n is committed at system time day(100 + n).

THINGS = ["thing:t0", "thing:t1", "thing:t2"]
SCOPE = "chat:prop"
KINDS = {"prop_level": ("functional", False), "prop_tags": ("set", False),
         "prop_near": ("functional", True), "prop_links": ("set", True)}
PROBES = (2, 8)  # valid days read at every step
# What a merge or split may say no to in a random history; anything else is a bug.
GOVERNANCE_NO = {"ALREADY_MERGED", "NOT_MERGED", "SPLIT_ORDER", "SAME_ENTITY"}

Step = tuple[Any, ...]


@pytest.fixture(scope="module")
def registered_kinds(db: Database) -> None:
    register_relation_types(db, [{"key": k, "name": k, "cardinality": c, **({"inverse": f"{k}_of"} if rel else {})}
                                 for k, (c, rel) in KINDS.items()])


@st.composite
def belief_steps(draw: st.DrawFn, merges: bool) -> list[Step]:
    out: list[Step] = []
    for _ in range(draw(st.integers(1, 9))):
        governance = ["merge", "merge", "split", "split"] if merges else []
        roll = draw(st.sampled_from(["assert"] * 4 + ["retract"] * 2 + governance))
        if roll == "merge":
            gone, into = draw(st.permutations(THINGS))[:2]
            out.append(("merge", gone, into))
            continue
        if roll == "split":  # mostly one that was merged before (a split of nothing is only refused)
            merged = [step[1] for step in out if step[0] == "merge"]
            out.append(("split", draw(st.sampled_from(merged or THINGS))))
            continue
        predicate = draw(st.sampled_from(sorted(KINDS)))
        start = draw(st.integers(0, DAYS - 1))
        end = draw(st.one_of(st.none(), st.integers(start + 1, DAYS)))
        scope = draw(st.sampled_from([None, None, SCOPE]))
        value: Any = draw(st.sampled_from(THINGS) if KINDS[predicate][1] else st.integers(1, 3))
        if roll == "retract" and (KINDS[predicate][0] == "functional" or draw(st.booleans())):
            value = None  # retract whatever is believed over the period
        out.append((roll, draw(st.sampled_from(THINGS)), predicate, value, start, end, scope))
    return out


def _operation(step: Step) -> Any:
    if step[0] == "merge":
        return MergeEntities(entity=step[1], into=step[2])
    if step[0] == "split":
        return SplitEntity(entity=step[1])
    op, subject, predicate, value, start, end, scope = step
    timed = {"subject": subject, "predicate": predicate, "valid_from": day(start),
             "valid_to": day(end) if end is not None else None, "scope": scope, "evidence": EVIDENCE}
    is_rel = KINDS[predicate][1]
    if op == "assert":
        return AssertRelationship(object=value, **timed) if is_rel else AssertFact(value=value, **timed)
    return RetractFact(object=value, **timed) if is_rel else RetractFact(value=value, **timed)


def _run(db: Database, owner: str, n: int, operations: list[Any]) -> list[str]:
    proposal = MemoryMutationProposal(run_id=f"p{n}", operations=operations)
    return [r.code for r in commit_proposal(db, owner_principal(owner), proposal, recorded_at=day(100 + n)).rejected]


def _seed(db: Database, owner: str) -> None:
    assert _run(db, owner, 0, [UpsertEntity(ref=r, kind=r.split(":")[0], canonical_name=r)
                               for r in [*THINGS, SCOPE]]) == []


Facts = frozenset[tuple[str, str, str, str | None]]


def _facts(state: Any) -> tuple[str | None, Facts]:
    if state is None:
        return None, frozenset()
    return state.ref, frozenset((state.ref, f.predicate, str(f.value), f.scope) for f in state.facts)


def _edges(hood: Neighborhood | None) -> frozenset[tuple[str, str, str]]:
    """Edges as (subject, predicate, object), whichever side the walk met them from."""
    assert hood is not None
    return frozenset((h.source.ref, h.predicate, h.target.ref) if h.direction is Direction.OUT else
                     (h.target.ref, h.predicate, h.source.ref) for h in hood.hops)


def _now(db: Database, owner: str) -> dict[tuple[str, int], Any]:
    """What the reads say right now, per (ref, valid day): the snapshot a later as-of read must repeat."""
    return {(ref, v): (_facts(state_at(db, owner, ref, day(v))),
                       _edges(neighbors(db, owner, NeighborQuery(ref=ref, valid_time=day(v)))))
            for ref in THINGS for v in PROBES}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(history=belief_steps(merges=True))
# Always covered: a moved relationship and set member changed after the merge, then the split.
@example(history=[("assert", "thing:t0", "prop_near", "thing:t1", 0, None, None),
                  ("assert", "thing:t1", "prop_tags", 2, 0, 6, SCOPE), ("merge", "thing:t1", "thing:t2"),
                  ("assert", "thing:t0", "prop_near", "thing:t0", 5, None, None),
                  ("assert", "thing:t2", "prop_tags", 2, 4, None, SCOPE), ("split", "thing:t1")])
@example(history=[("assert", "thing:t1", "prop_level", 1, 0, None, None), ("merge", "thing:t1", "thing:t0"),
                  ("split", "thing:t1"), ("merge", "thing:t0", "thing:t1"),
                  ("assert", "thing:t1", "prop_level", 2, 3, 7, None), ("split", "thing:t0")])
def test_known_at_r_is_what_was_read_at_r_across_merges_and_splits(
        db: Database, registered_kinds: None, history: list[Step]) -> None:
    """Every read taken right after step n is repeated exactly by the as-of reads at R_n later, for
    stateAsKnownAt and neighbors(validTime, systemTime); and neighbors as of (V, R) agrees with the SQL
    as-of reads (relationship rows of stateAsKnownAt) on every edge. A split right after its merge
    restores what was read before the merge. No step is refused but a merge or split that cannot apply."""
    owner = f"prop-{uuid.uuid4().hex[:10]}"
    _seed(db, owner)
    snapshots, applied = [_now(db, owner)], [True]
    for n, step in enumerate(history, start=1):
        rejected = _run(db, owner, n, [_operation(step)])
        assert set(rejected) <= (GOVERNANCE_NO if step[0] in ("merge", "split") else set()), (step, rejected)
        snapshots.append(_now(db, owner))
        applied.append(not rejected)
        if step[0] in ("merge", "split") and not rejected:
            event(f"{step[0]} applied")  # coverage: pytest --hypothesis-show-statistics
        previous = history[n - 2] if n >= 2 else ("seed",)
        if step[0] == "split" and applied[n] and previous[0] == "merge" and previous[1] == step[1] and applied[n - 1]:
            assert snapshots[n] == snapshots[n - 2], "a split right after its merge is its exact inverse"
    for n, snapshot in enumerate(snapshots):
        r = day(100 + n)
        for v in PROBES:
            known = {ref: _facts(state_as_known_at(db, owner, ref, r, day(v))) for ref in THINGS}
            sql_edges = {(subject, predicate, value) for _, rows in known.values()
                         for (subject, predicate, value, _) in rows if KINDS[predicate][1]}
            for ref in THINGS:
                then = neighbors(db, owner, NeighborQuery(ref=ref, valid_time=day(v), system_time=r))
                assert then is not None
                assert (known[ref], _edges(then)) == snapshot[(ref, v)], f"R=step {n}, V=day {v}, {ref}"
                origin = then.origin.ref  # (traversal never lists an entity as its own neighbour)
                assert _edges(then) == {e for e in sql_edges if origin in (e[0], e[2]) and e[0] != e[2]}, (n, v)


def _oracle(history: list[Step], upto: int, v: int) -> Facts:
    """Believed after the first `upto` steps about valid day v: per functional (subject, predicate, scope)
    the last step covering v; per set member (subject, predicate, scope, value) likewise."""
    lines: dict[tuple[Any, ...], Line] = {}
    members: dict[tuple[Any, ...], bool] = {}
    for op, subject, predicate, value, start, end, scope in history[:upto]:
        if KINDS[predicate][0] == "functional":
            line = lines.setdefault((subject, predicate, scope), Line())
            if op == "assert":
                line.assert_(str(value), start, end)
            else:
                line.retract(start, end)
            continue
        if not (start <= v and (end is None or v < end)):
            continue
        if op == "assert":
            members[(subject, predicate, scope, str(value))] = True
        else:
            # Members are keyed by str(value): compare as str, or an int member is never retracted by value.
            for key in [k for k in members
                        if k[:3] == (subject, predicate, scope) and (value is None or str(value) == k[3])]:
                members[key] = False
    functional = {key: line.at(v) for key, line in lines.items()}
    return frozenset([(s, p, val, sc) for (s, p, sc), val in functional.items() if val is not None]
                     + [(s, p, val, sc) for (s, p, sc, val), held in members.items() if held])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(history=belief_steps(merges=False))
# Always covered: retracting one literal set member by value (found by hypothesis; the oracle kept it).
@example(history=[("assert", "thing:t0", "prop_tags", 3, 0, None, None),
                  ("retract", "thing:t0", "prop_tags", 3, 0, None, None)])
@example(history=[("assert", "thing:t0", "prop_level", 1, 0, None, None),
                  ("assert", "thing:t0", "prop_tags", 3, 0, None, None),
                  ("assert", "thing:t0", "prop_level", 1, 0, None, None),
                  ("retract", "thing:t0", "prop_tags", 3, 0, None, None)])
def test_set_predicates_scopes_and_relationships_match_the_oracle(
        db: Database, registered_kinds: None, history: list[Step]) -> None:
    owner = f"prop-{uuid.uuid4().hex[:10]}"
    _seed(db, owner)
    for n, step in enumerate(history, start=1):
        assert _run(db, owner, n, [_operation(step)]) == [], step
    for n in range(len(history) + 1):
        for v in range(0, DAYS + 1, 3):
            got: set[Any] = set()
            for ref in THINGS:
                got |= _facts(state_as_known_at(db, owner, ref, day(100 + n), day(v)))[1]
            assert got == _oracle(history, n, v), f"R=step {n}, V=day {v}"


# --- late news: the believed timeline does not depend on arrival order -------------------------------------
# Histories of one functional key whose assertions have distinct starts and no end (or non-overlapping
# explicit periods), committed in a random arrival order and in start order: every valid day must read the
# same. `event` counts how often an arrival is late (a later start arrived before it) and how often a late
# value was cut short (pytest --hypothesis-show-statistics).


@st.composite
def open_histories(draw: st.DrawFn) -> tuple[list[tuple[int, int, int | None]], list[int]]:
    """(start, value, None) with distinct starts, and an arrival order (a permutation of their indices)."""
    starts = draw(st.lists(st.integers(0, DAYS - 1), min_size=2, max_size=6, unique=True))
    steps: list[tuple[int, int, int | None]] = [(start, draw(st.integers(1, 3)), None) for start in starts]
    return steps, draw(st.permutations(range(len(steps))))


@st.composite
def period_histories(draw: st.DrawFn) -> tuple[list[tuple[int, int, int | None]], list[int]]:
    """Non-overlapping explicit periods (gaps allowed), and an arrival order."""
    cuts = sorted(draw(st.lists(st.integers(0, DAYS), min_size=2, max_size=10, unique=True)))
    periods = [(a, b) for a, b in pairwise(cuts) if draw(st.booleans())] or [(cuts[0], cuts[1])]
    steps: list[tuple[int, int, int | None]] = [(a, draw(st.integers(1, 3)), b) for a, b in periods]
    return steps, draw(st.permutations(range(len(steps))))


def _count_late(steps: list[tuple[int, int, int | None]], order: list[int]) -> None:
    seen: list[int] = []
    for i in order:
        if any(steps[j][0] > steps[i][0] for j in seen):
            event("a late arrival")
            if any(steps[j][0] > steps[i][0] and steps[j][1] != steps[i][1] for j in seen):
                event("a late arrival before a different value known")
        seen.append(i)


def _timeline(beliefs: list[Belief]) -> list[Any]:
    return [next((b.value for b in beliefs if b.interval.contains(day(v))), None) for v in range(HORIZON)]


def _planned(steps: list[tuple[int, int, int | None]], order: list[int]) -> list[Any]:
    """The planner alone (graph.ledger.timeline), rows kept in memory as the committer keeps them."""
    rows: dict[str, Belief] = {}
    for n, i in enumerate(order):
        start, value, end = steps[i]
        plan = plan_replace(list(rows.values()), Interval(day(start), day(end) if end is not None else None), value)
        split = {piece.split_from: rows[piece.split_from] for piece in plan.insert if piece.split_from}
        for closed in plan.close:
            del rows[closed]
        for k, piece in enumerate(plan.insert):
            old = split.get(piece.split_from) if piece.split_from else None
            rows[f"{n}.{k}"] = Belief(f"{n}.{k}", piece.interval, old.value if old else value)
    return _timeline(list(rows.values()))


@settings(max_examples=400, deadline=None)
@given(history=st.one_of(open_histories(), period_histories()))
def test_the_planner_does_not_depend_on_arrival_order(
        history: tuple[list[tuple[int, int, int | None]], list[int]]) -> None:
    steps, order = history
    _count_late(steps, order)
    assert _planned(steps, order) == _planned(steps, sorted(range(len(steps)), key=lambda i: steps[i][0]))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(history=st.one_of(open_histories(), period_histories()))
# Always covered: the rate case (150, then 190 later, then 175 between them arriving last).
@example(history=([(0, 150, None), (9, 190, None), (4, 175, None)], [0, 1, 2]))
# Always covered: a restatement of the value in force, before a different value arrives between them.
@example(history=([(0, 1, None), (3, 1, None), (1, 2, None)], [0, 1, 2]))
def test_the_store_does_not_depend_on_arrival_order(
        db: Database, registered: None, history: tuple[list[tuple[int, int, int | None]], list[int]]) -> None:
    steps, order = history
    _count_late(steps, order)
    read = []
    for arrival in (order, sorted(range(len(steps)), key=lambda i: steps[i][0])):
        owner = f"prop-{uuid.uuid4().hex[:10]}"
        for n, i in enumerate(arrival):
            start, value, end = steps[i]
            proposal = MemoryMutationProposal(run_id=f"o{n}", operations=[AssertFact(
                subject="thing:gauge", predicate=PREDICATE, value=value, valid_from=day(start),
                valid_to=day(end) if end is not None else None, evidence=EVIDENCE)])
            assert commit_proposal(db, owner_principal(owner), proposal).rejected == []
        read.append([_list_of(state_at(db, owner, "thing:gauge", day(v))) for v in range(HORIZON)])
    assert read[0] == read[1]


def _list_of(state: Any) -> list[Any]:
    return [f.value for f in state.facts] if state else []
