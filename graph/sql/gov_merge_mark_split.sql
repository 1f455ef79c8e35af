UPDATE entity_merges SET split_at = %(at)s, split_run_id = %(run_id)s, split_event_id = %(event_id)s
WHERE owner_sub = wm_owner() AND id = %(id)s AND split_at IS NULL
RETURNING id
