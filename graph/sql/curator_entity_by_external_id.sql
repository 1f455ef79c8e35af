-- An entity of a kind by its external id (a strong identity signal: the curator reuses it, no duplicate).
SELECT id, ref, kind, canonical_name, status, merged_into_id, created_at
FROM entities
WHERE owner_sub = wm_owner() AND kind = %(kind)s AND external_id = %(external_id)s AND status <> 'merged'
ORDER BY created_at
LIMIT 1
