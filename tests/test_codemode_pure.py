"""Code mode's pure parts: the chain with containers, shadowing, the AGENTS.md rendering, the block's lines."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from graph.agent import scopes
from graph.agent.render import Statement
from graph.codemode import agents_md, conventions
from graph.codemode.builds import BuildNote
from graph.codemode.section import build_line, codemode_sections
from graph.reads.temporal import FactView

T = datetime(2026, 11, 30, 12, tzinfo=UTC)


def st(text: str, scope: str | None = None, subject: str = "convention:tests", *, functional: bool = True
       ) -> Statement:
    return Statement(subject=subject, functional=functional, fact=FactView(
        id=uuid.uuid4(), predicate="convention", value=text, valid_from=T, valid_to=None, recorded_at=T,
        superseded_at=None, status="active", source="user", confidence=1.0, scope=scope))


def test_containers_follow_their_ref_nearest_first_once() -> None:
    rows = [{"child": "repo:a", "parent": "project:p", "depth": 2},
            {"child": "repo:a", "parent": "folder:f", "depth": 1},
            {"child": "repo:b", "parent": "folder:f", "depth": 1}]
    assert conventions.expand(["repo:a", "chat:c", "repo:b"], rows) == [
        "repo:a", "folder:f", "project:p", "chat:c", "repo:b"]
    assert conventions.expand(["chat:c"], rows) == ["chat:c"]


def test_the_winner_names_what_it_shadows_most_specific_first() -> None:
    chain = ["repo:a", "project:p"]
    glob, proj, repo, other = st("g"), st("p", "project:p"), st("r", "repo:a"), st("o", "repo:z")
    hidden = scopes.shadowed([glob, other, proj, repo], chain)
    assert list(hidden) == [id(repo)] and hidden[id(repo)] == [proj, glob]  # repo:z does not apply here
    assert scopes.shadowed([glob, proj], ["project:p"]) == {id(proj): [glob]}
    members = [st("x", functional=False), st("y", "repo:a", functional=False)]
    assert scopes.shadowed(members, chain) == {}  # set members are not alternatives


def test_resolved_conventions_most_specific_first_then_kind_and_topic() -> None:
    found = conventions.resolve(
        [st("g2", subject="convention:b"), st("r", "repo:a", "decision:x"), st("g", subject="convention:a"),
         st("p", "project:p", "convention:c")],
        ["repo:a", "project:p"], {"decision:x": ("x", "decision"), "convention:a": ("a", "convention")})
    assert [(c.topic, c.kind) for c in found] == [("decision:x", "decision"), ("convention:c", "convention"),
                                                   ("convention:a", "convention"), ("convention:b", "convention")]


def test_block_lines_keep_scoped_conventions_and_their_shadow_notes() -> None:
    found = conventions.resolve([st("pytest -x"), st("make test", "repo:a")], ["repo:a"], {})
    (title, entries), (builds_title, runs) = codemode_sections(found, [])
    assert title == "Conventions and decisions" and builds_title == "Build and tests" and runs == []
    assert [e.text.split(" · ")[0] for e in entries] == ['- convention:tests convention = "make test"',
                                                         '  - shadows global: "pytest -x"']
    assert all(e.rank is None for e in entries)  # never dropped for the budget
    globals_only = codemode_sections(conventions.resolve([st("pytest -x")], ["repo:a"], {}), [])[0][1]
    assert globals_only[0].rank is not None


def test_build_line() -> None:
    note = BuildNote(id="1", occurred_at=T, repo="repo:a", kind="test", status="failed", suite="unit",
                     commit="0123456789abcdef", branch="main", summary="test failed: 3 of 9 failed")
    assert build_line(note) == "2026-11-30 12:00 · repo:a test failed: 3 of 9 failed · suite unit · main@0123456789"
    bare = BuildNote(id="2", occurred_at=T, repo="repo:a", kind="build", status="passed")
    assert build_line(bare) == "2026-11-30 12:00 · repo:a build passed"


def test_agents_md_without_conventions_says_so_in_the_language() -> None:
    text = agents_md.render("repo:a", "a", [], ["repo:a"], "de", T)
    assert text.startswith("# AGENTS.md — a\n") and "Für repo:a sind keine Konventionen" in text
    assert "(Geltungsbereiche: repo:a > global;" in text and "## " not in text
    english = agents_md.render("repo:a", "a", conventions.resolve([st("use tabs\n  really")], ["repo:a"], {}),
                               ["repo:a"], "en", T)
    assert "## Conventions\n\n- **convention:tests**: use tabs really _(global)_\n" in english  # one line each
