-- An event by its external ref (unique index world_events_external); the key did not name an id.
SELECT id, occurred_at, correlation_id FROM world_events
WHERE owner_sub = wm_owner() AND external_ref = %(key)s
