"""The vector list's parameters: how many candidates the HNSW scan keeps (ef_search), and the query's embedding
as a binary parameter in pgvector's own format (`vector_recv`: int16 dimensions, int16 unused, then each value
as a big-endian float4).

ef_search: k times a factor, with a floor and a ceiling (the form of Weaviate's dynamic ef); 20 per row is the
smallest measured factor at which the indexed list answers the labelled queries as the exact read does
(tests/test_search_quality.py checks that agreement); finder_set_search binds it as a parameter.

Why binary: the text form (`[0.0123457,...]`, embedders.vector_literal) costs 0.3-0.9 ms per search to format in
Python and about 5.6 KB on the wire for 512 dimensions, where packing is about 20 µs and 2 KB. The dumper
declares no type (oid 0): the statement's `%(embedding)s::vector(dim)` makes the server infer `vector` and
read the bytes with pgvector's receive function, so no per-database type lookup is needed. The values are
the model's floats rounded to float4, as the cast of their full text would round them (the text form's 7
significant digits could differ in the last place).

The dumper is registered on psycopg's global adapters when this module is imported (graph.finder.search
imports it), and connections copy that map when they are made. A connection made before the import would
not know it; QueryVector is a list, so such a connection sends it as a float8[] array, which the same cast
turns into the same vector (slower, never wrong; tests/test_vector_param.py checks both).
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import psycopg
from psycopg import pq
from psycopg.adapt import Dumper
from psycopg.types import TypeInfo

EF_PER_RESULT = 20
EF_MIN = 100
EF_MAX = 1000  # pgvector's largest hnsw.ef_search


def ef_search(k: int) -> int:
    """How many candidates the HNSW scan keeps for a list of k rows (pure): EF_PER_RESULT per row, at least
    EF_MIN, at most EF_MAX."""
    return min(max(EF_PER_RESULT * k, EF_MIN), EF_MAX)


class QueryVector(list[float]):
    """A query embedding bound as a `vector` parameter in binary."""


class VectorBinaryDumper(Dumper):
    format = pq.Format.BINARY
    oid = 0  # unknown: the server takes the type from the statement's cast to vector(dim)

    def dump(self, obj: list[float]) -> bytes:
        return struct.pack(f">hh{len(obj)}f", len(obj), 0, *obj)


psycopg.adapters.register_dumper(QueryVector, VectorBinaryDumper)


class PackedVector(bytes):
    """An embedding packed in pgvector's binary form, as an element of a `vector[]` parameter
    (finder_embeddings_set): packing is about 6 µs a vector, the text form about 120 µs to format in Python
    and more to parse in the server, per vector of a batch."""


def packed(vector: Sequence[float]) -> PackedVector:
    return PackedVector(struct.pack(f">hh{len(vector)}f", len(vector), 0, *vector))


class PackedVectorDumper(Dumper):
    format = pq.Format.BINARY

    def dump(self, obj: PackedVector) -> bytes:
        return obj


@lru_cache(maxsize=16)
def _dumper(oid: int) -> type[PackedVectorDumper]:
    # an array's binary header names its element type, and `vector` is an extension's type: each database
    # has its own oid, so the dumper is made for the oid of the connection's database
    return type("PackedVectorDumper", (PackedVectorDumper,), {"oid": oid})


def vectors_param(conn: psycopg.Connection[Any], vectors: Sequence[Sequence[float]]) -> list[PackedVector]:
    """The vectors as a binary `vector[]` parameter on `conn`; the first use on a connection looks up its
    database's `vector` type (one round trip) and registers it there."""
    if conn.adapters.types.get("vector") is None:
        info = TypeInfo.fetch(conn, "vector")
        if info is None:
            raise RuntimeError("the database has no vector type (the pgvector extension of migration 0039)")
        info.register(conn)
        conn.adapters.register_dumper(PackedVector, _dumper(info.oid))
    return [packed(v) for v in vectors]


def embedding_param(vector: list[float]) -> QueryVector:
    """The query's embedding as the vector statements' parameter (`%(embedding)s::vector(dim)`), in binary."""
    return QueryVector(vector)
