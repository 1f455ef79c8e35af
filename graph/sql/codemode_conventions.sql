-- Conventions and decisions that may hold in a scope chain (%(chain)s, refs): the believed `convention`
-- and `decision` facts valid at %(at)s that are global (no scope) or scoped to a ref of the chain. The
-- caller resolves them per topic (graph.agent.scopes: the most specific scope wins, the rest is shadowed).
-- Columns: the agent fact row of agent_facts_about.sql plus subject_name and subject_kind.
-- Index: facts_codemode (migration 0058), a partial index on the two predicates' current rows.
SELECT f.id, f.subject_id AS about_id, s.ref AS subject_ref, s.canonical_name AS subject_name,
       s.kind AS subject_kind, f.predicate, f.functional, f.object_kind, f.object_value, NULL::text AS object_ref,
       f.valid_from, f.valid_to, f.recorded_at, f.superseded_at, f.observed_at, f.status, f.source,
       f.confidence, sc.ref AS scope_ref, f.priority, f.memory_type, f.reason, f.evidence,
       f.supersedes_fact_id, f.run_id
FROM facts f
JOIN entities s ON s.id = f.subject_id
LEFT JOIN entities sc ON sc.id = f.scope_entity_id
WHERE f.owner_sub = wm_owner() AND f.predicate IN ('convention', 'decision')
  AND f.superseded_at IS NULL AND f.status = 'active' AND f.valid @> %(at)s::timestamptz
  AND s.merged_into_id IS NULL
  AND (f.scope_entity_id IS NULL OR sc.ref = ANY(%(chain)s))
ORDER BY s.ref, f.recorded_at, f.id
LIMIT %(limit)s
