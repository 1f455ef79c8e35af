"""worldContext(validTime:): the linked entities' facts as believed now about that time, not today's."""

from __future__ import annotations

from datetime import UTC, datetime

from fastapi.testclient import TestClient

from graph.ledger.committer import commit_proposal
from graph.ledger.proposal import AssertRelationship, MemoryMutationProposal, UpsertEntity
from graph.ledger.registries import register_relation_types
from graph.ledger.tokens import owner_principal
from graph.platform.db import Database
from tests.gql import MakeToken, client, gql, make_token  # noqa: F401

CONTEXT = """query($m: String!, $vt: DateTime) { worldContext(message: $m, validTime: $vt) { markdown } }"""


def test_world_context_answers_as_of_a_valid_time(db: Database, owner: str, client: TestClient,  # noqa: F811
                                                  make_token: MakeToken) -> None:  # noqa: F811
    register_relation_types(db, [{"key": "lead", "name": "lead", "cardinality": "functional",
                                  "object_kinds": ["person"]}])
    y2025, y2026 = datetime(2025, 1, 1, tzinfo=UTC), datetime(2026, 1, 1, tzinfo=UTC)
    result = commit_proposal(db, owner_principal(owner), MemoryMutationProposal(run_id="ctx", operations=[
        UpsertEntity(ref="project:aurora", kind="project", canonical_name="Aurora"),
        UpsertEntity(ref="person:mia", kind="person", canonical_name="Mia"),
        UpsertEntity(ref="person:tom", kind="person", canonical_name="Tom"),
        AssertRelationship(subject="project:aurora", predicate="lead", object="person:mia", valid_from=y2025,
                           valid_to=y2026),
        AssertRelationship(subject="project:aurora", predicate="lead", object="person:tom", valid_from=y2026)]))
    assert not result.rejected, result.rejected
    token = make_token(owner)
    then = gql(client, token, CONTEXT, {"m": "Wer leitet Aurora?", "vt": "2025-06-01T00:00:00Z"})
    now = gql(client, token, CONTEXT, {"m": "Wer leitet Aurora?"})
    then_md, now_md = then["data"]["worldContext"]["markdown"], now["data"]["worldContext"]["markdown"]
    assert "person:mia" in then_md and "person:tom" not in then_md, then_md
    assert "person:tom" in now_md and "person:mia" not in now_md, now_md
