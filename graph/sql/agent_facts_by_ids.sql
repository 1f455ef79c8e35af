-- Fact rows by id (e.g. the relationships a traversal met), for their provenance. Any status: the
-- caller asked for these rows; pending ones are left out all the same.
SELECT f.id, f.subject_id AS about_id, s.ref AS subject_ref, f.predicate, f.functional, f.object_kind,
       f.object_value, o.ref AS object_ref, f.valid_from, f.valid_to, f.recorded_at, f.superseded_at,
       f.observed_at, f.status, f.source, f.confidence, sc.ref AS scope_ref, f.priority, f.memory_type,
       f.reason, f.evidence, f.supersedes_fact_id, f.run_id
FROM facts f
JOIN entities s ON s.id = f.subject_id
LEFT JOIN entities o ON o.id = f.object_entity_id
LEFT JOIN entities sc ON sc.id = f.scope_entity_id
WHERE f.owner_sub = wm_owner() AND f.id = ANY(%(ids)s) AND f.status NOT IN ('pending', 'proposed')
