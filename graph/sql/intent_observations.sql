-- Values of (targets, predicate) recorded by facts that an action's effects caused: facts caused by
-- the action or anything it caused (direct or trigger links, never inferred ones), or by a later event
-- of the same correlation. Oldest first, so the last row per target is the latest observation.
WITH RECURSIVE tree (id, hops) AS (
    SELECT %(action_id)s::uuid, 0
    UNION ALL
    SELECT e.id, t.hops + 1
    FROM world_events e JOIN tree t ON e.caused_by_event_id = t.id
    WHERE e.owner_sub = wm_owner() AND e.causation_kind IN ('direct', 'trigger') AND t.hops < 16
), linked AS (
    SELECT id FROM tree
    UNION
    SELECT id FROM world_events
    WHERE owner_sub = wm_owner() AND correlation_id = %(correlation_id)s
      AND occurred_at >= %(occurred_at)s AND causation_kind IS DISTINCT FROM 'inferred'
)
SELECT f.subject_id, f.object_kind, f.object_value, o.ref AS object_ref, f.recorded_at, f.valid_from
FROM facts f
LEFT JOIN entities o ON o.id = f.object_entity_id
WHERE f.owner_sub = wm_owner() AND f.subject_id = ANY(%(targets)s) AND f.predicate = %(predicate)s
  AND f.believed AND f.caused_by_event_id IN (SELECT id FROM linked)
ORDER BY f.recorded_at, f.valid_from, f.id
