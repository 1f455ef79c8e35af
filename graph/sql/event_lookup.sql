SELECT id, occurred_at, correlation_id FROM world_events
WHERE owner_sub = wm_owner() AND (id::text = %(key)s OR external_ref = %(key)s)
LIMIT 1
