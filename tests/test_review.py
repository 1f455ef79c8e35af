"""pendingReview (one bundled message) and correction notices, pure rendering and against the database."""

from __future__ import annotations

import asyncio
import uuid
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
from fastapi.testclient import TestClient

from graph.governance import phrases
from graph.governance.review import (
    Action,
    ReviewItem,
    build_review,
    correction_notices,
    notice_text,
    pending_review,
    render_review,
    show,
)
from graph.governance.review_rows import CorrectionRow, MergeCandidate, PendingRow
from graph.ledger import proposal as p
from graph.ledger.tokens import Principal
from graph.platform.db import Database
from resolvers.context import Context
from resolvers.schema import build_schema
from tests.gql import MakeToken, client, codes, gql, make_token  # noqa: F401
from tests.test_governance import T0, T1, commit, entity, fact, ok, pending_ids, rel

UID = uuid.UUID(int=1)


def _pending_row(**changes: Any) -> PendingRow:
    row = PendingRow(id=UID, predicate_name="birthday", object_kind="literal", object_value="2019-05-01",
                     object_name=None, scope_ref=None, subject_ref="pet:luna", subject_name="Luna", source="agent",
                     confidence=0.3, conflict_id=None, conflict_kind=None, conflict_value=None,
                     conflict_object_name=None)
    return replace(row, **changes)


def _pair(a: str, b: str, older: str) -> MergeCandidate:
    t = datetime(2024, 1, 1, tzinfo=UTC)
    return MergeCandidate(a_id=uuid.uuid5(UID, a), b_id=uuid.uuid5(UID, b), a_ref=f"pet:{a.lower()}", a_name=a,
                          b_ref=f"pet:{b.lower()}", b_name=b, kind="pet", similarity=0.5,
                          a_created=t if older == a else t + timedelta(days=1),
                          b_created=t if older == b else t + timedelta(days=1))


def test_show_values() -> None:
    assert show("literal", "07:00", None) == "07:00"
    assert show("literal", {"h": 7}, None) == '{"h": 7}'
    assert show("entity", None, "Rome") == "Rome"
    assert show("literal", "x" * 500, None).endswith("…") and len(show("literal", "x" * 500, None)) == 120


def test_one_bundled_message_maps_each_answer_to_its_mutation() -> None:
    conflict = _pending_row(id=uuid.UUID(int=2), conflict_id=uuid.UUID(int=3), conflict_kind="literal",
                            conflict_value="2019-04-01")
    review = build_review([_pending_row(), conflict], [_pair("Lu", "Luna", older="Luna"),
                                                       _pair("Luna", "Lu", older="Luna")], limit=10)
    assert [i.kind for i in review.items] == ["pending_fact", "conflict", "merge_suggestion"]  # pair deduped
    merge = review.items[2]
    assert merge.yes == Action(mutation="mergeEntities", args={"entity": "pet:lu", "into": "pet:luna"})
    assert merge.no == Action(mutation="dismissMergeSuggestion", args={"entity": "pet:lu", "other": "pet:luna"})
    lines = review.message.splitlines()
    assert lines[0] == "I'd like to check 3 things with you — answer with the number and yes or no:"
    assert lines[1] == (f"1. Luna's birthday: 2019-05-01? (agent, 30% sure)  [yes → acceptProposal({UID}), "
                        f"no → rejectProposal({UID})]")
    assert lines[2].startswith("2. Luna's birthday: 2019-05-01 instead of 2019-04-01? (agent, 30% sure)")
    assert lines[3] == ("3. Are Lu (pet:lu) and Luna (pet:luna) the same pet?  [yes → mergeEntities(pet:lu, pet:luna), "
                        "no → dismissMergeSuggestion(pet:lu, pet:luna)]")
    assert build_review([_pending_row()] * 5, [_pair("A", "B", "A")], limit=2).items[-1].number == 2


def test_empty_and_single_review() -> None:
    assert render_review([]) == "Nothing to review."
    item = ReviewItem(number=1, kind="merge_suggestion", question="Same?",
                      yes=Action(mutation="mergeEntities", args={"entity": "a:b", "into": "a:c"}))
    assert render_review([item]).startswith("I'd like to check one thing with you")


