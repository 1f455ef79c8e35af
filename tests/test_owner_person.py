"""Who the owner is, one rule (wm_owner_person, migrations/0085): person:me, else the one person with the believed
alias "me", else nobody. The context's owner, the owner's answer language and the AGENTS.md export's language
all follow it; before, a second person called "me" could set the owner's language while the context ignored it.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from graph.agent.world_context import ContextRequest, world_context
from graph.codemode import agents_md
from graph.demo import TYPES
from graph.governance.phrases import Lang, owner_language
from graph.ledger import proposal as p
from graph.ledger.committer import commit_proposal
from graph.ledger.registries import register_relation_types
from graph.ledger.tokens import owner_principal
from graph.platform.db import Database

V0 = datetime(2024, 1, 1, tzinfo=UTC)


def _commit(db: Database, owner: str, *ops: Any) -> None:
    register_relation_types(db, TYPES)  # answer_language, as the demo registers it
    proposal = p.MemoryMutationProposal(run_id=uuid.uuid4().hex, operations=list(ops))
    assert commit_proposal(db, owner_principal(owner), proposal).rejected == []


def _language(person: str, value: str) -> p.AssertFact:
    return p.AssertFact(subject=person, predicate="answer_language", value=value, valid_from=V0)


def _who(db: Database, owner: str) -> tuple[str | None, Lang, Lang]:
    """(the context's owner ref, the owner's answer language, the AGENTS.md export's language)."""
    context = world_context(db, owner, ContextRequest(message="Hallo"))
    at = datetime.now(UTC)
    with db.owner_tx(owner, read_only=True) as conn:
        return context.owner_ref, owner_language(conn, at), agents_md.language(conn, [], at)


def test_person_me_is_the_owner_even_when_another_person_is_called_me(db: Database, owner: str) -> None:
    _commit(db, owner, p.UpsertEntity(ref="person:me", kind="person", canonical_name="Jürgen"),
            _language("person:me", "de"))
    # recorded later: the language lookups used to take the latest answer_language of anyone called "me"
    _commit(db, owner, p.UpsertEntity(ref="person:guest", kind="person", canonical_name="Gast", aliases=["me"]),
            _language("person:guest", "en"))
    assert _who(db, owner) == ("person:me", "de", "de")


def test_without_person_me_the_one_person_called_me(db: Database, owner: str) -> None:
    _commit(db, owner, p.UpsertEntity(ref="person:basti", kind="person", canonical_name="Basti", aliases=["me"]),
            p.UpsertEntity(ref="pet:me-too", kind="pet", canonical_name="Mimi"),
            p.AddAlias(ref="pet:me-too", alias="me", namespace="chat:c1"),  # "me" in a chat, and not a person
            _language("person:basti", "Deutsch"))
    assert _who(db, owner) == ("person:basti", "de", "de")


def test_two_people_called_me_are_nobody(db: Database, owner: str) -> None:
    _commit(db, owner, p.UpsertEntity(ref="person:a", kind="person", canonical_name="A", aliases=["me"]),
            p.UpsertEntity(ref="person:b", kind="person", canonical_name="B"),
            p.AddAlias(ref="person:b", alias="me", namespace="chat:c1"),  # one alias per namespace: in a chat's
            _language("person:a", "de"), _language("person:b", "de"))
    assert _who(db, owner) == (None, "en", "en")  # never guessed: no owner, the default language


def test_an_alias_me_counts_only_while_it_is_believed_valid(db: Database, owner: str) -> None:
    later = datetime.now(UTC) + timedelta(days=30)
    _commit(db, owner, p.UpsertEntity(ref="person:future", kind="person", canonical_name="Zukunft"),
            p.AddAlias(ref="person:future", alias="me", valid_from=later), _language("person:future", "de"))
    assert _who(db, owner) == (None, "en", "en")


def test_another_owners_person_me_is_not_this_owners(db: Database, owner: str) -> None:
    _commit(db, owner, p.UpsertEntity(ref="person:me", kind="person", canonical_name="Owner"),
            _language("person:me", "de"))
    other = f"{owner}-other"
    _commit(db, other, p.UpsertEntity(ref="pet:luna", kind="pet", canonical_name="Luna"))
    assert _who(db, other) == (None, "en", "en")
    assert _who(db, owner) == ("person:me", "de", "de")
