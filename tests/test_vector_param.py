"""The vector list's parameters: the query embedding in pgvector's binary format, and how many candidates
the HNSW scan keeps (ef_search from the list's k, bound as a parameter of finder_set_search)."""

from __future__ import annotations

import struct

import psycopg
import pytest

from graph.finder import search as finder
from graph.finder.search import LIST_K, ef_search
from graph.finder.vector_param import EF_MAX, EF_MIN, EF_PER_RESULT, QueryVector, VectorBinaryDumper, vectors_param
from graph.platform.db import Database
from graph.sql import load

VALUES = [0.1, -2.5, 3.0e-7, 1.0 / 3.0, 12345.678]
EF = "SELECT current_setting('hnsw.ef_search', true) AS ef"
FULL = "[" + ",".join(repr(x) for x in VALUES) + "]"


def test_the_binary_form_is_pgvectors_dimensions_then_big_endian_float4() -> None:
    dumped = bytes(VectorBinaryDumper(QueryVector).dump(QueryVector([1.0, -2.0])))
    assert dumped == struct.pack(">hh", 2, 0) + struct.pack(">f", 1.0) + struct.pack(">f", -2.0)


def test_a_binary_vector_is_the_vector_its_text_form_casts_to(db: Database, owner: str) -> None:
    """The model's floats rounded to float4, as the cast of their full text form rounds them (the finder's
    former text form, 7 significant digits, could differ in the last place), sent in binary."""
    with db.owner_tx(owner, read_only=True) as conn:
        row = conn.execute("SELECT %(b)s::vector(5)::text AS b, %(t)s::vector(5)::text AS t, "
                           "(%(b)s::vector(5) <=> %(t)s::vector(5))::float8 AS d, "
                           "vector_dims(%(b)s::vector(5)) AS dims",
                           {"b": finder.embedding_param(VALUES), "t": FULL}).fetchone()
        cur = conn.cursor()
        cur.execute("SELECT %(b)s::vector(5) IS NOT NULL AS ok", {"b": QueryVector(VALUES)})
        sent = cur._query  # the bound parameters as psycopg sent them
    assert row is not None and row["b"] == row["t"] and row["d"] == pytest.approx(0.0, abs=1e-12)
    assert row["dims"] == 5
    assert sent is not None and sent.formats == [psycopg.pq.Format.BINARY]
    assert sent.params is not None and len(sent.params[0] or b"") == 4 + 4 * len(VALUES)


def test_a_batch_of_vectors_is_a_binary_vector_array_on_any_connection(app_db_url: str, owner: str) -> None:
    """finder_embeddings_set's parameter: the type looked up and registered on first use on a connection,
    each vector the one its full text form casts to."""
    for _ in range(2):  # a fresh connection each time: the first use on it registers the type
        with psycopg.connect(app_db_url) as conn:
            for _ in range(2):  # the second use on the same connection reuses the registration
                row = conn.execute("SELECT (%(v)b::vector[])[2]::text AS second, cardinality(%(v)b::vector[]) AS n, "
                                   "%(t)s::vector(5)::text AS t",
                                   {"v": vectors_param(conn, [[1.0, 0, 0, 0, 0], VALUES]), "t": FULL}).fetchone()
                assert row is not None and (row[0], row[1]) == (row[2], 2)


def test_a_connection_without_the_dumper_sends_a_float_array_that_casts_to_the_same_vector(
        db: Database, owner: str) -> None:
    with db.owner_tx(owner, read_only=True) as conn:
        conn.adapters.register_dumper(QueryVector, conn.adapters.get_dumper(list, psycopg.adapt.PyFormat.BINARY))
        row = conn.execute("SELECT %(b)s::vector(5)::text AS b, %(t)s::vector(5)::text AS t",
                           {"b": QueryVector(VALUES), "t": FULL}).fetchone()
    assert row is not None and row["b"] == row["t"]


def test_a_wrong_dimension_is_refused_by_the_cast(db: Database, owner: str) -> None:
    with pytest.raises(Exception, match="expected 4 dimensions, not 5"), \
            db.owner_tx(owner, read_only=True) as conn:
        conn.execute("SELECT %(b)s::vector(4)", {"b": QueryVector(VALUES)})


@pytest.mark.parametrize(("k", "ef"), [(1, EF_MIN), (5, EF_MIN), (LIST_K, EF_PER_RESULT * LIST_K),
                                        (EF_MAX // EF_PER_RESULT, EF_MAX), (1000, EF_MAX)])
def test_ef_search_is_candidates_per_result_between_a_floor_and_a_ceiling(k: int, ef: int) -> None:
    assert ef_search(k) == ef


def test_ef_search_never_falls_below_k_up_to_the_ceiling() -> None:
    """pgvector returns at most ef_search rows per scan pass; k above it relies on the iterative scan."""
    assert all(ef_search(k) >= k for k in range(1, EF_MAX + 1))
    assert EF_MIN <= ef_search(LIST_K) <= EF_MAX


def test_the_set_statement_binds_ef_search_and_reset_keeps_it_to_the_transaction(db: Database,
                                                                                 owner: str) -> None:
    with db.owner_tx(owner, read_only=True) as conn:
        conn.execute(load("finder_set_search"), {"ef": ef_search(LIST_K)})
        inside = conn.execute(EF).fetchone()
        sort = conn.execute("SHOW enable_sort").fetchone()
        conn.execute(load("finder_reset_search"))
        with pytest.raises(psycopg.errors.InvalidTextRepresentation), conn.transaction():
            conn.execute(load("finder_set_search"), {"ef": "160; SET ROLE postgres"})
    with db.owner_tx(owner, read_only=True) as conn:
        after = conn.execute(EF).fetchone()
    assert inside == {"ef": str(ef_search(LIST_K))} and sort == {"enable_sort": "off"}
    assert after is not None and after["ef"] in (None, "", "40")  # unset, or pgvector's default once loaded