def test_notice_text_says_who_said_it() -> None:
    row = CorrectionRow(id=UID, recorded_at=datetime(2024, 1, 1, tzinfo=UTC), predicate="feeding_time",
                        predicate_name="feeding time", subject_ref="pet:luna", subject_name="Luna",
                        object_kind="literal", object_value="08:00", object_name=None, object_ref=None,
                        previous_id=uuid.UUID(int=2), previous_kind="literal", previous_value="07:00",
                        previous_object_name=None, previous_object_ref=None, previous_source="user")
    assert notice_text(row) == "Luna's feeding time: you said 07:00 before, now 08:00 — updating."
    assert notice_text(replace(row, previous_source="agent")).startswith("Luna's feeding time: I had 07:00")


def test_pending_review_against_the_database(db: Database, owner: str) -> None:
    assert pending_review(db, owner).message == "Nothing to review."
    ok(commit(db, owner, entity("pet:luna", "Luna"), entity("pet:lunah", "Lunah"), entity("pet:rex", "Rex"),
              entity("person:lunah", "Lunah"), entity("place:rome", "Rome"), entity("person:ann", "Ann"),
              fact("pet:luna", "birthday", "2019-04-01"),
              fact("pet:luna", "birthday", "2019-05-01", source="agent", confidence=0.2),
              fact("pet:rex", "birthday", "2020-01-01", source="agent", confidence=0.2),
              rel("person:ann", "lives_in", "place:rome", source="agent", confidence=0.2)))
    review = pending_review(db, owner)
    from graph.platform import metrics

    assert metrics._queue[owner] == 3  # the review queue depth gauge counts this owner's pending facts
    kinds = sorted(i.kind for i in review.items)
    assert kinds == ["conflict", "merge_suggestion", "pending_fact", "pending_fact"], review.message
    [conflict] = [i for i in review.items if i.kind == "conflict"]
    assert "2019-05-01 instead of 2019-04-01" in conflict.question
    assert any("Ann's lives in: Rome?" in i.question for i in review.items)
    [merge] = [i for i in review.items if i.kind == "merge_suggestion"]
    assert set(merge.entity_refs) == {"pet:luna", "pet:lunah"}  # same kind only; Rex is not alike
    assert review.message.count("\n") == 4
    ok(commit(db, owner, p.AcceptProposal(fact_id=str(conflict.fact_id)),
              p.MergeEntities(entity=merge.yes.args["entity"], into=merge.yes.args["into"])))
    assert sorted(i.kind for i in pending_review(db, owner).items) == ["pending_fact", "pending_fact"]


def test_correction_notices_for_replaced_values_only(db: Database, owner: str) -> None:
    start = datetime.now(UTC) - timedelta(seconds=1)
    chat = "chat-1"
    ok(commit(db, owner, entity("pet:luna", "Luna"), fact("pet:luna", "birthday", "2019-04-01"),
              chat_id=chat))  # a new learning: silent
    ok(commit(db, owner, fact("pet:luna", "feeding_time", "07:00"), chat_id=chat))  # a set: silent
    ok(commit(db, owner, fact("pet:luna", "birthday", "2019-04-01"), chat_id=chat))  # the same again: silent
    assert correction_notices(db, owner, chat, start) == []
    ok(commit(db, owner, fact("pet:luna", "birthday", "2019-05-01", valid_from=T1), chat_id=chat))
    ok(commit(db, owner, fact("pet:luna", "birthday", "2019-06-01", valid_from=T0), chat_id="other"))
    [notice] = correction_notices(db, owner, chat, start)
    assert notice.text == "Luna's birthday: you said 2019-04-01 before, now 2019-05-01 — updating."
    assert (notice.previous, notice.current, notice.subject_ref) == ("2019-04-01", "2019-05-01", "pet:luna")
    assert correction_notices(db, owner, chat, notice.recorded_at) == []
    # the late 2019-06-01 ends where the known 2019-05-01 starts: one piece replaced, and the cut told
    replaced, cut = correction_notices(db, owner, "other", start)
    assert (replaced.kind, replaced.previous, replaced.current) == ("replaced", "2019-04-01", "2019-06-01")
    assert (cut.kind, cut.previous, cut.current) == ("cut_short", "2019-05-01", "2019-06-01")
    assert cut.text.startswith("Luna's birthday: you said 2019-06-01 from ") and cut.text.endswith(
        "I already knew 2019-05-01 from " + phrases.day("en", T1) + ", so 2019-06-01 ends there.")


