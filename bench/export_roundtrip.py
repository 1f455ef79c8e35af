"""Export an owner's memory and import it into an empty owner, then compare their answers.

On a scratch database of its own (created, migrated, dropped): a generated world of about `--facts` fact
rows (people with a description and a `knows` edge, a later second description superseding a share of the
first, events with causes) is committed for owner A through the committer, exported, imported for owner B,
and every entity's stateAt and stateAsKnownAt at sampled instants, its factHistory, its neighbours and
explainChange of sampled facts are compared between A and B (ids aside, which an import renews).

    python -m bench.export_roundtrip [--facts 50000] [--sample 300]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from datetime import UTC, datetime, timedelta
from typing import Any

from bench.fresh_data import people, ref, scratch
from curator.turns import TurnIn, record_turn
from graph.age.doctor import check
from graph.ledger.committer import commit_proposal
from graph.ledger.proposal import AddAlias, AssertFact, MemoryMutationProposal, MergeEntities, RecordEvent
from graph.ledger.tokens import owner_principal
from graph.platform.db import Database
from graph.reads.causality import explain_change
from graph.reads.temporal import fact_history, state_as_known_at, state_at
from graph.reads.traversal import NeighborQuery, neighbors
from graph.settings import get_settings
from graph.transfer.dump import export_lines
from graph.transfer.load import import_lines

UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def plain(value: Any) -> str:
    """An answer as JSON with every id replaced by a placeholder (an import gives rows new ids) and every
    list sorted (readers break ties between rows of equal times by id, which an import renews)."""
    if isinstance(value, list):
        dumped: Any = [v.model_dump(mode="json") if hasattr(v, "model_dump") else v for v in value]
    else:
        dumped = value.model_dump(mode="json") if hasattr(value, "model_dump") else value
    return json.dumps(_sorted(dumped), sort_keys=True, default=str)


def _sorted(value: Any) -> Any:
    if isinstance(value, str):
        return UUID.sub("<id>", value)
    if isinstance(value, dict):
        return {k: _sorted(v) for k, v in value.items()}
    if isinstance(value, list):
        return sorted((_sorted(v) for v in value), key=lambda v: json.dumps(v, sort_keys=True, default=str))
    return value


def answers(db: Database, owner: str, refs: list[str], instants: list[datetime],
            predicates: list[str]) -> list[str]:
    """Every compared answer of `owner`, in a fixed order."""
    out: list[str] = []
    for r in refs:
        for t in instants:
            out += [plain(state_at(db, owner, r, t)), plain(state_as_known_at(db, owner, r, t))]
        for p in predicates:
            history = fact_history(db, owner, r, p)
            out.append(plain(history))
            out += sorted(plain(explain_change(db, owner, fact_id=row.id)) for row in history)
        for t in instants[-2:]:
            out.append(plain(neighbors(db, owner, NeighborQuery(ref=r, depth=2, valid_time=t, system_time=t))))
    return out


def instants_of(lines: list[str]) -> list[datetime]:
    """Sampled instants: before everything, each distinct day of recorded or valid time seen, now."""
    seen: set[str] = set()
    for line in lines[1:-1]:
        record = json.loads(line)
        for key in ("recorded_at", "valid_from", "superseded_at"):
            if isinstance(record.get(key), str):
                seen.add(record[key][:10])
    days = sorted(seen)
    step = max(1, len(days) // 8)
    picked = [datetime.fromisoformat(d).replace(tzinfo=UTC) + timedelta(hours=12) for d in days[::step]]
    return [datetime(2000, 1, 1, tzinfo=UTC), *picked, datetime.now(UTC)]


def generate(db: Database, owner: str, facts: int) -> None:
    """About `facts` fact rows: 2 per person, a second description for one person in three (a new row and
    the superseded one); every 100 people an event chain with causes, a nickname alias and two chat turns;
    every 1,000 people a merge of a duplicate into its neighbour."""
    n = max(3, facts * 3 // 7)
    for proposal in people(n, f"gen-{owner}"):
        commit_proposal(db, owner_principal(owner), proposal)
    later = datetime(2025, 6, 1, tzinfo=UTC)
    ops: list[Any] = [AssertFact(subject=ref(i), predicate="description", value=f"moved on, {i}",
                                 valid_from=later + timedelta(days=i % 90)) for i in range(0, n, 3)]
    for k in range(0, len(ops), 480):
        commit_proposal(db, owner_principal(owner), MemoryMutationProposal(
            run_id=f"gen-{owner}-later-{k}", operations=ops[k:k + 480]))
    for i in range(0, n, 100):
        commit_proposal(db, owner_principal(owner), MemoryMutationProposal(run_id=f"gen-{owner}-ev-{i}", operations=[
            RecordEvent(event_type="state_change", target=ref(i), occurred_at=later, summary=f"seen {i}",
                        external_ref=f"ev-{i}"),
            RecordEvent(event_type="state_change", target=ref(i), occurred_at=later + timedelta(hours=1),
                        summary=f"seen again {i}", caused_by=f"ev-{i}"),
            AddAlias(ref=ref(i), alias=f"Spitzname {i}", valid_from=later)]))
        record_turn(db, owner, TurnIn(chat_id=f"chat-{i // 1000}", text=f"Übrigens: {ref(i)} ist umgezogen."))
        record_turn(db, owner, TurnIn(chat_id=f"chat-{i // 1000}", role="assistant", text="Notiert."))
    merges: list[Any] = [MergeEntities(entity=ref(i + 1), into=ref(i)) for i in range(500, n - 1, 1000)]
    if merges:
        commit_proposal(db, owner_principal(owner), MemoryMutationProposal(run_id=f"gen-{owner}-merge",
                                                                           operations=merges))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.export_roundtrip", description=__doc__.split("\n")[0])
    parser.add_argument("--facts", type=int, default=50_000, help="fact rows of the generated world (about)")
    parser.add_argument("--sample", type=int, default=300, help="entities whose answers are compared")
    args = parser.parse_args(argv)
    with scratch(get_settings()) as (admin, app):
        db = Database(app, max_size=2, statement_timeout_ms=600_000)
        try:
            started = time.perf_counter()
            generate(db, "gen-a", args.facts)
            print(f"[export_roundtrip] generated in {time.perf_counter() - started:.1f} s", flush=True)
            started = time.perf_counter()
            lines = export_lines(db, "gen-a")
            exported = time.perf_counter() - started
            started = time.perf_counter()
            counts = import_lines(db, "gen-b", lines)
            imported = time.perf_counter() - started
            size = sum(len(line) + 1 for line in lines)
            print(f"[export_roundtrip] export {exported:.1f} s ({size / 1e6:.1f} MB, {len(lines)} lines), "
                  f"import {imported:.1f} s; records: {json.dumps(counts)}")
            step = max(1, (args.facts * 3 // 7) // args.sample)
            refs = [ref(i) for i in range(0, args.facts * 3 // 7, step)][:args.sample]
            instants = instants_of(lines)
            a = answers(db, "gen-a", refs, instants, ["description", "knows"])
            b = answers(db, "gen-b", refs, instants, ["description", "knows"])
            same = sum(x == y for x, y in zip(a, b, strict=True))
            print(f"[export_roundtrip] answers compared: {len(a)}, identical: {same} ({len(refs)} entities, "
                  f"{len(instants)} instants)")
            report = check(admin)
            print(f"[export_roundtrip] doctor: {'graph == ledger' if report.ok else report.problems[:5]}")
            return 0 if same == len(a) and report.ok else 1
        finally:
            db.close()


if __name__ == "__main__":
    sys.exit(main())
