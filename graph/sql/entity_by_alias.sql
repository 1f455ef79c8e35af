SELECT DISTINCT e.id, e.ref, e.kind, e.canonical_name, e.status, e.merged_into_id, e.created_at
FROM entity_aliases a JOIN entities e ON e.id = a.entity_id
WHERE a.owner_sub = wm_owner() AND a.alias_norm = lower(%(alias)s) AND a.superseded_at IS NULL
LIMIT 2
