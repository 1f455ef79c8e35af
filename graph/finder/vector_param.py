"""The query's embedding as a binary parameter in pgvector's own format (`vector_recv`: int16 dimensions,
int16 unused, then each value as a big-endian float4).

Why: the text form (`[0.0123457,...]`, embedders.vector_literal) costs 0.3-0.9 ms per search to format in
Python and about 5.6 KB on the wire for 512 dimensions, where packing is about 20 µs and 2 KB (bench/README.md,
"How many candidates the HNSW list keeps"). The dumper declares no type (oid 0): the statement's
`%(embedding)s::vector(dim)` makes the server infer `vector` and read the bytes with pgvector's receive
function, so no per-database type lookup is needed. The values are the model's floats rounded to float4, as
the cast of their full text would round them (the text form's 7 significant digits could differ in the last
place).

The dumper is registered on psycopg's global adapters when this module is imported (graph.finder.search
imports it), and connections copy that map when they are made. A connection made before the import would
not know it; QueryVector is a list, so such a connection sends it as a float8[] array, which the same cast
turns into the same vector (slower, never wrong; tests/test_vector_param.py checks both).
"""

from __future__ import annotations

import struct

import psycopg
from psycopg import pq
from psycopg.adapt import Dumper


class QueryVector(list[float]):
    """A query embedding bound as a `vector` parameter in binary."""


class VectorBinaryDumper(Dumper):
    format = pq.Format.BINARY
    oid = 0  # unknown: the server takes the type from the statement's cast to vector(dim)

    def dump(self, obj: list[float]) -> bytes:
        return struct.pack(f">hh{len(obj)}f", len(obj), 0, *obj)


psycopg.adapters.register_dumper(QueryVector, VectorBinaryDumper)
