"""Fitting a markdown block into a token budget (about four characters a token). Pure functions.

The block is a head and titled sections of lines (`Entry`). A line without a rank is never dropped;
ranked lines are kept best first (higher rank tuples win) for as long as they fit, so what is left out is
always the lowest-ranked. An empty section loses its title.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

CHARS_PER_TOKEN = 4


@dataclass(eq=False)
class Entry:
    text: str
    rank: tuple[Any, ...] | None = None  # None: never dropped
    item: Any = None  # what the line shows, so the caller can drop it from its data too
    keep: bool = True


Section = tuple[str, list[Entry]]


def assemble(head: str, sections: list[Section]) -> str:
    blocks = [head]
    for title, entries in sections:
        lines = [e.text for e in entries if e.keep]
        if lines:
            blocks.append(f"### {title}\n" + "\n".join(lines))
    return "\n\n".join(blocks)


def trim(head: str, sections: list[Section], budget_tokens: int) -> tuple[int, bool]:
    """Mark what to keep. Returns (lines dropped, whether the undroppable lines alone are over budget)."""
    limit = budget_tokens * CHARS_PER_TOKEN
    ranked = [(e, i) for i, (_, es) in enumerate(sections) for e in es if e.rank is not None]
    ranked.sort(key=lambda p: p[0].rank or (), reverse=True)
    for e, _ in ranked:
        e.keep = False
    shown = [any(e.keep for e in es) for _, es in sections]
    size = len(assemble(head, sections))
    over = size > limit
    for e, i in ranked:
        extra = len(e.text) + 1 + (0 if shown[i] else len(sections[i][0]) + 7)
        if size + extra > limit:
            break
        e.keep, shown[i], size = True, True, size + extra
    # The estimate above is exact for this layout; the loop guards against a layout change.
    kept = [e for e, _ in ranked if e.keep]
    while kept and len(assemble(head, sections)) > limit:
        kept.pop().keep = False
    return sum(1 for e, _ in ranked if not e.keep), over
