-- stateAt(%(ref)s, %(valid_time)s) in one statement (issue 11: one statement per read after the owner): the ref
-- resolved as believed now (wm_resolve, migrations/0074, following merges), the retention notice's rows
-- (wm_notice_as_of, 0075) and what is believed now about that valid time.
-- Columns: outcome and via (wm_resolve's), entity_id / _ref / _kind / _name (NULL unless found), edge /
-- rolled_up / rollups (NULL without a retention edge), then the fact's: what FactView.from_row and the agent's
-- Statement read, nothing more (id NULL on the one row of an entity without facts, or of a ref not found).
-- Index: facts (owner_sub, subject_id, ...) by the resolved id, a nested loop over one row.
SELECT r.outcome, r.via, r.id AS entity_id, r.ref AS entity_ref, r.kind AS entity_kind,
       r.canonical_name AS entity_name, n.edge, n.rolled_up, n.rollups,
       f.id, f.predicate, f.functional, f.object_kind, f.object_value, f.object_ref, f.valid_from, f.valid_to,
       f.recorded_at, f.superseded_at, f.observed_at, f.status, f.source, f.confidence, f.scope_ref, f.priority,
       f.memory_type, f.reason, f.evidence, f.supersedes_fact_id, f.run_id
FROM wm_resolve(%(ref)s, NULL, true) r
LEFT JOIN LATERAL wm_notice_as_of(r.id, %(valid_time)s::timestamptz) n ON true
LEFT JOIN LATERAL (
    SELECT f.id, f.predicate, f.functional, f.object_kind, f.object_value, o.ref AS object_ref, f.valid_from,
           f.valid_to, f.recorded_at, f.superseded_at, f.observed_at, f.status, f.source, f.confidence,
           s.ref AS scope_ref, f.priority, f.memory_type, f.reason, f.evidence, f.supersedes_fact_id, f.run_id
    FROM facts f
    LEFT JOIN entities o ON o.id = f.object_entity_id
    LEFT JOIN entities s ON s.id = f.scope_entity_id
    WHERE f.owner_sub = wm_owner() AND f.subject_id = r.id
      AND f.superseded_at IS NULL AND f.status = 'active'
      AND f.valid @> %(valid_time)s::timestamptz
) f ON true
ORDER BY f.predicate, f.valid_from, f.id
