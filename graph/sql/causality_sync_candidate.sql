-- The latest consequential action on the same external object as a sync (its target entity, or any
-- entity sharing the target's external id) at or before the sync, within the horizon.
WITH same AS (
    SELECT %(target_id)s::uuid AS id
    UNION
    SELECT e.id FROM entities e
    JOIN entities t ON t.owner_sub = e.owner_sub AND t.external_id = e.external_id
    WHERE t.owner_sub = wm_owner() AND t.id = %(target_id)s AND t.external_id IS NOT NULL
)
SELECT w.id, w.occurred_at, w.correlation_id
FROM world_events w
JOIN event_types k ON k.key = w.event_type AND k.consequential
WHERE w.owner_sub = wm_owner() AND w.target_entity_id IN (SELECT id FROM same)
  AND w.occurred_at <= %(at)s AND w.occurred_at >= %(since)s
ORDER BY w.occurred_at DESC
LIMIT 1
