SELECT caused_by_event_id::text AS cause, id::text AS effect, owner_sub AS owner
FROM world_events WHERE caused_by_event_id IS NOT NULL
