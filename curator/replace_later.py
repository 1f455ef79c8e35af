"""When the curator may say that a value replaces everything after it (`replace_later`).

Without `valid_to` a value holds until the next change already known (graph.ledger.timeline). Replacing
what is known to follow takes the user's own present-tense words that say so: "ab jetzt immer 19:30",
"from now on always 7". "From today I work at Gamma" alone does not: a known "from January at Beta" stays.
The check reads the batch's user turns as the prompt shows them, never what the model claims.
"""

from __future__ import annotations

import re

# "[seq · user ...] text": a user turn's line in the curator's prompt (curator.context.CuratorContext.render)
USER_LINE = re.compile(r"^\[\d+ · user(?: \(summary\))?[^\]]*\] (?P<text>.*)$", re.MULTILINE)
FROM_NOW_ON = re.compile(
    r"\b(from now on|from here on|going forward|henceforth|ab jetzt|ab sofort|von nun an|von jetzt an|"
    r"(?:zu)?künftig|fortan)\b", re.IGNORECASE)
FROM_TODAY = re.compile(r"\b(from today|starting today|ab heute|seit heute)\b", re.IGNORECASE)
ALWAYS = re.compile(r"\b(always|every time|immer|jedes mal)\b", re.IGNORECASE)


def says_replace_later(text: str) -> bool:
    """A present-tense correction that clearly replaces what follows (German or English)."""
    return bool(FROM_NOW_ON.search(text) or (FROM_TODAY.search(text) and ALWAYS.search(text)))


def user_said_it(prompt: str) -> bool:
    """Whether a user turn of the batch (summaries excluded: their words are not the user's) says so."""
    return any(says_replace_later(m.group("text")) for m in USER_LINE.finditer(prompt)
               if "(summary)" not in m.group(0).split("]", 1)[0])
