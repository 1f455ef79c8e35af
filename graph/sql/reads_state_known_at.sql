-- What was believed at system time %(system_time)s about valid time %(valid_time)s: rows that were
-- beliefs (never pending ones) and known then (wm_known, the one as-of condition: migrations/0015).
SELECT f.*, o.ref AS object_ref, s.ref AS scope_ref
FROM facts f
LEFT JOIN entities o ON o.id = f.object_entity_id
LEFT JOIN entities s ON s.id = f.scope_entity_id
WHERE f.owner_sub = wm_owner() AND f.subject_id = %(subject_id)s
  AND f.believed AND wm_known(f.recorded_at, f.superseded_at, %(system_time)s::timestamptz)
  AND f.valid @> %(valid_time)s::timestamptz
ORDER BY f.predicate, f.valid_from, f.id
