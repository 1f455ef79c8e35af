-- transfer_mirror_events: the owner's world events as graph.age.mirror stores their vertices, and their cause.
-- Columns: id, event_type, occurred_at, correlation_id, summary, cause, kind.
SELECT id::text AS id, event_type, occurred_at, correlation_id, summary, caused_by_event_id::text AS cause,
       coalesce(causation_kind, 'direct') AS kind
FROM world_events ORDER BY recorded_at, id
