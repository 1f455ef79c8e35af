"""worldContext in one round trip: context_block.sql plus graph.agent.context_rows give exactly the rows of
context_entities, agent_facts_about and context_events for the entities linking chose (also when the
per-statement limits cut), and a chat turn's build sends one Sync to the server."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import psycopg
import pytest

from graph.agent import context_rows, linking
from graph.agent.world_context import MAX_POLICIES, ContextRequest, block_params, build
from graph.demo import load_demo
from graph.platform.db import Database
from graph.sql import load, trusted
from tests.libpq_trace import of_pool, sent

NOW = datetime.now(UTC).replace(second=0, microsecond=0)
MESSAGES = [
    ("Is Luna hungry? Ask Basti about repo:home-agent and the no food policy", "c1"),
    ("Luni and pet:luna, Lunas Futter", None),
    ("what happened in the kitchen chat", "c1"),
    ("nothing to see here", None),
]


@pytest.fixture
def demo(db: Database, owner: str) -> str:
    load_demo(db, owner, now=NOW)
    return owner


@pytest.fixture
def one(app_db_url: str) -> Iterator[Database]:
    database = Database(app_db_url, max_size=1)
    yield database
    database.close()


def _row(part: str, **values: Any) -> dict[str, Any]:
    return {"part": part, "n": 0, "for_id": None, **dict.fromkeys(context_rows.ENTITY_COLUMNS),
            **dict.fromkeys(context_rows.FACT_COLUMNS), **dict.fromkeys(context_rows.EVENT_COLUMNS), **values}


def test_facts_keep_the_chosen_subjects_in_order_and_cut_overall() -> None:
    a, b, c = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    rows = [_row("own", id=i, about_id=s) for i, s in enumerate([a, a, b, c, c])]
    rows += [_row("incoming", id=10 + i, about_id=s) for i, s in enumerate([a, b, b])]
    block = context_rows.split(rows)
    assert [r["id"] for r in context_rows.facts(block, [a, c], [b], 500)] == [0, 1, 3, 4, 11, 12]
    assert [r["id"] for r in context_rows.facts(block, [c, a], [a, b], 3)] == [0, 1, 3, 10, 11, 12]
    assert set(context_rows.facts(block, [a], [], 9)[0]) == set(context_rows.FACT_COLUMNS)


def test_events_keep_the_linked_and_the_general_picks_once_newest_first() -> None:
    a, b = uuid.uuid4(), uuid.uuid4()
    rows = [_row("event", id=1, for_id=a), _row("event", id=1, for_id=None), _row("event", id=2, for_id=b),
            _row("event", id=3, for_id=None), _row("event", id=4, for_id=a)]
    block = context_rows.split(rows)
    assert [r["id"] for r in context_rows.events(block, [a], 8)] == [1, 3, 4]
    assert [r["id"] for r in context_rows.events(block, [], 8)] == [1, 3]
    assert [r["id"] for r in context_rows.events(block, [a, b], 2)] == [1, 2]
    assert "for_id" not in context_rows.events(block, [a], 1)[0]
    with pytest.raises(ValueError, match="unknown part"):
        context_rows.split([_row("surprise")])


# The statement the block replaced, as the oracle (tests/sql/, not a product query any more).
ORACLE_ENTITIES = trusted((Path(__file__).parent / "sql" / "context_entities.sql").read_text())
ENTITY_COLUMNS = {"span", "via", "namespace", "seen_at", "id", "ref", "kind", "name"}


@pytest.mark.parametrize(("limit", "per_entity"), [(500, 3), (2, 1)])
@pytest.mark.parametrize(("message", "chat_id"), MESSAGES)
def test_the_block_gives_the_rows_of_the_three_statements(db: Database, demo: str, message: str,
                                                          chat_id: str | None, limit: int, per_entity: int) -> None:
    found = linking.spans(message)
    events = {"per_entity": per_entity, "per_chat": 5, "per_open": 3}
    since = NOW - timedelta(days=30)
    entity_params = {"refs": linking.refs(found), "spans": linking.norms(found), "at": NOW,
                     "max_policies": MAX_POLICIES}
    with db.owner_tx(demo, read_only=True) as conn:
        block = context_rows.split(psycopg.RawCursor(conn).execute(load("context_block"), block_params(
            found, NOW, chat_id, limit=limit, per_entity=per_entity)).fetchall())
        entities = conn.execute(ORACLE_ENTITIES, entity_params).fetchall()
        assert block.entities == entities
        assert all(set(r) == ENTITY_COLUMNS for r in entities)
        linked, _ = linking.link(found, entities, linking.chat_namespace(chat_id), NOW)
        linked_ids = [m.id for m in linked]
        ids = list(dict.fromkeys([*linked_ids, *(r["id"] for r in entities if r["via"] in ("owner", "policy"))]))
        expected_facts = conn.execute(load("agent_facts_about"), {
            "ids": ids, "incoming_ids": linked_ids, "at": NOW, "limit": limit}).fetchall()
        expected_events = conn.execute(load("context_events"), {
            "ids": linked_ids, "chat_id": chat_id, "since": since, **events, "limit": 8}).fetchall()
    assert context_rows.facts(block, ids, linked_ids, limit) == expected_facts
    assert context_rows.events(block, linked_ids, 8) == expected_events
    if message.startswith("Is Luna"):  # the case is not empty: entities, own and incoming facts, events
        assert len(linked) >= 3 and expected_facts and expected_events and block.incoming


def test_a_chat_turn_is_one_round_trip(one: Database, owner: str) -> None:
    load_demo(one, owner, now=NOW)
    view = build(one, owner, ContextRequest(message="Is Luna hungry?", chat_id="c1"))
    assert [e.entity.ref for e in view.linked] == ["pet:luna"] and view.linked[0].statements
    turn = ContextRequest(message="Is Luna hungry?", chat_id="c1")
    assert sent(of_pool(one, lambda: build(one, owner, turn)))["Sync"] == 1
    code = ContextRequest(message="Is Luna hungry?", scope_chain=["repo:home-agent"])
    # code mode: conventions and builds in a second round trip
    assert sent(of_pool(one, lambda: build(one, owner, code)))["Sync"] == 2
