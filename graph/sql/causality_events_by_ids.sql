SELECT w.id, w.event_type, w.occurred_at, w.recorded_at, w.caused_by_event_id, w.correlation_id,
       w.causation_kind, w.intent, w.expected_effect, w.goal_ref, w.intent_outcome, w.run_id, w.summary,
       a.ref AS actor_ref, t.ref AS target_ref
FROM world_events w
LEFT JOIN entities a ON a.id = w.actor_entity_id
LEFT JOIN entities t ON t.id = w.target_entity_id
WHERE w.owner_sub = wm_owner() AND w.id = ANY(%(ids)s)
