-- The name and description of entity %(id)s as known at %(system_time)s (NULL = now): the kept row of
-- entity_descriptions (migrations/0120) that was known then, else what the entity says now.
-- Columns: name, description. Index: entity_descriptions_entity (owner_sub, entity_id, superseded_at).
SELECT coalesce(d.canonical_name, e.canonical_name) AS name,
       CASE WHEN d.entity_id IS NULL THEN e.description ELSE d.description END AS description
FROM entities e
LEFT JOIN LATERAL (
    SELECT k.entity_id, k.canonical_name, k.description FROM entity_descriptions k
    WHERE k.owner_sub = e.owner_sub AND k.entity_id = e.id
      AND %(system_time)s::timestamptz IS NOT NULL AND k.superseded_at > %(system_time)s::timestamptz
    ORDER BY k.superseded_at
    LIMIT 1
) d ON true
WHERE e.owner_sub = wm_owner() AND e.id = %(id)s
