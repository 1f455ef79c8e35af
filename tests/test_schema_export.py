"""schema.graphql is the exported SDL, and it keeps every name of the public contract.

The contract is a copy kept in the repo (tests/data/contract/core.graphql); the suite reads nothing outside it.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import strawberry
from graphql import (
    DirectiveDefinitionNode,
    EnumTypeDefinitionNode,
    GraphQLEnumType,
    GraphQLInputObjectType,
    GraphQLObjectType,
    InputObjectTypeDefinitionNode,
    ObjectTypeDefinitionNode,
    ScalarTypeDefinitionNode,
    build_schema,
    parse,
    print_ast,
)
from strawberry.schema.config import StrawberryConfig

from graph.errors import BadInput
from resolvers.scalars import SCALAR_MAP, parse_datetime, serialize_datetime
from resolvers.schema import WorldmemSchema, export_sdl

REPO = Path(__file__).resolve().parents[1]
SCHEMA_FILE = REPO / "schema.graphql"
# Implemented by the registry part; must be in the schema now.
REGISTRY_PART = {"Cardinality", "RelationTypeInput", "RelationType", "Mutation.registerRelationTypes"}
# TODO(ledger part): DateTime, JSON, @oneOf, EvidenceInput, UpsertEntityInput, AssertFactInput,
# RetractFactInput, OperationInput, ProposalInput, Rejected, CommitResult, Fact, EntityState, CypherResult,
# Query.stateAt/stateAsKnownAt/factHistory/cypher and Mutation.commitProposal. Empty this set when they land.
PENDING: set[str] = set()  # everything of the contract is implemented


CONTRACT = REPO / "tests" / "data" / "contract" / "core.graphql"


def contract_missing(sdl: str, contract: Path, only: set[str] | None = None) -> list[str]:
    """Contract names (types, fields, arguments, enum values, directives) missing from `sdl`, or present
    with another type. `only` limits the check to these types ("Type") and root fields ("Type.field")."""
    ours = build_schema(sdl)
    missing: list[str] = []

    def wanted(name: str) -> bool:
        return only is None or name in only or any(o.startswith(name + ".") for o in only)

    def field_wanted(type_name: str, field: str) -> bool:
        return only is None or type_name in only or f"{type_name}.{field}" in only

    for node in parse(contract.read_text()).definitions:
        if isinstance(node, DirectiveDefinitionNode):
            if wanted("@" + node.name.value) and ours.get_directive(node.name.value) is None:
                missing.append("@" + node.name.value)
            continue
        if not isinstance(node, ScalarTypeDefinitionNode | EnumTypeDefinitionNode | ObjectTypeDefinitionNode
                          | InputObjectTypeDefinitionNode):
            continue
        name = node.name.value
        if not wanted(name):
            continue
        found = ours.get_type(name)
        if found is None:
            missing.append(name)
        elif isinstance(node, EnumTypeDefinitionNode):
            values = found.values if isinstance(found, GraphQLEnumType) else {}
            missing += [f"{name}.{v.name.value}" for v in node.values or () if v.name.value not in values]
        elif isinstance(node, InputObjectTypeDefinitionNode):
            fields = found.fields if isinstance(found, GraphQLInputObjectType) else {}
            one_of = any(d.name.value == "oneOf" for d in node.directives or ())
            if one_of and not getattr(found, "is_one_of", False):
                missing.append(f"{name} @oneOf")
            for input_field in node.fields or ():
                missing += _compare(f"{name}.{input_field.name.value}", print_ast(input_field.type),
                                    fields.get(input_field.name.value))
        elif isinstance(node, ObjectTypeDefinitionNode):
            object_fields = found.fields if isinstance(found, GraphQLObjectType) else {}
            for f in node.fields or ():
                if not field_wanted(name, f.name.value):
                    continue
                ours_field = object_fields.get(f.name.value)
                missing += _compare(f"{name}.{f.name.value}", print_ast(f.type), ours_field)
                for arg in f.arguments or () if ours_field else ():
                    missing += _compare(f"{name}.{f.name.value}({arg.name.value})", print_ast(arg.type),
                                        ours_field.args.get(arg.name.value) if ours_field else None,
                                        argument=True)
    return missing


def _compare(where: str, contract_type: str, ours: object, *, argument: bool = False) -> list[str]:
    """Same type, or, for an argument, the contract's required type made optional (stateAt's validTime
    defaults to now): every query the contract allows is still valid."""
    if ours is None:
        return [where]
    our_type = str(getattr(ours, "type", ""))
    if our_type == contract_type or (argument and contract_type.endswith("!") and our_type == contract_type[:-1]):
        return []
    return [f"{where}: {our_type} (contract: {contract_type})"]


def test_schema_graphql_is_current() -> None:
    current = SCHEMA_FILE.read_text() if SCHEMA_FILE.is_file() else ""
    assert current == export_sdl(), \
        "schema.graphql is stale: run `worldmem schema export --out schema.graphql`"


def test_registry_part_of_the_contract() -> None:
    contract = CONTRACT
    assert contract_missing(export_sdl(), contract, only=REGISTRY_PART) == []


def test_optional_arguments_keep_the_contract() -> None:
    assert _compare("f(a)", "DateTime!", type("A", (), {"type": "DateTime"})(), argument=True) == []
    assert _compare("f", "DateTime!", type("A", (), {"type": "DateTime"})()) != []  # not for results
    assert _compare("f(a)", "DateTime", type("A", (), {"type": "DateTime!"})(), argument=True) != []


def test_full_contract_except_pending_parts() -> None:
    contract = CONTRACT
    missing = contract_missing(export_sdl(), contract)
    assert [m for m in missing if not _pending(m)] == []


def _pending(item: str) -> bool:
    return any(item == p or item.startswith((f"{p}.", f"{p}(", f"{p}:", f"{p} ")) for p in PENDING)


def test_contract_checker_notices_gaps(tmp_path: Path) -> None:
    contract = tmp_path / "c.graphql"
    contract.write_text("# comment\nenum Cardinality { FUNCTIONAL SET MANY }\n"
                        "type Query { a(x: Int!): String! }\ninput I @oneOf { a: Int }\n")
    sdl = "enum Cardinality { FUNCTIONAL SET }\ntype Query { a(x: String): String }\ninput I { a: Int }\n"
    assert contract_missing(sdl, contract) == [
        "Cardinality.MANY", "Query.a: String (contract: String!)", "Query.a(x): String (contract: Int!)",
        "I @oneOf"]


# --- DateTime ----------------------------------------------------------------------------------------


def test_datetime_needs_an_offset() -> None:
    assert parse_datetime("2024-05-01T12:00:00Z") == datetime(2024, 5, 1, 12, tzinfo=UTC)
    assert parse_datetime("2024-05-01T12:00:00+02:00").utcoffset() == timedelta(hours=2)
    assert parse_datetime("2024-05-01") == datetime(2024, 5, 1, tzinfo=UTC)  # a date alone: midnight UTC
    for bad in ("2024-05-01T12:00:00", "2024-5-1", "2024-05-01 ", "yesterday", 1714564800):
        with pytest.raises(BadInput):
            parse_datetime(bad)
    assert serialize_datetime(datetime(2024, 5, 1, tzinfo=UTC)) == "2024-05-01T00:00:00+00:00"
    with pytest.raises(ValueError):
        serialize_datetime(datetime(2024, 5, 1))


def test_naive_datetime_is_a_typed_graphql_error() -> None:
    @strawberry.type
    class Query:
        @strawberry.field
        def echo(self, at: datetime) -> datetime:
            return at

    schema = WorldmemSchema(query=Query, config=StrawberryConfig(scalar_map=SCALAR_MAP))
    ok = schema.execute_sync("query($t: DateTime!) { echo(at: $t) }", {"t": "2024-05-01T12:00:00Z"})
    assert ok.errors is None and ok.data == {"echo": "2024-05-01T12:00:00+00:00"}
    for query, variables in (("query($t: DateTime!) { echo(at: $t) }", {"t": "2024-05-01T12:00:00"}),
                             ('{ echo(at: "2024-05-01T12:00:00") }', None),
                             ('{ echo(at: "not a date") }', None)):
        result = schema.execute_sync(query, variables)
        assert result.errors and [e.extensions for e in result.errors] == [{"code": "BAD_INPUT", "callerMustFix": True}]


def test_cli_schema_export(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from cli import main as cli

    assert cli.main(["schema", "export"]) == 0
    assert capsys.readouterr().out == export_sdl()
    out = tmp_path / "schema.graphql"
    assert cli.main(["schema", "export", "--out", str(out)]) == 0
    assert out.read_text() == export_sdl()
