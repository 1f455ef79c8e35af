-- The row that answers "why is (subject, predicate) what it is": believed now and valid at %(now)s
-- first, then any believed row, then the latest recorded one (a retracted or invalidated value).
SELECT f.*, s.ref AS subject_ref, o.ref AS object_ref, sc.ref AS scope_ref
FROM facts f
JOIN entities s ON s.id = f.subject_id
LEFT JOIN entities o ON o.id = f.object_entity_id
LEFT JOIN entities sc ON sc.id = f.scope_entity_id
WHERE f.owner_sub = wm_owner() AND f.subject_id = %(subject_id)s AND f.predicate = %(predicate)s
ORDER BY (wm_believed(f.superseded_at) AND f.status = 'active') DESC, f.valid @> %(now)s::timestamptz DESC,
         f.recorded_at DESC, f.valid_from DESC, f.id DESC
LIMIT 1
