-- The person (followed to its survivor) carrying an external id: a strong identity signal. Columns: id,
-- ref, kind, canonical_name, created_at. Index: entities_external (owner_sub, external_id).
SELECT s.id, s.ref, s.kind, s.canonical_name, s.created_at
FROM entities e
JOIN entities s ON s.owner_sub = wm_owner() AND s.id = wm_survivor(e.id, NULL)
WHERE e.owner_sub = wm_owner() AND e.external_id = %(external_id)s AND e.kind = 'person'
ORDER BY e.created_at, e.id
LIMIT 1