def test_merges_are_not_corrections(db: Database, owner: str) -> None:
    start = datetime.now(UTC) - timedelta(seconds=1)
    ok(commit(db, owner, entity("pet:luna", "Luna"), entity("pet:lu", "Lu"), entity("person:ann", "Ann"),
              entity("place:home", "Home"), rel("pet:lu", "lives_in", "place:home"),
              p.AssertRelationship(subject="person:ann", predicate="part_of", object="pet:lu", valid_from=T0,
                                   evidence=None), chat_id="c"))
    ok(commit(db, owner, p.MergeEntities(entity="pet:lu", into="pet:luna"), chat_id="c"))
    ok(commit(db, owner, p.SplitEntity(entity="pet:lu"), chat_id="c"))
    assert correction_notices(db, owner, "c", start) == []
    ok(commit(db, owner, fact("pet:luna", "birthday", "2019-04-01", source="agent", confidence=0.3), chat_id="c"))
    assert pending_ids(db, owner, "pet:luna", "birthday")


def _merge_pairs(db: Database, owner: str) -> list[set[str]]:
    return [set(i.entity_refs) for i in pending_review(db, owner).items if i.kind == "merge_suggestion"]


def test_a_dismissed_merge_suggestion_is_not_suggested_again(db: Database, owner: str,
                                                             admin_conn: psycopg.Connection) -> None:
    other = f"{owner}-b"
    for who in (owner, other):
        ok(commit(db, who, entity("pet:luna", "Luna"), entity("pet:lunah", "Lunah"), entity("pet:lunar", "Lunar")))
    assert {"pet:luna", "pet:lunah"} in _merge_pairs(db, owner)
    [merge] = [i for i in pending_review(db, owner).items if set(i.entity_refs) == {"pet:luna", "pet:lunah"}]
    assert merge.no is not None and merge.no.mutation == "dismissMergeSuggestion"
    # The answer "no", in the other order than suggested: the pair is two things, in both orders.
    first = ok(commit(db, owner, p.DismissMergeSuggestion(entity=merge.no.args["other"],
                                                          other=merge.no.args["entity"], reason="two cats"),
                      run_id="dismiss-1"))
    assert first.committed == 1
    pairs = _merge_pairs(db, owner)
    assert {"pet:luna", "pet:lunah"} not in pairs and pairs, pairs  # other pairs are still suggested
    assert {"pet:luna", "pet:lunah"} in _merge_pairs(db, other)  # another owner's review is unaffected
    # Idempotent on the run id; a second dismissal (another run) is a no-op apart from its audit event.
    again = commit(db, owner, p.DismissMergeSuggestion(entity=merge.no.args["other"],
                                                       other=merge.no.args["entity"], reason="two cats"),
                   run_id="dismiss-1")
    assert again.replayed and again.committed == 1
    ok(commit(db, owner, p.DismissMergeSuggestion(entity="pet:lunah", other="pet:luna")))
    rows = admin_conn.execute("SELECT owner_sub, reason FROM merge_dismissals WHERE owner_sub IN (%s, %s)",
                              (owner, other)).fetchall()
    assert rows == [(owner, "two cats")]
    audit = admin_conn.execute("SELECT payload->>'action', payload->>'reason' FROM world_events WHERE "
                               "owner_sub = %s AND event_type = 'governance' ORDER BY recorded_at",
                               (owner,)).fetchall()
    assert audit == [("dismiss_merge", "two cats"), ("dismiss_merge", None)]
    # Only the owner answers; both entities must exist and be two.
    for op, code in ((p.DismissMergeSuggestion(entity="pet:luna", other="pet:lunar", source="agent"), "FORBIDDEN"),
                     (p.DismissMergeSuggestion(entity="pet:luna", other="pet:nope"), "UNKNOWN_ENTITY"),
                     (p.DismissMergeSuggestion(entity="pet:luna", other="pet:luna"), "SAME_ENTITY")):
        assert [r.code for r in commit(db, owner, op).rejected] == [code]
    assert _merge_pairs(db, other) != [] and {"pet:luna", "pet:lunah"} in _merge_pairs(db, other)


