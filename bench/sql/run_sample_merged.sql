SELECT id, merged_into_id FROM entities WHERE owner_sub = wm_owner() AND status = 'merged' LIMIT %(n)s
