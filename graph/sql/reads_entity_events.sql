-- reads_entity_events: the latest `limit` events an entity is the target or actor of (depth 0), and the
-- events that directly caused them (depth 1), for the explorer's timeline (cause -> effect). At an instant:
-- only events that had occurred by %(valid_time)s and were recorded by %(system_time)s (NULL = no bound).
-- Columns as causality_events_by_ids, plus depth. Uses world_events_target / world_events_actor (0033).
WITH about AS (
    (SELECT id, occurred_at FROM world_events
     WHERE owner_sub = wm_owner() AND target_entity_id = %(id)s
       AND occurred_at <= coalesce(%(valid_time)s::timestamptz, 'infinity')
       AND recorded_at <= coalesce(%(system_time)s::timestamptz, 'infinity')
     ORDER BY occurred_at DESC LIMIT %(limit)s)
    UNION
    (SELECT id, occurred_at FROM world_events
     WHERE owner_sub = wm_owner() AND actor_entity_id = %(id)s
       AND occurred_at <= coalesce(%(valid_time)s::timestamptz, 'infinity')
       AND recorded_at <= coalesce(%(system_time)s::timestamptz, 'infinity')
     ORDER BY occurred_at DESC LIMIT %(limit)s)
), latest AS (
    SELECT id FROM about ORDER BY occurred_at DESC LIMIT %(limit)s
), picked AS (
    SELECT id, 0 AS depth FROM latest
    UNION
    SELECT w.caused_by_event_id, 1 FROM world_events w
    WHERE w.id IN (SELECT id FROM latest) AND w.caused_by_event_id IS NOT NULL
      AND w.caused_by_event_id NOT IN (SELECT id FROM latest)
)
SELECT w.id, w.event_type, w.occurred_at, w.recorded_at, w.caused_by_event_id, w.correlation_id,
       w.causation_kind, w.intent, w.expected_effect, w.goal_ref, w.intent_outcome, w.run_id, w.summary,
       a.ref AS actor_ref, t.ref AS target_ref, p.depth
FROM picked p
JOIN world_events w ON w.id = p.id AND w.owner_sub = wm_owner()
LEFT JOIN entities a ON a.id = w.actor_entity_id
LEFT JOIN entities t ON t.id = w.target_entity_id
ORDER BY w.occurred_at DESC, w.id
