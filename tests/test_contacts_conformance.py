"""Adapter conformance: the contacts facade answers what the graph says.

One world is written through `upsertContact` (GraphQL, an owner token). The same assertions then run
against two adapters: the facade (`contacts`, `contact`) and the generic reads (`getEntity`, `stateAt`,
`stateAsKnownAt` and the Cypher console over the AGE graph). Both must pass every one, so neither can
drift from the other; a last test compares the facade's identities with getEntity's aliases directly.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Protocol

import pytest
from fastapi.testclient import TestClient

from tests.gql import MakeToken, client, gql, make_token  # noqa: F401

UPSERT = """mutation($ids: [String!]!, $name: String) { upsertContact(identities: $ids, name: $name) {
  ok contact { ref } merged suggested commit { recordedAt } } }"""
ANNA, ANNI, JUERGEN, JUERGEN2 = ("person:anna-schmidt", "person:anni", "person:juergen-mueller",
                                 "person:juergen-mueller-2")
REFS = [ANNA, JUERGEN, JUERGEN2]
NAMES = {ANNA: "Anna Schmidt", JUERGEN: "Jürgen Müller", JUERGEN2: "Juergen Mueller"}
IDENTITIES = {ANNA: {"anna@example.org", "+491701234567", "@anni:example.org"},
              JUERGEN: {"juergen@example.org"}, JUERGEN2: {"jm@example.org"}}


class Port(Protocol):
    def refs(self) -> list[str]: ...
    def name(self, ref: str) -> str: ...
    def has_identity(self, ref: str, value: str) -> bool: ...
    def who(self, value: str, system_time: str | None = None) -> str: ...


class Facade:
    def __init__(self, ask: Any) -> None:
        self.ask = ask

    def refs(self) -> list[str]:
        return sorted(c["ref"] for c in self.ask("{ contacts { ref } }")["contacts"])

    def name(self, ref: str) -> str:
        name: str = self.ask("query($r: String!) { contact(ref: $r) { name } }", {"r": ref})["contact"]["name"]
        return name

    def has_identity(self, ref: str, value: str) -> bool:
        found = self.ask("query($r: String!) { contact(ref: $r) { identities { value } } }", {"r": ref})
        return value in {i["value"] for i in found["contact"]["identities"]}

    def who(self, value: str, system_time: str | None = None) -> str:
        found = self.ask("query($r: String!, $s: DateTime) { contact(ref: $r, systemTime: $s) { ref } }",
                         {"r": value, "s": system_time})
        ref: str = found["contact"]["ref"]
        return ref


class Graph:
    def __init__(self, ask: Any) -> None:
        self.ask = ask

    def refs(self) -> list[str]:
        rows = self.ask('{ cypher(query: "MATCH (e:Entity) WHERE e.kind = \'person\' AND e.status = \'active\' '
                        'RETURN e.ref ORDER BY e.ref") { rows } }')["cypher"]["rows"]
        return [r[0] for r in rows]

    def name(self, ref: str) -> str:
        state = self.ask("query($r: String!) { stateAt(ref: $r) { name } getEntity(ref: $r) { entity { name } } }",
                         {"r": ref})
        assert state["stateAt"]["name"] == state["getEntity"]["entity"]["name"]
        name: str = state["stateAt"]["name"]
        return name

    def has_identity(self, ref: str, value: str) -> bool:
        found = self.ask("query($r: String!) { getEntity(ref: $r) { aliases } }", {"r": ref})
        return value in found["getEntity"]["aliases"]

    def who(self, value: str, system_time: str | None = None) -> str:
        if system_time is None:
            ref: str = self.ask("query($r: String!) { getEntity(ref: $r) { entity { ref } } }",
                                {"r": value})["getEntity"]["entity"]["ref"]
            return ref
        then: str = self.ask("query($r: String!, $s: DateTime!) { stateAsKnownAt(ref: $r, systemTime: $s) { ref } }",
                             {"r": value, "s": system_time})["stateAsKnownAt"]["ref"]
        return then


@pytest.fixture(scope="module")
def world(client: TestClient, test_db_url: str) -> dict[str, Any]:  # noqa: F811
    from tests.gql import new_token

    token = new_token(test_db_url, "conformance-owner")

    def ask(query: str, variables: dict[str, Any] | None = None) -> dict[str, Any]:
        body = gql(client, token, query, variables)
        assert "errors" not in body, body["errors"]
        data: dict[str, Any] = body["data"]
        return data

    def upsert(ids: list[str], name: str | None = None) -> dict[str, Any]:
        done: dict[str, Any] = ask(UPSERT, {"ids": ids, "name": name})["upsertContact"]
        assert done["ok"]
        return done

    upsert(["email:anna@example.org"], "Anna Schmidt")
    before = upsert(["phone:+49 170 1234567", "matrix:@Anni:example.org"], "Anni")["commit"]["recordedAt"]
    assert upsert(["email:ANNA@example.org", "phone:00491701234567"])["merged"] == [ANNI]
    upsert(["email:juergen@example.org"], "Jürgen Müller")
    assert upsert(["email:jm@example.org"], "Juergen Mueller")["suggested"] == [JUERGEN]
    return {"ask": ask, "before": before}


@pytest.fixture(params=["facade", "graph"])
def port(request: pytest.FixtureRequest, world: dict[str, Any]) -> Port:
    return Facade(world["ask"]) if request.param == "facade" else Graph(world["ask"])


def test_the_contacts_are_the_active_persons(port: Port) -> None:
    assert port.refs() == REFS


@pytest.mark.parametrize("ref", REFS)
def test_names(port: Port, ref: str) -> None:
    assert port.name(ref) == NAMES[ref]


@pytest.mark.parametrize("ref", REFS)
def test_identities_belong_to_their_contact_only(port: Port, ref: str) -> None:
    for owner_ref, values in IDENTITIES.items():
        for value in values:
            assert port.has_identity(ref, value) is (owner_ref == ref)


@pytest.mark.parametrize(("value", "ref"), [(v, r) for r, vs in IDENTITIES.items() for v in sorted(vs)])
def test_an_identity_names_its_contact(port: Port, value: str, ref: str) -> None:
    assert port.who(value) == ref


def test_as_known_before_the_merge(port: Port, world: dict[str, Any]) -> None:
    assert port.who("+491701234567", world["before"]) == ANNI
    assert port.who("anna@example.org", world["before"]) == ANNA
    assert port.who(ANNI) == ANNA  # now the merged ref names the survivor


def test_facade_identities_are_exactly_the_graphs_identity_aliases(world: dict[str, Any]) -> None:
    ask = world["ask"]
    for ref in REFS:
        facade = ask("query($r: String!) { contact(ref: $r) { identities { value validFrom } } }", {"r": ref})
        aliases = set(ask("query($r: String!) { getEntity(ref: $r) { aliases } }", {"r": ref})["getEntity"]["aliases"])
        merged_names = {"Anni"} if ref == ANNA else set()  # a merge keeps the duplicate's name as a core alias
        assert {i["value"] for i in facade["contact"]["identities"]} == aliases - merged_names == IDENTITIES[ref]
        assert all(datetime.fromisoformat(i["validFrom"]) for i in facade["contact"]["identities"])
