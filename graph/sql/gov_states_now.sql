-- Several entities and what is believed about them at one valid time, in one statement (DataLoader).
SELECT e.ref AS entity_ref, e.kind AS entity_kind, e.canonical_name AS entity_name,
       f.*, o.ref AS object_ref, s.ref AS scope_ref
FROM entities e
LEFT JOIN facts f ON f.owner_sub = e.owner_sub AND f.subject_id = e.id
                 AND wm_believed(f.superseded_at) AND f.status = 'active' AND f.valid @> %(valid_time)s::timestamptz
LEFT JOIN entities o ON o.id = f.object_entity_id
LEFT JOIN entities s ON s.id = f.scope_entity_id
WHERE e.owner_sub = wm_owner() AND e.ref = ANY(%(refs)s)
ORDER BY e.ref, f.predicate, f.valid_from, f.id
