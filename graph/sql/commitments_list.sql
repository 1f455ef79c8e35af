-- The owner's commitments (active entities of the kinds %(kinds)s) with what is believed now about world
-- time %(at)s: the unscoped `status` and `due` values and every `blocked_by` object with its own status;
-- only those whose status (lower case, trimmed; none or not a string = 'open', as commitments.status_of)
-- is %(status)s (NULL: any) and, with %(open_only)s, not one of %(closed)s. Columns: id, ref, name,
-- status (jsonb or NULL), due (jsonb or NULL), blockers (jsonb array of {ref, name, status}). Each lateral
-- reads current facts by facts_subject_history (subject_id, predicate, ...).
SELECT c.id, c.ref, c.name, c.status, c.due, c.blockers
FROM (
SELECT e.id, e.ref, e.canonical_name AS name, st.value AS status, du.value AS due,
       coalesce(bl.blockers, '[]'::jsonb) AS blockers,
       coalesce(CASE WHEN jsonb_typeof(st.value) = 'string' THEN nullif(lower(btrim(st.value #>> '{}')), '') END,
                'open') AS status_text
FROM entities e
LEFT JOIN LATERAL (
    SELECT f.object_value AS value FROM facts f
    WHERE f.owner_sub = wm_owner() AND f.subject_id = e.id AND f.predicate = 'status'
      AND wm_believed(f.superseded_at) AND f.status = 'active' AND f.scope_entity_id IS NULL
      AND f.valid @> %(at)s::timestamptz
    LIMIT 1
) st ON true
LEFT JOIN LATERAL (
    SELECT f.object_value AS value FROM facts f
    WHERE f.owner_sub = wm_owner() AND f.subject_id = e.id AND f.predicate = 'due'
      AND wm_believed(f.superseded_at) AND f.status = 'active' AND f.scope_entity_id IS NULL
      AND f.valid @> %(at)s::timestamptz
    LIMIT 1
) du ON true
LEFT JOIN LATERAL (
    -- Driven from the task's own blocked_by rows (facts_current), then each object by its primary key: a
    -- plain join let the planner scan every entity per task on a fresh owner (measured in bench.domains_bench).
    SELECT jsonb_agg(jsonb_build_object('ref', o.ref, 'name', o.name, 'status', os.value) ORDER BY o.ref) AS blockers
    FROM facts r
    CROSS JOIN LATERAL (
        SELECT x.id, x.ref, x.canonical_name AS name FROM entities x WHERE x.id = r.object_entity_id LIMIT 1
    ) o
    LEFT JOIN LATERAL (
        SELECT g.object_value AS value FROM facts g
        WHERE g.owner_sub = wm_owner() AND g.subject_id = o.id AND g.predicate = 'status'
          AND wm_believed(g.superseded_at) AND g.status = 'active' AND g.scope_entity_id IS NULL
          AND g.valid @> %(at)s::timestamptz
        LIMIT 1
    ) os ON true
    WHERE r.owner_sub = wm_owner() AND r.subject_id = e.id AND r.predicate = 'blocked_by'
      AND wm_believed(r.superseded_at) AND r.status = 'active' AND r.valid @> %(at)s::timestamptz
) bl ON true
WHERE e.owner_sub = wm_owner() AND e.kind = ANY(%(kinds)s) AND e.status = 'active'
) c
WHERE (%(status)s::text IS NULL OR c.status_text = %(status)s::text)
  AND (NOT %(open_only)s OR c.status_text <> ALL(%(closed)s::text[]))
ORDER BY c.ref
LIMIT %(limit)s
