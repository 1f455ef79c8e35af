SELECT id, correlation_id, occurred_at, expected_effect FROM world_events
WHERE owner_sub = wm_owner() AND expected_effect IS NOT NULL
ORDER BY random() LIMIT %(n)s
