INSERT INTO entity_merges (merged_id, into_id, previous_status, reason, recorded_at, run_id, event_id)
VALUES (%(merged_id)s, %(into_id)s, %(previous_status)s, %(reason)s, %(at)s, %(run_id)s, %(event_id)s)
RETURNING id
