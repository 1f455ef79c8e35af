-- Current beliefs about a batch of entities: their own facts (subjects in %(ids)s) and the relationships
-- that point at the entities in %(incoming_ids)s, active and valid at %(at)s. Pending rows are never read.
(SELECT f.id, f.subject_id AS about_id, s.ref AS subject_ref, f.predicate, f.functional, f.object_kind,
        f.object_value, o.ref AS object_ref, f.valid_from, f.valid_to, f.recorded_at, f.superseded_at,
        f.observed_at, f.status, f.source, f.confidence, sc.ref AS scope_ref, f.priority, f.memory_type,
        f.reason, f.evidence, f.supersedes_fact_id, f.run_id
 FROM facts f
 JOIN entities s ON s.id = f.subject_id
 LEFT JOIN entities o ON o.id = f.object_entity_id
 LEFT JOIN entities sc ON sc.id = f.scope_entity_id
 WHERE f.owner_sub = wm_owner() AND f.subject_id = ANY(%(ids)s)
   AND wm_believed(f.superseded_at) AND f.status = 'active' AND f.valid @> %(at)s::timestamptz
 ORDER BY f.subject_id, f.predicate, f.valid_from, f.id
 LIMIT %(limit)s)
UNION ALL
(SELECT f.id, f.object_entity_id, s.ref, f.predicate, f.functional, f.object_kind,
        f.object_value, o.ref, f.valid_from, f.valid_to, f.recorded_at, f.superseded_at,
        f.observed_at, f.status, f.source, f.confidence, sc.ref, f.priority, f.memory_type,
        f.reason, f.evidence, f.supersedes_fact_id, f.run_id
 FROM facts f
 JOIN entities s ON s.id = f.subject_id
 JOIN entities o ON o.id = f.object_entity_id
 LEFT JOIN entities sc ON sc.id = f.scope_entity_id
 WHERE f.owner_sub = wm_owner() AND f.object_entity_id = ANY(%(incoming_ids)s)
   AND wm_believed(f.superseded_at) AND f.status = 'active' AND f.valid @> %(at)s::timestamptz
 ORDER BY f.object_entity_id, f.predicate, f.valid_from, f.id
 LIMIT %(limit)s)
