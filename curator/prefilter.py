"""The prefilter: a deterministic decision, before any LLM spend, whether a turn may hold anything durable.

TRIGGER on explicit memory acts (merk dir, remember, vergiss, korrigier...), consequential tool calls
(a write/send/create/set... verb in the tool's name), and, in statements, on change markers (ab jetzt,
immer, nie, eigentlich, from now on, always, never, actually), corrections (nicht ... sondern, nicht mehr,
not ... anymore), preferences and policies (ich bevorzuge, bitte immer, Regel:, I prefer, by default),
routines and times (jeden Montag, um 19 Uhr, every day, 7pm), tasks, commitments and decisions (ich muss,
deadline, wir haben uns entschieden, I promised), and people/things and how they relate (X ist meine ...,
heißt, gehört zu, works at, my sister...).

SKIP acknowledgements and small talk (danke, ok, passt, 👍, thx...), tool output (it is data, never an
instruction), read-only tool calls, pure questions and requests to the assistant (markers inside them
are not statements: "Ist es immer so ...?"), quoted speech ("er sagte: »ab jetzt ...«"), transient
remarks (gerade, right now) and very short turns without a marker.

The rules lean to recall: a skipped turn is lost to memory, a triggered one costs one curator call.
Pure functions, no I/O. Measured on tests/data/prefilter_* (tests/test_prefilter.py prints the table).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from curator import prefilter_rules as r

SHORT_WORDS = 3
ACK_LED_WORDS = 6
WORD = re.compile(r"[\w'’-]+", re.UNICODE)
SENTENCES = re.compile(r"[^.!?]+[.!?]*")
STATEMENT_RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("change", r.CHANGE), ("correction", r.CORRECTION), ("preference", r.PREFERENCE), ("routine", r.ROUTINE),
    ("task", r.TASK), ("entity", r.ENTITY),
)
# What an instruction to the assistant can still carry: "Schreib Mails an meinen Chef immer förmlich."
REQUEST_RULES = frozenset({"change", "preference"})


@dataclass(frozen=True)
class Decision:
    trigger: bool
    reasons: tuple[str, ...]


def decide(text: str, *, role: str = "user", tool_names: Sequence[str] = (), explicit: bool = False,
           known_names: Iterable[str] = ()) -> Decision:
    """TRIGGER or SKIP for one turn, with the reasons (each `category:what matched`). An explicit turn
    (rememberThis) triggers unless it holds nothing but an acknowledgement ("ok", "danke"): there is nothing
    to remember in it, and a model call would cost the owner for nothing."""
    small_talk = explicit and role == "user" and is_ack(unquoted(text))
    reasons = [*(["explicit"] if explicit and not small_talk else []), *tool_reasons(tool_names)]
    read_only = [f"skip:read_only_tools:{','.join(tool_names)}"] if tool_names else []
    if role in ("tool", "system"):
        return _decision(reasons, [f"skip:{role}_output"])
    if role != "user":  # the assistant's own words are not the owner's; its tool calls are judged above
        return _decision(reasons, [*read_only, "skip:assistant_text"])
    return _decision(reasons + text_reasons(text, known_names), read_only + skip_reasons(text))


def decide_turns(turns: Sequence[tuple[int, str, str, Sequence[str], bool]]) -> Decision:
    """A window of turns (seq, role, text, tool names, explicit): TRIGGER when any turn triggers."""
    triggered: list[str] = []
    skipped: list[str] = []
    for seq, role, text, tools, explicit in turns:
        one = decide(text, role=role, tool_names=tools, explicit=explicit)
        (triggered if one.trigger else skipped).extend(f"#{seq} {reason}" for reason in one.reasons)
    return Decision(True, tuple(triggered)) if triggered else Decision(False, tuple(skipped) or ("skip:empty",))


def tool_reasons(names: Sequence[str]) -> list[str]:
    """A call whose name holds a consequential verb is an action; an unknown verb counts as one too."""
    out: list[str] = []
    for name in names:
        low = name.lower()
        if r.CONSEQUENTIAL_TOOL.search(low):
            out.append(f"tool:{name}")
        elif not r.READ_ONLY_TOOL.search(low):
            out.append(f"tool_unknown:{name}")
    return out


def text_reasons(text: str, known_names: Iterable[str] = ()) -> list[str]:
    """Why the words of a user turn may matter; empty when they do not."""
    plain = unquoted(text)
    if is_ack(plain):
        return []
    memory = r.MEMORY.search(plain)
    if memory:
        return [] if r.MEMORY_NEGATED.search(plain) else [f"memory:{memory.group(0).strip()}"]
    kind = sentence_kind(plain)
    if kind not in ("statement", "request"):
        return []
    chatter = bool(r.SMALL_TALK.search(plain) or r.TRANSIENT.search(plain) or _ack_led(plain))
    found: list[str] = []
    for name, pattern in STATEMENT_RULES:
        if kind == "request" and name not in REQUEST_RULES:
            continue
        short = words(plain) <= SHORT_WORDS
        if (name == "entity" and (chatter or (short and not r.SELF.match(plain)))) or (
                name == "change" and (r.LAUGHTER.search(plain) or (short and chatter))):
            continue
        match = pattern.search(plain)
        if match:
            found.append(f"{name}:{match.group(0).strip()}")
    if kind == "statement":
        found.extend(f"entity:known:{n}" for n in known_names if n and _mentions(plain, n.lower()))
        if not found and not chatter and words(plain) > SHORT_WORDS:
            found.append("statement")  # an assertion matching no rule: the curator decides (recall first)
    return found


def skip_reasons(text: str) -> list[str]:
    """Why a turn without a trigger was skipped."""
    plain = unquoted(text)
    if not plain.strip():
        return ["skip:empty"]
    if is_ack(plain):
        return ["skip:ack"]
    if r.MEMORY.search(plain) and r.MEMORY_NEGATED.search(plain):
        return ["skip:negated_memory"]
    kind = sentence_kind(plain)
    if kind != "statement":
        return [f"skip:{kind}"]
    if r.SMALL_TALK.search(plain) or r.TRANSIENT.search(plain) or _ack_led(plain):
        return ["skip:small_talk"]
    return ["skip:short"]


def unquoted(text: str) -> str:
    """Lower-cased, with quoted speech blanked out: words inside quotes are not the speaker's statement."""
    return r.QUOTED.sub(" … ", text.replace("’", "'")).lower().strip()


