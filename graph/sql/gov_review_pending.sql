-- Pending facts awaiting the owner, each with the active functional value it would replace, if any.
-- Columns: graph/governance/review_rows.py PendingRow.
SELECT f.id, rt.name AS predicate_name, f.object_kind, f.object_value, f.source, f.confidence,
       s.ref AS subject_ref, s.canonical_name AS subject_name,
       o.canonical_name AS object_name, sc.ref AS scope_ref,
       c.id AS conflict_id, c.object_kind AS conflict_kind, c.object_value AS conflict_value,
       co.canonical_name AS conflict_object_name
FROM facts f
JOIN entities s ON s.id = f.subject_id
JOIN relation_types rt ON rt.key = f.predicate
LEFT JOIN entities o ON o.id = f.object_entity_id
LEFT JOIN entities sc ON sc.id = f.scope_entity_id
LEFT JOIN LATERAL (
    SELECT a.id, a.object_kind, a.object_value, a.object_entity_id
    FROM facts a
    WHERE a.owner_sub = f.owner_sub AND a.subject_id = f.subject_id AND a.predicate = f.predicate
      AND a.scope_entity_id IS NOT DISTINCT FROM f.scope_entity_id
      AND wm_believed(a.superseded_at) AND a.status = 'active' AND a.functional AND a.valid && f.valid
      AND (a.object_kind, a.object_value, a.object_entity_id)
          IS DISTINCT FROM (f.object_kind, f.object_value, f.object_entity_id)
    ORDER BY a.valid_from DESC
    LIMIT 1
) c ON true
LEFT JOIN entities co ON co.id = c.object_entity_id
WHERE f.owner_sub = wm_owner() AND f.status = 'pending' AND wm_believed(f.superseded_at)
ORDER BY f.recorded_at, f.id
LIMIT %(limit)s
