-- getEntity(ref, validTime, systemTime)'s aliases of entity %(id)s: valid at %(valid_time)s (wm_during) and
-- believed at %(system_time)s (wm_known; NULL = now), as one array like wm_entity_aliases (NULL for none).
-- Columns: aliases (text[]). Index: entity_aliases_entity (entity_id).
SELECT array_agg(a.alias ORDER BY a.namespace, a.alias) AS aliases
FROM entity_aliases a
WHERE a.owner_sub = wm_owner() AND a.entity_id = %(id)s
  AND wm_known(a.recorded_at, a.superseded_at, %(system_time)s::timestamptz)
  AND wm_during(a.valid_from, a.valid_to, %(valid_time)s::timestamptz)
