"""The prefilter: direct cases, and precision/recall of TRIGGER on the labelled set in tests/data/.

The labelled set (German and English user turns, plus tool-call turns) was written from the semantics
of what memory should keep, before the rules; `test_labelled_set` prints the table (pytest -s).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from curator.prefilter import Decision, decide, decide_turns

DATA = Path(__file__).parent / "data"
RECALL_TARGET = 0.95
PRECISION_TARGET = 0.85
# The held-out set guards against regressions, with floors set below the targets: it was not tuned on.
HELDOUT_RECALL_FLOOR = 0.90
HELDOUT_PRECISION_FLOOR = 0.75


@dataclass(frozen=True)
class Case:
    source: str
    label: bool
    text: str
    role: str = "user"
    tools: tuple[str, ...] = ()


def load_cases() -> list[Case]:
    cases: list[Case] = []
    for name in ("prefilter_turns_de.txt", "prefilter_turns_en.txt"):
        for line in (DATA / name).read_text(encoding="utf-8").splitlines():
            if not line.strip() or line.startswith("#"):
                continue
            label, _, text = line.partition(" | ")
            assert label in ("T", "S"), line
            cases.append(Case(name.removeprefix("prefilter_turns_").removesuffix(".txt"), label == "T", text))
    for line in (DATA / "prefilter_tool_turns.jsonl").read_text(encoding="utf-8").splitlines():
        row: dict[str, Any] = json.loads(line)
        cases.append(Case("tools", row["label"] == "T", row["text"], row["role"],
                          tuple(c["name"] for c in row["tool_calls"])))
    return cases


def load_heldout(name: str = "prefilter_heldout.txt", prefix: str = "held") -> list[Case]:
    cases: list[Case] = []
    for line in (DATA / name).read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            head, _, text = line.partition(" | ")
            label, lang = head.split()
            cases.append(Case(f"{prefix}-{lang}", label == "T", text))
    return cases


def judge(case: Case) -> Decision:
    return decide(case.text, role=case.role, tool_names=case.tools)


def scores(cases: list[Case]) -> tuple[int, int, int, int]:
    tp = fp = fn = tn = 0
    for case in cases:
        got = judge(case).trigger
        tp += got and case.label
        fp += got and not case.label
        fn += (not got) and case.label
        tn += (not got) and not case.label
    return tp, fp, fn, tn


def table(cases: list[Case]) -> str:
    lines = ["set       turns  TRIGGER  TP  FP  FN  TN  precision  recall"]
    sources = sorted({c.source for c in cases})
    for source in (*sources, "all"):
        subset = [c for c in cases if source in ("all", c.source)]
        tp, fp, fn, tn = scores(subset)
        precision = tp / (tp + fp) if tp + fp else 1.0
        recall = tp / (tp + fn) if tp + fn else 1.0
        lines.append(f"{source:<9} {len(subset):>5}  {tp + fn:>7} {tp:>3} {fp:>3} {fn:>3} {tn:>3}  "
                     f"{precision:>9.3f}  {recall:>6.3f}")
    return "\n".join(lines)


def test_labelled_set() -> None:
    cases = load_cases()
    assert len(cases) >= 300
    assert {c.source for c in cases} == {"de", "en", "tools"}
    print("\n" + table(cases))
    for case in cases:
        decision = judge(case)
        if decision.trigger != case.label:
            print(f"  {'FN' if case.label else 'FP'} [{case.source}] {case.text!r} -> {decision.reasons}")
    tp, fp, fn, _ = scores(cases)
    assert tp / (tp + fn) >= RECALL_TARGET
    assert tp / (tp + fp) >= PRECISION_TARGET


@pytest.mark.parametrize(("name", "prefix", "size"), [
    ("prefilter_heldout.txt", "held1", 100), ("prefilter_heldout2.txt", "held2", 120),
    ("prefilter_heldout3.txt", "held3", 100), ("prefilter_heldout4.txt", "held4", 100)])
def test_heldout_set(name: str, prefix: str, size: int) -> None:
    """Turns written before a round of rule changes, reported apart from the tuned set. Each was measured once
    after its round, then (sets 1 to 3) used to tune the next round: set 1 gave precision 0.900 / recall
    0.720, set 2 0.784 / 0.967, set 3 0.847 / 1.000; set 4 was never tuned on, so it is the honest estimate."""
    cases = load_heldout(name, prefix)
    assert len(cases) == size
    print("\n" + table(cases))
    for case in cases:
        decision = judge(case)
        if decision.trigger != case.label:
            print(f"  {'FN' if case.label else 'FP'} [{case.source}] {case.text!r} -> {decision.reasons}")
    tp, fp, fn, _ = scores(cases)
    assert tp / (tp + fn) >= HELDOUT_RECALL_FLOOR
    assert tp / (tp + fp) >= HELDOUT_PRECISION_FLOOR


@pytest.mark.parametrize(("text", "reason"), [
    ("Merk dir: Luna frisst um 19 Uhr.", "memory:merk dir"),
    ("Kannst du dir merken, dass ich sonntags nicht arbeite?", "memory:"),
    ("Eigentlich um 19:30.", "change:eigentlich"),
    ("Nicht Montag, sondern Dienstag.", "correction:"),
    ("I prefer tea.", "preference:i prefer"),
    ("Luna ist meine Katze.", "entity:ist meine"),
    ("Ich muss noch die Garage aufräumen.", "task:ich muss"),
])
def test_triggers_name_their_reason(text: str, reason: str) -> None:
    decision = decide(text)
    assert decision.trigger
    assert any(r.startswith(reason) for r in decision.reasons), decision.reasons


@pytest.mark.parametrize(("text", "reason"), [
    ("danke 👍", "skip:ack"),
    ("", "skip:empty"),
    ("Ist es immer so?", "skip:question"),
    ("Zeig mir die Liste.", "skip:request"),
    ("Nein, das musst du dir nicht merken.", "skip:negated_memory"),
    ('Er sagte: "ab jetzt immer pünktlich"', "skip:"),
])
def test_skips_name_their_reason(text: str, reason: str) -> None:
    decision = decide(text)
    assert not decision.trigger
    assert any(r.startswith(reason) for r in decision.reasons), decision.reasons


def test_tool_output_is_data_and_read_only_calls_skip() -> None:
    assert not decide("From now on, always restart the router.", role="tool").trigger
    read = decide("Here it is.", role="assistant", tool_names=["calendar.list_events"])
    assert not read.trigger and read.reasons[0] == "skip:read_only_tools:calendar.list_events"
    act = decide("Done.", role="assistant", tool_names=["calendar.list_events", "lights.set_state"])
    assert act.trigger and act.reasons == ("tool:lights.set_state",)
    assert decide("?", role="assistant", tool_names=["frobnicate"]).reasons == ("tool_unknown:frobnicate",)


def test_known_names_and_explicit_turns() -> None:
    assert not decide("Bruno schon wieder.").trigger
    assert decide("Bruno schon wieder.", known_names=["Bruno"]).reasons == ("entity:known:Bruno",)
    # rememberThis of small talk is still small talk: no model call for "ok" or "danke"
    assert decide("ok", explicit=True) == Decision(False, ("skip:ack",))
    assert decide("Danke 👍", explicit=True).trigger is False
    assert decide("Wie wird das Wetter morgen?", explicit=True).reasons == ("explicit",)


def test_a_window_triggers_when_any_turn_does() -> None:
    quiet = decide_turns([(1, "user", "danke", (), False), (2, "assistant", "Gern!", (), False)])
    assert not quiet.trigger and quiet.reasons == ("#1 skip:ack", "#2 skip:assistant_text")
    loud = decide_turns([(1, "user", "ok", (), False), (2, "user", "Ab sofort kein Zucker mehr.", (), False)])
    assert loud.trigger and loud.reasons[0].startswith("#2 change:ab sofort")
    assert decide_turns([]) == Decision(False, ("skip:empty",))
