"""What the owner is asked, and told: the bundled review message and correction notices.

`pending_review` gathers pending facts (a conflict when they contradict an active functional value),
open commitments that are overdue or blocked by an open one (graph/domains/commitments.py) and merge
suggestions (contacts that may be one, graph/domains/contacts.py; alike names of one kind) into ONE
chat-ready message, each numbered item mapped to the
mutation its answer triggers (a "no" to a merge suggestion dismisses the pair for good; a pair that was
dismissed, or merged and split again, is not suggested again). `correction_notices` tells a chat that a
value it knew was replaced ("you said X before, now Y — updating"); a new learning with no prior value
stays silent.
Rendering is pure (`render_review`, `notice_text`, `show`); the rows it reads are graph/governance/review_rows.py.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any, Literal
from uuid import UUID

from pydantic import BaseModel, Field

from graph.domains import commitments, contacts
from graph.domains.commitments import Attention
from graph.governance import phrases
from graph.governance import review_rows as rows
from graph.governance.phrases import Lang, say
from graph.governance.review_rows import CorrectionRow, MergeCandidate, PendingRow
from graph.ledger.cut_short import CutShort
from graph.ledger.cut_short import text as cut_text
from graph.platform import metrics
from graph.platform.db import Database
from graph.reads.temporal import EntityStateView, FactView

ItemKind = Literal["pending_fact", "conflict", "overdue", "blocked", "merge_suggestion"]
MERGE_SIMILARITY = (0.4, 0.8)  # below: different things; above: the curator links them by itself
RECENT_ENTITIES = 200  # merge suggestions compare only the entities touched most recently
SKIP_KINDS = ["chat"]  # chats are alike by construction ("Chat 2024-05-01"), never duplicates
MAX_SHOWN = 120  # longest rendering of one value in a message


class Action(BaseModel):
    mutation: str = Field(description="The GraphQL mutation an answer maps to")
    args: dict[str, Any]

    def call(self) -> str:
        return f"{self.mutation}({', '.join(str(v) for v in self.args.values())})"


class ReviewItem(BaseModel):
    number: int
    kind: ItemKind
    question: str
    yes: Action
    no: Action | None = None
    fact_id: UUID | None = None
    conflicting_fact_id: UUID | None = None
    entity_refs: list[str] = Field(default_factory=list)


class Review(BaseModel):
    items: list[ReviewItem]
    message: str


class Notice(BaseModel):
    fact_id: UUID | None = Field(description="The new belief (None for a cut: the proposal's result names it)")
    previous_fact_id: UUID = Field(description="The belief replaced, or for a cut the later one that stays")
    kind: Literal["replaced", "cut_short"] = "replaced"
    subject_ref: str
    predicate: str
    previous: Any
    current: Any
    recorded_at: datetime
    text: str


def show(kind: str, value: Any, object_name: str | None) -> str:
    """A value as the owner reads it: the entity's name, a bare string, or compact JSON."""
    if kind == "entity":
        text = object_name or "?"
    elif isinstance(value, str):
        text = value
    else:
        text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 1] + "…"


def pending_item(number: int, row: PendingRow, lang: Lang = "en") -> ReviewItem:
    fact_id = str(row.id)
    value = show(row.object_kind, row.object_value, row.object_name)
    about = phrases.about(lang, row.subject_name, row.predicate_name, row.scope_ref)
    heard = f"{row.source}, {say(lang, 'sure', percent=round(row.confidence * 100))}"
    yes, no = Action(mutation="acceptProposal", args={"id": fact_id}), Action(
        mutation="rejectProposal", args={"id": fact_id})
    if row.conflict_id is None:
        return ReviewItem(number=number, kind="pending_fact",
                          question=say(lang, "pending", about=about, value=value, heard=heard),
                          yes=yes, no=no, fact_id=row.id, entity_refs=[row.subject_ref])
    assert row.conflict_kind is not None, "a conflicting row has a kind"
    current = show(row.conflict_kind, row.conflict_value, row.conflict_object_name)
    return ReviewItem(number=number, kind="conflict", yes=yes, no=no, fact_id=row.id,
                      question=say(lang, "conflict", about=about, value=value, current=current, heard=heard),
                      conflicting_fact_id=row.conflict_id, entity_refs=[row.subject_ref])


def attention_item(number: int, a: Attention, lang: Lang = "en") -> ReviewItem:
    """An overdue commitment (yes: it is done) or an open blocker of one (yes: the blocker is done)."""
    c = a.commitment
    if a.blocker is None:
        due = c.due_value if isinstance(c.due_value, str) else show("literal", c.due_value, None)
        question = say(lang, "overdue", name=c.name, ref=c.ref, due=due, status=phrases.status_word(lang, c.status))
        return ReviewItem(number=number, kind="overdue", question=question, entity_refs=[c.ref],
                          yes=Action(mutation="setCommitmentStatus", args={"ref": c.ref, "status": "done"}))
    b = a.blocker
    question = say(lang, "blocked", name=c.name, ref=c.ref, blocker=b.name, blocker_ref=b.ref,
                   status=phrases.status_word(lang, b.status))
    return ReviewItem(number=number, kind="blocked", question=question, entity_refs=[c.ref, b.ref],
                      yes=Action(mutation="setCommitmentStatus", args={"ref": b.ref, "status": "done"}))


