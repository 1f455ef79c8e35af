"""Lists of text sent as one array literal (graph/platform/arrays.text_array) come back as the same text[]."""

from __future__ import annotations

from graph.finder.query_names import name_forms
from graph.platform.arrays import text_array
from graph.platform.db import Database


def test_postgres_reads_the_literal_back_as_the_same_list(db: Database) -> None:
    forms = name_forms("Omas Geburtstag in Köln, Luna's Futter und die Straße")
    odd = ['say "hi"', "back\\slash", "", "{braces}, commas", "NULL", " spaced ", "line\nbreak", "ünïcødé 🙂"]
    with db.connection() as conn:
        for sent in (forms, odd, [], [f"person:import-{i}" for i in range(1000)]):
            row = conn.execute("SELECT %s::text[] AS a", (text_array(sent),)).fetchone()
            assert row is not None and row["a"] == sent


def test_it_takes_any_iterable_of_text() -> None:
    assert text_array(x for x in ("a", "b")) == '{"a","b"}' and text_array(()) == "{}"
