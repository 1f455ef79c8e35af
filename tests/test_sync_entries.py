"""The pure parts of a sync (graph/sync/entries.py): checks, the content hash, the diff, summaries."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from graph.sync.entries import (
    Change,
    EntryRejected,
    SyncEntry,
    check_entry,
    content_hash,
    diff,
    predicate_of,
    summary,
)

NOW = datetime(2026, 11, 30, 12, tzinfo=UTC)


def entry(**changes: object) -> SyncEntry:
    base: dict[str, object] = {"source_entry_id": "r1", "kind": "gh:issue", "external_id": "acme/x#1",
                               "content": {"state": "open"}, "observed_at": NOW}
    return SyncEntry.model_validate({**base, **changes})


def test_bare_keys_are_the_integrations_namespace() -> None:
    assert predicate_of("state", "gh") == "gh:state"
    assert predicate_of("other:state", "gh") == "other:state"
    values = check_entry(entry(content={"state": "open", "gh:title": "T", "gone": None}), NOW, 100, "gh")
    assert values == {"gh:state": "open", "gh:title": "T"}  # null is no value


def test_the_hash_ignores_key_order_but_not_values() -> None:
    assert content_hash({"a": 1, "b": [1, 2]}) == content_hash({"b": [1, 2], "a": 1})
    assert content_hash({"a": 1}) != content_hash({"a": 1.5})
    assert content_hash({"a": [1, 2]}) != content_hash({"a": [2, 1]})


def test_diff_lists_changed_new_and_removed_predicates() -> None:
    before = {"p:a": 1, "p:b": "x", "p:c": [1]}
    after = {"p:a": 1, "p:b": "y", "p:d": True}
    assert diff(before, after) == [Change("p:b", "x", "y"), Change("p:c", [1], None, removed=True),
                                   Change("p:d", None, True)]
    assert diff(None, {"p:a": 1}) == [Change("p:a", None, 1)]
    assert diff(after, dict(reversed(list(after.items())))) == []


@pytest.mark.parametrize(("changes", "code"), [
    ({"source_entry_id": ""}, "BAD_INPUT"),
    ({"kind": "Not A Kind"}, "UNKNOWN_KIND"),
    ({"external_id": "has space"}, "BAD_REF"),
    ({"external_id": "ü"}, "BAD_REF"),
    ({"observed_at": datetime(2026, 11, 30, 12)}, "BAD_TIME"),
    ({"observed_at": NOW + timedelta(minutes=1)}, "BAD_TIME"),
    ({"content": {"bad key": 1}}, "UNKNOWN_PREDICATE"),
    ({"content": {"big": "x" * 200}}, "VALUE_TOO_LARGE"),
    ({"content": {f"k{i}": i for i in range(65)}}, "BAD_INPUT"),
])
def test_malformed_entries_are_rejected_with_a_code(changes: dict[str, object], code: str) -> None:
    with pytest.raises(EntryRejected) as raised:
        check_entry(entry(**changes), NOW, 100, "gh")
    assert raised.value.code == code and raised.value.message


def test_summaries() -> None:
    assert summary("gh:issue:1", [], created=True) == "gh:issue:1 first synced"
    changes = [Change("gh:state", "open", "closed"), Change("gh:draft", True, None, removed=True)]
    assert summary("gh:issue:1", changes, created=False) == 'gh:state: "open" → "closed"; gh:draft: true → ∅'
