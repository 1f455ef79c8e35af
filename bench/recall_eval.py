"""Recall that answers questions: the labelled German and English set through the API, scored per list and fused.

    python -m bench.recall_eval [--split dev|heldout|all] [--lists text,meaning,...] [--mode hybrid|text]
        [--misses] [--baseline-bm25] [--facts-only]

On a scratch database of its own (created with this checkout's migrations and dropped), one fresh owner per
language imports its chats through `importConversation`, registers the facts' predicates and commits the labelled
facts through `commitProposal`, the finder projects and embeds what is pending (the offline model), then every
question runs through `searchWorldMemory(query, limit: 10)`: a time-scoped question once with `validTime` (the
window it names) and once as asked (the server has to read the time from the words). Prints Markdown tables:
fused per language and kind of question, each list's share of the fused top 10 (from the hits' foundBy and
kind), and the time-scoped questions with and without validTime.

--facts-only imports no turns: only the questions a fact answers (and the negatives) run, so the API as it is
without importConversation can be measured on the same facts.

--baseline-bm25 needs no database: plain BM25 over each owner's turns (bench/bm25.py), the figure search has to
beat. A branch without importConversation stops with a message naming what is missing.
"""

from __future__ import annotations

import argparse
import sys
import time
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime

from bench.recall_api import Api, Capabilities, capabilities
from bench.recall_baseline import bm25_outcomes, variants
from bench.recall_data import SPLITS, Question, RecallSet, load
from bench.recall_scoring import DEPTH, Outcome, Ranked, groups, score, table, view
from graph.agent.when import find_window

BASE_LISTS = ("name", "fact", "text", "meaning", "kind:episode", "kind:fact")


def clock_shifted(q: Question, now: datetime) -> bool:
    """A relative question ("last March") names another window today than on the day it was written."""
    if q.window is None or not q.window.relative:
        return False
    w = find_window(q.query, now)
    return w is None or w.start.isoformat().replace("+00:00", "Z") != q.window.start


def report(title: str, outcomes: Sequence[Outcome]) -> str:
    return f"\n### {title}\n\n" + table(groups(outcomes))


def baseline(data: RecallSet, label: str) -> int:
    outcomes = bm25_outcomes(data)
    print(report(f"BM25 over the turns ({label}): {len(data.turns)} turns, {len(data.questions)} questions",
                 outcomes))
    print("\nBM25 ranks turns only: an answer that is only a fact cannot be found; a group with the turn that "
          "said it can.")
    rows = variants(data)
    print("\n### BM25 with turn context or the time read from the question (all questions)\n")
    print(table(rows, first="BM25"))
    print("\n### The same, time-scoped questions only\n")
    print(table([(name, [o for o in outs if o.question.window]) for name, outs in rows], first="BM25"))
    return 0


def facts_only(data: RecallSet) -> RecallSet:
    """The questions a fact answers (every evidence group holds a fact) and the negatives, with no turns to
    import: what today's search does with the facts alone."""
    questions = [q for q in data.questions if all(any(k.startswith("fact:") for k in g) for g in q.evidence)]
    return RecallSet(turns=[], facts=data.facts, questions=questions)


def load_owner(api: Api, data: RecallSet, lang: str, run: str, said: dict[str, str]) -> None:
    turns = [t for t in data.turns if t.lang == lang]
    for chat in dict.fromkeys(t.chat_id for t in turns):
        api.import_chat(chat, [t for t in turns if t.chat_id == chat])
    facts = [f for f in data.facts if f.lang == lang]
    api.register(sorted({f.predicate for f in facts}))
    api.commit_facts(f"recall-eval-{run}-{lang}", facts, said)


