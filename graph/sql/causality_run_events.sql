-- The events of a run: those correlated with it and those its proposals recorded.
SELECT id, caused_by_event_id FROM world_events
WHERE owner_sub = wm_owner() AND correlation_id = %(run_id)s
UNION
SELECT id, caused_by_event_id FROM world_events
WHERE owner_sub = wm_owner() AND run_id = %(run_id)s
