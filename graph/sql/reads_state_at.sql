SELECT f.*, o.ref AS object_ref, s.ref AS scope_ref
FROM facts f
LEFT JOIN entities o ON o.id = f.object_entity_id
LEFT JOIN entities s ON s.id = f.scope_entity_id
WHERE f.owner_sub = wm_owner() AND f.subject_id = %(subject_id)s
  AND f.superseded_at IS NULL AND f.status = 'active'
  AND f.valid @> %(valid_time)s::timestamptz
ORDER BY f.predicate, f.valid_from, f.id
