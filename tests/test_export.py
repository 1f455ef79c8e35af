"""Export of an owner's memory and its import into an empty owner: the same answers afterwards (the demo
world and a small generated one), the doctor content, and bad files or a non-empty owner refused with
nothing written."""

from __future__ import annotations

import json
import uuid
from datetime import datetime
from pathlib import Path
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient

from bench.export_roundtrip import answers, generate, instants_of
from cli.main import main as cli_main
from curator.turns import TurnIn, record_turn
from graph.age.doctor import check
from graph.demo import load_demo
from graph.errors import BadInput, Conflict
from graph.ledger.committer import commit_proposal
from graph.ledger.proposal import AssertFact, MemoryMutationProposal, RejectProposal
from graph.ledger.registries import register_entity_kinds
from graph.ledger.tokens import Principal, owner_principal
from graph.platform.db import Database
from graph.reads.temporal import state_at
from graph.settings import get_settings
from graph.transfer.dump import export_lines
from graph.transfer.load import import_lines
from tests.gql import MakeToken, client, codes, gql, make_token  # noqa: F401

DEMO_REFS = ["person:basti", "pet:luna", "repo:home-agent", "github:issue:42"]


def fresh() -> str:
    return f"owner-{uuid.uuid4().hex[:12]}"


def records(lines: list[str], kind: str) -> list[dict[str, Any]]:
    return [r for r in map(json.loads, lines[1:]) if r.get("type") == kind]


def test_the_demo_world_round_trips_with_the_same_answers(db: Database, test_db_url: str,
                                                          admin_conn: psycopg.Connection[Any]) -> None:
    a, b = fresh(), fresh()
    load_demo(db, a)
    lines = export_lines(db, a)
    head = json.loads(lines[0])
    assert (head["format"], head["version"], head["owner"]) == ("worldmem-export", 1, a)
    facts = records(lines, "fact")
    assert facts and any(f["superseded_at"] for f in facts) and records(lines, "event")
    assert all("owner_sub" not in r for r in map(json.loads, lines[1:]))
    counts = import_lines(db, b, lines)
    assert counts["fact"] == len(facts) and counts["entity"] == len(records(lines, "entity"))
    instants = instants_of(lines)
    assert len(instants) >= 3
    refs = [r["ref"] for r in records(lines, "entity")]
    predicates = sorted({f["predicate"] for f in facts})
    assert set(DEMO_REFS) <= set(refs) and len(predicates) >= 5
    mine, theirs = (answers(db, o, refs, instants, predicates) for o in (a, b))
    for x, y in zip(mine, theirs, strict=True):
        assert x == y
    assert len(mine) > 50
    assert any('"feeding_time"' in x for x in mine)  # the compared answers hold content, not only "none"
    report = check(test_db_url)
    assert report.ok, report.problems
    # the imported owner's clock stands where the exporting owner's does (its latest system time), so a
    # write after the import, whatever the wall clock says, is recorded after every imported row
    clocks = [admin_conn.execute("SELECT last_recorded_at FROM owner_clock WHERE owner_sub = %s", (o,)).fetchone()
              for o in (a, b)]
    assert clocks[0] is not None and clocks[0] == clocks[1]
    # the imported owner's own export holds the same records, ids aside
    again = export_lines(db, b)
    assert len(again) == len(lines) and records(again, "fact")[0]["recorded_at"] == facts[0]["recorded_at"]


def test_a_generated_world_round_trips(db: Database, test_db_url: str) -> None:
    a, b = fresh(), fresh()
    generate(db, a, 2400)
    lines = export_lines(db, a)
    assert len(records(lines, "fact")) >= 2400 and records(lines, "event") and records(lines, "turn")
    assert records(lines, "merge") and records(lines, "alias") and records(lines, "merge_move")
    import_lines(db, b, lines)
    refs = [*[r["ref"] for r in records(lines, "entity")][::37], "person:p500", "person:p501"]
    instants = instants_of(lines)
    mine, theirs = (answers(db, o, refs, instants, ["description", "knows"]) for o in (a, b))
    assert len(mine) > 100 and mine == theirs
    assert any("moved on" in x for x in mine)
    assert check(test_db_url).ok


def test_a_non_empty_owner_is_refused_and_keeps_what_it_had(db: Database) -> None:
    a, b = fresh(), fresh()
    load_demo(db, a)
    load_demo(db, b)
    lines = export_lines(db, a)
    before = export_lines(db, b)
    with pytest.raises(Conflict) as refused:
        import_lines(db, b, lines)
    assert refused.value.code == "OWNER_NOT_EMPTY"
    assert export_lines(db, b)[1:-1] == before[1:-1]


