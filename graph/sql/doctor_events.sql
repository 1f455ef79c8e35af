SELECT id::text AS id, owner_sub AS owner, event_type FROM world_events
