-- Conventions and decisions that may hold in a scope chain (%(chain)s, refs): the believed `convention`
-- and `decision` facts valid at %(at)s that are global (no scope) or scoped to a ref of the chain. The
-- caller resolves them per topic (graph.agent.scopes: the most specific scope wins, the rest is shadowed).
-- Columns: the agent fact row of agent_facts_about.sql plus subject_name and subject_kind.
-- Shape: the owner's current rows of the two predicates first (MATERIALIZED, through the partial index
-- facts_codemode of migration 0058), then subjects and scopes by primary key. Left to itself the planner
-- may start from the owner's entities instead (seen on a small database), which at 100k entities is a
-- scan of all of them.
WITH current AS MATERIALIZED (
    SELECT f.*
    FROM facts f
    WHERE f.owner_sub = wm_owner() AND f.predicate IN ('convention', 'decision') AND wm_believed(f.superseded_at)
      AND f.status = 'active' AND wm_during(f.valid_from, f.valid_to, %(at)s)
    LIMIT 2000
)
SELECT f.id, f.subject_id AS about_id, s.ref AS subject_ref, s.canonical_name AS subject_name,
       s.kind AS subject_kind, f.predicate, f.functional, f.object_kind, f.object_value, NULL::text AS object_ref,
       f.valid_from, f.valid_to, f.recorded_at, f.superseded_at, f.observed_at, f.status, f.source,
       f.confidence, sc.ref AS scope_ref, f.priority, f.memory_type, f.reason, f.evidence,
       f.supersedes_fact_id, f.run_id
FROM current f
JOIN entities s ON s.id = f.subject_id
LEFT JOIN entities sc ON sc.id = f.scope_entity_id
WHERE s.merged_into_id IS NULL AND (f.scope_entity_id IS NULL OR sc.ref = ANY(%(chain)s))
ORDER BY s.ref, f.recorded_at, f.id
LIMIT %(limit)s
