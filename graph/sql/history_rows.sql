-- The believed rows of (subject, predicate) in one scope (NULL: unscoped) whose world time overlaps
-- [%(from)s, %(to)s) (NULL bounds: open), as believed at system time %(system_time)s (NULL = now; the one
-- as-of condition wm_known; pending rows are never beliefs). Columns: id, object_kind,
-- value (the literal, or the object's ref), valid_from, valid_to, recorded_at. Index: facts_subject_history
-- (subject_id, predicate, recorded_at). Latest first, so a truncated answer keeps the most recent rows.
-- The object's ref is a subquery by primary key, evaluated for relationship rows only (a LEFT JOIN let the
-- planner scan the owner's entities per row on a fresh owner).
SELECT f.id, f.object_kind, f.valid_from, f.valid_to, f.recorded_at,
       CASE WHEN f.object_kind = 'entity'
            THEN (SELECT to_jsonb(o.ref) FROM entities o WHERE o.id = f.object_entity_id)
            ELSE f.object_value END AS value
FROM facts f
WHERE f.owner_sub = wm_owner() AND f.subject_id = %(subject_id)s AND f.predicate = %(predicate)s
  AND f.scope_entity_id IS NOT DISTINCT FROM %(scope_id)s::uuid
  AND f.believed AND wm_known(f.recorded_at, f.superseded_at, %(system_time)s::timestamptz)
  AND f.valid && tstzrange(%(from)s::timestamptz, %(to)s::timestamptz, '[)')
ORDER BY f.valid_from DESC, f.id DESC
LIMIT %(limit)s
