"""Writes outside the API leave the world searchable without a sweep: every commit tells the finder's nudger
of its Database (graph/ledger/commit_listeners.py), so the curator's and governance's commits are projected and
embedded right after them."""

from __future__ import annotations

import asyncio

from curator.pipeline import Curator
from graph.agent import search
from graph.finder.embedders import embedder_for
from graph.finder.nudger import Nudger
from graph.ledger import commit_listeners
from graph.ledger.committer import commit_proposal
from graph.ledger.proposal import AcceptProposal, MemoryMutationProposal, MergeEntities, UpsertEntity
from graph.ledger.tokens import Principal
from graph.platform.db import Database
from graph.settings import Settings
from tests.curator_llm import Script, entity, ops, rel, turn

OFFLINE = embedder_for(Settings(embedding_provider="offline"))
BRUNO = ops(entity("pet:bruno", "Bruno", aliases=["Bruno"], description="Hund, ein Dackel, geht gern spazieren"),
            rel("person:me", "cares_for", "pet:bruno", quote="Bruno ist mein Hund"))


def test_refs_of_names_every_entity_an_operation_touches_or_none_when_only_the_database_knows() -> None:
    proposal = MemoryMutationProposal(run_id="r1", operations=[
        UpsertEntity(ref="pet:a", kind="pet", canonical_name="A"),
        MergeEntities(entity="person:b", into="person:c")])
    assert commit_listeners.refs_of(proposal) == ["person:b", "person:c", "pet:a"]
    by_id = MemoryMutationProposal(run_id="r2", operations=[AcceptProposal(fact_id="0" * 36)])
    assert commit_listeners.refs_of(by_id) is None


def test_a_curated_commit_is_found_by_meaning_at_once_without_a_sweep(db: Database, settings: Settings,
                                                                       owner: str) -> None:
    assert OFFLINE is not None
    finder = Nudger(db, OFFLINE, 0)  # no sweep: only what commits tell it
    finder.start()
    try:
        turn(db, owner, "c1", "Bruno ist mein Hund, ein Dackel")
        [report] = asyncio.run(Curator(db, settings, Script([BRUNO]).model()).curate(owner, "c1"))
        assert report.status == "committed"
        assert Nudger.drain_all(30)
        found = search.search_world_memory(db, owner, "Dackel spazieren", embedder=OFFLINE)
    finally:
        finder.stop()
    assert found.mode == "hybrid" and found.waiting is None
    hit = next(h for h in found.hits if h.entity is not None and h.entity.ref == "pet:bruno")
    assert "meaning" in hit.found_by


def test_a_nudger_hears_only_its_own_databases_commits_and_nothing_after_it_stopped(db: Database,
                                                                                   owner: str) -> None:
    heard: list[tuple[str, list[str] | None]] = []
    other = Database(db.url, max_size=1)
    try:
        commit_listeners.listen(other, lambda o, refs: heard.append((o, refs)))
        me = Principal(owner=owner, kind="owner")
        commit_proposal(db, me, MemoryMutationProposal(run_id="x1", operations=[
            UpsertEntity(ref="pet:x", kind="pet", canonical_name="X")]))
        assert heard == []
        commit_proposal(other, me, MemoryMutationProposal(run_id="x2", operations=[
            UpsertEntity(ref="pet:y", kind="pet", canonical_name="Y")]))
        assert heard == [(owner, ["pet:y"])]
        commit_proposal(other, me, MemoryMutationProposal(run_id="x2", operations=[
            UpsertEntity(ref="pet:y", kind="pet", canonical_name="Y")]))  # a replay wrote nothing: no news
        assert heard == [(owner, ["pet:y"])]
    finally:
        other.close()
