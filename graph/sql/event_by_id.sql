-- An event by its id (primary key lookup); events.lookup tries this when the key parses as a UUID.
SELECT id, occurred_at, correlation_id FROM world_events
WHERE owner_sub = wm_owner() AND id = %(id)s