def test_an_integration_namespace_travels_with_its_owner_and_no_other_owners_does(
        db: Database, admin_conn: psycopg.Connection) -> None:
    """Namespace claims are one table for all owners (a claim must be seen by every owner's integrations), so
    row-level security does not narrow it: the export and the import's emptiness check ask for the owner's
    own claims. Another owner's claim is neither exported nor in the way of an import, and the owner's own
    claim arrives with it (once no owner of the importing server holds it, as on another cluster)."""
    a, b, other = fresh(), fresh(), fresh()
    load_demo(db, a)
    mine, theirs = f"ns_{uuid.uuid4().hex[:8]}", f"ns_{uuid.uuid4().hex[:8]}"
    for namespace, who in ((mine, a), (theirs, other)):
        admin_conn.execute("INSERT INTO registry_namespaces (namespace, owner_sub, integration) "
                           "VALUES (%s, %s, 'feeder')", (namespace, who))
    lines = export_lines(db, a)
    assert [r["namespace"] for r in records(lines, "registry_namespace")] == [mine]
    admin_conn.execute("DELETE FROM registry_namespaces WHERE namespace = %s", (mine,))
    import_lines(db, b, lines)
    row = admin_conn.execute("SELECT owner_sub FROM registry_namespaces WHERE namespace = %s", (mine,)).fetchone()
    assert row is not None and row[0] == b
    assert records(export_lines(db, b), "registry_namespace")[0]["namespace"] == mine


@pytest.mark.parametrize("damage", ["other_format", "other_version", "truncated", "cut_line", "unknown_type",
                                    "empty"])
