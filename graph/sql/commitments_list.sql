-- The owner's commitments (active entities of the kinds %(kinds)s) with what is believed now about world
-- time %(at)s: the unscoped `status` and `due` values and every `blocked_by` object with its own status.
-- Columns: id, ref, name, status (jsonb or NULL), due (jsonb or NULL), blockers (jsonb array of
-- {ref, name, status}). Each lateral reads the owner's current facts by facts_current
-- (owner_sub, subject_id, predicate).
SELECT e.id, e.ref, e.canonical_name AS name, st.value AS status, du.value AS due,
       coalesce(bl.blockers, '[]'::jsonb) AS blockers
FROM entities e
LEFT JOIN LATERAL (
    SELECT f.object_value AS value FROM facts f
    WHERE f.owner_sub = wm_owner() AND f.subject_id = e.id AND f.predicate = 'status'
      AND f.superseded_at IS NULL AND f.status = 'active' AND f.scope_entity_id IS NULL
      AND f.valid @> %(at)s::timestamptz
    LIMIT 1
) st ON true
LEFT JOIN LATERAL (
    SELECT f.object_value AS value FROM facts f
    WHERE f.owner_sub = wm_owner() AND f.subject_id = e.id AND f.predicate = 'due'
      AND f.superseded_at IS NULL AND f.status = 'active' AND f.scope_entity_id IS NULL
      AND f.valid @> %(at)s::timestamptz
    LIMIT 1
) du ON true
LEFT JOIN LATERAL (
    SELECT jsonb_agg(jsonb_build_object('ref', o.ref, 'name', o.canonical_name, 'status', os.value)
                     ORDER BY o.ref) AS blockers
    FROM facts r
    JOIN entities o ON o.id = r.object_entity_id
    LEFT JOIN LATERAL (
        SELECT g.object_value AS value FROM facts g
        WHERE g.owner_sub = wm_owner() AND g.subject_id = o.id AND g.predicate = 'status'
          AND g.superseded_at IS NULL AND g.status = 'active' AND g.scope_entity_id IS NULL
          AND g.valid @> %(at)s::timestamptz
        LIMIT 1
    ) os ON true
    WHERE r.owner_sub = wm_owner() AND r.subject_id = e.id AND r.predicate = 'blocked_by'
      AND r.superseded_at IS NULL AND r.status = 'active' AND r.valid @> %(at)s::timestamptz
) bl ON true
WHERE e.owner_sub = wm_owner() AND e.kind = ANY(%(kinds)s) AND e.status = 'active'
ORDER BY e.ref
LIMIT %(limit)s
