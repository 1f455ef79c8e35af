-- Values of (targets, predicate) that an action's effects observed, oldest first (so the last row per
-- target is the latest observation). Linked events: the action's descendants over direct or trigger links
-- (never inferred ones), and later events of the same correlation that are not inferred.
-- 1. facts caused by a linked event (subject = the target);
-- 2. linked events that carry the observation convention in their payload, {"target": ref, "predicate": p,
--    "value": v} (target defaults to the event's target), when they have a cause over a direct or trigger
--    link, are of an observing type (%(event_types)s) and are not the action itself. Their target ref is
--    resolved by the caller. At the same system and world time a fact is the later (deciding) observation.
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
SELECT * FROM (
    SELECT f.id, f.subject_id, NULL::text AS target_ref, f.object_kind, f.object_value, o.ref AS object_ref,
           f.recorded_at, f.valid_from AS observed_at, 1 AS precedence
    FROM facts f
    LEFT JOIN entities o ON o.id = f.object_entity_id
    WHERE f.owner_sub = wm_owner() AND f.subject_id = ANY(%(targets)s) AND f.predicate = %(predicate)s
      AND f.believed AND f.caused_by_event_id IN (SELECT id FROM linked)
    UNION ALL
    SELECT e.id, e.target_entity_id, e.payload ->> 'target', 'literal', e.payload -> 'value', NULL,
           e.recorded_at, e.occurred_at, 0
    FROM world_events e
    WHERE e.owner_sub = wm_owner() AND e.id IN (SELECT id FROM linked) AND e.id <> %(action_id)s::uuid
      AND e.caused_by_event_id IS NOT NULL AND e.causation_kind IN ('direct', 'trigger')
      AND e.event_type = ANY(%(event_types)s)
      AND e.payload ->> 'predicate' = %(predicate)s AND e.payload ? 'value'
) observed
ORDER BY recorded_at, observed_at, precedence, id