def is_ack(plain: str) -> bool:
    """Only acknowledgement/small-talk words, emoji and punctuation."""
    return all(t in r.ACKS for t in WORD.findall(plain))


def _ack_led(plain: str) -> bool:
    """A short remark that opens with an acknowledgement: "Cool, das wusste ich nicht." """
    tokens = WORD.findall(plain)
    return bool(tokens) and tokens[0] in r.ACK_OPENERS and len(tokens) <= ACK_LED_WORDS


def sentence_kind(plain: str) -> str:
    """question | reported (speech) | request | statement, judged on the turn's longest sentence
    ("Hab ich schon erwähnt, dass heute Freitag ist? Endlich!" is a question)."""
    stripped = max(SENTENCES.findall(plain) or [plain], key=words).strip()
    if stripped.endswith("?") or r.UNCERTAIN.search(stripped):
        return "question"
    if r.REPORTED.search(stripped):
        return "reported"
    first = re.sub(r"^[^\w]+", "", stripped)
    if r.QUESTION_START.match(first) and not re.search(r"[.!:]", first):
        return "question"  # "wie spät ist es" without a question mark; a full stop makes it a statement
    if r.REQUEST_START.match(first):
        return "request"
    return "statement"


def words(plain: str) -> int:
    return len(WORD.findall(plain))


def _mentions(plain: str, name: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", plain) is not None


def _decision(triggers: list[str], skips: list[str]) -> Decision:
    return Decision(True, tuple(triggers)) if triggers else Decision(False, tuple(skips))
