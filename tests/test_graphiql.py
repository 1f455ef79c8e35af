"""A browser's first visit: GraphiQL works offline, / leads to it, docs work before a token is pasted."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from fastapi.testclient import TestClient

from resolvers.context import schema_only
from tests.gql import client, codes, gql  # noqa: F401 (fixtures)

INTROSPECTION = """query IntrospectionQuery { __schema { queryType { name } mutationType { name }
  types { ...FullType } } }
fragment FullType on __Type { kind name fields(includeDeprecated: true) { name args { name } type { name } } }"""


class _Refs(HTMLParser):
    """Every URL the page makes the browser load (scripts, styles, icons, frames, images)."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in {"src", "href"} and value is not None:
                self.urls.append(value)


def _loaded_urls(html: str) -> list[str]:
    parser = _Refs()
    parser.feed(html)
    return parser.urls


def test_graphiql_page_references_no_external_host(client: TestClient) -> None:  # noqa: F811
    response = client.get("/graphql", headers={"Accept": "text/html"})
    assert response.status_code == 200 and "text/html" in response.headers["content-type"]
    urls = _loaded_urls(response.text)
    scripts = [u for u in urls if u.endswith(".js")]
    assert len(scripts) == 5, urls
    external = [u for u in urls if re.match(r"^(https?:)?//", u)]
    assert external == []
    assert "unpkg" not in response.text and "cdn" not in response.text.lower()
    assert "Authorization" in response.text  # the first query explains the header
    for url in urls:
        if url.startswith("data:"):
            continue
        asset = client.get(url)
        assert asset.status_code == 200 and len(asset.content) > 500, url


def test_graphiql_assets_are_not_shadowed_by_the_explorer(client: TestClient) -> None:  # noqa: F811
    asset = client.get("/graphiql-assets/graphiql.min.js")
    assert asset.status_code == 200 and "javascript" in asset.headers["content-type"]


def test_introspection_without_a_token_reads_the_schema(client: TestClient) -> None:  # noqa: F811
    body = gql(client, None, INTROSPECTION)
    assert "errors" not in body, body
    names = {t["name"] for t in body["data"]["__schema"]["types"]}
    assert {"Query", "Mutation", "EntityState"} <= names
    assert gql(client, None, '{ __type(name: "Fact") { name } }')["data"]["__type"]["name"] == "Fact"


def test_data_without_a_token_stays_refused(client: TestClient) -> None:  # noqa: F811
    body = gql(client, None, '{ stateAt(ref: "pet:luna") { facts { value } } }')
    assert codes(body) == ["UNAUTHENTICATED"] and body.get("data") is None
    assert "bearer" in body["errors"][0]["message"].lower()


def test_schema_only_decides_by_the_top_level() -> None:
    assert schema_only("{ __typename }")
    assert schema_only("{ ... on Query { __schema { types { name } } } }")
    assert schema_only("query A { __type(name: \"X\") { name } } query B { __typename }")
    assert not schema_only("{ __typename entityKinds { key } }")
    assert not schema_only("mutation { __typename }")
    assert not schema_only("{ ...F } fragment F on Query { ...F }")
    assert not schema_only("{ broken")
    assert not schema_only(None)
    assert not schema_only("{ __typename }" + " " * 30_000)
