-- Entities named by an alias believed at system time %(system_time)s (now when NULL); two are enough
-- to know it is ambiguous.
SELECT DISTINCT e.id, e.ref, e.kind, e.canonical_name, e.status, e.merged_into_id, e.created_at
FROM entity_aliases a JOIN entities e ON e.id = a.entity_id
WHERE a.owner_sub = wm_owner() AND a.alias_norm = lower(%(alias)s)
  AND wm_known(a.recorded_at, a.superseded_at, %(system_time)s::timestamptz)
LIMIT 2
