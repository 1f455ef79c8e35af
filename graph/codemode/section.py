"""The code-mode sections of the Known World State (pure): conventions and decisions in effect, each
followed by what it shadows, and the newest build and test results.

A convention scoped to the chain (a repo, project or folder of this chat) is never dropped for the budget,
and neither is the note that it shadows a less specific one: the agent must not follow the shadowed text.
Global ones rank like preferences; build results rank with the repo's specificity, newest first.
"""

from __future__ import annotations

from graph.agent import scopes
from graph.agent.budget import Entry, Section
from graph.agent.render import SEP, fact_line, minute, provenance, value
from graph.codemode.builds import BuildNote
from graph.codemode.conventions import Convention

CONVENTIONS = "Conventions and decisions"
BUILDS = "Build and tests"


def shadow_line(c: Convention) -> list[str]:
    return [f"  - shadows {s.fact.scope or 'global'}: {value(s.fact)}{SEP}{provenance(s.fact)} (not in effect here)"
            for s in c.shadowed]


def build_line(b: BuildNote) -> str:
    parts = [minute(b.occurred_at), f"{b.repo} {b.summary or f'{b.kind} {b.status}'}"]
    if b.suite:
        parts.append(f"suite {b.suite}")
    if b.commit:
        parts.append(f"{b.branch}@{b.commit[:10]}" if b.branch else b.commit[:10])
    elif b.branch:
        parts.append(b.branch)
    return SEP.join(parts)


def codemode_sections(found: list[Convention], runs: list[BuildNote]) -> list[Section]:
    rules: list[Entry] = []
    for c in found:
        f = c.statement.fact
        rank = None if f.scope else (scopes.level(f.scope), f.priority, f.confidence, f.recorded_at.timestamp())
        rules.append(Entry(f"- {fact_line(c.statement)}", rank, c))
        rules += [Entry(line) for line in shadow_line(c)]
    level = scopes.LEVELS["repo"]
    results = [Entry(f"- {build_line(b)}", (level, 0, 1.0, b.occurred_at.timestamp()), b) for b in runs]
    return [(CONVENTIONS, rules), (BUILDS, results)]