def test_a_bad_file_is_refused_and_nothing_is_written(db: Database, damage: str) -> None:
    a, b = fresh(), fresh()
    load_demo(db, a)
    lines = export_lines(db, a)
    head = json.loads(lines[0])
    bad = {
        "other_format": [json.dumps({**head, "format": "graphiti"}), *lines[1:]],
        "other_version": [json.dumps({**head, "version": 2}), *lines[1:]],
        "truncated": lines[: len(lines) // 2],
        "cut_line": [*lines[:-2], lines[-2][:20], lines[-1]],
        "unknown_type": [lines[0], json.dumps({"type": "password"}), *lines[1:]],
        "empty": [],
    }[damage]
    with pytest.raises(BadInput) as refused:
        import_lines(db, b, bad)
    assert refused.value.code == "EXPORT_FORMAT"
    assert state_at(db, b, "pet:luna", head_time(head)) is None


def test_a_failure_after_the_first_rows_leaves_nothing(db: Database) -> None:
    """A file that parses but whose rows the database refuses (facts naming an entity the file lacks, which
    still exists for the owner it came from): refused, and the entities written before are rolled back."""
    a, b = fresh(), fresh()
    load_demo(db, a)
    lines = export_lines(db, a)
    kept = [line for line in lines if json.loads(line).get("type") != "entity" or "pet:luna" not in line]
    end = json.loads(kept[-1])
    end["counts"]["entity"] -= 1
    kept[-1] = json.dumps(end)
    with pytest.raises(BadInput) as refused:
        import_lines(db, b, kept)
    assert refused.value.code == "EXPORT_FORMAT" and "foreign key" in str(refused.value)
    assert export_lines(db, b)[1:-1] == []


def test_the_cli_exports_and_imports(db: Database, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                     test_db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    a, b = fresh(), fresh()
    load_demo(db, a)
    out = tmp_path / "memory.jsonl"
    scoped = get_settings().model_copy(update={"db_name": test_db_url.rsplit("/", 1)[1].split("?")[0]})
    monkeypatch.setattr("cli.main.get_settings", lambda: scoped)
    assert cli_main(["export", "--owner", a, "--out", str(out)]) == 0
    assert json.loads(out.read_text().splitlines()[0])["owner"] == a
    assert cli_main(["import", "--owner", b, str(out)]) == 0
    assert state_at(db, b, "pet:luna", head_time(json.loads(out.read_text().splitlines()[0]))) is not None
    assert cli_main(["import", "--owner", b, str(out)]) == 2
    assert "already holds memory" in capsys.readouterr().err


def head_time(head: dict[str, Any]) -> datetime:
    return datetime.fromisoformat(head["exported_at"])


def test_turns_registered_keys_and_review_decisions_travel(db: Database) -> None:
    """What the demo world lacks: chat turns (German too), a kind the owner registered, a rejected proposal
    (its suppression marker), an alias; all of it arrives, and the suppression still holds for the new owner."""
    a, b = fresh(), fresh()
    load_demo(db, a)
    record_turn(db, a, TurnIn(chat_id="küche", text="Luna frisst jetzt um 8 Uhr ✓"))
    record_turn(db, a, TurnIn(chat_id="küche", role="assistant", text="Notiert."))
    key = f"hobby{uuid.uuid4().hex[:6]}"
    register_entity_kinds(db, [{"key": key, "name": "Hobby", "description": "a pastime"}],
                          principal=owner_principal(a))
    pending = next(r for r in records(export_lines(db, a), "fact") if r["status"] == "pending")
    done = commit_proposal(db, owner_principal(a), MemoryMutationProposal(
        run_id="review-1", operations=[RejectProposal(fact_id=pending["id"])]))
    assert not done.rejected
    lines = export_lines(db, a)
    assert [t["text"] for t in records(lines, "turn")] == ["Luna frisst jetzt um 8 Uhr ✓", "Notiert."]
    assert [k["key"] for k in records(lines, "entity_kind")] == [key]
    assert records(lines, "suppression") and records(lines, "alias")
    counts = import_lines(db, b, lines)
    assert counts["turn"] == 2 and counts["suppression"] == 1 and counts["entity_kind"] == 1
    again = export_lines(db, b)
    assert [t["text"] for t in records(again, "turn")] == ["Luna frisst jetzt um 8 Uhr ✓", "Notiert."]
    # the registered key stays its first registrant's (the vocabulary is global); B gets no second copy
    assert records(again, "entity_kind") == []
    # the suppression holds: proposing the rejected belief again for B is refused as for A
    retry = MemoryMutationProposal(run_id="retry-1", operations=[AssertFact(
        subject="pet:luna", predicate="birthday", value=pending["object_value"], valid_from=pending["valid_from"],
        confidence=pending["confidence"])])
    codes = [[r.code for r in commit_proposal(db, agent(o), retry).rejected] for o in (a, b)]
    assert codes[0] == codes[1] == ["SUPPRESSED"]


def agent(owner: str) -> Principal:
    return Principal(owner=owner, kind="agent", can_import=False, can_integrate=False)


def test_the_owner_token_exports_over_graphql_and_no_other_token_does(
        db: Database, client: TestClient, make_token: MakeToken) -> None:  # noqa: F811
    a, other = fresh(), fresh()
    load_demo(db, a)
    load_demo(db, other)
    body = gql(client, make_token(a), "{ exportMemory }")
    lines = body["data"]["exportMemory"].splitlines()
    assert json.loads(lines[0])["owner"] == a and json.loads(lines[-1])["type"] == "end"
    # row-level security: the same records as the admin's export of this owner, none of the other's
    assert lines[1:-1] == export_lines(db, a)[1:-1]
    theirs = {r["id"] for r in map(json.loads, export_lines(db, other)[1:-1]) if "id" in r}
    assert theirs and not theirs & {r["id"] for r in map(json.loads, lines[1:-1]) if "id" in r}
    for kind in ("agent", "integration"):
        token = make_token(a, kind=kind, name="home" if kind == "integration" else None)
        assert codes(gql(client, token, "{ exportMemory }")) == ["OWNER_ONLY"]


def test_a_file_naming_another_owner_writes_only_the_importing_owner(db: Database,
                                                                     admin_conn: psycopg.Connection[Any]) -> None:
    """The owner column of a record is never read: a hand-edited file that names another owner (or carries
    its ids) still writes only the owner it is imported for, and leaves the other one as it was."""
    a, victim, b = fresh(), fresh(), fresh()
    load_demo(db, a)
    load_demo(db, victim)
    theirs = export_lines(db, victim)
    luna = next(r["id"] for r in records(theirs, "entity") if r["ref"] == "pet:luna")
    lines = export_lines(db, a)
    edited = [lines[0], *(json.dumps({**json.loads(line), "owner_sub": victim}) for line in lines[1:-1]),
              json.dumps({"type": "fact", **{**records(lines, "fact")[0], "subject_id": luna}}), lines[-1]]
    end = json.loads(edited[-1])
    end["counts"]["fact"] += 1
    edited[-1] = json.dumps(end)
    with pytest.raises(BadInput):  # the victim's entity id is renamed to nothing: a dangling reference
        import_lines(db, b, edited)
    import_lines(db, b, [edited[0], *edited[1:-2], lines[-1]])
    assert export_lines(db, victim)[1:-1] == theirs[1:-1]
    owners = admin_conn.execute("SELECT DISTINCT owner_sub FROM facts WHERE owner_sub IN (%s, %s)",
                                (b, victim)).fetchall()
    assert sorted(o[0] for o in owners) == sorted([b, victim])
    assert len(export_lines(db, b)) == len(lines)
