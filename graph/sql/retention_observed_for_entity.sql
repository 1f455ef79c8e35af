-- retention_observed_for_entity: the latest observations about an entity (still in the window or not yet
-- dropped). Columns: id, event_type, occurred_at, recorded_at, source, summary, payload.
-- Index: observed_events_target.
SELECT id, event_type, occurred_at, recorded_at, source, summary, payload
FROM observed_events
WHERE owner_sub = wm_owner() AND target_entity_id = %(id)s
ORDER BY occurred_at DESC, id
LIMIT %(limit)s
