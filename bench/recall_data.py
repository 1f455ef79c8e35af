"""The labelled recall set (bench/data/recall/{dev,heldout}.jsonl): chats, facts and questions, German and English.

Each line is one record with a `type`:
- `turn`: chatId, externalId, role, speaker, occurredAt, text (one said turn, imported through importConversation)
- `fact`: subject (ref), kind, name, aliases, predicate, value, validFrom, validTo, evidence (the externalId of the
  turn that said it; committed through commitProposal)
- `question`: id, lang, kind (detail | passing | update | time | fact | negative), query, window (the time the
  question names: from, to, a point `at` inside it, `relative` when it names the time relative to the day asked),
  evidence (groups of alternatives: a group is found when any of its items is; a turn by externalId, a fact by
  subject, predicate and value), stale (items that answered once and no longer do).
A language is one owner: the English chats are Sam's, the German ones Lena's. The relative questions were written
on REFERENCE_NOW ("last March" is March 2026).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "data" / "recall"
SPLITS = ("dev", "heldout")
REFERENCE_NOW = datetime(2026, 12, 6, 12, tzinfo=UTC)


@dataclass(frozen=True)
class Turn:
    lang: str
    chat_id: str
    external_id: str
    role: str
    speaker: str
    occurred_at: str
    text: str


@dataclass(frozen=True)
class Fact:
    lang: str
    subject: str
    kind: str
    name: str
    aliases: tuple[str, ...]
    predicate: str
    value: str
    valid_from: str
    valid_to: str | None
    evidence: str


@dataclass(frozen=True)
class Window:
    start: str
    end: str
    at: str
    relative: bool


@dataclass(frozen=True)
class Question:
    id: str
    split: str
    lang: str
    kind: str
    query: str
    window: Window | None
    evidence: tuple[frozenset[str], ...]  # groups of item keys
    stale: frozenset[str] = field(default_factory=frozenset)


@dataclass
class RecallSet:
    turns: list[Turn] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)
    questions: list[Question] = field(default_factory=list)


def turn_key(external_id: str) -> str:
    return f"turn:{external_id}"


def fact_key(subject: str, predicate: str, value: Any) -> str:
    """One spelling per fact: a JSON string value as its text, anything else as compact JSON, case folded."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return f"fact:{subject}|{predicate}|{text.strip().casefold()}"


def _item(raw: dict[str, Any]) -> str:
    if "turn" in raw:
        return turn_key(raw["turn"])
    f = raw["fact"]
    return fact_key(f["subject"], f["predicate"], f["value"])


def parse(lines: list[str]) -> RecallSet:
    out = RecallSet()
    for line in lines:
        if not line.strip():
            continue
        r = json.loads(line)
        if r["type"] == "turn":
            out.turns.append(Turn(r["lang"], r["chatId"], r["externalId"], r["role"], r["speaker"],
                                  r["occurredAt"], r["text"]))
        elif r["type"] == "fact":
            out.facts.append(Fact(r["lang"], r["subject"], r["kind"], r["name"], tuple(r["aliases"]), r["predicate"],
                                  r["value"], r["validFrom"], r["validTo"], r["evidence"]))
        else:
            w = r["window"]
            window = Window(w["from"], w["to"], w["at"], w["relative"]) if w else None
            out.questions.append(Question(
                r["id"], r["split"], r["lang"], r["kind"], r["query"], window,
                tuple(frozenset(_item(i) for i in group) for group in r["evidence"]),
                frozenset(_item(i) for i in r["stale"])))
    return out


def load(splits: tuple[str, ...] = SPLITS, data: Path = DATA) -> RecallSet:
    merged = RecallSet()
    for split in splits:
        part = parse((data / f"{split}.jsonl").read_text(encoding="utf-8").splitlines())
        merged.turns += part.turns
        merged.facts += part.facts
        merged.questions += part.questions
    return merged
