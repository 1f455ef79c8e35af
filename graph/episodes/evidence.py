"""Where did you get that? The episode a fact's evidence came from.

A fact names its turn when its evidence.ref is `episode:<turn id>` (a caller that knows it); a fact the
curator derived is traced through its run (the chat and the turns the run read) to the turn its evidence
text quotes: the turn holding the quoted words, else the one sharing most of them (at least half), the
user's words before the assistant's. `pick` is the pure rule.
"""

from __future__ import annotations

import re
from typing import Any
from uuid import UUID

from graph.episodes.model import Episode, from_row
from graph.platform.db import Database
from graph.sql import load

_WORD = re.compile(r"\w+")
REF_PREFIX = "episode:"


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def pick(evidence: dict[str, Any], turns: list[Episode]) -> Episode | None:
    """The turn the evidence came from (pure), or None when no turn fits."""
    ref = str(evidence.get("ref") or "")
    if ref.startswith(REF_PREFIX):
        named = [t for t in turns if t.id == ref.removeprefix(REF_PREFIX)]
        if named:
            return named[0]
    quoted = _words(str(evidence.get("text") or ""))
    if not quoted or not turns:
        return None
    phrase = " ".join(quoted)
    ordered = sorted(turns, key=lambda t: (t.role != "user", t.seq))
    for turn in ordered:
        if phrase in " ".join(_words(turn.text)):
            return turn
    wanted = set(quoted)
    best = max(ordered, key=lambda t: len(wanted & set(_words(t.text))))
    return best if 2 * len(wanted & set(_words(best.text))) >= len(wanted) else None


def evidence_episodes(db: Database, owner: str, fact_ids: list[UUID]) -> dict[UUID, Episode | None]:
    """The episode each of `owner`'s facts came from, if the store can tell (one statement for all)."""
    with db.owner_tx(owner, read_only=True) as conn:
        rows = conn.execute(load("episodes_evidence"), {"ids": fact_ids}).fetchall()
    by_fact: dict[UUID, list[dict[str, Any]]] = {}
    for r in rows:
        by_fact.setdefault(r["fact_id"], []).append(r)
    return {fid: pick(found[0]["evidence"] or {}, [from_row(r) for r in found]) if (found := by_fact.get(fid))
            else None for fid in fact_ids}