def live(data: RecallSet, caps: Capabilities, lists: Sequence[str], mode: str, misses: bool,
         said: dict[str, str]) -> int:
    from fastapi.testclient import TestClient

    from bench.fresh_data import scratch
    from graph.finder.embedders import embedder_for
    from graph.finder.reconciler import reconcile_owner
    from graph.ledger.tokens import create_token
    from graph.platform.db import Database
    from graph.settings import Settings, get_settings
    from resolvers.app import create_app

    settings = get_settings().model_copy(update={"finder_sweep_s": 0.0})
    model = embedder_for(Settings(embedding_provider="offline")) if mode == "HYBRID" else None
    run = uuid.uuid4().hex[:8]
    answers: list[tuple[Question, list[Ranked]]] = []
    as_asked: list[Outcome] = []
    now = datetime.now(UTC)
    with scratch(settings) as (admin, app_url), TestClient(create_app(settings, database_url=app_url)) as client:
        db = Database(app_url, max_size=2)
        try:
            for lang in sorted({q.lang for q in data.questions}):
                owner = f"recall-{lang}-{run}"
                api = Api(client, create_token(admin, owner, can_import=True, can_integrate=True), caps)
                started = time.perf_counter()
                load_owner(api, data, lang, run, said)
                reconcile_owner(db, owner, model)
                print(f"[recall] {owner}: imported and projected in {time.perf_counter() - started:.1f} s",
                      flush=True)
                for q in (q for q in data.questions if q.lang == lang):
                    hits = api.search(q, DEPTH, with_window=True, mode=mode)
                    answers.append((q, hits))
                    if q.window is not None and not clock_shifted(q, now):
                        as_asked.append(score(q, api.search(q, DEPTH, with_window=False, mode=mode)))
                    if misses and q.evidence and not any(score(q, hits).ranks):
                        print(f"  miss {q.id} {q.query!r}: top 3 "
                              f"{[(sorted(h.keys), sorted(h.lists)) for h in hits[:3]]}")
        finally:
            db.close()
    print_live(answers, as_asked, lists, f"searchWorldMemory, {mode.lower()}", caps)
    return 0


def print_live(answers: Sequence[tuple[Question, list[Ranked]]], as_asked: Sequence[Outcome], lists: Sequence[str],
               title: str, caps: Capabilities) -> None:
    """The fused table, each list's (the named ones, or every list the hits name), and the time-scoped rows."""
    fused = [score(q, hits) for q, hits in answers]
    print(report(f"{title}, fused (validTime given where the question names a time)", fused))
    seen = {name for _, hits in answers for h in hits for name in h.lists}
    names = list(lists) or sorted(seen | set(BASE_LISTS))
    print("\n### Each list's part of the fused top 10 (all questions)\n")
    print(table([(name, [score(q, view(hits, name)) for q, hits in answers]) for name in names], first="list"))
    ids = {o.question.id for o in as_asked}
    print("\n### Time-scoped questions: validTime given vs read from the question\n")
    print(table([("validTime given", [o for o in fused if o.question.id in ids]),
                 ("time read from the words", as_asked)], first="time"))
    if caps.valid_time is None:
        print("\nThis API has no searchWorldMemory(validTime:): both rows asked the same.")
    skipped = sum(1 for o in fused if o.question.window is not None) - len(ids)
    if skipped:
        print(f"\n{skipped} relative question(s) left out of the as-asked row: today names another window than "
              "the day they were written.")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.recall_eval", description=__doc__.split("\n")[0])
    parser.add_argument("--split", choices=[*SPLITS, "all"], default="dev")
    parser.add_argument("--lists", default="",
                        help="comma-separated lists (foundBy names, or kind:episode / kind:fact) to report on their "
                             "own; default: every list the hits name, and " + ", ".join(BASE_LISTS))
    parser.add_argument("--mode", choices=["hybrid", "text"], default="hybrid")
    parser.add_argument("--misses", action="store_true", help="print each question with no evidence in the top 10")
    parser.add_argument("--baseline-bm25", action="store_true", help="plain BM25 over the turns, no database")
    parser.add_argument("--facts-only", action="store_true",
                        help="no turns: the questions a fact answers, through the API as it is (runs without "
                             "importConversation)")
    args = parser.parse_args(argv)
    splits = SPLITS if args.split == "all" else (args.split,)
    data = load(splits)
    if args.baseline_bm25:
        return baseline(data, args.split)
    caps = capabilities()
    said = {t.external_id: t.text for t in data.turns}
    if args.facts_only:
        return live(facts_only(data), caps, [s for s in args.lists.split(",") if s], args.mode.upper(), args.misses,
                    said)
    if caps.missing():
        print(f"bench.recall_eval: this checkout's API lacks {', '.join(caps.missing())} (the recall API of "
              "importConversation and episode hits); nothing was run. `--baseline-bm25` runs without it.",
              file=sys.stderr)
        return 2
    return live(data, caps, [s for s in args.lists.split(",") if s], args.mode.upper(), args.misses, said)


if __name__ == "__main__":
    sys.exit(main())
