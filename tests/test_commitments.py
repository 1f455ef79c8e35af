"""Commitments: pure due/overdue/blocked logic, the commitments query, and pendingReview's overdue and
blocked items (German and English) whose yes-answer is setCommitmentStatus."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi.testclient import TestClient

from graph.demo import TYPES
from graph.domains import commitments as cm
from graph.domains.commitments import Blocker
from graph.governance.review import pending_review
from graph.ledger import proposal as p
from graph.ledger.registries import register_relation_types
from graph.ledger.tokens import Principal
from graph.platform.db import Database
from tests.gql import MakeToken, client, codes, gql, make_token  # noqa: F401
from tests.test_governance import commit, entity, fact, ok

NOW = datetime.now(UTC)
PAST = NOW - timedelta(days=30)


def test_parse_due_reads_dates_as_the_end_of_the_day_and_refuses_guessing() -> None:
    assert cm.parse_due("2026-12-01") == datetime(2026, 12, 2, tzinfo=UTC)
    assert cm.parse_due("2026-12-01T09:00:00+01:00") == datetime(2026, 12, 1, 8, tzinfo=UTC)
    assert cm.parse_due("2026-12-01T09:00:00") is None  # no offset: never called overdue
    assert cm.parse_due("tomorrow") is None and cm.parse_due(42) is None
    assert cm.parse_due("9999-12-31") == datetime.max.replace(tzinfo=UTC)  # no overflow at the last day


def test_overdue_and_blocked_only_while_open() -> None:
    due = datetime(2026, 12, 2, tzinfo=UTC)
    assert cm.overdue("open", due, due) and not cm.overdue("open", due, due - timedelta(microseconds=1))
    assert not cm.overdue("done", due, due + timedelta(days=9)) and not cm.overdue("erledigt", due, due)
    assert cm.status_of(None) == "open" and cm.status_of(" Done ") == "done"
    blockers = [Blocker(ref="task:a", name="A", status="done"), Blocker(ref="task:b", name="B", status="open")]
    assert [b.ref for b in cm.open_blockers(blockers)] == ["task:b"]


def _row(ref: str, status: Any = None, due: Any = None, blockers: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {"ref": ref, "name": ref.title(), "status": status, "due": due, "blockers": blockers or []}


def test_select_and_attention_order() -> None:
    now = datetime(2026, 12, 10, tzinfo=UTC)
    items = [cm.from_row(_row("task:late", due="2026-12-05"), now),
             cm.from_row(_row("task:later", "in_progress", due="2026-12-01"), now),
             cm.from_row(_row("task:done", "done", due="2026-12-01"), now),
             cm.from_row(_row("task:waits", blockers=[{"ref": "task:late", "name": "Late", "status": None}]), now)]
    assert [c.ref for c in cm.select(items, "open", None)] == ["task:late", "task:waits"]
    assert [c.ref for c in cm.select(items, None, datetime(2026, 12, 3, tzinfo=UTC))] == ["task:later", "task:done"]
    found = cm.attention_of(items)
    assert [(a.kind, a.commitment.ref) for a in found] == [("overdue", "task:later"), ("overdue", "task:late"),
                                                            ("blocked", "task:waits")]


def _tasks(db: Database, owner: str) -> None:
    due_past, due_future = PAST.date().isoformat(), (NOW + timedelta(days=30)).date().isoformat()
    ok(commit(db, owner, entity("task:taxes", "Steuererklärung"), entity("task:flat", "Wohnung kündigen"),
              entity("task:keys", "Schlüssel abgeben"), entity("task:done", "Erledigtes"),
              fact("task:taxes", "due", due_past, valid_from=PAST - timedelta(days=60)),
              fact("task:taxes", "status", "open", valid_from=PAST - timedelta(days=60)),
              fact("task:flat", "due", due_future, valid_from=PAST),
              fact("task:done", "status", "done", valid_from=PAST),
              fact("task:done", "due", due_past, valid_from=PAST),
              p.AssertRelationship(subject="task:keys", predicate="blocked_by", object="task:flat", valid_from=PAST)))


def test_commitments_as_believed_now(db: Database, owner: str) -> None:
    _tasks(db, owner)
    found = {c.ref: c for c in cm.commitments(db, owner)}
    assert set(found) == {"task:taxes", "task:flat", "task:keys", "task:done"}
    assert found["task:taxes"].overdue and not found["task:done"].overdue and not found["task:flat"].overdue
    assert found["task:keys"].blocked and [b.ref for b in found["task:keys"].blocked_by] == ["task:flat"]
    assert [c.ref for c in cm.commitments(db, owner, status="done")] == ["task:done"]
    assert {c.ref for c in cm.commitments(db, owner, due_before=NOW)} == {"task:taxes", "task:done"}


def test_pending_review_asks_about_overdue_and_blocked_in_german(db: Database, owner: str) -> None:
    _tasks(db, owner)
    register_relation_types(db, TYPES)  # answer_language, as the demo registers it
    ok(commit(db, owner, entity("person:me", "Basti"), fact("person:me", "answer_language", "de", valid_from=PAST)))
    review = pending_review(db, owner)
    kinds = [(i.kind, i.entity_refs) for i in review.items]
    assert kinds == [("overdue", ["task:taxes"]), ("blocked", ["task:keys", "task:flat"])]
    assert "Steuererklärung (task:taxes) war am" in review.message and "ist es erledigt?" in review.message
    assert "Schlüssel abgeben (task:keys) wartet auf Wohnung kündigen" in review.message
    assert review.items[1].yes.call() == "setCommitmentStatus(task:flat, done)"


def test_answering_yes_clears_the_item(db: Database, owner: str) -> None:
    _tasks(db, owner)
    english = pending_review(db, owner)
    assert "Steuererklärung (task:taxes) was due" in english.message and "is it done?" in english.message
    who = Principal(owner=owner, kind="owner")
    for item in english.items:
        ok(cm.set_status(db, who, item.yes.args["ref"], item.yes.args["status"]))
    assert [i.kind for i in pending_review(db, owner).items] == []
    assert {c.ref for c in cm.commitments(db, owner, status="done")} == {"task:taxes", "task:flat", "task:done"}


COMMITMENTS = """query($status: String, $before: DateTime) { commitments(status: $status, dueBefore: $before) {
  ref name status due dueValue overdue blocked blockedBy { ref status } } }"""
SET = """mutation($ref: String!) { setCommitmentStatus(ref: $ref, status: "done") { committed pending } }"""
REVIEW = "{ pendingReview { items { kind question yes { mutation args } } } }"


def test_graphql_commitments_review_and_status(client: TestClient, make_token: MakeToken,  # noqa: F811
                                               db: Database, owner: str) -> None:
    _tasks(db, owner)
    token = make_token()
    rows = gql(client, token, COMMITMENTS, {"status": "open"})["data"]["commitments"]
    assert [(r["ref"], r["overdue"], r["blocked"]) for r in rows] == [
        ("task:flat", False, False), ("task:keys", False, True), ("task:taxes", True, False)]
    items = gql(client, token, REVIEW)["data"]["pendingReview"]["items"]
    assert [i["kind"] for i in items] == ["OVERDUE", "BLOCKED"]
    assert items[0]["yes"] == {"mutation": "setCommitmentStatus", "args": {"ref": "task:taxes", "status": "done"}}
    assert gql(client, token, SET, {"ref": "task:taxes"})["data"]["setCommitmentStatus"]["committed"] == 1
    agent = gql(client, make_token(kind="agent"), SET, {"ref": "task:flat"})["data"]["setCommitmentStatus"]
    assert agent == {"committed": 0, "pending": 1}  # an agent's word waits for the owner
    assert codes(gql(client, token, SET, {"ref": "person:nobody"})) == ["UNKNOWN_ENTITY"]
    assert codes(gql(client, token, "{ commitments(limit: 0) { ref } }")) == ["BAD_LIMIT"]
    assert [r["ref"] for r in gql(client, token, "{ commitments(limit: 1) { ref } }")["data"]["commitments"]] == [
        "task:done"]
    not_task = gql(client, token, 'mutation { setCommitmentStatus(ref: "device:x", status: "done") { committed } }')
    assert codes(not_task) in (["UNKNOWN_ENTITY"], ["KIND_MISMATCH"])
