SELECT payload_hash, result, recorded_at FROM proposals WHERE owner_sub = wm_owner() AND run_id = %(run_id)s
