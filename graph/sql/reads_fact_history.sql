-- factHistory(%(ref)s, %(predicate)s) in one statement (issue 11): the ref resolved as believed now without
-- following merges (wm_resolve, migrations/0074: a merged entity's history is its own rows), the series'
-- retention notice rows (wm_notice_series, 0075) and every row ever recorded for (entity, predicate).
-- Columns: outcome and via, entity_id / _ref / _kind / _name, edge / rollups (the series' notice, NULL
-- without a retention edge), then the fact's as reads_state_at.sql (id NULL on the one row of an empty history).
SELECT r.outcome, r.via, r.id AS entity_id, r.ref AS entity_ref, r.kind AS entity_kind,
       r.canonical_name AS entity_name, n.edge, n.rollups,
       f.id, f.predicate, f.functional, f.object_kind, f.object_value, f.object_ref, f.valid_from, f.valid_to,
       f.recorded_at, f.superseded_at, f.observed_at, f.status, f.source, f.confidence, f.scope_ref, f.priority,
       f.memory_type, f.reason, f.evidence, f.supersedes_fact_id, f.run_id
FROM wm_resolve(%(ref)s, NULL, false) r
LEFT JOIN LATERAL wm_notice_series(r.id, %(predicate)s) n ON true
LEFT JOIN LATERAL (
    SELECT f.id, f.predicate, f.functional, f.object_kind, f.object_value, o.ref AS object_ref, f.valid_from,
           f.valid_to, f.recorded_at, f.superseded_at, f.observed_at, f.status, f.source, f.confidence,
           s.ref AS scope_ref, f.priority, f.memory_type, f.reason, f.evidence, f.supersedes_fact_id, f.run_id
    FROM facts f
    LEFT JOIN entities o ON o.id = f.object_entity_id
    LEFT JOIN entities s ON s.id = f.scope_entity_id
    WHERE f.owner_sub = wm_owner() AND f.subject_id = r.id AND f.predicate = %(predicate)s
) f ON true
ORDER BY f.recorded_at, f.valid_from, f.id
