"""Late news cut short: what a commit says when an open assertion ends at a change already known.

The time planner (graph.ledger.timeline.until_next) decides the period; this module only tells the caller
and, through the stored commit result, the owner's correction notices (graph.governance.review), in the
owner's language.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import psycopg
from pydantic import BaseModel, Field

from graph.governance import phrases
from graph.ledger import entities
from graph.ledger.entity import Entity
from graph.ledger.fact_rows import Claim, FactRow
from graph.ledger.registries import RelationType
from graph.ledger.timeline import Interval


class CutShort(BaseModel):
    """An assertion without validTo that ends where a later believed period starts."""

    op_index: int
    subject: str = Field(description="The subject's ref")
    subject_name: str
    predicate: str
    predicate_name: str
    value: Any = Field(description="What was said: the literal, or the object's ref")
    shown: str = Field(description="`value` as the owner reads it")
    valid_from: datetime
    ends_at: datetime = Field(description="Where it now ends: the start of `later`")
    later_fact_id: str
    later_value: Any
    later_shown: str
    by_user: bool = Field(description="The owner said it (the notice says 'you said')")
    message: str = Field(description="The sentence for the owner, in their answer language (de/en)")


def shown(kind: str, value: Any, name: str | None) -> str:
    """A value as the owner reads it: the entity's name, a bare string, or compact JSON."""
    if kind == "entity":
        return name or "?"
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def text(item: CutShort, lang: phrases.Lang) -> str:
    about = phrases.about(lang, item.subject_name, item.predicate_name, None)
    return phrases.say(lang, "cut_short_user" if item.by_user else "cut_short_other", about=about,
                       value=item.shown, start=phrases.day(lang, item.valid_from), later=item.later_shown,
                       later_start=phrases.day(lang, item.ends_at))


@dataclass(frozen=True, slots=True)
class Said:
    """What an assertion named, as its handler resolved it, and whether the owner said it."""

    subject: Entity
    relation: RelationType
    object: Entity | None
    by_user: bool


def report(reader: psycopg.Connection[Any], op_index: int, claim: Claim, period: Interval, said: Said,
           later: FactRow) -> CutShort:
    """The report of `claim` (as the committer writes it) believed over `period` only, up to `later`, the
    believed row whose start ends it. `reader` reads the later object's name and the owner's language."""
    obj = said.object
    assert period.end is not None, "a cut period ends where the later belief starts"
    value = obj.ref if obj is not None else claim.object_value
    later_kind = later.object_kind
    entity_id = later.object_entity_id
    later_entity = entities.by_id(reader, entity_id) if later_kind == "entity" and entity_id is not None else None
    later_value = later_entity.ref if later_entity else (
        str(entity_id) if later_kind == "entity" else later.object_value)
    item = CutShort(
        op_index=op_index, subject=said.subject.ref, subject_name=said.subject.canonical_name,
        predicate=claim.predicate, predicate_name=said.relation.name, value=value,
        shown=shown(claim.object_kind, value, obj.canonical_name if obj is not None else None),
        valid_from=period.start, ends_at=period.end, later_fact_id=str(later.id), later_value=later_value,
        later_shown=shown(later_kind, later.object_value, later_entity.canonical_name if later_entity else None),
        by_user=said.by_user, message="")
    item.message = text(item, phrases.owner_language(reader))
    return item
