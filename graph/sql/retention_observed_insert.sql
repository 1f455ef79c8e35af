-- retention_observed_insert: one observation, only of an event type whose registry class is windowed
-- (no row returned otherwise). Columns: id.
INSERT INTO observed_events (event_type, occurred_at, target_entity_id, source, external_ref, payload, summary)
SELECT t.key, %(occurred_at)s, %(target_entity_id)s, %(source)s, %(external_ref)s, %(payload)s, %(summary)s
FROM event_types t
WHERE t.key = %(event_type)s AND t.retention_class = 'windowed'
RETURNING id
