-- stateAsKnownAt(%(ref)s, %(system_time)s, %(valid_time)s) in one statement (issue 11): the ref resolved as of
-- that system time (wm_resolve, migrations/0074: aliases believed then, merges recorded and not yet split
-- then), the retention notice's rows (wm_notice_as_of, 0075) and what was believed then about that valid
-- time: rows that were beliefs (never pending ones) and known then (wm_known, the one as-of condition: 0015).
-- Columns: as reads_state_at.sql.
SELECT r.outcome, r.via, r.id AS entity_id, r.ref AS entity_ref, r.kind AS entity_kind,
       r.canonical_name AS entity_name, n.edge, n.rolled_up, n.rollups,
       f.id, f.predicate, f.functional, f.object_kind, f.object_value, f.object_ref, f.valid_from, f.valid_to,
       f.recorded_at, f.superseded_at, f.observed_at, f.status, f.source, f.confidence, f.scope_ref, f.priority,
       f.memory_type, f.reason, f.evidence, f.supersedes_fact_id, f.run_id
FROM wm_resolve(%(ref)s, %(system_time)s::timestamptz, true) r
LEFT JOIN LATERAL wm_notice_as_of(r.id, %(valid_time)s::timestamptz) n ON true
LEFT JOIN LATERAL (
    SELECT f.id, f.predicate, f.functional, f.object_kind, f.object_value, o.ref AS object_ref, f.valid_from,
           f.valid_to, f.recorded_at, f.superseded_at, f.observed_at, f.status, f.source, f.confidence,
           s.ref AS scope_ref, f.priority, f.memory_type, f.reason, f.evidence, f.supersedes_fact_id, f.run_id
    FROM facts f
    LEFT JOIN entities o ON o.id = f.object_entity_id
    LEFT JOIN entities s ON s.id = f.scope_entity_id
    WHERE f.owner_sub = wm_owner() AND f.subject_id = r.id
      AND f.believed AND wm_known(f.recorded_at, f.superseded_at, %(system_time)s::timestamptz)
      AND f.valid @> %(valid_time)s::timestamptz
) f ON true
ORDER BY f.predicate, f.valid_from, f.id