# --- over GraphQL -------------------------------------------------------------------------------------

REVIEW = """{ pendingReview { message items { number kind question factId conflictingFactId
  yes { mutation args call } no { mutation call } entities { ref name facts { predicate value } } } } }"""
RESULT = "{ ok runId commit { committed rejected { code } replayed } merges { id merged into splitAt } }"


def test_governance_over_graphql(client: TestClient, make_token: MakeToken, db: Database,  # noqa: F811
                                 owner: str) -> None:
    token = make_token()
    ok(commit(db, owner, entity("pet:luna", "Luna"), entity("pet:lunah", "Lunah"),
              fact("pet:luna", "birthday", "2019-04-01"),
              fact("pet:luna", "birthday", "2019-05-01", source="agent", confidence=0.2),
              fact("pet:lunah", "feeding_time", "07:00", source="agent", confidence=0.2), chat_id="c"))
    body = gql(client, token, REVIEW)
    assert "errors" not in body, body
    review = body["data"]["pendingReview"]
    assert [i["kind"] for i in review["items"]] == ["CONFLICT", "PENDING_FACT", "MERGE_SUGGESTION"]
    assert review["message"].count("\n") == 3 and "1. Luna's birthday: 2019-05-01 instead of" in review["message"]
    conflict, pending, merge = review["items"]
    assert conflict["entities"] == [{"ref": "pet:luna", "name": "Luna",
                                     "facts": [{"predicate": "birthday", "value": "2019-04-01"}]}]
    assert merge["yes"]["call"] in review["message"] and merge["no"]["call"] in review["message"]
    assert merge["no"]["mutation"] == "dismissMergeSuggestion"

    accept = f'mutation {{ acceptProposal(id: "{conflict["factId"]}", runId: "acc-1") {RESULT} }}'
    assert gql(client, token, accept)["data"]["acceptProposal"]["ok"]
    assert gql(client, token, accept)["data"]["acceptProposal"]["commit"]["replayed"]
    again = gql(client, token, accept.replace("acc-1", "acc-2"))
    assert codes(again) == ["NOT_PENDING"] and again["data"]["acceptProposal"]["ok"] is False
    reject = f'mutation {{ rejectProposal(id: "{pending["factId"]}", reason: "no") {RESULT} }}'
    assert gql(client, token, reject)["data"]["rejectProposal"]["commit"]["committed"] == 1
    merged = gql(client, token, f'mutation {{ mergeEntities(entity: "pet:lunah", into: "pet:luna") {RESULT} }}')
    [made] = merged["data"]["mergeEntities"]["merges"]
    assert (made["merged"], made["into"], made["splitAt"]) == ("pet:lunah", "pet:luna", None)
    split = gql(client, token, f'mutation {{ splitEntity(mergeId: "{made["id"]}") {RESULT} }}')
    assert split["data"]["splitEntity"]["merges"][0]["splitAt"] is not None
    # A pair the owner split is two things: it is not suggested again.
    assert gql(client, token, REVIEW)["data"]["pendingReview"]["items"] == []

    history = gql(client, token, '{ factHistory(ref: "pet:luna", predicate: "birthday") { id status } }')
    active = [f["id"] for f in history["data"]["factHistory"] if f["status"] == "active"]
    invalid = gql(client, token, f'mutation {{ invalidateFact(id: "{active[0]}", reason: "typo") {RESULT} }}')
    assert invalid["data"]["invalidateFact"]["ok"]
    notices = gql(client, token, '{ correctionNotices(chatId: "c", since: "2000-01-01T00:00:00Z") { text } }')
    assert notices == {"data": {"correctionNotices": []}}
    for bad, code in (('acceptProposal(id: "nope")', "INVALID_OPERATION"),
                      ('splitEntity(entity: "pet:luna")', "NOT_MERGED"),
                      ('mergeEntities(entity: "pet:luna", into: "pet:luna", runId: "")', "INVALID_OPERATION")):
        assert codes(gql(client, token, f"mutation {{ {bad} {{ ok }} }}")) == [code], bad
    assert codes(gql(client, token, "{ pendingReview(limit: 0) { message } }")) == ["BAD_LIMIT"]


