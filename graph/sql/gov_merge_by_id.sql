SELECT id, merged_id, into_id, previous_status, reason, recorded_at, run_id, event_id, split_at, split_run_id,
       split_event_id
FROM entity_merges
WHERE owner_sub = wm_owner() AND id = %(id)s
FOR UPDATE
