SELECT correlation_id, id FROM world_events
WHERE owner_sub = wm_owner() AND event_type = 'user_message' AND correlation_id LIKE 'run-%%'
ORDER BY random() LIMIT %(n)s