def test_query_limits_are_typed(client: TestClient, make_token: MakeToken) -> None:  # noqa: F811
    token = make_token()
    fields = "items { entities { facts { predicate value validFrom validTo source confidence status } } }"
    many = " ".join(f"r{i}: pendingReview(limit: 100) {{ {fields} }}" for i in range(10))
    assert codes(gql(client, token, f"{{ {many} }}")) == ["QUERY_TOO_COMPLEX"]
    assert "errors" not in gql(client, token, "{ relationTypes { key } }")
    one = f"{{ pendingReview(limit: 100) {{ {fields} }} }}"  # about 10 x 10 x 10 x 7: allowed
    assert "errors" not in gql(client, token, one)
    nested = "fragment F on ReviewItem { entities { facts { predicate } } } " \
             "{ pendingReview { items { ...F } } }"
    assert "errors" not in gql(client, token, nested)
    introspection = "{ __schema { types { fields { type { ofType { ofType { ofType { ofType { ofType " \
                    "{ ofType { ofType { name } } } } } } } } } } } }"
    assert "errors" not in gql(client, token, introspection)


def test_depth_limit_is_typed(settings: Any, db: Database) -> None:
    shallow = build_schema(max_depth=1)
    ctx = Context(db, settings, Principal("someone", "owner"))
    # within the depth it runs (on a loop: relationTypes' resolver is asynchronous, which execute_sync refuses)
    shallow_enough = asyncio.run(shallow.execute("{ relationTypes { key } }", context_value=ctx))
    assert shallow_enough.errors is None and shallow_enough.data and shallow_enough.data["relationTypes"]
    result = shallow.execute_sync("{ pendingReview { items { yes { call } } } }", context_value=ctx)
    assert result.errors and result.errors[0].extensions == {"code": "QUERY_TOO_DEEP", "callerMustFix": True}


def test_dismiss_merge_suggestion_over_graphql(client: TestClient, make_token: MakeToken, db: Database,  # noqa: F811
                                               owner: str) -> None:
    token = make_token()
    ok(commit(db, owner, entity("pet:luna", "Luna")))
    ok(commit(db, owner, entity("pet:lunah", "Lunah")))  # the newer one is suggested to merge away
    [merge] = gql(client, token, REVIEW)["data"]["pendingReview"]["items"]
    assert merge["no"]["call"] == "dismissMergeSuggestion(pet:lunah, pet:luna)"
    dismiss = ('mutation { dismissMergeSuggestion(entity: "pet:lunah", other: "pet:luna", reason: "two cats", '
               f'runId: "dis-1") {RESULT} }}')
    first = gql(client, token, dismiss)["data"]["dismissMergeSuggestion"]
    assert first["ok"] and first["runId"] == "dis-1" and first["commit"]["committed"] == 1
    assert gql(client, token, dismiss)["data"]["dismissMergeSuggestion"]["commit"]["replayed"]
    assert gql(client, token, REVIEW)["data"]["pendingReview"]["items"] == []
    refused = gql(client, token, 'mutation { dismissMergeSuggestion(entity: "pet:luna", other: "pet:x") { ok } }')
    assert codes(refused) == ["UNKNOWN_ENTITY"] and refused["data"]["dismissMergeSuggestion"]["ok"] is False
