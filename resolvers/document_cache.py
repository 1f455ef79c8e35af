"""Parsed and validated GraphQL documents, remembered by their text, per schema.

Clients send the same few documents again and again (an agent's tools, the explorer, GraphiQL), with only
the variables changing, and validating even `{ __typename }` against our schema costs more CPU than
answering it. So a document that parsed, and one that passed validation under the same limits, is
remembered (least recently used first out):

- only documents that succeeded (a refused one is parsed and validated again, and its error is built anew
  for each request, so no error object is ever shared between requests);
- only documents of at most MAX_CHARS characters, so the lookup (hashing the text) stays cheap on the event
  loop;
- validity is remembered together with the limits it was checked under (tokens, aliases): a process with
  other limits asks again. Everything else validation depends on is the schema, which keys the cache.

A remembered document is shared by concurrent requests: graphql-core never mutates a DocumentNode. So is
its compiled plan (resolvers.compiled), made once per document text from the parsed document, against the
graphql-core schema that validated it: `schema_rule`, a validation rule added to every validation, records
it (Strawberry keeps its graphql-core schema in a private attribute).
"""

from __future__ import annotations

import weakref
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from graphql import DocumentNode, GraphQLSchema, ValidationContext, ValidationRule

MAX_CHARS = 10_000
MAX_DOCUMENTS = 500
FEW_VALUES = 200  # variables with no more values are checked on the event loop (microseconds)


class DocumentCache:
    """Least-recently-used documents: parsed ones by (text, max_tokens); valid ones also by max_aliases."""

    def __init__(self, max_documents: int = MAX_DOCUMENTS) -> None:
        self.max_documents = max_documents
        self._parsed: OrderedDict[tuple[str, int], DocumentNode] = OrderedDict()
        self._valid: OrderedDict[tuple[str, int, int], None] = OrderedDict()
        self._plans: OrderedDict[str, Any] = OrderedDict()  # resolvers.compiled: a Plan, or None (not compilable)
        self.graphql_schema: GraphQLSchema | None = None
        self.schema_rule = _recording(self)

    def parsed(self, query: str, max_tokens: int) -> DocumentNode | None:
        if len(query) > MAX_CHARS:
            return None
        key = (query, max_tokens)
        document = self._parsed.get(key)
        if document is not None:
            self._parsed.move_to_end(key)
        return document

    def remember_parsed(self, query: str, max_tokens: int, document: DocumentNode) -> None:
        if len(query) <= MAX_CHARS:
            self._parsed[(query, max_tokens)] = document
            _trim(self._parsed, self.max_documents)

    def valid(self, query: str, max_tokens: int, max_aliases: int) -> bool:
        key = (query, max_tokens, max_aliases)
        if len(query) > MAX_CHARS or key not in self._valid:
            return False
        self._valid.move_to_end(key)
        return True

    def remember_valid(self, query: str, max_tokens: int, max_aliases: int) -> None:
        if len(query) <= MAX_CHARS:
            self._valid[(query, max_tokens, max_aliases)] = None
            _trim(self._valid, self.max_documents)

    def plan(self, query: str, compile_document: Callable[[DocumentNode], Any], max_tokens: int) -> Any:
        """The compiled plan of a parsed document (resolvers.compiled), made once; None when it has none."""
        if query in self._plans:
            self._plans.move_to_end(query)
            return self._plans[query]
        document = self.parsed(query, max_tokens)
        if document is None:
            return None
        plan = self._plans[query] = compile_document(document)
        _trim(self._plans, self.max_documents)
        return plan

    def clear(self) -> None:
        self._parsed.clear()
        self._valid.clear()
        self._plans.clear()


def _recording(cache: DocumentCache) -> type[ValidationRule]:
    class RecordSchema(ValidationRule):
        """Reports nothing; notes the graphql-core schema the document is validated against."""

        def __init__(self, context: ValidationContext) -> None:
            super().__init__(context)
            cache.graphql_schema = context.schema

    return RecordSchema


def _trim(entries: OrderedDict[Any, Any], limit: int) -> None:
    while len(entries) > limit:
        entries.popitem(last=False)


_BY_SCHEMA: weakref.WeakKeyDictionary[object, DocumentCache] = weakref.WeakKeyDictionary()


def for_schema(schema: object) -> DocumentCache:
    """The cache of one schema (each built schema validates differently, e.g. another depth limit)."""
    cache = _BY_SCHEMA.get(schema)
    if cache is None:
        cache = _BY_SCHEMA[schema] = DocumentCache()
    return cache


def forget_all() -> None:
    """Drop every remembered document of every schema: a document's text may name what an erasure took."""
    for cache in list(_BY_SCHEMA.values()):
        cache.clear()


def few_values(variables: dict[str, Any] | None, limit: int = FEW_VALUES) -> bool:
    """True when `variables` hold at most `limit` values in all (checked inline, on the event loop)."""
    stack: list[Any] = [variables]
    seen = 0
    while stack:
        item = stack.pop()
        seen += 1
        if seen > limit:
            return False
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return True