def merge_item(number: int, row: MergeCandidate, lang: Lang = "en") -> ReviewItem:
    """The newer entity is suggested to merge into the older, established one."""
    if row.a_created >= row.b_created:
        gone, gone_name, into, into_name = row.a_ref, row.a_name, row.b_ref, row.b_name
    else:
        gone, gone_name, into, into_name = row.b_ref, row.b_name, row.a_ref, row.a_name
    question = say(lang, "merge", a=gone_name, a_ref=gone, b=into_name, b_ref=into, kind=row.kind)
    return ReviewItem(number=number, kind="merge_suggestion", question=question, entity_refs=[gone, into],
                      yes=Action(mutation="mergeEntities", args={"entity": gone, "into": into}),
                      no=Action(mutation="dismissMergeSuggestion", args={"entity": gone, "other": into}))


def render_review(items: list[ReviewItem], lang: Lang = "en") -> str:
    """One message for the chat, in the owner's language; each answer names the number it answers."""
    if not items:
        return say(lang, "nothing")
    count = say(lang, "one") if len(items) == 1 else say(lang, "many", n=len(items))
    lines = [say(lang, "intro", count=count)]
    for item in items:
        answers = say(lang, "answers", yes=item.yes.call()) + (
            say(lang, "answers_no", no=item.no.call()) if item.no else "")
        lines.append(f"{item.number}. {item.question}  [{answers}]")
    return "\n".join(lines)


def build_review(pending: list[PendingRow], candidates: list[MergeCandidate], limit: int,
                 lang: Lang = "en", attention: list[Attention] | None = None) -> Review:
    """Items numbered from 1: pending facts and conflicts first (oldest first), then overdue and blocked
    commitments, then merge suggestions."""
    items = [pending_item(i + 1, row, lang) for i, row in enumerate(pending[:limit])]
    for a in (attention or [])[: max(0, limit - len(items))]:
        items.append(attention_item(len(items) + 1, a, lang))
    seen: set[frozenset[UUID]] = set()
    for row in candidates:
        if len(items) >= limit:
            break
        if row.pair not in seen:
            seen.add(row.pair)
            items.append(merge_item(len(items) + 1, row, lang))
    return Review(items=items, message=render_review(items, lang))


def pending_review(db: Database, owner: str, limit: int = 20) -> Review:
    with db.owner_tx(owner, read_only=True) as conn:
        pending = rows.pending(conn, limit)
        candidates = rows.merge_candidates(conn, {
            "skip_kinds": SKIP_KINDS, "recent": RECENT_ENTITIES, "low": MERGE_SIMILARITY[0],
            "high": MERGE_SIMILARITY[1], "limit": 2 * limit})
        contact_pairs = contacts.suggestion_rows(conn, 2 * limit)  # strong and same-name signals first
        attention = commitments.attention(conn, datetime.now(UTC))
        lang = phrases.owner_language(conn)
    metrics.set_review_queue_depth(owner, len(pending))  # as far as it was counted (up to `limit`)
    return build_review(pending, contact_pairs + candidates, limit, lang, attention)


def notice_text(row: CorrectionRow, lang: Lang = "en") -> str:
    previous = show(row.previous_kind, row.previous_value, row.previous_object_name)
    current = show(row.object_kind, row.object_value, row.object_name)
    about = phrases.about(lang, row.subject_name, row.predicate_name, None)
    key = "notice_user" if row.previous_source == "user" else "notice_other"
    return say(lang, key, about=about, previous=previous, current=current)


def _value(kind: str, value: Any, ref: str | None) -> Any:
    return ref if kind == "entity" else value


def correction_notices(db: Database, owner: str, chat_id: str, since: datetime, limit: int = 50) -> list[Notice]:
    with db.owner_tx(owner, read_only=True) as conn:
        corrections = rows.corrections(conn, chat_id, since, limit)
        lang = phrases.owner_language(conn)
        cuts = rows.cuts(conn, chat_id, since, limit)
    replaced = [Notice(fact_id=r.id, previous_fact_id=r.previous_id, subject_ref=r.subject_ref,
                       predicate=r.predicate, recorded_at=r.recorded_at, text=notice_text(r, lang),
                       previous=_value(r.previous_kind, r.previous_value, r.previous_object_ref),
                       current=_value(r.object_kind, r.object_value, r.object_ref)) for r in corrections]
    return sorted(replaced + [_cut_notice(r.recorded_at, r.item, lang) for r in cuts],
                  key=lambda n: n.recorded_at)[:limit]


def _cut_notice(recorded_at: datetime, item: dict[str, Any], lang: Lang) -> Notice:
    """A late assertion that ends where a belief already known starts: told as said (graph.ledger.cut_short)."""
    cut = CutShort.model_validate(item)
    return Notice(fact_id=None, previous_fact_id=UUID(cut.later_fact_id), kind="cut_short", subject_ref=cut.subject,
                  predicate=cut.predicate, previous=cut.later_value, current=cut.value, recorded_at=recorded_at,
                  text=cut_text(cut, lang))


def states_now(db: Database, owner: str, refs: list[str], valid_time: datetime) -> dict[str, EntityStateView]:
    """What is believed about each of `refs` at `valid_time`, in one statement (for a DataLoader)."""
    states: dict[str, EntityStateView] = {}
    with db.owner_tx(owner, read_only=True) as conn:
        found = rows.states(conn, refs, valid_time)
    for row in found:
        state = states.setdefault(row.entity_ref, EntityStateView(
            ref=row.entity_ref, kind=row.entity_kind, name=row.entity_name, facts=[]))
        if row.fact is not None:
            state.facts.append(FactView.from_row(row.fact))
    return states
