SELECT f.*, s.ref AS subject_ref, o.ref AS object_ref, sc.ref AS scope_ref
FROM facts f
JOIN entities s ON s.id = f.subject_id
LEFT JOIN entities o ON o.id = f.object_entity_id
LEFT JOIN entities sc ON sc.id = f.scope_entity_id
WHERE f.owner_sub = wm_owner() AND f.caused_by_event_id = ANY(%(ids)s)
ORDER BY f.recorded_at, f.id
LIMIT %(limit)s
