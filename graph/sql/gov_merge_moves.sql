SELECT item, old_id, new_id FROM entity_merge_moves
WHERE owner_sub = wm_owner() AND merge_id = %(merge_id)s
